#include "engines/scan/access.hpp"

#include <algorithm>
#include <boost/url/parse.hpp>

#include "db/scan_access_repo.hpp"
#include "db/scan_verify_repo.hpp"
#include "db/services_repo.hpp"
#include "engines/limits.hpp"
#include "engines/net/url_check.hpp"

namespace dozor::scan {

std::string_view to_string(Reason r) {
  switch (r) {
    case Reason::Admin: return "admin";
    case Reason::Grant: return "grant";
    case Reason::Everyone: return "everyone";
    case Reason::Verified: return "verified";
    case Reason::OwnServiceGrace: return "own_service_grace";
    case Reason::NotVerified: return "not_verified";
    case Reason::OriginLimit: return "origin_limit";
    case Reason::NotOwned: break;
  }
  return "not_owned";
}

Policy policy_of(const config::ScannerConfig& c) { return {c.scan_any_target, c.ownership_grace}; }

std::string target_host(std::string_view url) {
  if (net::check_http_url(url)) return {};
  const std::string normal = net::normalize_http_url(url);  // the view below points into it
  auto parsed = boost::urls::parse_uri(normal);
  if (!parsed) return {};
  return std::string(parsed->encoded_host());
}

Decision decide(db::Connection& c, const db::users::User& caller, const std::string& target, const Policy& policy) {
  if (caller.is_admin) return {true, Reason::Admin};
  if (policy.scan_any_target) return {true, Reason::Everyone};
  if (db::scan_access::has_grant(c, caller.id)) return {true, Reason::Grant};
  auto host = target_host(target);
  if (host.empty()) return {false, Reason::NotOwned};
  auto origin = net::origin_of(target);
  if (db::scan_verify::is_verified(c, caller.id, host, origin)) return {true, Reason::Verified};
  bool owned = false;
  for (const auto& s : db::services::list_by_user(c, caller.id))
    if (target_host(s.url) == host) owned = true;
  if (!owned) return {false, Reason::NotOwned};
  if (policy.ownership_grace)
    for (const auto& url : db::scan_verify::grace_urls(c, caller.id))
      if (target_host(url) == host) return {true, Reason::OwnServiceGrace};
  return {false, Reason::NotVerified};
}

std::string refusal_message(const Decision& d, const std::string& target) {
  auto host = target_host(target);
  switch (d.reason) {
    case Reason::NotVerified:
      return "Active scans reach only the sites of your own services that you have verified: prove that you control " +
             host +
             " (request a token with POST /api/v1/scan-verifications, publish it as the file it names under"
             " /.well-known/dozor-verification/ or as a DNS TXT record, then verify it), or ask an admin for a scan"
             " grant";
    case Reason::OriginLimit:
      return "This scan already reached " + std::to_string(limits::scope::kOrigins) + " origins";
    default:
      return "Active scans reach only the sites of your own services that you have verified: add the site as a"
             " service and prove that you control it (POST /api/v1/scan-verifications), or ask an admin for a scan"
             " grant";
  }
}

Scope::Scope(const std::string& target, DecideFn decide, LogFn log) : decide_(std::move(decide)), log_(std::move(log)) {
  target_decision_ = decide_(target);
  log_(target, target_decision_);
  entries_.push_back({net::origin_of(target), target_decision_});
}

bool Scope::admit(const std::string& origin) {
  std::lock_guard lock(mutex_);
  // Nothing leaves a scan whose target was refused (it should never have started).
  if (!target_decision_.allowed) return false;
  for (const auto& e : entries_)
    if (e.origin == origin) return e.decision.allowed;
  if (entries_.size() >= limits::scope::kOrigins) {
    if (!limit_logged_) {
      limit_logged_ = true;
      log_(origin, {false, Reason::OriginLimit});
    }
    return false;
  }
  Decision d = decide_(origin);
  log_(origin, d);
  entries_.push_back({origin, d});
  return d.allowed;
}

net::OriginScope Scope::gate() {
  return [self = shared_from_this()](const std::string& origin) { return self->admit(origin); };
}

std::vector<Scope::Entry> Scope::entries() const {
  std::lock_guard lock(mutex_);
  return entries_;
}

namespace {

void write_log(db::Database& db, std::int64_t user_id, const std::string& kind, const std::string& target,
               std::string_view via, const Decision& d) {
  db::scan_access::LogEntry e;
  e.user_id = user_id;
  e.kind = kind;
  e.target = target;
  e.via = std::string(via);
  e.allowed = d.allowed;
  e.reason = std::string(to_string(d.reason));
  db.run([&](db::Connection& c) { db::scan_access::log(c, e); }, db::Retry::Never);
}

}  // namespace

std::shared_ptr<Scope> open_scope(db::Database& db, const db::users::User& caller, const std::string& kind,
                                  const std::string& target, std::string_view via, const Policy& policy) {
  auto decide_one = [&db, caller, policy](const std::string& url) {
    Decision d;
    db.run([&](db::Connection& c) { d = decide(c, caller, url, policy); }, db::Retry::OnLostConnection);
    return d;
  };
  auto log_one = [&db, user_id = caller.id, kind, via = std::string(via)](const std::string& url, const Decision& d) {
    write_log(db, user_id, kind, url, via, d);
  };
  return std::make_shared<Scope>(target, decide_one, log_one);
}

audit::Probing audit_probing(const std::shared_ptr<Scope>& scope) {
  audit::Probing p;
  p.allowed = scope->target_decision().allowed;
  p.reason = std::string(to_string(scope->target_decision().reason));
  if (p.allowed) p.scope = scope->gate();
  return p;
}

Decision decide_and_log(db::Database& db, const db::users::User& caller, const std::string& kind,
                        const std::string& target, std::string_view via, const Policy& policy) {
  Decision d;
  db.run([&](db::Connection& c) { d = decide(c, caller, target, policy); }, db::Retry::OnLostConnection);
  write_log(db, caller.id, kind, target, via, d);
  return d;
}

}  // namespace dozor::scan
