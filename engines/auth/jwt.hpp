#pragma once
// JWT HS256 (RFC 7519) for Dozor's bearer tokens. Only HS256 is accepted: a token that names
// any other algorithm ("none" included) is invalid.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <boost/json/object.hpp>

namespace dozor::auth {

// The `ver` of a token Dozor's own processes sign on a user's behalf for the analyzer (an audit
// reading a site's documents, the vault's checks): short-lived, and no user's token has it.
inline constexpr std::int64_t kInstallationTokenVersion = -1;

struct Claims {
  std::int64_t sub = 0;  // user id
  std::string name;
  bool adm = false;
  std::int64_t iat = 0;
  std::int64_t exp = 0;
  std::int64_t ver = 0;  // user's token version at issue
};

// Throws std::runtime_error when the HMAC cannot be computed (no token is better than a bad one).
std::string sign_jwt(const Claims& claims, std::string_view key);

// nullopt for a malformed, forged, wrongly-signed or expired (exp <= now) token.
std::optional<Claims> verify_jwt(std::string_view token, std::string_view key, std::int64_t now);

// The JWS underneath, over any JSON object (the vault's document-server tokens use it too):
// sign throws std::runtime_error when the HMAC cannot be computed; verify answers the payload
// of a three-part token of at most `max_bytes` whose header says HS256 and whose signature
// matches in constant time, nullopt for anything else. Claims (exp …) are the caller's to check.
std::string sign_hs256(const boost::json::object& payload, std::string_view key);
std::optional<boost::json::object> verify_hs256(std::string_view token, std::string_view key, std::size_t max_bytes);

std::string base64url_encode(std::string_view data);
std::optional<std::string> base64url_decode(std::string_view text);

}  // namespace dozor::auth
