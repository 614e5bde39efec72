#pragma once
// DOM-based XSS read from script text (docs/scan.md "OWASP scan"): a value the attacker controls
// in the browser (location.hash/search/href, document.URL/referrer, window.name) written into an
// HTML or code sink (innerHTML, outerHTML, document.write, insertAdjacentHTML, eval, new Function,
// jQuery .html()) in the same statement, or through one variable assigned from the source. A
// statement that passes the value through a known sanitiser first (DOMPurify, encodeURIComponent,
// an escape function) is not reported. Static reading, so no proof of execution: the direct flow
// is "firm", the flow through a variable "tentative".
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace dozor::owasp {

struct DomFlow {
  std::string source;     // as written, e.g. "location.hash"
  std::string sink;       // e.g. "innerHTML ="
  std::string statement;  // the sink's statement, trimmed, at most kStatementChars
  std::string via;        // the variable it went through; empty for a direct flow
};

inline constexpr std::size_t kStatementChars = 300;

std::vector<DomFlow> dom_flows(std::string_view script);

}  // namespace dozor::owasp
