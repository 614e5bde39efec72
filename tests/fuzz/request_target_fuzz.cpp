// REQUEST_URI and Cookie headers as nginx hands them over, then routing.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fcgi/request.hpp"
#include "fcgi/routes.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto router = dozor::http::build_router();
  std::string text(reinterpret_cast<const char*>(data), size);
  dozor::http::Request r;
  r.raw_target = text;
  if (dozor::http::parse_target(r.raw_target, r)) (void)router.match("GET", r.raw_path);
  (void)dozor::http::parse_cookies(text);
  return 0;
}
