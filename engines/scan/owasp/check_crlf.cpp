// CRLF / HTTP header injection (A03:2021, CWE-113): CR LF and a header line of ours in the value;
// the answer must carry that header with the canary.
#include "engines/scan/owasp/checks.hpp"
#include "engines/scan/owasp/replay.hpp"

namespace dozor::owasp {

namespace {
constexpr FindingText kText{
    "owasp-crlf-injection",
    "HTTP header injection (CRLF)",
    audit::Severity::Medium,
    "A03:2021",
    113,
    "Carriage return and line feed in the parameter end the current response header and start a new one: an "
    "attacker can set cookies, split the response or inject content.",
    "Never copy input into response headers unencoded: refuse or strip CR and LF (the framework's header API "
    "usually does), and percent-encode values put into Location or Set-Cookie."};
constexpr const char* kHeader = "x-dozor-crlf";
}  // namespace

void check_crlf(Scan& scan, const Point& point) {
  auto canary = make_canary();
  auto request = point.request(point.value() + "\r\nX-Dozor-Crlf: " + canary);
  auto answer = scan.prober.send(request);
  if (!answer || answer->exchanges.empty()) return;
  for (const auto& value : net::header_values(answer->exchanges.back().response_headers, kHeader)) {
    if (value.find(canary) == std::string::npos) continue;
    auto f = make_finding(kText, "certain", where_of(point));
    f.evidence.push_back(evidence_of(request, *answer, "X-Dozor-Crlf: " + value,
                                     "The answer carries the header sent after CR LF in the parameter."));
    scan.findings.push_back(std::move(f));
    return;
  }
}

}  // namespace dozor::owasp
