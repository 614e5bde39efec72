#include "engines/scan/templates/site_scan.hpp"

#include <boost/json/array.hpp>
#include <sstream>

#include "engines/limits.hpp"
#include "engines/scan/templates/scanner.hpp"

namespace dozor::scan::templates {

std::vector<std::filesystem::path> template_dirs(const config::Config& cfg) {
  std::vector<std::filesystem::path> dirs{std::filesystem::path(cfg.paths.audit_data).lexically_normal().parent_path() /
                                          "scan" / "templates"};
  std::istringstream in(cfg.scanner.templates_dirs);
  std::string one;
  while (std::getline(in, one, ':'))
    if (!one.empty()) dirs.emplace_back(one);
  return dirs;
}

std::set<audit::Severity> default_severities() {
  using audit::Severity;
  return {Severity::Critical, Severity::High, Severity::Medium, Severity::Low};
}

boost::json::object scan_site(const std::string& target, const config::Config& cfg, const net::EgressPolicy& policy,
                              const std::set<audit::Severity>& asked, const net::ScanOptions& scan,
                              std::chrono::steady_clock::time_point deadline) {
  auto started = std::chrono::steady_clock::now();
  const auto severities = asked.empty() ? default_severities() : asked;
  auto library = load_library(template_dirs(cfg));
  RunOptions o;
  o.scan = scan;
  o.severities = severities;
  o.deadline = deadline;
  o.cancelled = [cancel = scan.cancel] { return cancel.cancelled(); };
  auto result = run(target, library.loaded, policy, o);
  boost::json::array findings, skipped, errors;
  for (const auto& f : result.findings) findings.push_back(to_json(f));
  for (std::size_t i = 0; i < library.skipped.size() && i < limits::templates::kSkippedListed; ++i) {
    const auto& s = library.skipped[i];
    skipped.push_back({{"file", s.file}, {"id", s.id}, {"reason", s.reason}});
  }
  for (const auto& e : result.errors) errors.push_back(boost::json::string(e));
  boost::json::array sev;
  for (auto s : severities) sev.push_back(boost::json::string(audit::to_string(s)));
  return {{"target", target},
          {"severity", std::move(sev)},
          {"templates",
           {{"loaded", library.loaded.size()},
            {"selected", result.templates_selected},
            {"run", result.templates_run},
            {"skipped", library.skipped.size()}}},
          {"requests", result.requests},
          {"failed_requests", result.failed_requests},
          {"complete", result.complete},
          {"duration_ms",
           std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count()},
          {"findings", std::move(findings)},
          {"skipped", std::move(skipped)},
          {"errors", std::move(errors)}};
}

}  // namespace dozor::scan::templates
