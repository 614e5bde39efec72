#pragma once
// UTF-8 rules for text that crosses a trust boundary: bytes from remote servers (headers,
// redirect targets, error texts) and from requests. MariaDB's utf8mb4 columns and JSON answers
// both need well-formed UTF-8, so invalid input is made valid here, once, before it is stored.
#include <cstddef>
#include <string>
#include <string_view>

namespace dozor::text {

// Well-formed UTF-8 (RFC 3629): no overlongs, no surrogates, nothing above U+10FFFF.
bool is_valid_utf8(std::string_view s);

// `s` with each maximal invalid subsequence replaced by U+FFFD (the WHATWG decoder's rule).
std::string to_valid_utf8(std::string_view s);

// Code points in `s` (for valid UTF-8; invalid bytes count one each).
std::size_t utf8_length(std::string_view s);

// The first `max_chars` code points of `s`, never cutting a sequence.
std::string utf8_prefix(std::string_view s, std::size_t max_chars);

}  // namespace dozor::text
