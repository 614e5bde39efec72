// Request bodies: JSON parsing with the depth limit, then every field decoder of Fields.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fcgi/http_error.hpp"
#include "handlers/validation.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view body(reinterpret_cast<const char*>(data), size);
  try {
    auto v = dozor::handlers::parse_json_body(body);
    dozor::handlers::Fields f(v);
    f.string("name", true, {1, 255});
    f.http_url("url", true);
    f.integer("check_interval", false, 10);
    f.boolean("is_active", false);
    f.email("email", false);
    f.nullable_string("password", {8, 256});
    f.nullable_boolean("is_admin");
    f.finish();
  } catch (const dozor::http::ValidationFailed&) {
  }
  return 0;
}
