#pragma once
// JSON Web Tokens as the API check meets them (docs/scan.md "API check"): read the tokens an API
// hands out or documents, forge the `alg: none` twin of one, and try a short wordlist of secrets
// against an HS256 signature (OpenSSL HMAC). Never trusts a token: this is the attacker's side.
#include <boost/json/object.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dozor::api {

struct Jwt {
  std::string raw;
  std::string signing_input;  // "<header>.<payload>" as sent
  std::string signature;      // decoded bytes
  boost::json::object header, payload;
  std::string alg;  // header "alg" as written ("HS256", "none" …); empty when absent
  bool has_exp() const { return payload.contains("exp"); }
};

// nullopt unless `token` is three base64url parts whose first two are JSON objects (at most
// limits::api::kJwtBytes). Never throws for any input.
std::optional<Jwt> parse_jwt(std::string_view token);

// The distinct tokens that parse, found anywhere in `text` (bodies, headers, documents), at most `max`.
std::vector<std::string> find_jwts(std::string_view text, std::size_t max);

// The same claims under {"alg":"none","typ":"JWT"} and an empty signature: "<header>.<payload>.".
std::string forge_none(const Jwt& like);

// A token of `payload` signed HS256 with `secret` ({"alg":"HS256","typ":"JWT"}). Throws
// std::runtime_error when OpenSSL cannot compute the HMAC.
std::string sign_hs256(const boost::json::object& payload, std::string_view secret);

// The signature of `like` replaced by one made with a random key: a server that accepts it does
// not check signatures at all.
std::string forge_bad_signature(const Jwt& like);

// The secret of `secrets` an HS256 token was signed with, or nullopt (other algorithms too).
std::optional<std::string> crack_hs256(const Jwt& token, const std::vector<std::string>& secrets);

// share/audit/api/jwt-secrets.txt: one secret per line, '#' lines are comments, the first line
// "# dozor jwt-secrets <version>". Loaded once with the audit data.
class JwtSecrets {
 public:
  // Throws std::runtime_error naming the problem (no version line, an empty, overlong or duplicate
  // entry, too many entries).
  static JwtSecrets parse(std::string_view text);
  static JwtSecrets load(const std::string& audit_data_dir);  // <dir>/api/jwt-secrets.txt

  const std::string& version() const { return version_; }
  const std::vector<std::string>& secrets() const { return secrets_; }

 private:
  std::string version_;
  std::vector<std::string> secrets_;
};

inline constexpr const char* kJwtSecretsFile = "api/jwt-secrets.txt";

}  // namespace dozor::api
