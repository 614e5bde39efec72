#pragma once
// Password hashing: argon2id through libsodium (OWASP: m = 19 MiB, t = 2, p = 1).
#include <string>
#include <string_view>

namespace dozor::auth {

std::string hash_password(std::string_view password);
bool verify_password(std::string_view password, const std::string& stored_hash);
// Spends the same work as a real verification, for unknown accounts (no timing oracle).
void burn_verification(std::string_view password);

}  // namespace dozor::auth
