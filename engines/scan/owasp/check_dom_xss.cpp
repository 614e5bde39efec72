// DOM-based XSS (A03:2021, CWE-79), read from the inline scripts of each crawled page
// (engines/scan/owasp/dom_sinks.hpp): no request of its own; one finding per page.
#include <algorithm>

#include "engines/crawl/html_extract.hpp"
#include "engines/limits.hpp"
#include "engines/scan/owasp/checks.hpp"
#include "engines/scan/owasp/dom_sinks.hpp"
#include "engines/scan/owasp/replay.hpp"

namespace dozor::owasp {

namespace {
constexpr FindingText kText{
    "owasp-xss-dom",
    "DOM-based cross-site scripting",
    audit::Severity::High,
    "A03:2021",
    79,
    "A script of the page writes a value the visitor's URL (or the referrer, or the window name) controls into an "
    "HTML or code sink: a crafted link runs script in the site's origin without the server ever seeing the "
    "payload (a fragment after # is not even sent).",
    "Write untrusted values with textContent or setAttribute, never innerHTML/document.write/eval; sanitise HTML "
    "that must be rendered with DOMPurify; a Content-Security-Policy with Trusted Types blocks such sinks."};
constexpr std::size_t kFlowsShown = 3;
}  // namespace

void check_dom_xss(std::vector<audit::Finding>& findings, const std::string& page_url, const crawl::PageFacts& facts,
                   const std::vector<net::Exchange>& exchanges) {
  std::vector<DomFlow> flows;
  std::size_t read = 0;
  for (const auto& script : facts.scripts) {
    if (!script.src.empty() || script.inline_text.empty() || read >= limits::owasp::kDomScriptBytes) continue;
    read += script.inline_text.size();
    for (auto& f : dom_flows(script.inline_text)) flows.push_back(std::move(f));
  }
  if (flows.empty()) return;
  // Direct flows first: they decide the confidence.
  std::stable_sort(flows.begin(), flows.end(),
                   [](const auto& a, const auto& b) { return a.via.empty() > b.via.empty(); });
  bool direct = flows.front().via.empty();
  auto f = make_finding(kText, direct ? "firm" : "tentative", "inline script of " + page_url);
  if (!direct) f.severity = audit::Severity::Medium;
  for (std::size_t i = 0; i < flows.size() && i < kFlowsShown; ++i) {
    const auto& flow = flows[i];
    audit::Evidence e;
    e.url = page_url;
    e.excerpt = flow.statement;
    e.note = flow.source + " reaches the sink " + flow.sink +
             (flow.via.empty() ? " in one statement" : " through the variable " + flow.via) +
             "; open the page with a fragment such as #<img src=x onerror=alert(1)> to see it run.";
    if (!exchanges.empty()) e.exchange = exchanges.back();
    e.replay = curl_command("GET", page_url, {});
    f.evidence.push_back(std::move(e));
  }
  findings.push_back(std::move(f));
}

}  // namespace dozor::owasp
