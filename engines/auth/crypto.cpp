#include "engines/auth/crypto.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <atomic>

namespace dozor::auth::crypto {
namespace {

std::atomic<int> g_injected_failures{0};

// True when a test asked this call to fail.
bool injected_failure() {
  int left = g_injected_failures.load();
  while (left > 0)
    if (g_injected_failures.compare_exchange_weak(left, left - 1)) return true;
  return false;
}

}  // namespace

std::optional<std::string> hmac_sha256(std::string_view key, std::string_view data) {
  if (injected_failure()) return std::nullopt;
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  // HMAC() returns NULL on failure (and leaves len unspecified): that must never become an
  // empty MAC, which a token with an empty signature part would match.
  if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
           data.size(), mac, &len) == nullptr ||
      len != 32)
    return std::nullopt;
  return std::string(reinterpret_cast<const char*>(mac), len);
}

std::optional<std::string> sha256_hex(std::string_view data) {
  if (injected_failure()) return std::nullopt;
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(data.data(), data.size(), digest, &len, EVP_sha256(), nullptr) != 1 || len != 32) return std::nullopt;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(64);
  for (unsigned i = 0; i < len; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 0xF];
  }
  return out;
}

bool equal_constant_time(std::string_view a, std::string_view b) {
  return a.size() == b.size() && !a.empty() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

namespace testing {
void fail_next(int n) { g_injected_failures.store(n); }
}  // namespace testing

}  // namespace dozor::auth::crypto
