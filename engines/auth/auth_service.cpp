#include "engines/auth/auth_service.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

#include "db/login_throttle_repo.hpp"
#include "engines/auth/jwt.hpp"
#include "engines/auth/password.hpp"
#include "engines/auth/username.hpp"
#include "engines/errors.hpp"

namespace dozor::auth {
namespace {

constexpr const char* kRefused = "Incorrect username or password";
constexpr const char* kThrottled = "Too many failed login attempts; try again later";
constexpr const char* kBusy = "Too many logins in progress; try again in a moment";
constexpr std::int64_t kWindowMs = std::int64_t{15} * 60 * 1000;
constexpr std::int64_t kMaxBlockMs = std::int64_t{15} * 60 * 1000;
// A device cookie's holder: after max_failures, 1 s doubling to at most 30 s between tries.
constexpr std::int64_t kDeviceDelayMs = 1000;
constexpr std::int64_t kDeviceMaxDelayMs = std::int64_t{30} * 1000;
constexpr int kPurgeBatch = 50;
constexpr std::chrono::milliseconds kHashMaxWait{2000};

std::int64_t now_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

throttle::Row to_engine(const db::login_throttle::Row& r) { return {r.failures, r.last_ms, r.slots}; }
db::login_throttle::Row to_db(const throttle::Row& r) { return {r.failures, r.last_ms, r.slots}; }

std::vector<std::string> keys_of(const std::vector<throttle::Bucket>& buckets) {
  std::vector<std::string> keys;
  keys.reserve(buckets.size());
  for (const auto& b : buckets) keys.push_back(b.key);
  return keys;
}

std::map<std::string, throttle::Row> engine_rows(const std::map<std::string, db::login_throttle::Row>& rows) {
  std::map<std::string, throttle::Row> out;
  for (const auto& [k, r] : rows) out[k] = to_engine(r);
  return out;
}

}  // namespace

std::string load_jwt_key(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read the JWT key file " + path);
  std::stringstream s;
  s << in.rdbuf();
  std::string key = s.str();
  while (!key.empty() && (key.back() == '\n' || key.back() == '\r')) key.pop_back();
  if (key.size() < 32) throw std::runtime_error("the JWT key in " + path + " is shorter than 32 bytes");
  return key;
}

throttle::Policies AuthService::policies(const config::AuthConfig& cfg) {
  const std::int64_t block = std::int64_t{cfg.lockout_seconds} * 1000;
  const std::int64_t max_block = std::max(block, kMaxBlockMs);
  return {
      {cfg.client_max_failures, kWindowMs, block, max_block},
      {cfg.max_failures, kWindowMs, block, max_block},
      {cfg.account_max_failures, kWindowMs, block, max_block},
      {cfg.max_failures, kWindowMs, kDeviceDelayMs, kDeviceMaxDelayMs},
  };
}

AuthService::AuthService(db::Database& db, config::AuthConfig cfg, std::string jwt_key)
    : db_(db),
      cfg_(std::move(cfg)),
      key_(std::move(jwt_key)),
      policies_(policies(cfg_)),
      devices_(key_, std::int64_t{cfg_.device_cookie_days} * 86400),
      gate_(cfg_.hash_concurrency, cfg_.hash_queue, kHashMaxWait) {}

std::string AuthService::issue_token(const db::users::User& u) {
  auto now = now_seconds();
  return sign_jwt({u.id, u.username, u.is_admin, now, now + cfg_.token_lifetime, u.token_version}, key_);
}

void AuthService::refuse_if_known_blocked(const std::vector<std::string>& keys) {
  std::int64_t wait = 0;
  for (const auto& k : keys) wait = std::max(wait, blocked_.wait_ms(k));
  if (wait > 0) throw TooManyAttempts(kThrottled, static_cast<long>((wait + 999) / 1000));
}

void AuthService::reserve(const throttle::Attempt& a) {
  const auto buckets = throttle::buckets_for(a);
  const auto keys = keys_of(buckets);
  auto cached = keys;
  if (!a.account) cached.push_back(throttle::slot_key(a));
  refuse_if_known_blocked(cached);
  std::int64_t wait = 0, now = 0;
  std::map<std::string, std::int64_t> waits;
  db_.run(
      [&](db::Connection& c) {
        // A waiting client is answered from a plain read: a flood that is already blocked
        // costs no lock and no write.
        now = db::login_throttle::now_ms(c);
        waits = throttle::waits_for(a, engine_rows(db::login_throttle::peek(c, keys)), policies_, now);
        if (!waits.empty()) return;
        // Check and count under row locks, in one transaction: N parallel attempts are counted
        // one after another, so the limit is exact (5 means 5).
        c.transaction([&] {
          now = db::login_throttle::now_ms(c);
          auto rows = engine_rows(db::login_throttle::lock(c, keys));
          waits = throttle::waits_for(a, rows, policies_, now);
          if (!waits.empty()) return;
          throttle::count(a, rows, policies_, now);
          for (const auto& b : buckets)
            db::login_throttle::store(c, b.key, to_db(rows[b.key]),
                                      throttle::expiry_ms(rows[b.key], throttle::policy_of(b.role, policies_)));
        });
      },
      db::Retry::Never);
  for (const auto& [key, w] : waits) {
    blocked_.remember(key, w);
    wait = std::max(wait, w);
  }
  if (wait > 0) throw TooManyAttempts(kThrottled, static_cast<long>((wait + 999) / 1000));
  // Expired rows go on write, a few at a time; a failure here costs nothing but a retry later.
  try {
    db_.run([&](db::Connection& c) { db::login_throttle::purge_expired(c, now, kPurgeBatch); },
            db::Retry::OnLostConnection);
  } catch (const std::exception& e) {
    std::cerr << "login throttle purge: " << e.what() << "\n";
  }
}

void AuthService::settle(const throttle::Attempt& a, bool succeeded) {
  const auto buckets = throttle::buckets_for(a);
  db_.run(
      [&](db::Connection& c) {
        c.transaction([&] {
          auto rows = engine_rows(db::login_throttle::lock(c, keys_of(buckets)));
          if (succeeded)
            throttle::succeed(a, rows);
          else
            throttle::refund(a, rows);
          for (const auto& b : buckets) {
            // A counter back at zero is a row with nothing to remember: gone, not kept.
            if (rows[b.key].failures == 0)
              db::login_throttle::remove(c, b.key);
            else
              db::login_throttle::store(c, b.key, to_db(rows[b.key]),
                                        throttle::expiry_ms(rows[b.key], throttle::policy_of(b.role, policies_)));
          }
        });
      },
      db::Retry::Never);
}

LoginResult AuthService::login(const LoginAttempt& in) {
  // Refused before anything else when the hashing queue is already full: a flood then costs
  // neither database writes nor argon2.
  if (gate_.full()) throw Busy(kBusy, 1);

  // A client this process already knows to be waiting, and that shows no device cookie (whose
  // holder is never counted per client), is refused before any query.
  const auto client = throttle::client_key(in.remote_addr);
  if (in.device_cookie.empty()) refuse_if_known_blocked({"c|" + client});

  auto canonical = canonical_username(in.username);
  std::optional<db::users::User> user;
  if (canonical)
    db_.run([&](db::Connection& c) { user = db::users::find_by_canonical(c, *canonical); },
            db::Retry::OnLostConnection);

  throttle::Attempt a;
  a.client = client;
  const auto now = now_seconds();
  if (user) {
    a.account = user->id;
    auto cookie = devices_.verify(in.device_cookie, now);
    if (cookie && cookie->user_id == user->id && cookie->token_version == user->token_version)
      a.device = cookie->device;
  } else {
    a.slot = devices_.slot_of(canonical.value_or(in.username), throttle::kSlots);
  }

  reserve(a);
  auto permit = gate_.enter();
  if (!permit) {
    settle(a, false);  // never checked: not an attempt
    throw Busy(kBusy, 1);
  }
  bool ok = false;
  if (user)
    ok = verify_password(in.password, user->password_hash) && user->is_active;
  else
    burn_verification(in.password);  // the same work for unknown names: no timing oracle
  permit.reset();

  if (!ok) throw BadCredentials(kRefused);
  settle(a, true);
  LoginResult result{issue_token(*user), cfg_.token_lifetime, *user, {}, devices_.lifetime()};
  result.device_cookie =
      devices_.issue({user->id, user->token_version, a.device.value_or(DeviceCookies::new_device_id()), now});
  return result;
}

namespace {

// The live account behind verified claims: active, and (for a user's own token) of the token
// version it was issued with — a password change or a revocation bumps it.
db::users::User live_user(db::Database& db, const Claims& claims, bool check_version) {
  std::optional<db::users::User> user;
  db.run([&](db::Connection& c) { user = db::users::find_by_id(c, claims.sub); }, db::Retry::OnLostConnection);
  if (!user || !user->is_active || (check_version && user->token_version != claims.ver))
    throw Unauthenticated("revoked token");
  return *user;
}

}  // namespace

db::users::User AuthService::authenticate(std::string_view token) {
  auto claims = verify_jwt(token, key_, now_seconds());
  if (!claims) throw Unauthenticated("invalid token");
  return live_user(db_, *claims, true);
}

db::users::User AuthService::authenticate_analyzer_caller(std::string_view token) {
  auto claims = verify_jwt(token, key_, now_seconds());
  if (!claims) throw Unauthenticated("invalid token");
  if (claims->ver != kInstallationTokenVersion) return live_user(db_, *claims, true);
  auto user = live_user(db_, *claims, false);
  user.is_admin = false;  // Dozor's own token for a user never carries admin rights
  return user;
}

}  // namespace dozor::auth
