// The vault path canonicaliser: whatever it accepts is canonical (parsing its own output gives
// the same path), contains no component that could leave the root and no bidirectional control.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
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
    // The UTF-8 of U+202A-U+202E, U+2066-U+2069, U+200E, U+200F and U+061C.
    const std::string shown = p.display();
    for (std::string_view bidi :
         {"\xE2\x80\xAA", "\xE2\x80\xAB", "\xE2\x80\xAC", "\xE2\x80\xAD", "\xE2\x80\xAE", "\xE2\x81\xA6",
          "\xE2\x81\xA7", "\xE2\x81\xA8", "\xE2\x81\xA9", "\xE2\x80\x8E", "\xE2\x80\x8F", "\xD8\x9C"})
      if (shown.find(bidi) != std::string_view::npos) std::abort();
  } catch (const dozor::vault::InvalidPath&) {
  }
  return 0;
}
