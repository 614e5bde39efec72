// Server-side request forgery (A10:2021, CWE-918): a URL-like parameter set to Dozor's own
// /oast/{token} URL. A hit of that token proves the server fetched it (out of band); the
// endpoint's marker in the answer proves it in-band. Without an interaction endpoint, and besides
// it, the cloud metadata address is asked for: its well-known index in the answer (absent from the
// baseline) proves an internal address was reached. Nothing else is fetched.
#include <array>

#include "engines/limits.hpp"
#include "engines/scan/owasp/checks.hpp"
#include "engines/scan/owasp/replay.hpp"

namespace dozor::owasp {

namespace {
constexpr FindingText kText{
    "owasp-ssrf",
    "Server-side request forgery (SSRF)",
    audit::Severity::High,
    "A10:2021",
    918,
    "The server fetches the URL given in the parameter: an attacker makes it reach internal services, cloud "
    "metadata (credentials) or other hosts in its name.",
    "Fetch only URLs of an allow-list of hosts (or map ids to URLs on the server); resolve the host and refuse "
    "loopback, private, link-local and metadata addresses on every connection, redirects included."};
constexpr const char* kMetadataUrl = "http://169.254.169.254/latest/meta-data/";
}  // namespace

// Lines of the EC2-style metadata index; two of them must appear.
bool metadata_answer(std::string_view body) {
  static constexpr std::array<std::string_view, 5> kKeys{"ami-id", "instance-id", "local-ipv4", "instance-type",
                                                         "security-groups"};
  int n = 0;
  for (auto k : kKeys) n += body.find(k) != std::string_view::npos;
  return n >= 2;
}

void check_ssrf(Scan& scan, Oob& oob, const Point& point, const Baseline& base) {
  auto where = where_of(point);
  if (oob.enabled()) {
    std::string url;
    auto probe = oob.make("ssrf", url);
    auto request = point.request(url);
    probe.url = point.url;
    probe.method = "GET";
    probe.param = point.name();
    probe.payload = url;
    if (!oob.add(probe)) return;
    auto answer = scan.prober.send(request);
    if (!answer) return;
    if (auto at = answer->body.find(probe.marker); at != std::string::npos)
      add_or_merge(scan.findings, kText, "certain", where,
                   {evidence_of(request, *answer,
                                excerpt_around(answer->body, at, probe.marker.size(), limits::owasp::kExcerptChars),
                                "The answer holds " + probe.marker +
                                    ", what Dozor's interaction endpoint answers "
                                    "for the token " +
                                    probe.token + " only: the server fetched the URL.")});
    oob.expect(probe, kText, where, request, *answer);
  }
  if (metadata_answer(base.first.body) || metadata_answer(base.second.body)) return;
  auto request = point.request(kMetadataUrl);
  auto answer = scan.prober.send(request);
  if (!answer || !metadata_answer(answer->body)) return;
  auto at = answer->body.find("instance-id");
  if (at == std::string::npos) at = answer->body.find("ami-id");
  add_or_merge(scan.findings, kText, "certain", where,
               {evidence_of(request, *answer, excerpt_around(answer->body, at, 11, limits::owasp::kExcerptChars),
                            "The answer lists the cloud metadata index of " + std::string(kMetadataUrl) +
                                ", absent from the unmodified answer: the server reached an internal address.")});
}

}  // namespace dozor::owasp
