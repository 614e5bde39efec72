// POST /api/security/scanner/{target_url}?severity=critical,high (docs/audit.md "Template scanner"):
// decode the target and the severities, load the template folders, run the scanner, encode.
#include <boost/json/array.hpp>
#include <chrono>
#include <filesystem>
#include <sstream>

#include "engines/limits.hpp"
#include "engines/scan/templates/scanner.hpp"
#include "handlers/handlers.hpp"
#include "handlers/scan_params.hpp"
#include "handlers/validation.hpp"

namespace dozor::handlers {
namespace {

namespace tpl = scan::templates;

// ?severity=a,b (absent or empty: all); every unknown name is a 422 issue.
std::set<audit::Severity> severities(const http::Request& request, std::vector<http::FieldIssue>& issues) {
  std::set<audit::Severity> out;
  auto text = request.query_param("severity").value_or("");
  std::istringstream in(text);
  std::string one;
  while (std::getline(in, one, ',')) {
    if (one.empty()) continue;
    if (auto s = audit::severity_from(one)) {
      out.insert(*s);
      continue;
    }
    issues.push_back({"enum", boost::json::array{"query", "severity"},
                      "Input should be 'info', 'low', 'medium', 'high' or 'critical'", boost::json::value(one),
                      boost::json::object{{"expected", "'info', 'low', 'medium', 'high' or 'critical'"}}});
  }
  return out;
}

// The shipped set (share/scan/templates beside paths.audit_data), then scanner.templates_dirs.
std::vector<std::filesystem::path> template_dirs(const config::Config& cfg) {
  std::vector<std::filesystem::path> dirs{std::filesystem::path(cfg.paths.audit_data).lexically_normal().parent_path() /
                                          "scan" / "templates"};
  std::istringstream in(cfg.scanner.templates_dirs);
  std::string one;
  while (std::getline(in, one, ':'))
    if (!one.empty()) dirs.emplace_back(one);
  return dirs;
}

}  // namespace

Response scanner_run(UserContext& ctx) {
  auto target = path_target_url(ctx.path.at("target_url"));
  std::vector<http::FieldIssue> issues;
  auto wanted = severities(ctx.request, issues);
  if (!issues.empty()) throw http::ValidationFailed(std::move(issues));
  auto started = std::chrono::steady_clock::now();
  auto library = tpl::load_library(template_dirs(ctx.app.cfg));
  tpl::RunOptions o;
  o.scan = scan_options(ctx.app.cfg.scanner);
  o.severities = wanted;
  o.deadline = started + std::chrono::seconds(ctx.app.cfg.scanner.audit_seconds);
  auto slot = ctx.app.check_slots.acquire(ctx.caller.id);
  auto result = tpl::run(target, library.loaded, ctx.app.egress, o);
  boost::json::array findings, skipped, errors;
  for (const auto& f : result.findings) findings.push_back(tpl::to_json(f));
  for (std::size_t i = 0; i < library.skipped.size() && i < limits::templates::kSkippedListed; ++i) {
    const auto& s = library.skipped[i];
    skipped.push_back({{"file", s.file}, {"id", s.id}, {"reason", s.reason}});
  }
  for (const auto& e : result.errors) errors.push_back(boost::json::string(e));
  boost::json::array sev;
  for (auto s : wanted) sev.push_back(boost::json::string(audit::to_string(s)));
  boost::json::object out{
      {"target", target},
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
  return Response::json(std::move(out));
}

}  // namespace dozor::handlers
