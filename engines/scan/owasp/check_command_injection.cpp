// OS command injection, time-based (A03:2021, CWE-78): shell separators and `sleep N` appended to
// the value. The answer must come at least N seconds (90%) later than the slowest unmodified one,
// then again with 2N, and the unmodified request must still be fast afterwards — a slow or busy
// server does not pass all three.
#include "engines/limits.hpp"
#include "engines/scan/owasp/checks.hpp"

namespace dozor::owasp {

namespace {
constexpr FindingText kText{
    "owasp-command-injection",
    "OS command injection (time-based)",
    audit::Severity::Critical,
    "A03:2021",
    78,
    "The parameter reaches a shell: a command appended after a separator runs on the server (here `sleep`, which "
    "delayed the answer by the requested time). An attacker can run any command as the web server's user.",
    "Do not pass input to a shell: call programs with an argument vector (execve, subprocess without shell=True) "
    "and validate the value against a strict allow-list."};
constexpr const char* kSeparators[] = {";", "|", "$("};

std::string payload(const std::string& value, const std::string& sep, int seconds) {
  return value + sep + "sleep " + std::to_string(seconds) + (sep == "$(" ? ")" : "");
}
}  // namespace

void check_command_injection(Scan& scan, const Point& point, const Baseline& base) {
  const int n = limits::owasp::kSleepSeconds;
  auto late_by = [&](const net::CheckOutcome& a, int seconds) {
    return a.responded && a.total_ms >= base.slowest_ms() + static_cast<std::int64_t>(seconds) * 900;
  };
  for (const std::string sep : kSeparators) {
    auto r1 = get_request(point.with(payload(point.value(), sep, n)));
    auto a1 = scan.prober.send(r1);
    if (!a1) return;
    if (!late_by(*a1, n)) continue;
    auto r2 = get_request(point.with(payload(point.value(), sep, 2 * n)));
    auto a2 = scan.prober.send(r2);
    if (!a2) return;
    if (!late_by(*a2, 2 * n)) continue;
    auto r3 = get_request(point.original());
    auto a3 = scan.prober.send(r3);
    if (!a3) return;
    if (late_by(*a3, 1)) continue;  // the server is just slow now
    auto f = make_finding(kText, "firm", where_of(point));
    auto note = [&](int s, const net::CheckOutcome& a) {
      return "sleep " + std::to_string(s) + ": answered after " + std::to_string(a.total_ms) +
             " ms; the unmodified request took at most " + std::to_string(std::max(base.slowest_ms(), a3->total_ms)) +
             " ms";
    };
    f.evidence.push_back(evidence_of(r1, *a1, std::to_string(a1->total_ms) + " ms", note(n, *a1)));
    f.evidence.push_back(evidence_of(r2, *a2, std::to_string(a2->total_ms) + " ms", note(2 * n, *a2)));
    scan.findings.push_back(std::move(f));
    return;
  }
}

}  // namespace dozor::owasp
