#include "engines/scan/owasp/owasp.hpp"

#include <algorithm>
#include <boost/json/array.hpp>
#include <optional>
#include <set>
#include <thread>

#include "engines/crawl/unreachable.hpp"
#include "engines/net/unreachable.hpp"
#include "engines/scan/owasp/checks.hpp"
#include "engines/scan/owasp/oob_targets.hpp"
#include "engines/scan/owasp/points.hpp"
#include "engines/scan/owasp/replay.hpp"

namespace dozor::owasp {

std::string where_of(const Point& point) { return point.label() + " of " + point.url; }

namespace {

// The classic checks of one point, each at most one finding (docs/scan.md "OWASP scan").
void classic_checks(Scan& s, const Point& point, const Baseline& base) {
  check_xss(s, point);
  if (!check_sqli_error(s, point, base) && !check_sqli_boolean(s, point, base)) check_sqli_time(s, point, base);
  check_path_traversal(s, point, base);
  check_open_redirect(s, point);
  check_crlf(s, point);
  check_ssti(s, point, base);
  check_command_injection(s, point, base);
}

std::optional<Baseline> baseline(Prober& prober, const Point& point) {
  auto first = prober.send(point.original());
  if (!first) return std::nullopt;
  auto second = prober.send(point.original());
  if (!second) return std::nullopt;
  return Baseline{std::move(*first), std::move(*second)};
}

// Headers are many (two per page) and rarely used by the application: one request carries a
// canary in both, and only a header whose canary comes back gets the checks that need a
// reflection (XSS, template injection) and the error-based SQL injection check.
void header_checks(Scan& s, const std::vector<Point>& points, std::vector<TestedPoint>& tested) {
  for (std::size_t i = 0; i + 1 < points.size(); i += 2) {
    if (s.prober.stopped()) return;
    const auto& ua = points[i];
    const auto& referer = points[i + 1];
    auto ua_canary = make_canary(), referer_canary = make_canary();
    auto probe = ua.request(ua.value() + " " + ua_canary);
    auto sep = referer.value().find('?') == std::string::npos ? "?dz=" : "&dz=";
    probe.headers.push_back(referer.name() + ": " + referer.value() + sep + referer_canary);
    auto answer = s.prober.send(probe);
    if (!answer) return;
    for (const auto& [point, canary] : {std::pair{&ua, &ua_canary}, std::pair{&referer, &referer_canary}}) {
      if (answer->body.find(*canary) == std::string::npos) continue;
      auto base = baseline(s.prober, *point);
      if (!base) return;
      if (!base->first.responded) continue;
      check_xss(s, *point);
      check_sqli_error(s, *point, *base);
      check_ssti(s, *point, *base);
      if (s.prober.stopped()) return;
      tested.push_back({point->url, point->label(), point->source});
    }
  }
}

}  // namespace

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
  std::vector<audit::Finding> dom_findings;
  std::size_t dom_pages = 0;
  if (options.classic)
    c.on_page = [&](const crawl::PageSeen& page) {
      if (page.facts && dom_pages++ < limits::owasp::kDomPages)
        check_dom_xss(dom_findings, page.url, *page.facts, page.exchanges);
    };
  auto crawled = crawl::crawl(target, policy, c);
  // No answer from the target's own page: the scan tested nothing (docs/audit.md "A target that
  // cannot be reached").
  if (auto unreachable = crawl::start_unreachable(crawled); unreachable && !(options.cancelled && options.cancelled()))
    throw net::TargetUnreachable(*unreachable);
  for (auto& f : dom_findings) result.findings.push_back(std::move(f));
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
  std::string last_key;
  std::optional<Baseline> last_base;
  for (const auto& point : points) {
    if (prober.stopped()) break;
    bool ssrf = options.ssrf && ssrf_points < limits::oast::kSsrfPoints && url_like(point.name(), point.value());
    if (!options.classic && !ssrf) continue;
    // The parameters of one URL share its unmodified request (points come grouped by URL): one
    // baseline serves them all; only the last is kept (answers can be megabytes).
    auto original = point.original();
    auto key = original.method + " " + original.url + "\n" + original.body;
    if (!last_base || key != last_key) {
      last_base = baseline(prober, point);
      if (!last_base) break;
      last_key = key;
    }
    const Baseline* base = &*last_base;
    if (!base->first.responded) continue;  // nothing to compare with
    if (options.classic) classic_checks(s, point, *base);
    if (ssrf) {
      ++ssrf_points;
      check_ssrf(s, oob, point, *base);
    }
    if (prober.stopped()) break;
    result.tested.push_back({point.url, point.place == Place::Query ? point.name() : point.label(), point.source});
  }
  if (options.classic && !prober.stopped())
    header_checks(s, header_points(crawled, options.scan.user_agent, limits::owasp::kHeaderPages), result.tested);
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
