// XML external entities (A05:2021, CWE-611): documents with a DOCTYPE posted to endpoints that take
// XML. In-band: two internal entities whose values are halves of a canary; the whole canary in the
// answer proves the parser expanded them (an echo of the document holds the halves apart). Out of
// band: an external general entity, then an external parameter entity, each pointing at its own
// /oast/{token} URL; a hit proves external resolution. Never a nested entity (no billion laughs),
// never a file: the only external URL is Dozor's own interaction endpoint.
#include "engines/limits.hpp"
#include "engines/scan/owasp/checks.hpp"
#include "engines/scan/owasp/replay.hpp"

namespace dozor::owasp {

namespace {
constexpr const char* kDescription =
    "The endpoint parses XML with document type definitions enabled and expands the entities they declare: with "
    "external entities an attacker reads local files, reaches internal services (SSRF) or exhausts memory.";
constexpr const char* kRecommendation =
    "Disable DTDs (DOCTYPE) in the XML parser, or at least external entities and external DTDs (libxml2: no "
    "XML_PARSE_NOENT/XML_PARSE_DTDLOAD; Java: disallow-doctype-decl; .NET: DtdProcessing.Prohibit; Python: "
    "defusedxml).";
constexpr FindingText kExternal{
    "owasp-xxe",    "XML external entity (XXE) processing", audit::Severity::High, "A05:2021", 611, kDescription,
    kRecommendation};
constexpr FindingText kInternal{
    "owasp-xxe",    "XML external entity (XXE) processing", audit::Severity::Medium, "A05:2021", 611, kDescription,
    kRecommendation};

net::FetchRequest xml_post(const std::string& url, std::string document) {
  auto r = get_request(url, 0);
  r.method = "POST";
  r.headers.push_back("Content-Type: application/xml");
  r.body = std::move(document);
  return r;
}
}  // namespace

std::string xxe_internal_document(const std::string& first_half, const std::string& second_half) {
  return "<?xml version=\"1.0\"?>\n<!DOCTYPE dozor [\n  <!ENTITY dza \"" + first_half + "\">\n  <!ENTITY dzb \"" +
         second_half + "\">\n]>\n<dozor>&dza;&dzb;</dozor>\n";
}

std::string xxe_external_document(const std::string& url, bool parameter_entity) {
  if (parameter_entity)
    return "<?xml version=\"1.0\"?>\n<!DOCTYPE dozor [\n  <!ENTITY % dzp SYSTEM \"" + url + "\">\n  %dzp;\n]>\n" +
           "<dozor>dozor</dozor>\n";
  return "<?xml version=\"1.0\"?>\n<!DOCTYPE dozor [\n  <!ENTITY dze SYSTEM \"" + url + "\">\n]>\n" +
         "<dozor>&dze;</dozor>\n";
}

void check_xxe(Scan& scan, Oob& oob, const std::string& url) {
  std::string where = "XML body of " + url;
  // In-band: the halves are random, so the joined canary appears only when both were expanded.
  auto canary = make_canary();
  auto half = canary.size() / 2;
  auto request = xml_post(url, xxe_internal_document(canary.substr(0, half), canary.substr(half)));
  auto answer = scan.prober.send(request);
  if (!answer) return;
  if (auto at = answer->body.find(canary); at != std::string::npos)
    add_or_merge(
        scan.findings, kInternal, "firm", where,
        {evidence_of(request, *answer, excerpt_around(answer->body, at, canary.size(), limits::owasp::kExcerptChars),
                     "The answer holds " + canary +
                         ", the two internal entities of the document expanded "
                         "and joined: the parser processes the DOCTYPE.")});

  if (!oob.enabled()) return;
  for (bool parameter : {false, true}) {
    std::string probe_url;
    auto probe = oob.make("xxe", probe_url);
    auto r = xml_post(url, xxe_external_document(probe_url, parameter));
    probe.url = url;
    probe.method = "POST";
    probe.payload = r.body;
    if (!oob.add(probe)) return;
    auto a = scan.prober.send(r);
    if (!a) return;
    // The endpoint's answer is its marker: reflected, it proves the fetch at once.
    if (auto at = a->body.find(probe.marker); at != std::string::npos)
      add_or_merge(scan.findings, kExternal, "certain", where,
                   {evidence_of(r, *a, excerpt_around(a->body, at, probe.marker.size(), limits::owasp::kExcerptChars),
                                "The answer holds " + probe.marker +
                                    ", what Dozor's interaction endpoint answers for "
                                    "the token " +
                                    probe.token + " only: the parser fetched the external " +
                                    (parameter ? "parameter " : "") + "entity.")});
    oob.expect(probe, kExternal, where, r, *a);
  }
}

}  // namespace dozor::owasp
