#pragma once
// Device cookies (OWASP, "Slow down online guessing attacks with device cookies"): a successful
// login gives the browser a signed cookie naming the account and a random device id. A later
// login for that account carrying it is counted on that device alone, so strangers' failures
// (which cannot carry it) never stop it; its own failures earn short delays, never a lock.
// The cookie proves nothing about the password: it only chooses the throttle counter.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dozor::auth {

struct DeviceCookie {
  std::int64_t user_id = 0;
  std::int64_t token_version = 0;  // a password change (new version) retires every cookie
  std::string device;              // 32 hex digits
  std::int64_t issued_at = 0;      // seconds since the epoch
};

class DeviceCookies {
 public:
  static constexpr const char* kName = "__Host-dozor_device";

  // The signing key is derived from the JWT key (its own HMAC domain). Throws
  // std::runtime_error when the key cannot be derived.
  DeviceCookies(std::string_view jwt_key, std::int64_t lifetime_seconds);

  // The cookie value; throws std::runtime_error when it cannot be signed.
  std::string issue(const DeviceCookie& c) const;
  // nullopt for anything malformed, forged, from the future or older than the lifetime.
  std::optional<DeviceCookie> verify(std::string_view value, std::int64_t now) const;
  // Which of `slots` a name falls in, keyed so that names cannot be chosen per slot.
  int slot_of(std::string_view name, int slots) const;

  std::int64_t lifetime() const { return lifetime_; }
  static std::string new_device_id();

 private:
  std::string key_;
  std::int64_t lifetime_;
};

}  // namespace dozor::auth
