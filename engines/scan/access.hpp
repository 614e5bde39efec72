#pragma once
// Who may actively scan what (issue 9 §3, issue 26 §2; docs/scan.md "Who may scan what"). An
// active scan is attack traffic, so a user scans only what they proved they control (a token
// file or a DNS TXT record, engines/scan/verify) unless they are an admin, an admin granted them
// any target, or the install says so for everyone (scanner.scan_any_target). Owning a service
// is no proof: only the services that existed before the upgrade keep scanning for a while
// (the ownership grace, migration 0028). Every decision is logged, and a scan asks the same
// decision for every origin it would touch (a redirect elsewhere, an API document's servers).
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "db/database.hpp"
#include "db/users_repo.hpp"
#include "engines/audit/full_audit.hpp"
#include "engines/config/config.hpp"
#include "engines/net/scan_client.hpp"

namespace dozor::scan {

enum class Reason {
  Admin,
  Grant,
  Everyone,
  Verified,         // the caller proved control of the host (or of exactly this origin)
  OwnServiceGrace,  // a service of the caller that predates proof of control, within its grace
  NotVerified,      // refused: the host is one of the caller's services, but control is not proven
  NotOwned,         // refused: nothing links the caller to the host
  OriginLimit,      // refused: the scan already asked limits::scope::kOrigins origins
};
// "admin", "grant", "everyone", "verified", "own_service_grace", "not_verified", "not_owned",
// "origin_limit" (the scan log's words; older entries may say "own_service").
std::string_view to_string(Reason r);

struct Decision {
  bool allowed = false;
  Reason reason = Reason::NotOwned;
};

// The configuration's part of the decision.
struct Policy {
  bool scan_any_target = false;  // scanner.scan_any_target
  bool ownership_grace = true;   // scanner.ownership_grace
};
Policy policy_of(const config::ScannerConfig& c);

// The host of an http(s) URL, lower case ("" when it is none).
std::string target_host(std::string_view url);

Decision decide(db::Connection& c, const db::users::User& caller, const std::string& target, const Policy& policy);

// What a refusal tells the caller (the 403's detail, a task's error): how to get the right.
std::string refusal_message(const Decision& d, const std::string& target);

// The origins one scan touches, each decided once and logged once (`kind` the scan's name, `via`
// inline | task | schedule). The target's decision comes first; every other origin a request or
// a redirect would reach is decided when first met. Past limits::scope::kOrigins decisions, any
// new origin is refused (logged once as origin_limit). Thread-safe.
class Scope : public std::enable_shared_from_this<Scope> {
 public:
  using DecideFn = std::function<Decision(const std::string& url)>;
  using LogFn = std::function<void(const std::string& url, const Decision& d)>;

  // Decides and logs `target` at once.
  Scope(const std::string& target, DecideFn decide, LogFn log);

  const Decision& target_decision() const { return target_decision_; }
  bool admit(const std::string& origin);
  // For net::ScanOptions::scope (holds this scope alive).
  net::OriginScope gate();

  struct Entry {
    std::string origin;
    Decision decision;
  };
  std::vector<Entry> entries() const;  // in the order first met

 private:
  DecideFn decide_;
  LogFn log_;
  Decision target_decision_;
  mutable std::mutex mutex_;
  std::vector<Entry> entries_;
  bool limit_logged_ = false;
};

// A scope whose decisions are decide() on the database and whose log is the scan log.
std::shared_ptr<Scope> open_scope(db::Database& db, const db::users::User& caller, const std::string& kind,
                                  const std::string& target, std::string_view via, const Policy& policy);

// An audit's permission to probe paths the site does not link, from a scope opened for it (kind
// "audit-probes"): allowed as the target's decision is, with the scope's gate for the probes.
audit::Probing audit_probing(const std::shared_ptr<Scope>& scope);

// decide(), then the scan log's entry for it (`kind` the scan's name, `via` inline | task | schedule).
Decision decide_and_log(db::Database& db, const db::users::User& caller, const std::string& kind,
                        const std::string& target, std::string_view via, const Policy& policy);

}  // namespace dozor::scan
