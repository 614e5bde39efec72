#include "engines/auth/password_policy.hpp"

#include <chrono>
#include <fstream>
#include <stdexcept>

#include "engines/auth/username.hpp"
#include "engines/limits.hpp"

namespace dozor::auth {

PasswordPolicy PasswordPolicy::load(const std::string& path, std::size_t min_length) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read the common-password list " + path);
  std::vector<std::string> ranked;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.front() == '#') continue;
    auto folded = fold(line);
    if (folded) ranked.push_back(std::move(*folded));
  }
  if (in.bad()) throw std::runtime_error("cannot read the common-password list " + path);
  PasswordPolicy policy(ranked, min_length);
  if (policy.list_size() < kMinListSize)
    throw std::runtime_error("the common-password list " + path + " holds " + std::to_string(policy.list_size()) +
                             " entries; at least " + std::to_string(kMinListSize) + " are expected");
  return policy;
}

PasswordPolicy::PasswordPolicy(const std::vector<std::string>& ranked, std::size_t min_length)
    : min_length_(min_length) {
  std::uint32_t rank = 0;
  for (const auto& word : ranked) {
    ++rank;
    common_.insert(word);
    auto chars = fold_chars(nfkc_chars(word, limits::kPasswordEstimateChars));
    if (!chars.empty()) words_.emplace(std::move(chars), rank);  // the first (most common) rank stays
  }
}

GuessEstimate PasswordPolicy::strength(std::string_view password, std::string_view canonical_username) const {
  auto now = std::chrono::system_clock::now();
  int year = static_cast<int>(std::chrono::year_month_day(std::chrono::floor<std::chrono::days>(now)).year());
  std::vector<std::string> own{std::string(canonical_username), "dozor", "дозор"};
  return estimate_guesses(password, words_, own, year, limits::kPasswordEstimateChars);
}

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
  if (strength(password, canonical_username).guesses < limits::kPasswordMinGuesses)
    return "The password is too easy to guess: it is made of common words, names, dates, keyboard patterns, "
           "repeats or sequences. Add more unrelated words or random characters";
  return {};
}

}  // namespace dozor::auth
