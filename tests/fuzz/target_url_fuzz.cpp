// {target_url} path tails and user-supplied URLs.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "engines/net/url_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto t = dozor::net::parse_target_url(text);
  if (t.url && dozor::net::check_http_url(*t.url)) std::abort();  // a normalised target must be valid
  (void)dozor::net::check_http_url(text);
  return 0;
}
