// Bearer tokens: nothing but a token signed with the key may verify. The API check's reader of
// foreign tokens (engines/scan/api/jwt.hpp) never crashes, and what it parses stays consistent.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "engines/auth/jwt.hpp"
#include "engines/limits.hpp"
#include "engines/scan/api/jwt.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view token(reinterpret_cast<const char*>(data), size);
  if (dozor::auth::verify_jwt(token, "fuzz-key-fuzz-key-fuzz-key-fuzz-key", 1000)) std::abort();
  (void)dozor::auth::base64url_decode(token);
  if (auto jwt = dozor::api::parse_jwt(token)) {
    if (jwt->raw != token || token.substr(0, jwt->signing_input.size()) != jwt->signing_input) std::abort();
    // The alg none twin of anything that parses parses too (within the size bound), with no signature.
    auto text = dozor::api::forge_none(*jwt);
    if (text.size() <= dozor::limits::api::kJwtBytes) {
      auto forged = dozor::api::parse_jwt(text);
      if (!forged || forged->alg != "none" || !forged->signature.empty()) std::abort();
    }
    (void)dozor::api::crack_hs256(*jwt, {"secret", "changeme"});
  }
  for (const auto& found : dozor::api::find_jwts(token, 4))
    if (!dozor::api::parse_jwt(found) || token.find(found) == std::string_view::npos) std::abort();
  return 0;
}
