#include "engines/tasks/task_id.hpp"

#include <sodium.h>

#include <algorithm>
#include <stdexcept>

#include "engines/auth/jwt.hpp"

namespace dozor::tasks {

namespace {
constexpr std::size_t kIdBytes = 16;
constexpr std::size_t kIdChars = 22;  // base64url of 16 bytes, unpadded
}  // namespace

std::string new_task_id() {
  if (sodium_init() < 0) throw std::runtime_error("libsodium cannot be initialised");
  unsigned char raw[kIdBytes];
  randombytes_buf(raw, sizeof raw);
  return auth::base64url_encode(std::string_view(reinterpret_cast<const char*>(raw), sizeof raw));
}

bool looks_like_task_id(std::string_view text) {
  return text.size() == kIdChars && std::all_of(text.begin(), text.end(), [](char ch) {
           return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' ||
                  ch == '_';
         });
}

}  // namespace dozor::tasks
