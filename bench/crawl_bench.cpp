// bench/crawl's program: one crawl of a target with engines/crawl, timed, then one JSON line on
// stdout — pages, requests, seconds, pages/s, peak RSS. Not part of the product.
//
// It sets CrawlOptions directly, bypassing the route's caps (limits::kCrawlPagesMax,
// kCrawlDepthMax, kCrawlQueuedUrls, kCrawlTimeBudgetMs) so a 10,000-page site can be crawled
// whole; everything else — per-host concurrency, the polite gap, in-flight cap, timeouts, body
// cap, items kept per crawl — is the product's default unless an option below says otherwise.
// The egress policy allows private targets (the bench site is on loopback).
//
//   crawl_bench URL [--pages N] [--depth D] [--concurrency C] [--interval-ms MS] [--budget-s S]
#include <sys/resource.h>

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>

#include "engines/crawl/crawler.hpp"
#include "engines/net/egress_policy.hpp"
#include "engines/net/multi_fetch.hpp"

namespace {

int usage() {
  std::cerr << "usage: crawl_bench URL [--pages N] [--depth D] [--concurrency C] [--interval-ms MS] [--budget-s S]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  std::string target = argv[1];
  dozor::crawl::CrawlOptions o;
  o.max_pages = 2000;
  o.depth = 100;
  o.time_budget = std::chrono::seconds(600);
  for (int i = 2; i < argc; i += 2) {
    std::string arg = argv[i];
    if (i + 1 >= argc) return usage();
    long v = std::strtol(argv[i + 1], nullptr, 10);
    if (v < 0) return usage();
    if (arg == "--pages")
      o.max_pages = static_cast<int>(v);
    else if (arg == "--depth")
      o.depth = static_cast<int>(v);
    else if (arg == "--concurrency")
      o.scan.per_host_concurrency = static_cast<std::size_t>(v);
    else if (arg == "--interval-ms")
      o.scan.per_host_interval = std::chrono::milliseconds(v);
    else if (arg == "--budget-s")
      o.time_budget = std::chrono::seconds(v);
    else
      return usage();
  }
  // Room for every page of the site plus what robots.txt, sitemaps and 404s add.
  o.max_urls = std::max(o.max_urls, static_cast<std::size_t>(o.max_pages) * 4);

  dozor::net::global_init();
  const dozor::net::EgressPolicy policy(true);
  auto t0 = std::chrono::steady_clock::now();
  auto r = dozor::crawl::crawl(target, policy, o);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::size_t ok = 0, errors = 0;
  for (const auto& p : r.pages) {
    if (!p.error.empty())
      ++errors;
    else if (p.status >= 200 && p.status < 300)
      ++ok;
  }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  boost::json::object out{{"pages", r.pages.size()},
                          {"pages_ok", ok},
                          {"errors", errors},
                          {"requests", r.requests},
                          {"seconds", seconds},
                          {"pages_per_s", seconds > 0 ? static_cast<double>(ok) / seconds : 0.0},
                          {"peak_rss_kb", ru.ru_maxrss},
                          {"stopped", r.stopped},
                          {"forms", r.forms.size()},
                          {"scripts", r.scripts.size()},
                          {"sitemaps", r.sitemaps.size()},
                          {"concurrency", o.scan.per_host_concurrency},
                          {"interval_ms", o.scan.per_host_interval.count()}};
  std::cout << boost::json::serialize(out) << "\n";
  return r.stopped == "complete" || r.stopped == "max_pages" ? 0 : 1;
}
