#pragma once
// Vault sessions: server-side, in MySQL. The cookie holds 256 random bits (base64url); the
// table holds only their SHA-256, so a database leak yields no usable session. A session ends
// after vault.session_idle seconds without a request, vault.session_absolute seconds after
// login, at logout, and as soon as the user's token version changes (password change,
// deactivation, demotion) or the account is deactivated.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "db/database.hpp"
#include "db/users_repo.hpp"
#include "engines/config/config.hpp"

namespace dozor::vault {

struct Session {
  db::users::User user;
  std::string cookie_value;  // needed to derive the CSRF token
  std::string csrf;          // the synchronizer token of this session
};

class Sessions {
 public:
  // __Host-: Secure, Path=/ and no Domain are then enforced by the browser as well.
  static constexpr const char* kCookie = "__Host-dozor_vault";
  static constexpr const char* kCsrfHeader = "x-csrf-token";

  Sessions(db::Database& db, const config::VaultConfig& cfg);

  struct Created {
    std::string cookie_value;
    std::string csrf;
  };
  // A new session (a new id at every login).
  Created create(const db::users::User& u, const std::string& remote_addr);
  // The live session of a cookie value, or nullopt (unknown, expired, revoked, malformed).
  std::optional<Session> authenticate(std::string_view cookie_value);
  void revoke(std::string_view cookie_value);

  // The Set-Cookie value that sets (or, with an empty value, clears) the session cookie.
  std::string set_cookie(const std::string& value) const;

  // The CSRF token of a session: a keyed BLAKE2b of a fixed label under the session's secret
  // value — stable for the session, useless without it, and never stored.
  static std::string csrf_for(std::string_view cookie_value);
  static bool csrf_matches(std::string_view cookie_value, std::string_view token);

 private:
  db::Database& db_;
  config::VaultConfig cfg_;
};

// Hex of the SHA-256 of a well-formed cookie value; nullopt for anything else.
std::optional<std::string> session_hash(std::string_view cookie_value);

}  // namespace dozor::vault
