#pragma once
// The auth scan (issue 9 §2, docs/scan.md "Auth scan"): find the login forms of a site (crawl and
// a short list of well-known login paths) and judge its authentication surface — login over
// plain HTTP, password autocomplete, user enumeration, missing lockout, session cookie flags,
// default credentials on panels that technology detection identified; with credentials (a form
// login, a cookie or a bearer header) log in, verify the session, test session fixation, crawl
// as that user and as anonymous and report what only the user reaches, running the passive
// audit's page observers over the logged-in pages (findings the anonymous pages show are not
// repeated). Bounded by a request cap,
// a per-origin rate, a deadline and a cancellation test between requests; secrets never reach
// the result (evidence is redacted).
#include <boost/json/object.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engines/audit/finding.hpp"
#include "engines/audit/observer.hpp"
#include "engines/audit/tech/fingerprints.hpp"
#include "engines/limits.hpp"
#include "engines/net/egress_policy.hpp"
#include "engines/net/scan_client.hpp"
#include "engines/scan/auth/default_credentials.hpp"

namespace dozor::authscan {

// At most one way of logging in: username + password (with an optional login_url), a cookie
// header value, or a bearer token. All empty: the anonymous scan.
struct Credentials {
  std::string username;
  std::string password;
  std::string login_url;
  std::string cookie;
  std::string bearer;

  std::string mode() const;  // anonymous | form | cookie | bearer
};

// Why these credentials cannot be used ({field, message}); nullopt when they can. `target` is
// the scanned URL: a login_url must be on its origin.
struct CredentialProblem {
  std::string field;
  std::string message;
};
std::optional<CredentialProblem> check_credentials(const Credentials& c, const std::string& target);

// The credentials of a task's or a route's options object (the keys above; others ignored).
Credentials credentials_from(const boost::json::object& options);

struct AuthOptions {
  Credentials credentials;
  net::ScanOptions scan;  // the client of every request (per_host_interval raised to the rate)
  std::size_t request_cap = limits::auth::kRequestCap;
  int requests_per_second = limits::auth::kRequestsPerSecond;  // per origin
  std::chrono::milliseconds budget{limits::auth::kScanBudgetMs};
  std::function<bool()> cancelled;  // asked before every request; true stops the scan
  // The passive audit's page observers (audit::plan_for(…).observers), a fresh set per call: one
  // reads the anonymous pages, one the logged-in pages. Unset: no passive checks as the user.
  std::function<std::vector<std::unique_ptr<audit::PageObserver>>()> page_observers;
};

struct LoginFormInfo {
  std::string page;
  std::string action;
  std::string method;
  std::string user_field;
  std::string password_field;
};

struct AuthResult {
  std::string target;
  std::vector<audit::Finding> findings;
  std::vector<LoginFormInfo> login_forms;
  std::vector<std::string> technologies;  // slugs detected on the pages seen
  std::string mode = "anonymous";
  std::string username;                  // form logins: the user scanned as (never the password)
  bool logged_in = false;                // the session was verified
  std::vector<std::string> login_proof;  // how: "login form gone", "logout link", "page differs"
  std::string login_error;               // why not, when credentials were given
  std::vector<std::string> user_only;    // URLs answered only to the logged-in user
  // The page observers' findings on the logged-in pages, less what the anonymous pages show.
  std::vector<audit::Finding> logged_in_findings;
  std::vector<audit::AuditError> passive_errors;  // an observer that failed (its pages are lost)
  std::size_t pages_anonymous = 0;
  std::size_t pages_user = 0;
  std::size_t requests = 0;  // by the checks (the crawls' not counted)
  std::size_t crawl_requests = 0;
  std::string stopped = "complete";  // complete | request_cap | deadline | cancelled
  std::int64_t duration_ms = 0;
};

AuthResult scan(const std::string& target, const net::EgressPolicy& policy, const DefaultCredentials& defaults,
                const audit::tech::Fingerprints& fingerprints, AuthOptions options);

boost::json::object to_json(const AuthResult& result);

}  // namespace dozor::authscan
