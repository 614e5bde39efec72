#pragma once
// Typed failures that engines and repositories throw; fcgi/error_mapping.cpp turns each into
// one HTTP status and body, in one place.
#include <stdexcept>
#include <string>
#include <vector>

namespace dozor {

struct NotFound : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct Conflict : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct Forbidden : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// Missing, invalid, expired or revoked credentials.
struct Unauthenticated : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// Wrong username or password: a distinct message from Unauthenticated.
struct BadCredentials : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct TooManyAttempts : std::runtime_error {
  TooManyAttempts(const std::string& msg, long retry_after_s) : std::runtime_error(msg), retry_after(retry_after_s) {}
  long retry_after;
};
// Too much work of one kind in progress (argon2 hashing behind its gate): refused before any of
// it was done; the client may retry after `retry_after` seconds (429).
struct Busy : std::runtime_error {
  Busy(const std::string& msg, long retry_after_s) : std::runtime_error(msg), retry_after(retry_after_s) {}
  long retry_after;
};
// One input field breaks a rule only an engine can check (a password in the common list or
// holding the username): 422 in the validation shape, at loc ["body", field].
struct InvalidField : std::runtime_error {
  InvalidField(std::string field_name, const std::string& msg)
      : std::runtime_error(msg), field(field_name), loc{std::move(field_name)} {}
  // A member of a nested object: {"params", "proxy"} is reported at ["body", "params", "proxy"].
  static InvalidField at(std::vector<std::string> body_loc, const std::string& msg) {
    InvalidField f(body_loc.empty() ? std::string() : body_loc.back(), msg);
    f.loc = std::move(body_loc);
    return f;
  }
  std::string field;
  std::vector<std::string> loc;  // under "body"
};
// A dependency (the database) cannot be reached; the request may be retried later.
struct Unavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace dozor
