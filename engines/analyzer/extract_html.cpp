// HTML → paragraphs (gumbo, the HTML5 parsing algorithm): block elements end a paragraph;
// script, style and template hold no visible text.
#include <gumbo.h>

#include <cstring>
#include <memory>

#include "engines/analyzer/extract.hpp"
#include "engines/text/html_parse.hpp"
#include "engines/text/utf8.hpp"

namespace dozor::analyzer {
namespace {

bool is_block(GumboTag t) {
  switch (t) {
    case GUMBO_TAG_P:
    case GUMBO_TAG_DIV:
    case GUMBO_TAG_BR:
    case GUMBO_TAG_LI:
    case GUMBO_TAG_TR:
    case GUMBO_TAG_TD:
    case GUMBO_TAG_TH:
    case GUMBO_TAG_H1:
    case GUMBO_TAG_H2:
    case GUMBO_TAG_H3:
    case GUMBO_TAG_H4:
    case GUMBO_TAG_H5:
    case GUMBO_TAG_H6:
    case GUMBO_TAG_TABLE:
    case GUMBO_TAG_UL:
    case GUMBO_TAG_OL:
    case GUMBO_TAG_SECTION:
    case GUMBO_TAG_ARTICLE:
    case GUMBO_TAG_HEADER:
    case GUMBO_TAG_FOOTER:
    case GUMBO_TAG_BLOCKQUOTE:
    case GUMBO_TAG_PRE:
    case GUMBO_TAG_DT:
    case GUMBO_TAG_DD:
    case GUMBO_TAG_TITLE:
    case GUMBO_TAG_ADDRESS:
    case GUMBO_TAG_HR:
    case GUMBO_TAG_FORM:
    case GUMBO_TAG_NAV: return true;
    default: return false;
  }
}

struct Walker {
  Document& doc;
  std::string current;
  std::size_t paragraph = 0;

  void flush() {
    if (current.find_first_not_of(" \t\r\n") != std::string::npos) {
      ++paragraph;
      add_segment(doc, {"paragraph", std::to_string(paragraph), ""}, std::move(current));
    }
    current.clear();
  }

  // Iterative, so a deeply nested document cannot exhaust the stack; deeper than
  // kHtmlMaxDepth is still read, as flat text.
  void walk(const GumboNode* root) {
    struct Frame {
      const GumboNode* node;
      unsigned next;
    };
    std::vector<Frame> stack{{root, 0}};
    while (!stack.empty()) {
      auto& f = stack.back();
      const GumboNode* n = f.node;
      if (n->type == GUMBO_NODE_TEXT || n->type == GUMBO_NODE_CDATA || n->type == GUMBO_NODE_WHITESPACE) {
        current += n->v.text.text;
        stack.pop_back();
        continue;
      }
      if (n->type != GUMBO_NODE_ELEMENT && n->type != GUMBO_NODE_DOCUMENT && n->type != GUMBO_NODE_TEMPLATE) {
        stack.pop_back();
        continue;
      }
      const GumboVector& kids = n->type == GUMBO_NODE_DOCUMENT ? n->v.document.children : n->v.element.children;
      GumboTag tag = n->type == GUMBO_NODE_DOCUMENT ? GUMBO_TAG_HTML : n->v.element.tag;
      if (f.next == 0) {
        if (tag == GUMBO_TAG_SCRIPT || tag == GUMBO_TAG_STYLE || tag == GUMBO_TAG_TEMPLATE ||
            tag == GUMBO_TAG_NOSCRIPT) {
          stack.pop_back();
          continue;
        }
        if (is_block(tag))
          flush();
        else
          current += ' ';  // inline elements still separate words ("<b>Иван</b><i>Петров</i>")
      }
      if (f.next < kids.length) {
        const auto* child = static_cast<const GumboNode*>(kids.data[f.next++]);
        if (stack.size() < limits::analyzer::kHtmlMaxDepth) stack.push_back({child, 0});
        continue;
      }
      if (is_block(tag)) flush();
      stack.pop_back();
    }
    flush();
  }
};

}  // namespace

Document extract_html(std::string_view bytes) {
  Document doc;
  doc.type = "html";
  std::string utf8 = decode_text(bytes, doc.charset);
  auto out = text::parse_html_bounded(text::to_valid_utf8(utf8));
  if (!out) throw BadDocument("the HTML cannot be parsed");
  Walker w{doc, {}, 0};
  w.walk(out->document);
  return doc;
}

}  // namespace dozor::analyzer
