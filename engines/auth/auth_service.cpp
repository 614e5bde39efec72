#include "engines/auth/auth_service.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>

#include "db/login_throttle_repo.hpp"
#include "engines/auth/jwt.hpp"
#include "engines/auth/password.hpp"
#include "engines/errors.hpp"
#include "engines/text/utf8.hpp"

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

std::int64_t AuthService::lockout_seconds(std::int64_t attempts) const {
  auto extra = std::clamp<std::int64_t>(attempts - cfg_.max_failures, 0, 20);
  return std::min<std::int64_t>(kMaxLockoutSeconds, std::int64_t{cfg_.lockout_seconds} << extra);
}

LoginResult AuthService::login(const std::string& username, const std::string& password) {
  constexpr const char* kRefused = "Incorrect username or password";
  // No account has a longer name (VARCHAR(64) counts characters): same answer, no database work.
  if (username.empty() || text::utf8_length(username) > 64) {
    burn_verification(password);
    throw BadCredentials(kRefused);
  }
  // The attempt is counted before the password is checked, in one transaction, so parallel
  // guesses cannot outrun the limit. Past the limit an attempt first renews the block, so only
  // one guess is checked per lockout period (a burst gets 429s); a success clears the count.
  std::int64_t wait = 0;
  std::int64_t attempts = 0;
  std::optional<db::users::User> user;
  db_.run(
      [&](db::Connection& c) {
        c.transaction([&] {
          wait = db::login_throttle::seconds_blocked(c, username);
          if (wait > 0) return;
          attempts = db::login_throttle::add_failure(c, username, kFailureWindowSeconds);
          if (attempts > cfg_.max_failures) db::login_throttle::block_for(c, username, lockout_seconds(attempts));
          user = db::users::find_by_username(c, username);
        });
      },
      db::Retry::Never);
  if (wait > 0) throw TooManyAttempts("Too many failed login attempts; try again later", wait);
  // The column's collation ignores case and trailing spaces; a login name must match exactly.
  if (user && user->username != username) user.reset();

  // Argon2 runs outside any DB call: it is the slow part and needs no connection.
  bool ok = false;
  if (user)
    ok = verify_password(password, user->password_hash) && user->is_active;
  else
    burn_verification(password);

  if (ok) {
    db_.run([&](db::Connection& c) { db::login_throttle::clear(c, username); }, db::Retry::OnLostConnection);
    return {issue_token(*user), cfg_.token_lifetime, *user};
  }
  if (attempts >= cfg_.max_failures)
    db_.run([&](db::Connection& c) { db::login_throttle::block_for(c, username, lockout_seconds(attempts)); },
            db::Retry::OnLostConnection);
  throw BadCredentials(kRefused);
}

db::users::User AuthService::authenticate(std::string_view token) {
  auto claims = verify_jwt(token, key_, now_seconds());
  if (!claims) throw Unauthenticated("invalid token");
  std::optional<db::users::User> user;
  db_.run([&](db::Connection& c) { user = db::users::find_by_id(c, claims->sub); }, db::Retry::OnLostConnection);
  if (!user || !user->is_active || user->token_version != claims->ver) throw Unauthenticated("revoked token");
  return *user;
}

}  // namespace dozor::auth
