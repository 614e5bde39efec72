#pragma once
// Typed failures that engines and repositories throw; fcgi/error_mapping.cpp turns each into
// one HTTP status and body, in one place.
#include <stdexcept>
#include <string>

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
// A dependency (the database) cannot be reached; the request may be retried later.
struct Unavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace dozor
