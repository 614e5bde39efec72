// Scanner templates (engines/scan/templates): any text either parses into a Template or is
// refused with std::invalid_argument (the reason it is skipped), nothing else.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "engines/scan/templates/template.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    auto t = dozor::scan::templates::parse_template(std::string(reinterpret_cast<const char*>(data), size));
    (void)t.request_count();
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
