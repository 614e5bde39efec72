#pragma once
// The passive rules (docs/audit.md "Passive rules"): each reads one page as the crawler saw it —
// the exchanges (headers, Set-Cookie) and, for HTML pages, the UTF-8 text and gumbo's facts — and
// reports what it finds to the collector. No rule makes a request.
#include <string>
#include <string_view>
#include <vector>

#include "engines/audit/passive/collector.hpp"
#include "engines/audit/passive/data.hpp"
#include "engines/crawl/html_extract.hpp"
#include "engines/net/multi_fetch.hpp"

namespace dozor::audit::passive {

struct Page {
  std::string url;
  int status = 0;
  const std::vector<net::Exchange>* exchanges = nullptr;  // every hop, the answer last
  const std::string* html = nullptr;                      // 2xx HTML pages only
  const crawl::PageFacts* facts = nullptr;                // with html
  bool https = false;
  std::string origin;
  std::string host;
};

Page make_page(const std::string& url, int status, const std::vector<net::Exchange>& exchanges, const std::string* html,
               const crawl::PageFacts* facts);

void cookie_rules(const Data& data, const Page& page, Collector& out);      // cookies.cpp
void mixed_content_rules(const Page& page, Collector& out);                 // content.cpp
void link_rules(const Page& page, Collector& out);                          // content.cpp: SRI, tabnabbing
void form_rules(const Data& data, const Page& page, Collector& out);        // forms.cpp
void disclosure_rules(const Data& data, const Page& page, Collector& out);  // disclosure.cpp
void comment_rules(const Data& data, const Page& page, Collector& out);     // disclosure.cpp

// Up to `context` bytes either side of the first `needle` in `text` (whole UTF-8 characters, one
// line); empty when the needle is absent.
std::string snippet(std::string_view text, std::string_view needle, std::size_t context = 80);
// The same around [pos, pos + len).
std::string snippet_at(std::string_view text, std::size_t pos, std::size_t len, std::size_t context = 80);
std::string lower(std::string_view s);

}  // namespace dozor::audit::passive
