#include "engines/vault/docedit_token.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <stdexcept>

#include "engines/auth/crypto.hpp"
#include "engines/auth/jwt.hpp"
#include "engines/limits.hpp"

namespace dozor::vault {

std::string sign_hs256(const boost::json::object& payload, std::string_view secret) {
  if (secret.empty()) throw std::runtime_error("vault.docserver_jwt_secret is not set");
  static const std::string header = auth::base64url_encode(R"({"alg":"HS256","typ":"JWT"})");
  std::string signing_input = header + "." + auth::base64url_encode(boost::json::serialize(payload));
  auto mac = auth::crypto::hmac_sha256(secret, signing_input);
  if (!mac) throw std::runtime_error("cannot sign the editor config: HMAC failed");
  return signing_input + "." + auth::base64url_encode(*mac);
}

std::optional<boost::json::object> verify_hs256(std::string_view token, std::string_view secret, std::int64_t now) {
  if (secret.empty() || token.size() > limits::kVaultDocTokenBytes) return std::nullopt;
  auto d1 = token.find('.');
  auto d2 = d1 == std::string_view::npos ? d1 : token.find('.', d1 + 1);
  if (d2 == std::string_view::npos || token.find('.', d2 + 1) != std::string_view::npos) return std::nullopt;
  auto header = auth::base64url_decode(token.substr(0, d1));
  auto payload = auth::base64url_decode(token.substr(d1 + 1, d2 - d1 - 1));
  auto signature = auth::base64url_decode(token.substr(d2 + 1));
  if (!header || !payload || !signature) return std::nullopt;

  boost::system::error_code ec;
  auto h = boost::json::parse(*header, ec);
  if (ec || !h.is_object()) return std::nullopt;
  auto* alg = h.as_object().if_contains("alg");
  if (!alg || !alg->is_string() || alg->as_string() != "HS256") return std::nullopt;

  // A failed HMAC refuses the token; it is never compared as an empty MAC (CRYPTO_memcmp).
  auto expected = auth::crypto::hmac_sha256(secret, token.substr(0, d2));
  if (!expected || !auth::crypto::equal_constant_time(*signature, *expected)) return std::nullopt;

  auto p = boost::json::parse(*payload, ec);
  if (ec || !p.is_object()) return std::nullopt;
  auto* exp = p.as_object().if_contains("exp");
  if (!exp || !exp->is_int64() || exp->as_int64() <= now) return std::nullopt;
  return std::move(p.as_object());
}

}  // namespace dozor::vault
