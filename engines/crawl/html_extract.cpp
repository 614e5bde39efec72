#include "engines/crawl/html_extract.hpp"

#include <gumbo.h>

#include <algorithm>
#include <array>
#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>
#include <cstring>
#include <memory>
#include <set>
#include <utility>

#include "engines/text/ascii.hpp"
#include "engines/text/html_parse.hpp"
#include "engines/text/utf8.hpp"

namespace dozor::crawl {
namespace {

std::string trim(std::string_view v) { return std::string(text::trim_space(v)); }

std::string attr(const GumboElement& e, const char* name) {
  const GumboAttribute* a = gumbo_get_attribute(&e.attributes, name);
  return a ? std::string(a->value) : std::string();
}

bool has_attr(const GumboElement& e, const char* name) { return gumbo_get_attribute(&e.attributes, name) != nullptr; }

// Text of a node's subtree (for link texts and titles), bounded.
std::string inner_text(const GumboNode* node, std::size_t max) {
  std::string out;
  std::vector<const GumboNode*> stack{node};
  while (!stack.empty() && out.size() < max) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (n->type == GUMBO_NODE_TEXT || n->type == GUMBO_NODE_WHITESPACE) {
      out.append(n->v.text.text);
      out.push_back(' ');
    } else if (n->type == GUMBO_NODE_ELEMENT) {
      const GumboVector& ch = n->v.element.children;
      for (unsigned i = ch.length; i-- > 0;) stack.push_back(static_cast<const GumboNode*>(ch.data[i]));
    }
  }
  // Collapse whitespace.
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
  return text::utf8_prefix(collapsed, max);
}

template <class T>
void push_bounded(std::vector<T>& v, T item) {
  if (v.size() < kItemsPerPage) v.push_back(std::move(item));
}

struct Walker {
  PageFacts& facts;
  std::string base;
  Form* current_form = nullptr;  // fields outside a form are not collected (ZAP does the same)

  std::optional<std::string> url(std::string_view ref) const { return resolve_http(base, trim(ref)); }

  void media(const char* kind, std::string_view ref) {
    if (auto u = url(ref)) push_bounded(facts.media, Media{kind, *u});
  }

  void srcset(const char* kind, std::string_view value) {
    // "a.jpg 1x, b.jpg 2x": the URL is the first token of each candidate.
    std::size_t pos = 0;
    while (pos < value.size()) {
      auto comma = value.find(',', pos);
      auto part = trim(value.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos));
      auto sp = part.find_first_of(" \t");
      if (!part.empty()) media(kind, part.substr(0, sp));
      if (comma == std::string_view::npos) break;
      pos = comma + 1;
    }
  }

