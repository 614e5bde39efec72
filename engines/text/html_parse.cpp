#include "engines/text/html_parse.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>
#include <string>

#include "engines/limits.hpp"

namespace dozor::text {
namespace {

const GumboOptions& options() {
  static const GumboOptions o = [] {
    GumboOptions x = kGumboDefaultOptions;
    x.max_errors = 0;
    return x;
  }();
  return o;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace

void GumboDeleter::operator()(GumboOutput* out) const {
  if (out) gumbo_destroy_output(&options(), out);
}

// Gumbo walks its stack of open elements for many tags and frees its tree recursively, so a page
// nested a hundred thousand deep costs minutes and may overflow the stack. A linear pre-scan
// estimates the nesting (void and implicitly closed elements do not count) and hands gumbo the
// document only up to the first point deeper than limits::kHtmlNesting.
std::size_t html_nesting_prefix(std::string_view html) {
  static const std::set<std::string, std::less<>> kNoDepth = {
      "area",  "base", "br",    "col",    "embed", "hr", "img", "input", "link",     "meta",     "source",
      "track", "wbr",  "param", "keygen", "p",     "li", "dt",  "dd",    "option",   "optgroup", "tr",
      "td",    "th",   "tbody", "thead",  "tfoot", "rb", "rt",  "rp",    "colgroup", "!doctype"};
  std::size_t depth = 0;
  std::size_t i = 0;
  while ((i = html.find('<', i)) != std::string_view::npos) {
    if (html.compare(i, 4, "<!--") == 0) {
      auto end = html.find("-->", i + 4);
      if (end == std::string_view::npos) return html.size();
      i = end + 3;
      continue;
    }
    if (i + 1 < html.size() && html[i + 1] == '/') {
      if (depth > 0) --depth;
      i += 2;
      continue;
    }
    std::size_t j = i + 1;
    while (j < html.size() && (std::isalnum(static_cast<unsigned char>(html[j])) || html[j] == '!' || html[j] == '-'))
      ++j;
    if (j == i + 1) {
      ++i;
      continue;
    }
    std::string name = lower(html.substr(i + 1, j - i - 1));
    auto close = html.find('>', j);
    if (close == std::string_view::npos) return html.size();
    bool self_closing = html[close - 1] == '/';
    if (name == "script" || name == "style" || name == "textarea" || name == "title") {
      // Raw text: skip to the end tag so its content is not read as markup.
      auto end = html.find("</", close);
      while (end != std::string_view::npos && lower(html.substr(end + 2, name.size())) != name)
        end = html.find("</", end + 2);
      if (end == std::string_view::npos) return html.size();
      i = end;
      continue;
    }
    if (!self_closing && !kNoDepth.count(name) && ++depth > limits::kHtmlNesting) return i;
    i = close + 1;
  }
  return html.size();
}

GumboDocument parse_html_bounded(std::string_view utf8) {
  auto bounded = utf8.substr(0, html_nesting_prefix(utf8));
  return GumboDocument(gumbo_parse_with_options(&options(), bounded.data(), bounded.size()));
}

}  // namespace dozor::text
