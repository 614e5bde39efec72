#pragma once
// The cryptographic primitives Dozor signs and verifies with, each checking its library's
// return value: a primitive that fails reports it (nullopt / false), and every caller treats
// that as "refuse". Never an empty or partial MAC that could compare equal to something.
#include <optional>
#include <string>
#include <string_view>

namespace dozor::auth::crypto {

// HMAC-SHA-256 of `data` under `key`: 32 bytes, or nullopt when OpenSSL fails.
std::optional<std::string> hmac_sha256(std::string_view key, std::string_view data);

// Lower-case hex SHA-256 of `data` (64 characters), or nullopt when OpenSSL fails.
std::optional<std::string> sha256_hex(std::string_view data);

// Constant-time equality of two byte strings of the same length; false for different lengths.
bool equal_constant_time(std::string_view a, std::string_view b);

namespace testing {
// Makes the next `n` primitive calls of this process fail as if the library had failed, so
// tests can prove that failure means refusal. Never called outside tests.
void fail_next(int n);
}  // namespace testing

}  // namespace dozor::auth::crypto
