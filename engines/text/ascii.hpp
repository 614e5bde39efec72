#pragma once
// ASCII-only case and space handling for protocol text (header and cookie names, hosts, HTML
// attribute values, script keywords): locale-independent, never touching UTF-8 bytes above 0x7F.
#include <string>
#include <string_view>

namespace dozor::text {

// `s` with A–Z lowered.
std::string ascii_lower(std::string_view s);

// `s` without leading and trailing spaces, tabs, CR, LF and form feeds.
std::string_view trim_space(std::string_view s);

}  // namespace dozor::text
