#pragma once
// What a new password must satisfy (account creation and password change, in the API and in
// dozorctl): at least the minimum length in characters, not in the shipped list of common
// passwords, neither equal to nor containing the username, and not guessable in fewer than
// limits::kPasswordMinGuesses guesses (password_strength.hpp: the list's words with digits,
// years, keyboard walks, l33t …). Comparisons are made on the NFKC_Casefold forms, so
// "PASSWORD1", "ｐａｓｓｗｏｒｄ1" and "password1" are one password.
#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "engines/auth/password_strength.hpp"

namespace dozor::auth {

class PasswordPolicy {
 public:
  // The list: one password per line; blank lines and lines starting with '#' are skipped.
  // Throws std::runtime_error when the file cannot be read or holds fewer than kMinListSize
  // entries (a truncated list must not silently weaken the rule).
  static PasswordPolicy load(const std::string& path, std::size_t min_length);
  static constexpr std::size_t kMinListSize = 10000;
  // Names within a password count from this many characters; shorter names only when equal.
  static constexpr std::size_t kMinNameForContainment = 3;

  // `ranked`: the list's entries, folded, most common first (the order is the guess rank).
  PasswordPolicy(const std::vector<std::string>& ranked, std::size_t min_length);

  // Empty when `password` is acceptable for the account whose canonical name is
  // `canonical_username`; otherwise the reason, phrased for the person choosing it.
  std::string problem(std::string_view password, std::string_view canonical_username) const;

  // The guesses `password` is estimated to cost (the account's name counts as a known word).
  GuessEstimate strength(std::string_view password, std::string_view canonical_username) const;

  std::size_t list_size() const { return common_.size(); }
  std::size_t min_length() const { return min_length_; }

 private:
  std::unordered_set<std::string> common_;  // folded
  RankedWords words_;                       // the same entries by rank
  std::size_t min_length_;
};

}  // namespace dozor::auth
