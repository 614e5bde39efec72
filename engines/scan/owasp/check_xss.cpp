// Reflected XSS (A03:2021, CWE-79): a canary inside markup-breaking payloads; the answer parsed
// with gumbo must hold an element or attribute carrying it (engines/scan/owasp/xss_context.hpp).
#include "engines/limits.hpp"
#include "engines/scan/owasp/checks.hpp"
#include "engines/scan/owasp/replay.hpp"
#include "engines/scan/owasp/xss_context.hpp"

namespace dozor::owasp {

namespace {
constexpr FindingText kText{
    "owasp-xss-reflected",
    "Reflected cross-site scripting",
    audit::Severity::High,
    "A03:2021",
    79,
    "The parameter is written into the page's HTML without encoding: markup sent in it is parsed by the browser as "
    "elements and attributes, so a crafted link runs script in the site's origin.",
    "Encode every value for the context it is written into (HTML text, attribute, script, URL) with the template "
    "engine's auto-escaping; add a Content-Security-Policy without 'unsafe-inline' as a second line of defence."};
}  // namespace

void check_xss(Scan& scan, const Point& point) {
  auto canary = make_canary();
  for (const auto& payload : {xss_element_payload(canary), xss_attribute_payload(canary)}) {
    auto request = point.request(point.value() + payload);
    auto answer = scan.prober.send(request);
    if (!answer) return;
    if (answer->body.find(canary) == std::string::npos) return;  // not reflected: the other payload would not be either
    auto proof = find_injected_markup(answer->body, canary);
    if (!proof) continue;
    auto f = make_finding(kText, "certain", where_of(point));
    auto at = answer->body.find(canary);
    f.evidence.push_back(evidence_of(
        request, *answer, excerpt_around(answer->body, at, canary.size(), limits::owasp::kExcerptChars),
        "The answer parsed as HTML holds <" + proof->tag + " " + kXssAttribute + "=\"" + canary +
            "\">: the payload became " +
            (proof->context == "element" ? "a new element" : "an attribute of <" + proof->tag + ">") + ", not text."));
    scan.findings.push_back(std::move(f));
    return;
  }
}

}  // namespace dozor::owasp
