// CORS misconfiguration (A01:2021, CWE-942): a page asked with an Origin of a host that cannot
// exist; the answer allows exactly that origin with credentials, so any site may read what the
// visitor's cookies unlock. One finding per site.
#include "engines/scan/owasp/checks.hpp"
#include "engines/scan/owasp/replay.hpp"

namespace dozor::owasp {

namespace {
constexpr FindingText kText{
    "owasp-cors-reflected-origin",
    "CORS allows any origin with credentials",
    audit::Severity::High,
    "A01:2021",
    942,
    "The site copies the request's Origin into Access-Control-Allow-Origin and allows credentials: a page on any "
    "other site can make the visitor's browser send requests with their cookies and read the answers.",
    "Answer CORS requests only for an explicit allow-list of trusted origins; never reflect the Origin header, and "
    "allow credentials only for origins that need them."};
}  // namespace

void check_cors(Scan& scan, const std::vector<std::string>& urls) {
  for (const auto& url : urls) {
    std::string origin = "https://" + make_canary() + ".cors.dozor.invalid";
    auto request = get_request(url, 0);
    request.headers.push_back("Origin: " + origin);
    auto answer = scan.prober.send(request);
    if (!answer) return;
    if (answer->exchanges.empty()) continue;
    const auto& headers = answer->exchanges.back().response_headers;
    auto allow = net::first_header(headers, "access-control-allow-origin");
    auto credentials = net::first_header(headers, "access-control-allow-credentials");
    if (!allow || *allow != origin || !credentials || *credentials != "true") continue;
    auto f = make_finding(kText, "certain", url);
    f.title = kText.title;
    f.evidence.push_back(evidence_of(
        request, *answer, "Access-Control-Allow-Origin: " + *allow + "\nAccess-Control-Allow-Credentials: true",
        "The answer allows the origin sent in the request, which no site owns."));
    scan.findings.push_back(std::move(f));
    return;
  }
}

}  // namespace dozor::owasp
