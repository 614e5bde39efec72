#pragma once
// The one way HTML reaches gumbo (the crawler's extraction, the analyzer's text): bounded against
// nesting, which gumbo handles in quadratic time and memory (100,000 nested elements took 16 GB).
#include <gumbo.h>

#include <memory>
#include <string_view>

namespace dozor::text {

struct GumboDeleter {
  void operator()(GumboOutput* out) const;
};
using GumboDocument = std::unique_ptr<GumboOutput, GumboDeleter>;

// Parses valid UTF-8 up to the first point nested deeper than limits::kHtmlNesting, without
// gumbo's error list (each recorded error copies the stack of open elements). Null when gumbo
// gives nothing.
GumboDocument parse_html_bounded(std::string_view utf8);

// How much of `html` is nested at most limits::kHtmlNesting deep (a linear pre-scan).
std::size_t html_nesting_prefix(std::string_view html);

}  // namespace dozor::text
