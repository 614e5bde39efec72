#pragma once
// Unicode helpers of the analyzer (ICU): normalisation for matching, case folding, UTF-8 walking.
#include <cstdint>
#include <string>
#include <string_view>

namespace dozor::analyzer::text {

// NFKC (full-width digits, no-break spaces, ligatures become plain), every dash and minus sign
// becomes '-', invalid UTF-8 becomes U+FFFD. The matcher sees only this form.
std::string normalize(std::string_view utf8);

// Case-folded with ё → е: the form dictionaries and context words are written in.
std::string fold(std::string_view utf8);

bool valid_utf8(std::string_view bytes);

// The code point at byte offset `i` (advancing i), or -1 at the end. Invalid bytes give U+FFFD.
std::int32_t next_cp(std::string_view s, std::size_t& i);
// The code point ending just before byte offset `i`, or -1 at the start.
std::int32_t prev_cp(std::string_view s, std::size_t i);

bool is_letter(std::int32_t cp);
bool is_digit(std::int32_t cp);
bool is_upper(std::int32_t cp);

// Counts of code points and of words (runs of letters or digits).
std::size_t char_count(std::string_view s);
std::size_t word_count(std::string_view s);

// Converts `bytes` from `charset` (an ICU converter name) to UTF-8; throws std::runtime_error
// when ICU knows no such charset.
std::string to_utf8(std::string_view bytes, const std::string& charset);

}  // namespace dozor::analyzer::text
