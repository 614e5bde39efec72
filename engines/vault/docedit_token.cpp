#include "engines/vault/docedit_token.hpp"

#include <stdexcept>

#include "engines/auth/jwt.hpp"
#include "engines/limits.hpp"

namespace dozor::vault {

std::string sign_hs256(const boost::json::object& payload, std::string_view secret) {
  if (secret.empty()) throw std::runtime_error("vault.docserver_jwt_secret is not set");
  return auth::sign_hs256(payload, secret);
}

std::optional<boost::json::object> verify_hs256(std::string_view token, std::string_view secret, std::int64_t now) {
  if (secret.empty()) return std::nullopt;
  auto p = auth::verify_hs256(token, secret, limits::kVaultDocTokenBytes);
  if (!p) return std::nullopt;
  auto* exp = p->if_contains("exp");
  if (!exp || !exp->is_int64() || exp->as_int64() <= now) return std::nullopt;
  return p;
}

}  // namespace dozor::vault
