#pragma once
// Login, token issue and token checks against the users table.
#include <cstdint>
#include <string>
#include <string_view>

#include "db/database.hpp"
#include "db/users_repo.hpp"
#include "engines/config/config.hpp"

namespace dozor::auth {

struct LoginResult {
  std::string token;
  std::int64_t expires_in = 0;
  db::users::User user;
};

class AuthService {
 public:
  AuthService(db::Database& db, config::AuthConfig cfg, std::string jwt_key);

  // Throws TooManyAttempts while the account name is throttled, BadCredentials for an unknown
  // name, a wrong password or an inactive account (one message for all three).
  LoginResult login(const std::string& username, const std::string& password);

  // The live user behind a bearer token; throws Unauthenticated when the token is invalid,
  // expired, of an older token version, or its user is gone or inactive.
  db::users::User authenticate(std::string_view token);

  std::string issue_token(const db::users::User& u);

 private:
  std::int64_t lockout_seconds(std::int64_t attempts) const;

  db::Database& db_;
  config::AuthConfig cfg_;
  std::string key_;
};

// Reads the HS256 key; it must hold at least 32 bytes.
std::string load_jwt_key(const std::string& path);

}  // namespace dozor::auth
