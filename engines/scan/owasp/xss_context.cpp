#include "engines/scan/owasp/xss_context.hpp"

#include <gumbo.h>

#include <vector>

namespace dozor::owasp {

std::string xss_element_payload(std::string_view canary) {
  return "\"'></script><b " + std::string(kXssAttribute) + "=\"" + std::string(canary) + "\">";
}

std::string xss_attribute_payload(std::string_view canary) {
  return "\" " + std::string(kXssAttribute) + "=\"" + std::string(canary) + "\" x=\"";
}

std::optional<XssProof> find_injected_markup(std::string_view html, std::string_view canary) {
  if (canary.empty() || html.find(canary) == std::string_view::npos) return std::nullopt;
  GumboOutput* out = gumbo_parse_with_options(&kGumboDefaultOptions, html.data(), html.size());
  std::optional<XssProof> proof;
  std::vector<const GumboNode*> stack{out->root};
  while (!stack.empty() && !proof) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (n->type != GUMBO_NODE_ELEMENT && n->type != GUMBO_NODE_TEMPLATE) continue;
    const GumboElement& e = n->v.element;
    const GumboAttribute* a = gumbo_get_attribute(&e.attributes, kXssAttribute);
    if (a && canary == a->value) {
      std::string tag = e.tag == GUMBO_TAG_UNKNOWN ? std::string("unknown") : gumbo_normalized_tagname(e.tag);
      // The element payload opens a <b> of its own; our attribute on any other element was added to it.
      proof = XssProof{e.tag == GUMBO_TAG_B && e.attributes.length == 1 ? "element" : "attribute", tag};
      break;
    }
    for (unsigned i = 0; i < e.children.length; ++i) stack.push_back(static_cast<const GumboNode*>(e.children.data[i]));
  }
  gumbo_destroy_output(&kGumboDefaultOptions, out);
  return proof;
}

}  // namespace dozor::owasp
