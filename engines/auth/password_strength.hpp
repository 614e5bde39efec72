#pragma once
// How many guesses a password costs an attacker who knows how people choose passwords: the model
// of zxcvbn (Wheeler, "zxcvbn: Low-Budget Password Strength Estimation", USENIX Security 2016).
// The password is covered by its cheapest sequence of patterns — ranked dictionary words (also
// reversed and with l33t substitutions, case variants counted), keyboard walks (QWERTY, the same
// keys on the Russian ЙЦУКЕН layout, the numeric keypad), repeats, alphabet and digit sequences,
// recent years and dates — with random characters between them; the estimate is that sequence's
// guess count (docs/login.md "Password strength").
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace dozor::auth {

// Lower-case (simple case folding per character) word → rank, 1 being the most common.
using RankedWords = std::unordered_map<std::u32string, std::uint32_t>;

struct GuessEstimate {
  double guesses = 1;                 // may be +inf for very long passwords
  std::vector<std::string> patterns;  // the cheapest cover, in order ("dictionary", "bruteforce", …)
};

// The characters of `utf8` after NFKC (case kept), at most `max_chars` of them; empty for
// invalid UTF-8 (the policy refuses that before estimating).
std::u32string nfkc_chars(std::string_view utf8, std::size_t max_chars);

// Simple case folding of every character (one character in, one out).
std::u32string fold_chars(std::u32string_view text);

// The estimate for `password` (UTF-8). `words` is the ranked dictionary; `user_inputs` are the
// account's own words (its name, …), each as cheap as the most common dictionary word.
// `reference_year` is the year dates and years are measured from (the current one). Only the
// first `max_chars` characters are read (limits::kPasswordEstimateChars): the estimate of a
// longer password is that of its beginning, which the rest would only make harder.
GuessEstimate estimate_guesses(std::string_view password, const RankedWords& words,
                               const std::vector<std::string>& user_inputs, int reference_year, std::size_t max_chars);

}  // namespace dozor::auth