  void element(const GumboNode* node) {
    const GumboElement& e = node->v.element;
    ++facts.elements;
    switch (e.tag) {
      case GUMBO_TAG_TITLE:
        if (facts.title.empty()) facts.title = inner_text(node, 1024);
        break;
      case GUMBO_TAG_BASE:
        if (!facts.base_href && has_attr(e, "href")) {
          facts.base_href = attr(e, "href");
          if (auto b = resolve_http(base, trim(*facts.base_href))) base = *b;
        }
        break;
      case GUMBO_TAG_META: {
        auto content = attr(e, "content");
        if (has_attr(e, "http-equiv"))
          push_bounded(facts.http_equiv, Meta{text::ascii_lower(trim(attr(e, "http-equiv"))), content});
        else if (has_attr(e, "name"))
          push_bounded(facts.meta, Meta{text::ascii_lower(trim(attr(e, "name"))), content});
        else if (has_attr(e, "property"))
          push_bounded(facts.meta, Meta{text::ascii_lower(trim(attr(e, "property"))), content});
        break;
      }
      case GUMBO_TAG_A:
      case GUMBO_TAG_AREA: {
        auto href = trim(attr(e, "href"));
        if (href.empty()) break;
        auto scheme = text::ascii_lower(href.substr(0, std::min<std::size_t>(href.size(), 7)));
        if (scheme.rfind("mailto:", 0) == 0) {
          auto addr = href.substr(7);
          addr = addr.substr(0, addr.find('?'));
          if (!addr.empty()) push_bounded(facts.mailto, addr);
          break;
        }
        if (scheme.rfind("tel:", 0) == 0) {
          push_bounded(facts.tel, href.substr(4));
          break;
        }
        if (auto u = url(href)) {
          push_bounded(facts.links,
                       Link{*u, inner_text(node, 256), text::ascii_lower(attr(e, "rel")), attr(e, "target")});
          if (is_document_url(*u)) push_bounded(facts.media, Media{"document", *u});
        }
        break;
      }
      case GUMBO_TAG_LINK: {
        auto rel = text::ascii_lower(attr(e, "rel"));
        auto href = attr(e, "href");
        if (rel.find("stylesheet") != std::string::npos) {
          if (auto u = url(href)) push_bounded(facts.stylesheets, Stylesheet{href, *u, attr(e, "integrity")});
        }
        if (rel.find("icon") != std::string::npos)
          media("icon", href);
        else if (rel.find("stylesheet") == std::string::npos && rel.find("preconnect") == std::string::npos &&
                 rel.find("dns-prefetch") == std::string::npos) {
          if (auto u = url(href)) push_bounded(facts.links, Link{*u, "", rel, ""});
        }
        break;
      }
      case GUMBO_TAG_SCRIPT: {
        Script s;
        s.raw_src = attr(e, "src");
        if (!s.raw_src.empty()) s.src = url(s.raw_src).value_or("");
        s.integrity = attr(e, "integrity");
        s.crossorigin = attr(e, "crossorigin");
        s.type = text::ascii_lower(attr(e, "type"));
        if (s.raw_src.empty() && e.children.length > 0) {
          auto* child = static_cast<const GumboNode*>(e.children.data[0]);
          if (child->type == GUMBO_NODE_TEXT || child->type == GUMBO_NODE_WHITESPACE)
            s.inline_text = text::utf8_prefix(child->v.text.text, kInlineScriptBytes);
        }
        push_bounded(facts.scripts, std::move(s));
        break;
      }
      case GUMBO_TAG_IMG:
        media("img", attr(e, "src"));
        if (has_attr(e, "srcset")) srcset("img", attr(e, "srcset"));
        break;
      case GUMBO_TAG_VIDEO:
        if (has_attr(e, "src")) media("video", attr(e, "src"));
        if (has_attr(e, "poster")) media("img", attr(e, "poster"));
        break;
      case GUMBO_TAG_AUDIO:
        if (has_attr(e, "src")) media("audio", attr(e, "src"));
        break;
      case GUMBO_TAG_SOURCE:
        if (has_attr(e, "src")) media("source", attr(e, "src"));
        if (has_attr(e, "srcset")) srcset("source", attr(e, "srcset"));
        break;
      case GUMBO_TAG_TRACK: media("track", attr(e, "src")); break;
      case GUMBO_TAG_IFRAME:
      case GUMBO_TAG_FRAME: media("iframe", attr(e, "src")); break;
      case GUMBO_TAG_EMBED: media("embed", attr(e, "src")); break;
      case GUMBO_TAG_OBJECT: media("object", attr(e, "data")); break;
      case GUMBO_TAG_FORM: {
        Form f;
        auto action = trim(attr(e, "action"));
        f.action = action.empty() ? base : url(action).value_or(action);
        auto method = text::ascii_lower(trim(attr(e, "method")));
        f.method = method == "post" ? "POST" : method == "dialog" ? "DIALOG" : "GET";
        f.enctype = text::ascii_lower(attr(e, "enctype"));
        f.autocomplete = text::ascii_lower(trim(attr(e, "autocomplete")));
        if (facts.forms.size() < kItemsPerPage) {
          facts.forms.push_back(std::move(f));
          current_form = &facts.forms.back();
        }
        break;
      }
      case GUMBO_TAG_INPUT:
      case GUMBO_TAG_SELECT:
      case GUMBO_TAG_TEXTAREA:
      case GUMBO_TAG_BUTTON: {
        if (!current_form) break;
        FormField ff;
        ff.tag = gumbo_normalized_tagname(e.tag);
        ff.name = attr(e, "name");
        auto type = text::ascii_lower(trim(attr(e, "type")));
        if (e.tag == GUMBO_TAG_INPUT)
          ff.type = type.empty() ? "text" : type;
        else if (e.tag == GUMBO_TAG_BUTTON)
          ff.type = type.empty() ? "submit" : type;
        else
          ff.type = ff.tag;
        ff.placeholder = attr(e, "placeholder");
        ff.value = text::utf8_prefix(attr(e, "value"), 256);
        ff.required = has_attr(e, "required");
        ff.checked = has_attr(e, "checked");
        ff.autocomplete = text::ascii_lower(trim(attr(e, "autocomplete")));
        push_bounded(current_form->fields, std::move(ff));
        break;
      }
      default: break;
    }
  }

