// The vault path canonicaliser: whatever it accepts is canonical (parsing its own output gives
// the same path) and contains no component that could leave the root.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "engines/vault/path.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view raw(reinterpret_cast<const char*>(data), size);
  try {
    auto p = dozor::vault::VaultPath::parse(raw);
    for (const auto& part : p.parts())
      if (part.empty() || part == "." || part == ".." || part.find('/') != std::string::npos ||
          part.find('\0') != std::string::npos || part.find('\\') != std::string::npos)
        std::abort();
    if (!(dozor::vault::VaultPath::parse(p.display()) == p)) std::abort();
  } catch (const dozor::vault::InvalidPath&) {
  }
  return 0;
}
