#pragma once
// JWS HS256 over an arbitrary JSON object, for the document server's editor config and callbacks
// (docs/vault.md "Document editing"). The algorithm is pinned: a header naming any other ("none"
// included) is refused, and the signature is compared in constant time (CRYPTO_memcmp).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <boost/json/object.hpp>

namespace dozor::vault {

// Throws std::runtime_error when the HMAC cannot be computed, or when `secret` is empty.
std::string sign_hs256(const boost::json::object& payload, std::string_view secret);

// The payload of a token signed with `secret` whose `exp` (required, seconds) is after `now`;
// nullopt for anything else: malformed, another algorithm, wrong signature, expired, no `exp`,
// over limits::kVaultDocTokenBytes, or an empty secret.
std::optional<boost::json::object> verify_hs256(std::string_view token, std::string_view secret, std::int64_t now);

}  // namespace dozor::vault