  void walk(const GumboNode* root) {
    // Explicit stack: hostile pages nest deeply. Each entry is (node, depth); a nullptr node
    // marks the end of a <form> so fields after it are not attributed to it.
    std::vector<std::pair<const GumboNode*, unsigned>> stack{{root, 0}};
    while (!stack.empty()) {
      auto [n, depth] = stack.back();
      stack.pop_back();
      if (!n) {
        current_form = nullptr;
        continue;
      }
      if (n->type == GUMBO_NODE_COMMENT) {
        if (facts.comments.size() < kItemsPerPage)
          facts.comments.push_back(text::utf8_prefix(trim(n->v.text.text), kCommentBytes));
        continue;
      }
      if (n->type == GUMBO_NODE_TEXT || n->type == GUMBO_NODE_CDATA) {
        if (facts.text.size() < kTextBytes) {
          facts.text.append(n->v.text.text, std::min(std::strlen(n->v.text.text), kTextBytes - facts.text.size()));
          facts.text.push_back('\n');
        }
        continue;
      }
      if (n->type != GUMBO_NODE_ELEMENT && n->type != GUMBO_NODE_DOCUMENT && n->type != GUMBO_NODE_TEMPLATE) continue;
      const GumboVector* children = nullptr;
      if (n->type == GUMBO_NODE_DOCUMENT) {
        children = &n->v.document.children;
      } else {
        element(n);
        auto tag = n->v.element.tag;
        if (tag == GUMBO_TAG_SCRIPT || tag == GUMBO_TAG_STYLE || tag == GUMBO_TAG_NOSCRIPT) continue;
        if (tag == GUMBO_TAG_FORM) stack.push_back({nullptr, depth});
        children = &n->v.element.children;
      }
      if (depth >= kMaxTreeDepth) continue;
      for (unsigned i = children->length; i-- > 0;)
        stack.push_back({static_cast<const GumboNode*>(children->data[i]), depth + 1});
    }
  }
};

}  // namespace

bool is_document_url(std::string_view url) {
  auto u = boost::urls::parse_uri(url);
  std::string path = text::ascii_lower(u ? std::string(u->path()) : std::string(url));
  for (const char* ext : {".pdf", ".doc", ".docx", ".xls", ".xlsx", ".ppt", ".pptx", ".odt", ".ods", ".odp", ".rtf",
                          ".csv", ".txt", ".zip", ".rar", ".7z"}) {
    std::string_view e(ext);
    if (path.size() > e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0) return true;
  }
  return false;
}

std::optional<std::string> resolve_http(std::string_view base, std::string_view ref) {
  if (ref.empty()) return std::nullopt;
  auto b = boost::urls::parse_uri(base);
  if (!b) return std::nullopt;
  // Browsers strip tabs and newlines inside URLs and tolerate spaces; encode spaces so the
  // reference parses.
  std::string cleaned;
  for (char c : ref) {
    if (c == '\t' || c == '\n' || c == '\r') continue;
    if (c == ' ')
      cleaned += "%20";
    else
      cleaned.push_back(c);
  }
  auto r = boost::urls::parse_uri_reference(cleaned);
  if (!r) return std::nullopt;
  boost::urls::url out;
  if (!boost::urls::resolve(*b, *r, out)) return std::nullopt;
  if (out.scheme_id() != boost::urls::scheme::http && out.scheme_id() != boost::urls::scheme::https)
    return std::nullopt;
  if (out.encoded_host().empty()) return std::nullopt;
  out.remove_fragment();
  out.normalize_scheme();
  out.normalize_authority();
  if (out.encoded_path().empty()) out.set_encoded_path("/");
  return std::string(out.buffer());
}

PageFacts extract_html(std::string_view html, std::string_view page_url) {
  PageFacts facts;
  auto out = text::parse_html_bounded(text::to_valid_utf8(html));  // gumbo needs UTF-8
  if (!out) return facts;
  Walker w{facts, std::string(page_url)};
  w.walk(out->document);
  facts.text = text::to_valid_utf8(facts.text);
  return facts;
}

}  // namespace dozor::crawl
