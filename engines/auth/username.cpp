#include "engines/auth/username.hpp"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>
#include <vector>

namespace dozor::auth {
namespace {

// Strict UTF-8 → UTF-16: an ill-formed sequence is an error, never a U+FFFD.
std::optional<icu::UnicodeString> decode_utf8(std::string_view raw) {
  if (raw.size() > kMaxUsernameInputBytes) return std::nullopt;
  std::vector<UChar> buf(raw.size() + 1);
  int32_t len = 0;
  UErrorCode err = U_ZERO_ERROR;
  u_strFromUTF8(buf.data(), static_cast<int32_t>(buf.size()), &len, raw.data(), static_cast<int32_t>(raw.size()), &err);
  if (U_FAILURE(err)) return std::nullopt;
  return icu::UnicodeString(buf.data(), len);
}

// Characters that have no place in a name even after NFKC_Casefold removed the ignorable ones.
bool forbidden(UChar32 c) {
  switch (u_charType(c)) {
    case U_CONTROL_CHAR:         // Cc
    case U_FORMAT_CHAR:          // Cf left over (e.g. U+0600..U+0605, U+110BD)
    case U_PRIVATE_USE_CHAR:     // Co
    case U_UNASSIGNED:           // Cn
    case U_SURROGATE:            // Cs (lone surrogates cannot come from valid UTF-8)
    case U_LINE_SEPARATOR:       // Zl
    case U_PARAGRAPH_SEPARATOR:  // Zp
      return true;
    default: return false;
  }
}

bool invisible(UChar32 c) {
  return u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT) || u_hasBinaryProperty(c, UCHAR_BIDI_CONTROL) ||
         u_charType(c) == U_CONTROL_CHAR || u_charType(c) == U_FORMAT_CHAR;
}

// Space separators become one U+0020; other white space (tab, newline, U+2028) is a control
// or separator character and no name holds it.
bool space_separator(UChar32 c) { return u_charType(c) == U_SPACE_SEPARATOR; }

}  // namespace

std::optional<std::string> canonical_username(std::string_view raw) {
  auto text = decode_utf8(raw);
  if (!text) return std::nullopt;
  UErrorCode err = U_ZERO_ERROR;
  const icu::Normalizer2* nfkc_cf = icu::Normalizer2::getNFKCCasefoldInstance(err);
  if (U_FAILURE(err) || nfkc_cf == nullptr) return std::nullopt;  // no ICU data: no name matches
  icu::UnicodeString folded = nfkc_cf->normalize(*text, err);
  if (U_FAILURE(err)) return std::nullopt;

  icu::UnicodeString out;
  bool pending_space = false;
  std::size_t chars = 0;
  for (int32_t i = 0; i < folded.length();) {
    UChar32 c = folded.char32At(i);
    i += U16_LENGTH(c);
    if (space_separator(c)) {
      pending_space = !out.isEmpty();  // leading spaces vanish, runs become one
      continue;
    }
    if (forbidden(c)) return std::nullopt;
    if (pending_space) {
      out.append(static_cast<UChar>(0x20));
      ++chars;
      pending_space = false;
    }
    out.append(c);
    if (++chars > kMaxUsernameChars) return std::nullopt;
  }
  if (out.isEmpty()) return std::nullopt;
  std::string utf8;
  out.toUTF8String(utf8);
  return utf8;
}

std::optional<std::string> fold(std::string_view text) {
  std::vector<UChar> buf(text.size() + 1);
  int32_t len = 0;
  UErrorCode err = U_ZERO_ERROR;
  u_strFromUTF8(buf.data(), static_cast<int32_t>(buf.size()), &len, text.data(), static_cast<int32_t>(text.size()),
                &err);
  if (U_FAILURE(err)) return std::nullopt;
  const icu::Normalizer2* nfkc_cf = icu::Normalizer2::getNFKCCasefoldInstance(err);
  if (U_FAILURE(err) || nfkc_cf == nullptr) return std::nullopt;
  icu::UnicodeString folded = nfkc_cf->normalize(icu::UnicodeString(buf.data(), len), err);
  if (U_FAILURE(err)) return std::nullopt;
  std::string out;
  folded.toUTF8String(out);
  return out;
}

std::size_t utf8_chars(std::string_view text) {
  std::size_t n = 0;
  for (char ch : text)
    if ((static_cast<unsigned char>(ch) & 0xC0) != 0x80) ++n;
  return n;
}

NewNameCheck check_new_username(std::string_view raw) {
  auto text = decode_utf8(raw);
  if (!text) return {{}, "The username must be valid UTF-8 of at most 64 characters"};
  std::size_t chars = 0;
  for (int32_t i = 0; i < text->length();) {
    UChar32 c = text->char32At(i);
    i += U16_LENGTH(c);
    ++chars;
    if (space_separator(c) || u_isUWhiteSpace(c)) return {{}, "The username must not contain spaces"};
    if (invisible(c)) return {{}, "The username must not contain invisible, control or direction characters"};
  }
  if (chars == 0) return {{}, "The username must not be empty"};
  if (chars > kMaxUsernameChars) return {{}, "The username must have at most 64 characters"};
  auto canonical = canonical_username(raw);
  if (!canonical) return {{}, "The username contains characters that a username cannot hold"};
  return {*canonical, {}};
}

}  // namespace dozor::auth
