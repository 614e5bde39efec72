// dozor.toml: any text either parses into a Config or raises ConfigError, nothing else.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engines/config/config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    (void)dozor::config::parse(std::string(reinterpret_cast<const char*>(data), size), {});
  } catch (const dozor::config::ConfigError&) {
  }
  return 0;
}
