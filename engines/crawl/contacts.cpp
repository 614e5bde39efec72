#include "engines/crawl/contacts.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <set>

namespace dozor::crawl {
namespace {

constexpr std::size_t kMaxFound = 1000;  // of one kind in one text

std::string lower_ascii(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace

std::vector<std::string> find_emails(std::string_view text) {
  // A practical address: local part of the usual characters, a domain with a letter TLD.
  static const RE2 re(
      R"(([A-Za-z0-9._%+\-]{1,64}@(?:[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}))");
  std::vector<std::string> out;
  std::set<std::string> seen;
  re2::StringPiece input(text.data(), text.size());
  std::string match;
  while (out.size() < kMaxFound && RE2::FindAndConsume(&input, re, &match)) {
    auto addr = lower_ascii(match);
    // File names such as "logo@2x.png" look like addresses; their "TLD" is an image type.
    auto dot = addr.rfind('.');
    auto tld = addr.substr(dot + 1);
    if (tld == "png" || tld == "jpg" || tld == "jpeg" || tld == "gif" || tld == "svg" || tld == "webp") continue;
    if (seen.insert(addr).second) out.push_back(addr);
  }
  return out;
}

std::optional<std::string> to_e164(std::string_view written) {
  std::string digits;
  for (char c : written)
    if (c >= '0' && c <= '9') digits.push_back(c);
  auto first = written.find_first_not_of(" \t\u00a0");
  bool plus = first != std::string_view::npos && written[first] == '+';
  if (!plus && digits.rfind("00", 0) == 0) {  // 00 is the international prefix in most countries
    digits.erase(0, 2);
    plus = true;
  }
  if (plus) {
    if (digits.size() < 8 || digits.size() > 15 || digits[0] == '0') return std::nullopt;
    return "+" + digits;
  }
  // Russian national forms: 8 XXX XXX-XX-XX or 7 XXX XXX-XX-XX (11 digits).
  if (digits.size() == 11 && (digits[0] == '8' || digits[0] == '7')) return "+7" + digits.substr(1);
  return std::nullopt;
}

std::vector<Phone> find_phones(std::string_view text) {
  // "+7 (495) 123-45-67", "8 800 555 35 35", "+44 20 7946 0958", "8(812)1234567": a leading + or
  // 8/7, then digit groups with spaces, dots, dashes and one pair of parentheses.
  static const RE2 re(R"((?:^|[^\d+])((?:\+\d{1,3}|8|7)[\s\-.]?\(?\d{2,5}\)?(?:[\s\-.]?\d{1,4}){2,5}))");
  std::vector<Phone> out;
  std::set<std::string> seen;
  re2::StringPiece input(text.data(), text.size());
  std::string match;
  while (out.size() < kMaxFound && RE2::FindAndConsume(&input, re, &match)) {
    while (!match.empty() && (match.back() == ' ' || match.back() == '-' || match.back() == '.')) match.pop_back();
    auto e164 = to_e164(match);
    if (!e164) continue;
    if (seen.insert(*e164).second) out.push_back({*e164, match});
  }
  return out;
}

std::vector<std::string> find_js_paths(std::string_view script) {
  static const RE2 re(
      R"re(["'`]((?:https?:)?//[A-Za-z0-9.\-]+(?::\d+)?(?:/[^"'`\s<>]{0,300})?|\.{0,2}/[A-Za-z0-9_\-~.%]+(?:/[A-Za-z0-9_\-~.%]*){0,20}(?:\?[^"'`\s<>]{0,200})?|[A-Za-z0-9_\-]+/[A-Za-z0-9_\-]+(?:/[A-Za-z0-9_\-.]+)*(?:\.[a-z]{2,5})?(?:\?[^"'`\s<>]{0,200})?)["'`])re");
  std::vector<std::string> out;
  std::set<std::string> seen;
  re2::StringPiece input(script.data(), script.size());
  std::string match;
  while (out.size() < kMaxFound && RE2::FindAndConsume(&input, re, &match)) {
    // MIME types and dates look like "a/b": keep relative two-part matches only with a file
    // extension or a third segment.
    bool relative_bare = match[0] != '/' && match[0] != '.' && match.find("//") == std::string::npos;
    if (relative_bare) {
      auto slashes = std::count(match.begin(), match.end(), '/');
      bool ext = match.find('.') != std::string::npos;
      if (slashes < 2 && !ext) continue;
      if (match.rfind("text/", 0) == 0 || match.rfind("application/", 0) == 0 || match.rfind("image/", 0) == 0)
        continue;
    }
    if (match == "//" || match == "./" || match == "../") continue;
    if (seen.insert(match).second) out.push_back(match);
  }
  return out;
}

}  // namespace dozor::crawl
