#include "engines/auth/device_cookie.hpp"

#include <sodium.h>
#include <charconv>
#include <stdexcept>
#include <vector>

#include "engines/auth/crypto.hpp"
#include "engines/auth/jwt.hpp"

namespace dozor::auth {
namespace {

constexpr std::string_view kVersion = "1";
constexpr std::int64_t kClockSkew = 60;

std::optional<std::int64_t> parse_int(std::string_view s) {
  if (s.empty() || s.size() > 19) return std::nullopt;
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < 0) return std::nullopt;
  return v;
}

bool is_device_id(std::string_view s) {
  if (s.size() != 32) return false;
  for (char ch : s)
    if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f'))) return false;
  return true;
}

std::string payload(const DeviceCookie& c) {
  return std::string(kVersion) + "." + std::to_string(c.user_id) + "." + std::to_string(c.token_version) + "." +
         c.device + "." + std::to_string(c.issued_at);
}

}  // namespace

DeviceCookies::DeviceCookies(std::string_view jwt_key, std::int64_t lifetime_seconds) : lifetime_(lifetime_seconds) {
  auto key = crypto::hmac_sha256(jwt_key, "dozor device cookie v1");
  if (!key) throw std::runtime_error("cannot derive the device cookie key");
  key_ = std::move(*key);
}

std::string DeviceCookies::issue(const DeviceCookie& c) const {
  auto text = payload(c);
  auto mac = crypto::hmac_sha256(key_, text);
  if (!mac) throw std::runtime_error("cannot sign the device cookie");
  return text + "." + base64url_encode(*mac);
}

std::optional<DeviceCookie> DeviceCookies::verify(std::string_view value, std::int64_t now) const {
  if (value.size() > 256) return std::nullopt;
  auto dot = value.rfind('.');
  if (dot == std::string_view::npos) return std::nullopt;
  std::string_view text = value.substr(0, dot);
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    auto next = text.find('.', start);
    parts.push_back(text.substr(start, next == std::string_view::npos ? std::string_view::npos : next - start));
    if (next == std::string_view::npos) break;
    start = next + 1;
  }
  if (parts.size() != 5 || parts[0] != kVersion || !is_device_id(parts[3])) return std::nullopt;
  auto uid = parse_int(parts[1]), ver = parse_int(parts[2]), iat = parse_int(parts[4]);
  if (!uid || !ver || !iat) return std::nullopt;
  auto sig = base64url_decode(value.substr(dot + 1));
  auto mac = crypto::hmac_sha256(key_, text);
  // A failed HMAC refuses the cookie: never compare against an empty or partial MAC.
  if (!sig || !mac || !crypto::equal_constant_time(*sig, *mac)) return std::nullopt;
  if (*iat > now + kClockSkew || now - *iat >= lifetime_) return std::nullopt;
  return DeviceCookie{*uid, *ver, std::string(parts[3]), *iat};
}

int DeviceCookies::slot_of(std::string_view name, int slots) const {
  auto mac = crypto::hmac_sha256(key_, std::string("slot:") + std::string(name));
  if (!mac || slots <= 0) return 0;
  return static_cast<unsigned char>((*mac)[0]) % slots;
}

std::string DeviceCookies::new_device_id() {
  unsigned char raw[16];
  randombytes_buf(raw, sizeof raw);
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char b : raw) {
    out += digits[b >> 4];
    out += digits[b & 0xF];
  }
  return out;
}

}  // namespace dozor::auth
