#include "engines/auth/auth_service.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>

#include "db/login_throttle_repo.hpp"
#include "engines/auth/jwt.hpp"
#include "engines/auth/password.hpp"
#include "engines/errors.hpp"

namespace dozor::auth {
namespace {

constexpr int kFailureWindowSeconds = 15 * 60;
constexpr std::int64_t kMaxLockoutSeconds = 3600;

std::int64_t now_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
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

AuthService::AuthService(db::Database& db, config::AuthConfig cfg, std::string jwt_key)
    : db_(db), cfg_(std::move(cfg)), key_(std::move(jwt_key)) {}

std::string AuthService::issue_token(const db::users::User& u) {
  auto now = now_seconds();
  return sign_jwt({u.id, u.username, u.is_admin, now, now + cfg_.token_lifetime, u.token_version}, key_);
}

LoginResult AuthService::login(const std::string& username, const std::string& password) {
  std::string account = username.substr(0, 64);
  std::int64_t wait = 0;
  std::optional<db::users::User> user;
  db_.run([&](db::Connection& c) {
    wait = db::login_throttle::seconds_blocked(c, account);
    if (wait == 0) user = db::users::find_by_username(c, account);
  });
  // The column's collation ignores case and trailing spaces; a login name must match exactly.
  if (user && user->username != account) user.reset();
  if (wait > 0) throw TooManyAttempts("Too many failed login attempts; try again later", wait);

  // Argon2 runs outside any DB call: it is the slow part and needs no connection.
  bool ok = false;
  if (user)
    ok = verify_password(password, user->password_hash) && user->is_active;
  else
    burn_verification(password);

  if (ok) {
    db_.run([&](db::Connection& c) { db::login_throttle::clear(c, account); });
    return {issue_token(*user), cfg_.token_lifetime, *user};
  }
  db_.run(
      [&](db::Connection& c) {
        auto failures = db::login_throttle::add_failure(c, account, kFailureWindowSeconds);
        if (failures >= cfg_.max_failures) {
          auto extra = std::min<std::int64_t>(failures - cfg_.max_failures, 20);
          auto seconds = std::min<std::int64_t>(kMaxLockoutSeconds, std::int64_t{cfg_.lockout_seconds} << extra);
          db::login_throttle::block_for(c, account, seconds);
        }
      },
      false);
  throw BadCredentials("Incorrect username or password");
}

db::users::User AuthService::authenticate(std::string_view token) {
  auto claims = verify_jwt(token, key_, now_seconds());
  if (!claims) throw Unauthenticated("invalid token");
  std::optional<db::users::User> user;
  db_.run([&](db::Connection& c) { user = db::users::find_by_id(c, claims->sub); });
  if (!user || !user->is_active || user->token_version != claims->ver) throw Unauthenticated("revoked token");
  return *user;
}

}  // namespace dozor::auth
