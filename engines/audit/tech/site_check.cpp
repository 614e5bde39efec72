#include "engines/audit/tech/site_check.hpp"

#include <boost/json/array.hpp>

#include "engines/audit/tech/probes.hpp"
#include "engines/crawl/charset.hpp"
#include "engines/crawl/crawler.hpp"
#include "engines/crawl/html_extract.hpp"
#include "engines/limits.hpp"

namespace dozor::audit::tech {
namespace {

using Clock = std::chrono::steady_clock;

bool same_origin(const std::string& a, const std::string& b) { return net::origin_of(a) == net::origin_of(b); }

}  // namespace

SiteReport detect_site(const std::string& target, const net::EgressPolicy& policy, net::ScanOptions options,
                       const Fingerprints& fp, const VulnLibraries& libs, const Probing& probing) {
  SiteReport report;
  report.target = target;
  auto start = Clock::now();
  auto timeout = options.request_timeout;
  if (probing.allowed) options.scope = probing.scope;  // the probes' redirects are decided too
  net::ScanSession session(policy, std::move(options));

  net::FetchRequest req;
  req.url = target;
  req.headers = {"Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"};
  req.oversize_is_error = false;  // the head of a huge page is still worth reading
  auto page = session.fetch(req);
  bool verify = true;
  if (page.kind == net::CheckError::Tls) {  // a self-signed site still has technologies
    req.verify_tls = verify = false;
    page = session.fetch(req);
  }
  if (!page.responded) {
    report.error = page.error.empty() ? std::string("no answer") : page.error;
    report.requests = session.started();
    report.duration_ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
    return report;
  }
  report.url = page.final_url;
  report.status = page.status;

  Detector detector(fp);
  LibraryScanner scanner(libs);
  std::string content_type;
  if (!page.exchanges.empty())
    content_type = net::first_header(page.exchanges.back().response_headers, "content-type").value_or("");
  std::string html;
  crawl::PageFacts facts;
  bool is_html = crawl::is_html_type(content_type, page.body);
  if (is_html) {
    html = crawl::to_utf8(page.body, content_type);
    facts = crawl::extract_html(html, page.final_url);
  }
  crawl::PageSeen seen{
      page.final_url, 0, page.status, page.exchanges, is_html ? &html : nullptr, is_html ? &facts : nullptr};
  detector.page(seen);
  scanner.page(seen);

  queue_probes(page.final_url, fp, session, detector, verify, probing.allowed);
  if (auto unlinked = unlinked_probe_paths(fp); !probing.allowed && !unlinked.empty()) {
    std::string paths;
    for (const auto& p : unlinked) paths += (paths.empty() ? "" : ", ") + p;
    report.skipped.push_back({"technology-probes", probing.reason,
                              skipped_detail("The fingerprints' probes (" + paths + ")", probing.reason)});
  }
  std::size_t fetched = 0;
  for (const auto& s : facts.scripts) {
    if (fetched >= limits::tech::kScriptBodies) break;
    if (s.src.empty() || !same_origin(s.src, page.final_url) || !scanner.worth_fetching(s.src)) continue;
    net::FetchRequest sr;
    sr.url = s.src;
    sr.headers = {"Accept: */*"};
    sr.verify_tls = verify;
    sr.oversize_is_error = false;
    std::string src = s.src, page_url = page.final_url;
    session.submit(std::move(sr), [&scanner, src, page_url](const net::CheckOutcome& o) {
      if (o.responded && o.kind == net::CheckError::None && o.status >= 200 && o.status < 300)
        scanner.script_text(std::string_view(o.body).substr(0, limits::tech::kProbeBodyBytes), src, page_url);
    });
    ++fetched;
  }
  session.run(Clock::now() + timeout);

  report.technologies = detector.results();
  fill_versions(report.technologies, scanner.seen());
  report.vulnerable_libraries = scanner.vulnerable();
  report.requests = session.started();
  report.duration_ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
  return report;
}

boost::json::object to_json(const SiteReport& report, const Fingerprints& fp) {
  return boost::json::object{
      {"target", report.target},
      {"url", report.url.empty() ? boost::json::value(nullptr) : boost::json::value(report.url)},
      {"status_code", report.status == 0 ? boost::json::value(nullptr) : boost::json::value(report.status)},
      {"technologies", to_json(report.technologies, fp)},
      {"vulnerable_libraries", to_json(report.vulnerable_libraries)},
      {"requests", report.requests},
      {"duration_ms", report.duration_ms},
      {"error", report.error ? boost::json::value(*report.error) : boost::json::value(nullptr)},
      {"skipped", skipped_json(report.skipped)},
  };
}

}  // namespace dozor::audit::tech
