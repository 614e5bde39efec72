#include "engines/audit/compliance/page_scan.hpp"

#include <gumbo.h>

#include <algorithm>
#include <map>

#include "engines/crawl/html_extract.hpp"
#include "engines/text/html_parse.hpp"
#include "engines/text/utf8.hpp"

namespace dozor::audit::compliance {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string attr(const GumboElement& e, const char* name) {
  const GumboAttribute* a = gumbo_get_attribute(&e.attributes, name);
  return a ? std::string(a->value) : std::string();
}

bool has_attr(const GumboElement& e, const char* name) { return gumbo_get_attribute(&e.attributes, name) != nullptr; }

// Visible text of a subtree (no scripts, styles or templates), white space collapsed, bounded.
std::string visible_text(const GumboNode* node, std::size_t max_chars) {
  std::string out;
  std::vector<const GumboNode*> stack{node};
  while (!stack.empty() && out.size() < max_chars * 4) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (n->type == GUMBO_NODE_TEXT || n->type == GUMBO_NODE_CDATA) {
      out.append(n->v.text.text);
      out.push_back(' ');
    } else if (n->type == GUMBO_NODE_WHITESPACE) {
      out.push_back(' ');
    } else if (n->type == GUMBO_NODE_ELEMENT) {
      GumboTag t = n->v.element.tag;
      if (t == GUMBO_TAG_SCRIPT || t == GUMBO_TAG_STYLE || t == GUMBO_TAG_TEMPLATE || t == GUMBO_TAG_NOSCRIPT) continue;
      out.push_back(' ');
      const GumboVector& ch = n->v.element.children;
      for (unsigned i = ch.length; i-- > 0;) stack.push_back(static_cast<const GumboNode*>(ch.data[i]));
    }
  }
  std::string collapsed;
  bool space = false;
  for (char c : out) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
      space = !collapsed.empty();
    } else {
      if (space) collapsed.push_back(' ');
      space = false;
      collapsed.push_back(c);
    }
  }
  return text::utf8_prefix(text::to_valid_utf8(collapsed), max_chars);
}

// The nearest element sibling before (dir = -1) or after (dir = +1) `node`, or null.
const GumboNode* element_sibling(const GumboNode* node, int dir) {
  const GumboNode* parent = node->parent;
  if (parent == nullptr || parent->type != GUMBO_NODE_ELEMENT) return nullptr;
  const GumboVector& ch = parent->v.element.children;
  long i = static_cast<long>(node->index_within_parent) + dir;
  for (; i >= 0 && i < static_cast<long>(ch.length); i += dir) {
    const auto* n = static_cast<const GumboNode*>(ch.data[static_cast<unsigned>(i)]);
    if (n->type == GUMBO_NODE_ELEMENT) return n;
    if (n->type == GUMBO_NODE_TEXT) return n;  // bare text next to the form counts as its neighbour
  }
  return nullptr;
}

void collect_links(const GumboNode* root, std::string_view base, std::vector<LinkView>& out) {
  std::vector<const GumboNode*> stack{root};
  while (!stack.empty() && out.size() < crawl::kItemsPerPage) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (n->type != GUMBO_NODE_ELEMENT) continue;
    if (n->v.element.tag == GUMBO_TAG_A && has_attr(n->v.element, "href")) {
      LinkView l;
      l.url = crawl::resolve_http(base, attr(n->v.element, "href")).value_or("");
      l.text = visible_text(n, 300);
      if (l.text.empty()) l.text = attr(n->v.element, "title");
      out.push_back(std::move(l));
    }
    const GumboVector& ch = n->v.element.children;
    for (unsigned i = ch.length; i-- > 0;) stack.push_back(static_cast<const GumboNode*>(ch.data[i]));
  }
}

