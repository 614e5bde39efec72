// SQL injection, time-based blind (A03:2021, CWE-89): a delay function of the common DBMSs in a
// string and a numeric context; proven with the statistics of engines/scan/owasp/timing.hpp. It
// runs where the error- and boolean-based checks saw nothing: a page that answers alike whatever
// the query returns, errors swallowed.
#include "engines/scan/owasp/checks.hpp"
#include "engines/scan/owasp/timing.hpp"

namespace dozor::owasp {

namespace {
constexpr FindingText kText{
    "owasp-sqli-time",
    "SQL injection (time-based blind)",
    audit::Severity::High,
    "A03:2021",
    89,
    "The parameter is pasted into an SQL statement: a delay function appended to it made the database wait the "
    "requested time although the page shows nothing. An attacker can read the database bit by bit through timing.",
    "Use prepared statements with bound parameters for every query; never build SQL by concatenating input."};

struct Form {
  const char* dbms;
  const char* before;  // appended to the value, then the seconds, then `after`
  const char* after;
  bool numeric = false;  // only for a value that is a number (a quoted one would not parse)
};
// The derived table makes MySQL (and SQLite with a SLEEP function) wait once, not once per row.
constexpr Form kForms[] = {
    {"MySQL", "' AND (SELECT 1 FROM (SELECT SLEEP(", "))x) AND '1'='1"},
    {"MySQL", " AND (SELECT 1 FROM (SELECT SLEEP(", "))x)", true},
    {"PostgreSQL", "' AND 1=(SELECT 1 FROM PG_SLEEP(", ")) AND '1'='1"},
    {"SQL Server", "';WAITFOR DELAY '0:0:", "'--"},
};
}  // namespace

void check_sqli_time(Scan& scan, const Point& point, const Baseline& base) {
  const auto& v = point.value();
  bool number = !v.empty() && v.find_first_not_of("0123456789") == std::string::npos;
  for (const auto& form : kForms) {
    if (form.numeric && !number) continue;
    DelayProof proof;
    auto delay = prove_delay(
        scan, point, base, [&](int s) { return point.value() + form.before + std::to_string(s) + form.after; }, proof);
    if (delay == Delay::Stopped) return;
    if (delay == Delay::NotShown) continue;
    auto f = make_finding(kText, "firm", where_of(point));
    f.description += std::string(" Delay syntax: ") + form.dbms + ".";
    add_delay_evidence(f, proof, "delay");
    scan.findings.push_back(std::move(f));
    return;
  }
}

}  // namespace dozor::owasp
