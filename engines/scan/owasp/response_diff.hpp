#pragma once
// Response diffing for the boolean-based SQL injection check (docs/scan.md "OWASP scan"): two
// answers are compared as multisets of word tokens after our own payload's echoes are removed,
// so a page that merely repeats the input does not look different.
#include <string>
#include <string_view>

namespace dozor::owasp {

// 1.0 for the same words (order ignored), 0.0 for nothing in common; two empty texts are the same.
double similarity(std::string_view a, std::string_view b);

// `body` without the echoes of `payload`: as sent, HTML-escaped (both quote styles) and URL-encoded.
std::string strip_echoes(std::string_view body, std::string_view payload);

// Answers at least this similar are "the same page".
inline constexpr double kSamePage = 0.97;

}  // namespace dozor::owasp
