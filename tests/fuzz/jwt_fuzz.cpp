// Bearer tokens: nothing but a token signed with the key may verify.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "engines/auth/jwt.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view token(reinterpret_cast<const char*>(data), size);
  if (dozor::auth::verify_jwt(token, "fuzz-key-fuzz-key-fuzz-key-fuzz-key", 1000)) std::abort();
  (void)dozor::auth::base64url_decode(token);
  return 0;
}
