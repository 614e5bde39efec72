#include "engines/scan/owasp/owasp.hpp"

#include <algorithm>
#include <boost/json/array.hpp>
#include <set>
#include <thread>

#include "engines/scan/owasp/checks.hpp"
#include "engines/scan/owasp/oob_targets.hpp"
#include "engines/scan/owasp/points.hpp"

namespace dozor::owasp {

std::string where_of(const Point& point) { return "parameter " + point.name() + " of " + point.url; }

OwaspResult scan(const std::string& target, const net::EgressPolicy& policy, const SqlErrors& sql,
                 OwaspOptions options) {
  using Clock = std::chrono::steady_clock;
  auto started = Clock::now();
  auto deadline = started + options.budget;
  OwaspResult result;
  result.target = target;

  // The rate limit: requests to one origin start at least 1/rate seconds apart, one at a time.
  auto rate = std::max(1, options.requests_per_second);
  options.scan.per_host_interval = std::max(options.scan.per_host_interval, std::chrono::milliseconds(1000 / rate));
  options.scan.per_host_concurrency = 1;

  crawl::CrawlOptions c;
  c.depth = options.depth;
  c.max_pages = options.max_pages;
  c.scan = options.scan;
  c.time_budget = std::min(std::chrono::duration_cast<std::chrono::milliseconds>(options.budget / 4),
                           std::chrono::milliseconds(limits::owasp::kCrawlShareMs));
  c.max_scripts = 10;
  auto crawled = crawl::crawl(target, policy, c);
  result.pages = crawled.pages.size();
  result.crawl_requests = crawled.requests;

  // The probes' session has pacing of its own: one interval after the crawl's last start keeps the
  // rate across the handover.
  std::this_thread::sleep_for(options.scan.per_host_interval);
  Prober prober(policy, options.scan, options.request_cap, deadline, options.cancelled);
  Scan s{prober, sql, result.findings};
  auto points = injection_points(crawled, limits::owasp::kInjectionPoints);
  result.points = points.size();

  Oob oob({options.oast_base_url, options.oast_store});
  result.oast_enabled = oob.enabled();

  // Site-wide checks first: they are few requests and need no crawl results but the pages' URLs.
  if (options.classic) {
    std::vector<std::string> cors_urls{target};
    for (const auto& page : crawled.pages)
      if (page.status >= 200 && page.status < 300 && cors_urls.size() < limits::owasp::kCorsTargets &&
          std::find(cors_urls.begin(), cors_urls.end(), page.final_url) == cors_urls.end())
        cors_urls.push_back(page.final_url);
    check_cors(s, cors_urls);
    check_methods(s, target);
  }

  std::size_t ssrf_points = 0;
  for (const auto& point : points) {
    if (prober.stopped()) break;
    bool ssrf = options.ssrf && ssrf_points < limits::oast::kSsrfPoints && url_like(point.name(), point.value());
    if (!options.classic && !ssrf) continue;
    Baseline base;
    auto first = prober.send(get_request(point.original()));
    if (!first) break;
    auto second = prober.send(get_request(point.original()));
    if (!second) break;
    base.first = std::move(*first);
    base.second = std::move(*second);
    if (!base.first.responded) continue;  // nothing to compare with
    if (options.classic) {
      check_xss(s, point);
      if (!check_sqli_error(s, point, base)) check_sqli_boolean(s, point, base);
      check_path_traversal(s, point, base);
      check_open_redirect(s, point);
      check_crlf(s, point);
      check_ssti(s, point, base);
      check_command_injection(s, point, base);
    }
    if (ssrf) {
      ++ssrf_points;
      check_ssrf(s, oob, point, base);
    }
    if (prober.stopped()) break;
    result.tested.push_back({point.url, point.name(), point.source});
  }
  if (options.xxe)
    for (const auto& url : xml_endpoints(crawled, limits::oast::kXmlEndpoints)) {
      if (prober.stopped()) break;
      check_xxe(s, oob, url);
      if (prober.stopped()) break;
      result.tested.push_back({url, "(XML body)", "xml"});
    }
  result.oast_hits = oob.finish(s);
  result.oast_probes = oob.probes();
  if (prober.stopped()) result.stopped = prober.stop_reason();
  result.requests = prober.sent();
  std::stable_sort(result.findings.begin(), result.findings.end(),
                   [](const auto& a, const auto& b) { return a.severity > b.severity; });
  result.duration_ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count();
  return result;
}

boost::json::object to_json(const OwaspResult& r) {
  boost::json::array findings, tested;
  for (const auto& f : r.findings) findings.push_back(audit::to_json(f));
  for (const auto& t : r.tested) tested.push_back({{"url", t.url}, {"param", t.param}, {"source", t.source}});
  boost::json::object by_category;
  for (const auto& f : r.findings) {
    auto& n = by_category[f.owasp.empty() ? "none" : f.owasp];
    n = n.is_int64() ? n.as_int64() + 1 : 1;
  }
  boost::json::array hits;
  for (const auto& h : r.oast_hits)
    hits.push_back({{"token", h.probe.token},
                    {"kind", h.probe.kind},
                    {"url", h.probe.url},
                    {"method", h.probe.method},
                    {"param", h.probe.param},
                    {"received_at", h.hit.received_at},
                    {"source", h.hit.source},
                    {"hit_method", h.hit.method},
                    {"hit_path", h.hit.path}});
  boost::json::object oast{{"enabled", r.oast_enabled}, {"probes", r.oast_probes}, {"hits", std::move(hits)}};
  return {{"target", r.target},
          {"stopped", r.stopped},
          {"pages", r.pages},
          {"points", r.points},
          {"tested", std::move(tested)},
          {"requests", r.requests},
          {"crawl_requests", r.crawl_requests},
          {"duration_ms", r.duration_ms},
          {"by_category", std::move(by_category)},
          {"oast", std::move(oast)},
          {"findings", std::move(findings)}};
}

}  // namespace dozor::owasp
