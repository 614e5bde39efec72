// SQL injection, error-based (A03:2021, CWE-89): a lone quote in the value; the answer holds a
// database error text (share/audit/owasp/sql_errors.json) that the unmodified answer does not.
#include "engines/limits.hpp"
#include "engines/scan/owasp/checks.hpp"
#include "engines/scan/owasp/replay.hpp"

namespace dozor::owasp {

namespace {
constexpr FindingText kText{
    "owasp-sqli-error",
    "SQL injection (error-based)",
    audit::Severity::High,
    "A03:2021",
    89,
    "A quote in the parameter breaks the SQL statement it is pasted into: the answer shows the database's syntax "
    "error. An attacker can read or change the database through this parameter.",
    "Use prepared statements with bound parameters for every query; never build SQL by concatenating input. "
    "Do not show database errors to visitors."};
}  // namespace

bool check_sqli_error(Scan& scan, const Point& point, const Baseline& base) {
  if (scan.sql.match(base.first.body) || scan.sql.match(base.second.body)) return false;  // errors on every answer
  for (const char* suffix : {"'", "\""}) {
    auto request = point.request(point.value() + suffix);
    auto answer = scan.prober.send(request);
    if (!answer) return false;
    auto m = scan.sql.match(answer->body);
    if (!m) continue;
    auto f = make_finding(kText, "firm", where_of(point));
    f.description += " Database: " + m->dbms + ".";
    f.evidence.push_back(evidence_of(
        request, *answer, excerpt_around(answer->body, m->offset, m->matched.size(), limits::owasp::kExcerptChars),
        std::string("Appending ") + suffix + " to the value made the answer show a " + m->dbms + " error (\"" +
            m->matched + "\"); the unmodified request does not."));
    scan.findings.push_back(std::move(f));
    return true;
  }
  return false;
}

}  // namespace dozor::owasp
