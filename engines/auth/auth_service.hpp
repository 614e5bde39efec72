#pragma once
// Login, token issue and token checks against the users table.
#include <cstdint>
#include <string>
#include <string_view>

#include "db/database.hpp"
#include "db/users_repo.hpp"
#include "engines/auth/block_cache.hpp"
#include "engines/auth/device_cookie.hpp"
#include "engines/auth/hash_gate.hpp"
#include "engines/auth/throttle.hpp"
#include "engines/config/config.hpp"

namespace dozor::auth {

struct LoginAttempt {
  std::string username;
  std::string password;
  std::string remote_addr;    // the client's address as the web server saw it
  std::string device_cookie;  // the value of DeviceCookies::kName, or empty
};

struct LoginResult {
  std::string token;
  std::int64_t expires_in = 0;
  db::users::User user;
  std::string device_cookie;  // to set on the client (DeviceCookies::kName)
  std::int64_t device_cookie_max_age = 0;
};

class AuthService {
 public:
  AuthService(db::Database& db, config::AuthConfig cfg, std::string jwt_key);

  // Throws TooManyAttempts while a throttle counter of the attempt makes it wait, Busy when
  // the hashing queue is full, BadCredentials for an unknown name, a wrong password or an
  // inactive account (one message for all three). Names are compared in canonical form.
  LoginResult login(const LoginAttempt& attempt);

  // The live user behind a bearer token; throws Unauthenticated when the token is invalid,
  // expired, of an older token version, or its user is gone or inactive.
  db::users::User authenticate(std::string_view token);

  // The analyzer's caller (nginx asks dozor-fcgi for every protected analyzer request, so the
  // analyzer holds no key: docs/analyzer.md "Who the caller is"). A user's token as above, or
  // a token Dozor's own processes signed for a user (jwt.hpp kInstallationTokenVersion): its
  // user must be active; such a caller is never an admin.
  db::users::User authenticate_analyzer_caller(std::string_view token);

  std::string issue_token(const db::users::User& u);

  // The throttle policies in force (config + the fixed device-cookie delays).
  static throttle::Policies policies(const config::AuthConfig& cfg);

 private:
  void reserve(const throttle::Attempt& a);
  // Refuses (TooManyAttempts) when this process already knows one of `keys` is waiting.
  void refuse_if_known_blocked(const std::vector<std::string>& keys);
  // After the attempt: throttle::succeed, or throttle::refund when it was never checked.
  void settle(const throttle::Attempt& a, bool succeeded);

  db::Database& db_;
  config::AuthConfig cfg_;
  std::string key_;
  throttle::Policies policies_;
  DeviceCookies devices_;
  HashGate gate_;
  BlockCache blocked_;
};

// Reads the HS256 key; it must hold at least 32 bytes.
std::string load_jwt_key(const std::string& path);

}  // namespace dozor::auth
