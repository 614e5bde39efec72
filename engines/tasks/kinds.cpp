#include "engines/tasks/kinds.hpp"

#include <algorithm>
#include <boost/json/array.hpp>
#include <set>
#include <stdexcept>

#include "db/users_repo.hpp"
#include "engines/audit/compose.hpp"
#include "engines/audit/finding.hpp"
#include "engines/audit/store.hpp"
#include "engines/crawl/crawler.hpp"
#include "engines/limits.hpp"
#include "engines/scan/access.hpp"
#include "engines/scan/api/api_check.hpp"
#include "engines/scan/auth/auth_scan.hpp"
#include "engines/scan/endpoints/discover.hpp"
#include "engines/scan/oast/store.hpp"
#include "engines/scan/owasp/owasp.hpp"
#include "engines/scan/owasp/stored.hpp"
#include "engines/scan/templates/site_scan.hpp"
#include "engines/tasks/owasp_alert.hpp"

namespace dozor::tasks {
namespace {

const std::vector<IntOption>& crawl_options() {
  static const std::vector<IntOption> options = {
      {"depth", 0, limits::kCrawlDepthMax, limits::kCrawlDepthDefault},
      {"max_pages", 1, limits::kCrawlPagesMax, limits::kCrawlPagesDefault},
  };
  return options;
}

std::optional<OptionProblem> check_auth_scan_options(const boost::json::object& options, const std::string& target) {
  auto problem = authscan::check_credentials(authscan::credentials_from(options), target);
  if (!problem) return std::nullopt;
  return OptionProblem{problem->field, problem->message};
}

// scanner: "severity" as the inline route's ?severity= list.
std::optional<OptionProblem> check_scanner_options(const boost::json::object& options, const std::string&) {
  const auto* text = options.if_contains("severity");
  if (!text) return std::nullopt;
  auto unknown = audit::severities_from(text->as_string()).unknown;
  if (unknown.empty()) return std::nullopt;
  return OptionProblem{"severity",
                       "unknown severity '" + unknown.front() + "': expected " + std::string(audit::kSeverityChoices)};
}

const std::vector<KindSpec>& kinds() {
  static const std::vector<KindSpec> all = {
      {"scan", crawl_options()},
      {"audit", crawl_options()},
      {"crawl", crawl_options()},
      {"owasp", crawl_options(), true},
      {"scanner", {}, true, {{"severity", limits::kSeverityListChars}}, check_scanner_options},
      {"endpoints",
       {{"timeout", limits::endpoints::kTimeoutMin, limits::endpoints::kTimeoutMax,
         limits::endpoints::kTimeoutDefault}},
       true},
      {"api-check",
       {{"max_operations", 1, static_cast<int>(limits::api::kOperations), static_cast<int>(limits::api::kOperations)}},
       true},
      {"auth-scan",
       {},
       true,
       {{"username", limits::auth::kFieldChars},
        {"password", limits::auth::kFieldChars},
        {"login_url", limits::auth::kFieldChars},
        {"cookie", limits::auth::kHeaderChars},
        {"bearer", limits::auth::kHeaderChars}},
       check_auth_scan_options},
  };
  return all;
}

int int_option(const boost::json::object& options, const char* name) {
  return static_cast<int>(options.at(name).to_number<std::int64_t>());
}

// What every kind starts from: the configured scan client, stopped by the task's token, and the
// task's time budget; an active kind's requests within its scope (decided when the task runs).
net::ScanOptions task_scan(const TaskEnv& env, const CancelToken& cancel, const net::OriginScope& scope = {}) {
  auto scan = audit::scan_options(env.cfg.scanner);
  scan.cancel = cancel;
  scan.scope = scope;
  return scan;
}

db::users::User task_owner(const TaskEnv& env, const TaskSpec& task) {
  std::optional<db::users::User> user;
  env.db.run([&](db::Connection& c) { user = db::users::find_by_id(c, task.user_id); }, db::Retry::OnLostConnection);
  if (!user) throw std::runtime_error("the task's owner no longer exists");
  return *user;
}

// A task runs with the permission its owner has when it starts, not when it was queued (a grant
// revoked, a proof expired meanwhile): the same decision as the inline routes, logged. A
// schedule's run is logged as "schedule".
std::shared_ptr<scan::Scope> task_scope(const TaskEnv& env, const TaskSpec& task, const std::string& kind) {
  auto user = task_owner(env, task);
  const char* via = task.service_id ? "schedule" : "task";
  auto scope = scan::open_scope(env.db, user, kind, task.target, via, scan::policy_of(env.cfg.scanner));
  if (!scope->target_decision().allowed)
    throw std::runtime_error(scan::refusal_message(scope->target_decision(), task.target));
  return scope;
}

std::chrono::seconds task_budget(const TaskEnv& env) { return std::chrono::seconds(env.cfg.tasks.task_seconds); }

// The active scans' options (OWASP, API check, auth scan) share these three: the task's client,
// budget and cancellation.
template <class Options>
void bound_by_task(Options& o, const TaskEnv& env, const CancelToken& cancel, const net::OriginScope& scope) {
  o.scan = task_scan(env, cancel, scope);
  o.budget = task_budget(env);
  o.cancelled = [cancel] { return cancel.cancelled(); };
}

TaskOutcome run_crawl(const TaskEnv& env, const TaskSpec& task, const CancelToken& cancel, const ProgressFn& progress) {
  crawl::CrawlOptions o;
  o.depth = int_option(task.options, "depth");
  o.max_pages = int_option(task.options, "max_pages");
  o.scan = task_scan(env, cancel);
  o.time_budget = task_budget(env);
  std::size_t pages = 0;
  o.on_page = [&](const crawl::PageSeen&) {
    ++pages;
    progress(static_cast<int>(std::min<std::size_t>(99, pages * 100 / static_cast<std::size_t>(o.max_pages))),
             "crawl: " + std::to_string(pages) + " pages");
  };
  progress(0, "crawl");
  auto result = crawl::crawl(task.target, env.egress, o);
  return {crawl::to_json(result), std::nullopt};
}

TaskOutcome run_audit(const TaskEnv& env, const TaskSpec& task, const CancelToken& cancel, const ProgressFn& progress) {
  const char* kind = task.kind == "scan" ? "full" : "audit";
  auto o = audit::audit_options(env.cfg.scanner, kind);
  o.depth = int_option(task.options, "depth");
  o.max_pages = int_option(task.options, "max_pages");
  o.scan.cancel = cancel;  // the audit's own client settings (audit_options), stopped by the token
  o.time_budget = task_budget(env);
  o.crawl_budget = o.time_budget;
  // Exposures and unlinked probes only with the owner's scan permission, decided now and logged.
  auto probing =
      scan::audit_probing(scan::open_scope(env.db, task_owner(env, task), "audit-probes", task.target,
                                           task.service_id ? "schedule" : "task", scan::policy_of(env.cfg.scanner)));
  auto plan = audit::plan_for(*env.audit_data, env.cfg.scanner, kind, task.target,
                              audit::analyzer_access(env.cfg, env.jwt_key, task.user_id), probing);
  // Progress counts the audit's parts as they start: the steps before the crawl, the crawl, the steps after.
  const std::size_t parts = plan.before_crawl.size() + 1 + plan.after_crawl.size();
  std::size_t started = 0;
  o.on_progress = [&](const std::string& phase) {
    progress(static_cast<int>(std::min<std::size_t>(99, started * 100 / parts)), phase);
    ++started;
  };
  auto report = audit::run_audit(task.target, env.egress, o, std::move(plan));
  if (cancel.cancelled()) return {audit::to_json(report), std::nullopt};  // not stored: the task is cancelled
  auto stored = audit::store::save(env.db, task.user_id, report);
  std::optional<std::int64_t> id;
  if (const auto* v = stored.if_contains("id"); v && v->is_number()) id = v->to_number<std::int64_t>();
  return {std::move(stored), id};
}

TaskOutcome run_owasp(const TaskEnv& env, const TaskSpec& task, const CancelToken& cancel, const ProgressFn& progress,
                      const net::OriginScope& scope) {
  owasp::OwaspOptions o;
  o.depth = int_option(task.options, "depth");
  o.max_pages = int_option(task.options, "max_pages");
  bound_by_task(o, env, cancel, scope);
  oast::DbStore store(env.db);  // out-of-band proofs of XXE and SSRF (docs/scan.md)
  o.oast_base_url = env.cfg.scanner.oast_base_url;
  o.oast_store = &store;
  progress(0, "owasp");
  auto result = owasp::scan(task.target, env.egress, env.audit_data->sql_errors, std::move(o));
  if (cancel.cancelled()) return {owasp::to_json(result), std::nullopt};  // not stored: the task is cancelled
  auto stored = owasp::save(env.db, task.user_id, result);
  // Only schedules queue OWASP tasks for a service; their new serious findings are told once.
  if (task.service_id) alert_new_serious(env.db, task.user_id, *task.service_id, stored);
  return {owasp::scan_answer(result, stored), stored.at("id").to_number<std::int64_t>()};
}

TaskOutcome run_scanner(const TaskEnv& env, const TaskSpec& task, const CancelToken& cancel, const ProgressFn& progress,
                        const net::OriginScope& scope) {
  progress(0, "templates");
  auto deadline = std::chrono::steady_clock::now() + task_budget(env);
  std::set<audit::Severity> wanted;  // absent or empty: critical,high,medium,low (scan_site)
  if (const auto* text = task.options.if_contains("severity"))
    wanted = audit::severities_from(text->as_string()).wanted;
  return {scan::templates::scan_site(task.target, env.cfg, env.egress, wanted, task_scan(env, cancel, scope), deadline),
          std::nullopt};
}

TaskOutcome run_endpoints(const TaskEnv& env, const TaskSpec& task, const CancelToken& cancel,
                          const ProgressFn& progress, const net::OriginScope& scope) {
  endpoints::Options o;
  o.timeout = std::chrono::seconds(int_option(task.options, "timeout"));
  o.scan = task_scan(env, cancel, scope);
  progress(0, "endpoints");
  auto r = endpoints::discover(task.target, env.egress, env.audit_data->endpoint_paths, std::move(o));
  return {endpoints::to_json(r), std::nullopt};
}

TaskOutcome run_api_check(const TaskEnv& env, const TaskSpec& task, const CancelToken& cancel,
                          const ProgressFn& progress, const net::OriginScope& scope) {
  api::Options o;
  o.max_operations = static_cast<std::size_t>(int_option(task.options, "max_operations"));
  bound_by_task(o, env, cancel, scope);
  progress(0, "api-check");
  auto r =
      api::check(task.target, env.egress, env.audit_data->endpoint_paths, env.audit_data->jwt_secrets, std::move(o));
  return {api::to_json(r), std::nullopt};
}

// The credentials are in the task's options (docs/scan.md "Auth scan": stored, never shown).
TaskOutcome run_auth_scan(const TaskEnv& env, const TaskSpec& task, const CancelToken& cancel,
                          const ProgressFn& progress, const net::OriginScope& scope) {
  authscan::AuthOptions o;
  o.credentials = authscan::credentials_from(task.options);
  bound_by_task(o, env, cancel, scope);
  o.page_observers = audit::page_observers_for(*env.audit_data, env.cfg.scanner, task.target);
  progress(0, "auth-scan");
  auto r =
      authscan::scan(task.target, env.egress, env.audit_data->default_credentials, env.audit_data->tech, std::move(o));
  return {authscan::to_json(r), std::nullopt};
}

TaskOutcome run_active(const TaskEnv& env, const TaskSpec& task, const CancelToken& cancel,
                       const ProgressFn& progress) {
  auto scope = task_scope(env, task, task.kind);
  auto gate = scope->gate();
  TaskOutcome out;
  if (task.kind == "scanner")
    out = run_scanner(env, task, cancel, progress, gate);
  else if (!env.audit_data)
    throw std::runtime_error("audit data not loaded");
  else if (task.kind == "owasp")
    out = run_owasp(env, task, cancel, progress, gate);
  else if (task.kind == "endpoints")
    out = run_endpoints(env, task, cancel, progress, gate);
  else if (task.kind == "api-check")
    out = run_api_check(env, task, cancel, progress, gate);
  else
    out = run_auth_scan(env, task, cancel, progress, gate);
  boost::json::array origins;
  for (const auto& e : scope->entries())
    origins.push_back(
        {{"origin", e.origin}, {"allowed", e.decision.allowed}, {"reason", scan::to_string(e.decision.reason)}});
  out.result["scope"] = std::move(origins);
  return out;
}

}  // namespace

const KindSpec* find_kind(std::string_view name) {
  for (const auto& k : kinds())
    if (k.name == name) return &k;
  return nullptr;
}

std::string kind_list() {
  std::string out;
  const auto& all = kinds();
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (i > 0) out += i + 1 == all.size() ? " or " : ", ";
    out += "'" + std::string(all[i].name) + "'";
  }
  return out;
}

TaskOutcome run_kind(const TaskEnv& env, const TaskSpec& task, const CancelToken& cancel, const ProgressFn& progress) {
  const auto* kind = find_kind(task.kind);
  if (!kind) throw std::runtime_error("unknown task kind '" + task.kind + "'");
  if (kind->active) return run_active(env, task, cancel, progress);
  if (task.kind == "crawl") return run_crawl(env, task, cancel, progress);
  if (!env.audit_data) throw std::runtime_error("audit data not loaded");
  return run_audit(env, task, cancel, progress);
}

}  // namespace dozor::tasks
