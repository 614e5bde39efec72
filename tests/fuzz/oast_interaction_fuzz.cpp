// What /oast/{token} keeps of an untrusted interaction: the token of the path, and the bounded,
// printable record of the request (the first line of the input is the target, the rest the body).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engines/limits.hpp"
#include "engines/scan/oast/oast.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto nl = text.find('\n');
  auto target = text.substr(0, nl);
  auto body = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
  auto token = dozor::oast::token_of_path(target);
  if (token && !dozor::oast::looks_like_token(*token)) std::abort();
  std::vector<std::pair<std::string, std::string>> headers{{std::string(body.substr(0, 40)), std::string(body)}};
  auto hit = dozor::oast::capture(token.value_or(""), body.substr(0, 80), target.substr(0, 20), target, headers, body);
  if (hit.path.size() > dozor::limits::oast::kPathChars ||
      hit.body_excerpt.size() > dozor::limits::oast::kBodyExcerptChars)
    std::abort();
  for (char c : hit.body_excerpt + hit.path + hit.headers.at(0).second)
    if (c < 0x20 || c >= 0x7f) std::abort();  // stored as printable ASCII only
  return 0;
}
