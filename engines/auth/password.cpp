#include "engines/auth/password.hpp"

#include <sodium.h>
#include <stdexcept>

namespace dozor::auth {
namespace {

constexpr unsigned long long kOpsLimit = 2;
constexpr std::size_t kMemLimit = std::size_t{19} * 1024 * 1024;

void ensure_sodium() {
  static const bool ok = sodium_init() >= 0;
  if (!ok) throw std::runtime_error("libsodium failed to initialise");
}

}  // namespace

std::string hash_password(std::string_view password) {
  ensure_sodium();
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str_alg(out, password.data(), password.size(), kOpsLimit, kMemLimit,
                            crypto_pwhash_ALG_ARGON2ID13) != 0)
    throw std::runtime_error("password hashing ran out of memory");
  return out;
}

bool verify_password(std::string_view password, const std::string& stored_hash) {
  ensure_sodium();
  return crypto_pwhash_str_verify(stored_hash.c_str(), password.data(), password.size()) == 0;
}

void burn_verification(std::string_view password) {
  static const std::string dummy = hash_password("dozor-dummy-password-for-timing");
  (void)verify_password(password, dummy);
}

}  // namespace dozor::auth
