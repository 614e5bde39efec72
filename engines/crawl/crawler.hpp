#pragma once
// Breadth-first crawl of one origin (docs/audit.md): seeds from robots.txt and sitemaps, pages
// read with gumbo, everything a security engineer wants listed (forms and fields, scripts,
// media and documents, e-mails, phones, endpoints with parameters, paths in JavaScript, the
// site's structure). Bounded by depth, pages, URLs remembered, items kept, bytes per answer and
// a time budget; requests go through the scanner client (egress policy, per-origin pacing).
#include <boost/json/object.hpp>
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engines/crawl/contacts.hpp"
#include "engines/crawl/html_extract.hpp"
#include "engines/limits.hpp"
#include "engines/net/scan_client.hpp"

namespace dozor::crawl {

// One answered, in-scope page as the crawler saw it, for the analyses that read pages as they
// arrive (technologies, passive findings, compliance) instead of the crawler keeping bodies.
// Valid only during the call.
struct PageSeen {
  const std::string& url;  // final URL after redirects
  int depth = 0;
  int status = 0;
  const std::vector<net::Exchange>& exchanges;  // every hop, the answer last (evidence)
  const std::string* html = nullptr;            // the page as UTF-8; null when not a 2xx HTML page
  const PageFacts* facts = nullptr;             // what gumbo extracted; null with html
};

struct CrawlOptions {
  int depth = limits::kCrawlDepthDefault;
  int max_pages = limits::kCrawlPagesDefault;
  std::chrono::milliseconds time_budget{limits::kCrawlTimeBudgetMs};
  std::size_t max_urls = limits::kCrawlQueuedUrls;
  std::size_t max_items = limits::kCrawlItems;
  std::size_t max_scripts = 50;  // same-origin external scripts fetched for paths
  net::ScanOptions scan;
  std::function<void(const PageSeen&)> on_page;  // runs on the crawling thread, in fetch order
  // A same-origin script fetched for paths (2xx): its URL, the page that named it, its text.
  std::function<void(const std::string&, const std::string&, std::string_view)> on_script;
  std::function<bool(const std::string&)> skip;  // true: the URL is never fetched (the auth scan's logout links)
};

struct PageRecord {
  std::string url;
  std::string final_url;
  int depth = 0;
  int status = 0;
  std::string content_type;
  std::string charset;
  std::string title;
  std::size_t bytes = 0;
  std::string error;  // why there is no page (timeout, too large, redirect loop …)
  std::string error_kind;
  std::string found_via;  // target | link | robots | sitemap
};

struct FormRecord {
  std::string page;
  Form form;
};

struct ScriptRecord {
  std::string page;
  std::string src;             // empty for inline
  std::string inline_excerpt;  // the first 200 characters of an inline script
  std::size_t inline_bytes = 0;
  std::string integrity;
};

struct MediaRecord {
  std::string page;
  std::string kind;
  std::string url;
};

struct EmailRecord {
  std::string address;
  std::string source;  // mailto | text
  std::string page;
};

struct PhoneRecord {
  std::string e164;
  std::string as_found;
  std::string source;  // tel | text
  std::string page;
};

struct Endpoint {
  std::string url;  // without query
  std::string method;
  std::set<std::string> params;
  std::string source;             // link | form | js | sitemap | robots: the first that named it
  std::set<std::string> sources;  // every one that named it
};

struct CrawlResult {
  std::string target;
  std::string origin;
  std::vector<PageRecord> pages;
  std::vector<FormRecord> forms;
  std::vector<ScriptRecord> scripts;
  std::vector<MediaRecord> media;
  std::vector<EmailRecord> emails;
  std::vector<PhoneRecord> phones;
  std::map<std::string, Endpoint> endpoints;    // by method + " " + url
  std::map<std::string, std::string> js_paths;  // path → script it was found in
  std::vector<std::string> external_links;
  std::vector<std::string> comments;  // HTML comments worth a look, bounded
  std::set<std::string> structure;    // same-origin paths seen
  bool robots_found = false;
  std::vector<std::string> robots_disallow;
  std::vector<std::string> sitemaps;  // read
  // Origins the crawl was sent towards (the target's redirect, a same-page hop) but that the
  // scan's scope refused (net::ScanOptions::scope): never asked, the crawl stayed where it was.
  std::set<std::string> out_of_scope;
  std::string stopped;  // complete | max_pages | time_budget | url_limit | cancelled
  std::size_t requests = 0;
  std::int64_t duration_ms = 0;
};

CrawlResult crawl(const std::string& target, const net::EgressPolicy& policy, const CrawlOptions& options);

boost::json::object to_json(const CrawlResult& result);
// The structure as a tree: {"name": "/", "path": "/", "children": [...]}.
boost::json::object structure_tree(const std::set<std::string>& paths);

// An HTML answer: its Content-Type names html (any case), or it has none and the body starts like
// an HTML document. The crawler and the technology detector decide it the same way.
bool is_html_type(const std::string& content_type, const std::string& body);

}  // namespace dozor::crawl