FormView read_form(const GumboNode* form, std::string_view base) {
  FormView f;
  const GumboElement& fe = form->v.element;
  std::string action = attr(fe, "action");
  f.action = action.empty() ? std::string(base) : crawl::resolve_http(base, action).value_or(action);
  std::string method = lower(attr(fe, "method"));
  f.method = method == "post" ? "POST" : "GET";
  f.role_search = lower(attr(fe, "role")) == "search";

  std::map<std::string, std::string> label_for;  // id → label text
  struct Pending {
    const GumboNode* node;
    std::string wrapping_label;
  };
  std::vector<Pending> stack{{form, {}}};
  while (!stack.empty()) {
    Pending p = stack.back();
    stack.pop_back();
    const GumboNode* n = p.node;
    if (n->type != GUMBO_NODE_ELEMENT) continue;
    const GumboElement& e = n->v.element;
    std::string wrapping = p.wrapping_label;
    if (e.tag == GUMBO_TAG_LABEL) {
      std::string text = visible_text(n, 500);
      std::string target = attr(e, "for");
      if (!target.empty()) label_for.emplace(target, text);
      wrapping = text;
    }
    if ((e.tag == GUMBO_TAG_INPUT || e.tag == GUMBO_TAG_SELECT || e.tag == GUMBO_TAG_TEXTAREA ||
         e.tag == GUMBO_TAG_BUTTON) &&
        f.fields.size() < crawl::kItemsPerPage) {
      FieldView v;
      v.tag = e.tag == GUMBO_TAG_INPUT    ? "input"
              : e.tag == GUMBO_TAG_SELECT ? "select"
              : e.tag == GUMBO_TAG_BUTTON ? "button"
                                          : "textarea";
      v.type = lower(attr(e, "type"));
      if (v.type.empty()) v.type = e.tag == GUMBO_TAG_INPUT ? "text" : e.tag == GUMBO_TAG_BUTTON ? "submit" : v.tag;
      v.name = attr(e, "name");
      v.id = attr(e, "id");
      v.placeholder = attr(e, "placeholder");
      v.checked = has_attr(e, "checked");
      v.label = wrapping;
      if (v.label.empty()) v.label = attr(e, "aria-label");
      if (v.label.empty() && v.type == "checkbox" && n->parent != nullptr && n->parent != form)
        v.label = visible_text(n->parent, 500);
      f.fields.push_back(std::move(v));
    }
    const GumboVector& ch = e.children;
    for (unsigned i = ch.length; i-- > 0;) stack.push_back({static_cast<const GumboNode*>(ch.data[i]), wrapping});
  }
  for (auto& v : f.fields) {
    if (!v.id.empty()) {
      auto it = label_for.find(v.id);
      if (it != label_for.end() && (v.label.empty() || v.type == "checkbox")) v.label = it->second;
    }
    // A checkbox whose label is only the box itself: the text after it in the form tells.
    if (v.type == "checkbox" && v.label.empty()) v.label = visible_text(form, 500);
  }

  f.text = visible_text(form, kFormTextChars);
  collect_links(form, base, f.links);
  std::string before, after;
  if (const GumboNode* s = element_sibling(form, -1)) {
    before = visible_text(s, kNeighbourTextChars);
    collect_links(s, base, f.links);
  }
  if (const GumboNode* s = element_sibling(form, 1)) {
    after = visible_text(s, kNeighbourTextChars);
    collect_links(s, base, f.links);
  }
  f.context = before + " " + f.text + " " + after;
  return f;
}

}  // namespace

PageScan scan_page(std::string_view html, std::string_view base) {
  PageScan scan;
  text::GumboDocument doc = text::parse_html_bounded(html);
  if (!doc) return scan;
  std::vector<const GumboNode*> stack{doc->root};
  if (doc->root->type == GUMBO_NODE_ELEMENT) scan.lang = attr(doc->root->v.element, "lang");
  while (!stack.empty()) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (n->type != GUMBO_NODE_ELEMENT) continue;
    const GumboElement& e = n->v.element;
    switch (e.tag) {
      case GUMBO_TAG_IMG:
        ++scan.images;
        if (!has_attr(e, "alt")) ++scan.images_without_alt;
        break;
      case GUMBO_TAG_H1:
      case GUMBO_TAG_H2:
      case GUMBO_TAG_H3: ++scan.headings; break;
      case GUMBO_TAG_FORM:
        if (scan.forms.size() < kFormsPerPage) scan.forms.push_back(read_form(n, base));
        break;
      default: break;
    }
    const GumboVector& ch = e.children;
    for (unsigned i = ch.length; i-- > 0;) stack.push_back(static_cast<const GumboNode*>(ch.data[i]));
  }
  return scan;
}

}  // namespace dozor::audit::compliance
