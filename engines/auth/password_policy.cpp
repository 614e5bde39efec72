#include "engines/auth/password_policy.hpp"

#include <fstream>
#include <stdexcept>

#include "engines/auth/username.hpp"

namespace dozor::auth {

PasswordPolicy PasswordPolicy::load(const std::string& path, std::size_t min_length) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read the common-password list " + path);
  std::unordered_set<std::string> common;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.front() == '#') continue;
    auto folded = fold(line);
    if (folded) common.insert(std::move(*folded));
  }
  if (in.bad()) throw std::runtime_error("cannot read the common-password list " + path);
  if (common.size() < kMinListSize)
    throw std::runtime_error("the common-password list " + path + " holds " + std::to_string(common.size()) +
                             " entries; at least " + std::to_string(kMinListSize) + " are expected");
  return PasswordPolicy(std::move(common), min_length);
}

PasswordPolicy::PasswordPolicy(std::unordered_set<std::string> common, std::size_t min_length)
    : common_(std::move(common)), min_length_(min_length) {}

std::string PasswordPolicy::problem(std::string_view password, std::string_view canonical_username) const {
  if (utf8_chars(password) < min_length_)
    return "The password must have at least " + std::to_string(min_length_) + " characters";
  auto folded = fold(password);
  if (!folded) return "The password must be valid UTF-8";
  if (common_.count(*folded)) return "The password is too common: it is in a list of frequently used passwords";
  if (!canonical_username.empty()) {
    if (*folded == canonical_username) return "The password must not be the username";
    if (utf8_chars(canonical_username) >= kMinNameForContainment &&
        folded->find(canonical_username) != std::string::npos)
      return "The password must not contain the username";
  }
  return {};
}

}  // namespace dozor::auth
