#include "engines/vault/path.hpp"

#include <unicode/normalizer2.h>
#include <unicode/unistr.h>

#include "engines/text/utf8.hpp"

namespace dozor::vault {
namespace {

std::string to_nfc(std::string_view s) {
  // ASCII is its own NFC: skip ICU for the common case.
  bool ascii = true;
  for (char c : s)
    if (static_cast<unsigned char>(c) >= 0x80) ascii = false;
  if (ascii) return std::string(s);
  UErrorCode err = U_ZERO_ERROR;
  const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(err);
  if (U_FAILURE(err)) throw std::runtime_error("ICU NFC normaliser unavailable");
  auto text = icu::UnicodeString::fromUTF8(icu::StringPiece(s.data(), static_cast<std::int32_t>(s.size())));
  icu::UnicodeString out = nfc->normalize(text, err);
  if (U_FAILURE(err)) throw InvalidPath("the path cannot be normalised");
  std::string utf8;
  out.toUTF8String(utf8);
  return utf8;
}

// The code point starting at s[i] of valid UTF-8 (the caller validated it), and its length.
char32_t code_point_at(const std::string& s, std::size_t i, std::size_t& len) {
  auto b = [&](std::size_t k) { return static_cast<char32_t>(static_cast<unsigned char>(s[i + k])); };
  char32_t c0 = b(0);
  if (c0 < 0x80) {
    len = 1;
    return c0;
  }
  if (c0 < 0xE0) {
    len = 2;
    return ((c0 & 0x1F) << 6) | (b(1) & 0x3F);
  }
  if (c0 < 0xF0) {
    len = 3;
    return ((c0 & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
  }
  len = 4;
  return ((c0 & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) | (b(3) & 0x3F);
}

// Checks one component that is already NFC.
void check_name(const std::string& name) {
  if (name.empty()) throw InvalidPath("empty path component");
  if (name == "." || name == "..") throw InvalidPath("'.' and '..' are not allowed in a path");
  if (name.size() > kMaxNameBytes) throw InvalidPath("a name is longer than 255 bytes");
  for (char ch : name) {
    auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7F) throw InvalidPath("control characters are not allowed in a name");
    if (c == '\\') throw InvalidPath("backslashes are not allowed in a name");
    if (c == '/') throw InvalidPath("'/' is not allowed in a name");
  }
  if (std::string_view(name).substr(0, kReservedPrefix.size()) == kReservedPrefix)
    throw InvalidPath("names starting with '.vault-' are reserved");
  for (std::size_t i = 0, len = 1; i < name.size(); i += len)
    if (is_bidi_control(code_point_at(name, i, len)))
      throw InvalidPath(
          "bidirectional control characters (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C) are not "
          "allowed in a name: they make a name display differently from what it is (\"exe.txt\" shown for "
          "\"txt.exe\")");
}

}  // namespace

bool is_bidi_control(char32_t c) {
  return (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) || c == 0x200E || c == 0x200F || c == 0x061C;
}

VaultPath VaultPath::parse(std::string_view raw) {
  if (raw.size() > kMaxPathBytes * 4) throw InvalidPath("the path is too long");
  if (raw.find('\0') != std::string_view::npos) throw InvalidPath("NUL is not allowed in a path");
  if (!text::is_valid_utf8(raw)) throw InvalidPath("the path is not valid UTF-8");
  std::string s = to_nfc(raw);
  if (s.size() > kMaxPathBytes) throw InvalidPath("the path is longer than 1024 bytes");
  std::string_view v = s;
  if (!v.empty() && v.front() == '/') v.remove_prefix(1);
  if (!v.empty() && v.back() == '/') v.remove_suffix(1);
  VaultPath p;
  if (v.empty()) return p;
  std::size_t start = 0;
  while (true) {
    auto slash = v.find('/', start);
    std::string part(v.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
    check_name(part);
    p.parts_.push_back(std::move(part));
    if (p.parts_.size() > kMaxComponents) throw InvalidPath("the path is too deep");
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return p;
}

std::string VaultPath::parse_name(std::string_view raw) {
  if (raw.find('\0') != std::string_view::npos) throw InvalidPath("NUL is not allowed in a name");
  if (!text::is_valid_utf8(raw)) throw InvalidPath("the name is not valid UTF-8");
  if (raw.size() > kMaxNameBytes * 4) throw InvalidPath("a name is longer than 255 bytes");
  std::string name = to_nfc(raw);
  check_name(name);
  return name;
}

std::string VaultPath::relative() const {
  std::string out;
  for (const auto& p : parts_) {
    if (!out.empty()) out += '/';
    out += p;
  }
  return out;
}

std::string VaultPath::display() const { return "/" + relative(); }

const std::string& VaultPath::name() const {
  if (parts_.empty()) throw InvalidPath("the root has no name");
  return parts_.back();
}

VaultPath VaultPath::parent() const {
  VaultPath p = *this;
  if (!p.parts_.empty()) p.parts_.pop_back();
  return p;
}

VaultPath VaultPath::child(std::string_view name) const {
  VaultPath p = *this;
  p.parts_.push_back(parse_name(name));
  if (p.parts_.size() > kMaxComponents) throw InvalidPath("the path is too deep");
  if (p.relative().size() > kMaxPathBytes) throw InvalidPath("the path is longer than 1024 bytes");
  return p;
}

bool VaultPath::starts_with(const VaultPath& prefix) const {
  if (prefix.parts_.size() > parts_.size()) return false;
  for (std::size_t i = 0; i < prefix.parts_.size(); ++i)
    if (parts_[i] != prefix.parts_[i]) return false;
  return true;
}

VaultPath VaultPath::rebased(const VaultPath& from, const VaultPath& to) const {
  if (!starts_with(from)) throw InvalidPath("the path is not beneath the one that moves");
  VaultPath out = to;
  for (std::size_t i = from.parts_.size(); i < parts_.size(); ++i) out.parts_.push_back(parts_[i]);
  if (out.parts_.size() > kMaxComponents) throw InvalidPath("the path is too deep");
  if (out.relative().size() > kMaxPathBytes) throw InvalidPath("the path is longer than 1024 bytes");
  return out;
}

std::string VaultPath::tagged_name(std::string_view name, std::string_view tag) {
  auto dot = name.rfind('.');
  if (dot == 0 || dot == std::string_view::npos || name.size() - dot > 16) dot = name.size();  // no extension
  std::string_view stem = name.substr(0, dot), ext = name.substr(dot);
  std::size_t room = kMaxNameBytes - 1 - tag.size() - ext.size();
  if (stem.size() > room) {
    std::size_t cut = room;
    while (cut > 0 && (static_cast<unsigned char>(stem[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
    stem = stem.substr(0, cut);
  }
  std::string out(stem);
  out += '~';
  out += tag;
  out += ext;
  return out;
}

}  // namespace dozor::vault
