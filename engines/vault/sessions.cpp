#include "engines/vault/sessions.hpp"

#include <sodium.h>

#include <cctype>
#include <stdexcept>

#include "db/vault_repo.hpp"

namespace dozor::vault {
namespace {

constexpr std::size_t kIdBytes = 32;
constexpr std::size_t kCookieChars = 43;  // base64url of 32 bytes, no padding
// A session's last_seen_at is written at most this often, not on every request.
constexpr std::int64_t kTouchEverySeconds = 60;

std::string b64url(const unsigned char* raw, std::size_t n) {
  std::string out(sodium_base64_ENCODED_LEN(n, sodium_base64_VARIANT_URLSAFE_NO_PADDING), '\0');
  sodium_bin2base64(out.data(), out.size(), raw, n, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
  out.resize(out.find('\0'));
  return out;
}

bool well_formed(std::string_view v) {
  if (v.size() != kCookieChars) return false;
  for (char c : v)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_')) return false;
  return true;
}

}  // namespace

std::optional<std::string> session_hash(std::string_view cookie_value) {
  if (!well_formed(cookie_value)) return std::nullopt;
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(cookie_value.data()), cookie_value.size());
  char hex[sizeof digest * 2 + 1];
  sodium_bin2hex(hex, sizeof hex, digest, sizeof digest);
  return std::string(hex);
}

Sessions::Sessions(db::Database& db, const config::VaultConfig& cfg) : db_(db), cfg_(cfg) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium cannot be initialised");
}

Sessions::Created Sessions::create(const db::users::User& u, const std::string& remote_addr) {
  unsigned char raw[kIdBytes];
  randombytes_buf(raw, sizeof raw);
  std::string value = b64url(raw, sizeof raw);
  std::string hash = *session_hash(value);
  db_.run(
      [&](db::Connection& c) {
        db::vault::delete_expired_sessions(c, cfg_.session_idle, cfg_.session_absolute);
        db::vault::insert_session(c, hash, u.id, u.token_version, remote_addr);
      },
      db::Retry::Never);
  return {value, csrf_for(value)};
}

std::optional<Session> Sessions::authenticate(std::string_view cookie_value) {
  auto hash = session_hash(cookie_value);
  if (!hash) return std::nullopt;
  std::optional<db::vault::SessionRow> row;
  std::optional<db::users::User> user;
  db_.run(
      [&](db::Connection& c) {
        row = db::vault::find_live_session(c, *hash, cfg_.session_idle, cfg_.session_absolute);
        if (row) user = db::users::find_by_id(c, row->user_id);
      },
      db::Retry::OnLostConnection);
  if (!row || !user || !user->is_active) return std::nullopt;
  if (row->idle_seconds >= kTouchEverySeconds)
    db_.run([&](db::Connection& c) { db::vault::touch_session(c, *hash); }, db::Retry::OnLostConnection);
  return Session{std::move(*user), std::string(cookie_value), csrf_for(cookie_value)};
}

void Sessions::revoke(std::string_view cookie_value) {
  auto hash = session_hash(cookie_value);
  if (!hash) return;
  db_.run([&](db::Connection& c) { db::vault::delete_session(c, *hash); }, db::Retry::OnLostConnection);
}

std::string Sessions::set_cookie(const std::string& value) const {
  std::string max_age = value.empty() ? "0" : std::to_string(cfg_.session_absolute);
  return std::string(kCookie) + "=" + value + "; Max-Age=" + max_age + "; Path=/; Secure; HttpOnly; SameSite=Strict";
}

std::string Sessions::csrf_for(std::string_view cookie_value) {
  if (!well_formed(cookie_value)) throw std::invalid_argument("not a session cookie value");
  static constexpr std::string_view kLabel = "dozor-vault-csrf-v1";
  unsigned char out[32];
  crypto_generichash(out, sizeof out, reinterpret_cast<const unsigned char*>(kLabel.data()), kLabel.size(),
                     reinterpret_cast<const unsigned char*>(cookie_value.data()), cookie_value.size());
  return b64url(out, sizeof out);
}

bool Sessions::csrf_matches(std::string_view cookie_value, std::string_view token) {
  if (!well_formed(cookie_value)) return false;
  std::string expected = csrf_for(cookie_value);
  return token.size() == expected.size() && sodium_memcmp(token.data(), expected.data(), expected.size()) == 0;
}

}  // namespace dozor::vault
