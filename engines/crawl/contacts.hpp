#pragma once
// E-mail addresses and phone numbers in page text, with linear-time regexes (RE2) because the
// text is hostile. Phones are normalised to E.164 and keep the text as found.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dozor::crawl {

struct Phone {
  std::string e164;      // "+74951234567"
  std::string as_found;  // "8 (495) 123-45-67"
};

std::vector<std::string> find_emails(std::string_view text);
std::vector<Phone> find_phones(std::string_view text);

// E.164 for one number as written: Russian forms (+7 …, 8 …, 7 …) and international ones with a
// leading "+" (or "00"); nullopt when it is not a plausible phone number.
std::optional<std::string> to_e164(std::string_view written);

// Paths and URLs quoted in JavaScript source ("/api/v1/items", "./x.json", "https://…").
std::vector<std::string> find_js_paths(std::string_view script);

}  // namespace dozor::crawl
