#pragma once
// Pages in any charset to UTF-8: the Content-Type charset, else a byte-order mark, else a
// <meta charset> in the first 1024 bytes, else valid UTF-8 as is, else uchardet's guess
// (windows-1251 and KOI8-R are common in the Russian web); ICU converts.
#include <optional>
#include <string>
#include <string_view>

namespace dozor::crawl {

// The charset a Content-Type names ("text/html; charset=windows-1251" → "windows-1251").
std::optional<std::string> charset_of_content_type(std::string_view content_type);

// The charset the page is in, by the order above (lower case; "utf-8" when nothing says otherwise).
std::string detect_charset(std::string_view body, std::string_view content_type);

// The body as valid UTF-8 (undecodable bytes become U+FFFD).
std::string to_utf8(std::string_view body, std::string_view content_type);

}  // namespace dozor::crawl
