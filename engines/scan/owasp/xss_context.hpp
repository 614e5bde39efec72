#pragma once
// Proof of reflected XSS (docs/scan.md "OWASP scan"): the answer is parsed as a browser would
// (gumbo, HTML5) and the canary must come out as markup — an element or an attribute we named —
// not as text. An echo that was escaped parses as text and proves nothing.
#include <optional>
#include <string>
#include <string_view>

namespace dozor::owasp {

inline constexpr const char* kXssAttribute = "data-dzr";

struct XssProof {
  std::string context;  // "element" (a new element carries our attribute) | "attribute" (an existing one does)
  std::string tag;      // the element that carries the attribute
};

// The payloads for a canary: the first breaks out of text, attribute values and script blocks to
// open an element; the second only closes a double-quoted attribute value and adds an attribute.
std::string xss_element_payload(std::string_view canary);
std::string xss_attribute_payload(std::string_view canary);

// Where the answer's markup holds an element with attribute data-dzr="<canary>"; nullopt when it
// does not (the canary absent or present only as text).
std::optional<XssProof> find_injected_markup(std::string_view html, std::string_view canary);

}  // namespace dozor::owasp
