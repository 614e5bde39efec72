// multipart/form-data bodies read whole (the analyzer's uploads; the vault streams its own with
// engines/vault/multipart): any input parses or is refused.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fcgi/multipart.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  auto nl = in.find('\n');
  if (nl == std::string_view::npos) return 0;
  // The first line is the Content-Type, the rest the body.
  if (auto b = dozor::http::multipart_boundary(in.substr(0, nl))) dozor::http::parse_multipart(in.substr(nl + 1), *b);
  return 0;
}
