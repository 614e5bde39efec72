#include "engines/analyzer/text.hpp"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/ucnv.h>
#include <unicode/unistr.h>
#include <unicode/utf8.h>

#include <memory>
#include <stdexcept>

namespace dozor::analyzer::text {

std::string normalize(std::string_view utf8) {
  UErrorCode err = U_ZERO_ERROR;
  const icu::Normalizer2* nfkc = icu::Normalizer2::getNFKCInstance(err);
  if (U_FAILURE(err)) throw std::runtime_error("ICU: no NFKC normaliser");
  auto src = icu::UnicodeString::fromUTF8(icu::StringPiece(utf8.data(), static_cast<int32_t>(utf8.size())));
  icu::UnicodeString out = nfkc->normalize(src, err);
  if (U_FAILURE(err)) throw std::runtime_error("ICU: normalisation failed");
  for (int32_t i = 0; i < out.length(); ++i) {
    char16_t c = out.charAt(i);
    if ((c >= 0x2010 && c <= 0x2015) || c == 0x2212 || c == 0xFE63 || c == 0xFF0D) out.setCharAt(i, u'-');
  }
  std::string result;
  out.toUTF8String(result);
  return result;
}

std::string fold(std::string_view utf8) {
  auto s = icu::UnicodeString::fromUTF8(icu::StringPiece(utf8.data(), static_cast<int32_t>(utf8.size())));
  s.foldCase();
  s.findAndReplace(icu::UnicodeString(u"ё"), icu::UnicodeString(u"е"));
  std::string out;
  s.toUTF8String(out);
  return out;
}

bool valid_utf8(std::string_view bytes) {
  std::size_t i = 0;
  while (i < bytes.size()) {
    UChar32 c;
    auto len = static_cast<int32_t>(bytes.size());
    auto pos = static_cast<int32_t>(i);
    U8_NEXT(reinterpret_cast<const uint8_t*>(bytes.data()), pos, len, c);
    if (c < 0) return false;
    i = static_cast<std::size_t>(pos);
  }
  return true;
}

std::int32_t next_cp(std::string_view s, std::size_t& i) {
  if (i >= s.size()) return -1;
  UChar32 c;
  auto pos = static_cast<int32_t>(i);
  U8_NEXT(reinterpret_cast<const uint8_t*>(s.data()), pos, static_cast<int32_t>(s.size()), c);
  i = static_cast<std::size_t>(pos);
  return c < 0 ? 0xFFFD : c;
}

std::int32_t prev_cp(std::string_view s, std::size_t i) {
  if (i == 0 || i > s.size()) return -1;
  // Back over at most three continuation bytes, then decode forward (U8_PREV casts old-style).
  std::size_t b = i - 1;
  while (b > 0 && i - b < 4 && (static_cast<unsigned char>(s[b]) & 0xC0) == 0x80) --b;
  std::size_t j = b;
  std::int32_t c = next_cp(s.substr(0, i), j);
  return j == i ? c : 0xFFFD;
}

bool is_letter(std::int32_t cp) { return cp >= 0 && u_isalpha(cp); }
bool is_digit(std::int32_t cp) { return cp >= 0 && u_isdigit(cp); }
bool is_upper(std::int32_t cp) { return cp >= 0 && u_isupper(cp); }

std::size_t char_count(std::string_view s) {
  std::size_t n = 0, i = 0;
  while (next_cp(s, i) >= 0) ++n;
  return n;
}

std::size_t word_count(std::string_view s) {
  std::size_t n = 0, i = 0;
  bool in_word = false;
  for (std::int32_t c; (c = next_cp(s, i)) >= 0;) {
    bool w = is_letter(c) || is_digit(c);
    if (w && !in_word) ++n;
    in_word = w;
  }
  return n;
}

std::string to_utf8(std::string_view bytes, const std::string& charset) {
  UErrorCode err = U_ZERO_ERROR;
  std::unique_ptr<UConverter, decltype(&ucnv_close)> conv(ucnv_open(charset.c_str(), &err), ucnv_close);
  if (U_FAILURE(err) || !conv) throw std::runtime_error("unknown charset " + charset);
  icu::UnicodeString u(bytes.data(), static_cast<int32_t>(bytes.size()), conv.get(), err);
  if (U_FAILURE(err)) throw std::runtime_error("cannot decode the text as " + charset);
  std::string out;
  u.toUTF8String(out);
  return out;
}

}  // namespace dozor::analyzer::text
