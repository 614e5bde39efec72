// Open redirect (A01:2021, CWE-601): the value replaced by a URL of a host of ours that cannot
// exist (RFC 2606 .invalid); the answer is a 3xx whose Location leads there. Redirects are not
// followed, so nothing leaves for that host.
#include <boost/url/parse.hpp>

#include "engines/crawl/html_extract.hpp"
#include "engines/scan/owasp/checks.hpp"
#include "engines/scan/owasp/replay.hpp"

namespace dozor::owasp {

namespace {
constexpr FindingText kText{
    "owasp-open-redirect",
    "Open redirect",
    audit::Severity::Medium,
    "A01:2021",
    601,
    "The parameter decides where the site redirects to, and any external host is accepted: links on the site's own "
    "domain can send visitors to a phishing page.",
    "Redirect only to relative paths of the site or to an allow-list of hosts; reject values with a scheme or "
    "starting with // or \\."};
constexpr const char* kMarkerHost = "open-redirect.dozor.invalid";

// The host a Location leads to, resolved against the request's URL.
std::string location_host(const std::string& request_url, const std::string& location) {
  auto resolved = crawl::resolve_http(request_url, location);
  if (!resolved) return {};
  auto u = boost::urls::parse_uri(*resolved);
  return u ? std::string(u->host()) : std::string();
}
}  // namespace

void check_open_redirect(Scan& scan, const Point& point) {
  auto canary = make_canary();
  for (const auto& payload :
       {"https://" + std::string(kMarkerHost) + "/" + canary, "//" + std::string(kMarkerHost) + "/" + canary}) {
    auto request = point.request(payload);
    auto answer = scan.prober.send(request);
    if (!answer) return;
    if (answer->status < 300 || answer->status > 399 || answer->exchanges.empty()) continue;
    auto location = net::first_header(answer->exchanges.back().response_headers, "location");
    if (!location || location_host(request.url, *location) != kMarkerHost) continue;
    auto f = make_finding(kText, "certain", where_of(point));
    f.evidence.push_back(
        evidence_of(request, *answer, "Location: " + *location,
                    "The answer redirects to " + std::string(kMarkerHost) + ", the host sent in the parameter."));
    scan.findings.push_back(std::move(f));
    return;
  }
}

}  // namespace dozor::owasp
