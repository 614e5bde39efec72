#include "engines/analyzer/checksums.hpp"

#include <array>
#include <cstdint>

namespace dozor::analyzer::checksum {
namespace {

bool all_digits(std::string_view s, std::size_t n) {
  if (s.size() != n) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

int d(std::string_view s, std::size_t i) { return s[i] - '0'; }

// Σ dᵢ·wᵢ mod 11 mod 10, the INN check.
template <std::size_t N>
int inn_check(std::string_view s, const std::array<int, N>& w) {
  int sum = 0;
  for (std::size_t i = 0; i < N; ++i) sum += d(s, i) * w[i];
  return sum % 11 % 10;
}

// A decimal string (≤ 19 digits fits in uint64) modulo m.
int mod_of(std::string_view s, int m) {
  std::uint64_t r = 0;
  for (char c : s) r = (r * 10 + static_cast<std::uint64_t>(c - '0')) % static_cast<std::uint64_t>(m);
  return static_cast<int>(r);
}

}  // namespace

std::string digits_of(std::string_view text) {
  std::string out;
  for (char c : text)
    if (c >= '0' && c <= '9') out += c;
  return out;
}

bool luhn(std::string_view s) {
  if (s.size() < 12 || s.size() > 19 || !all_digits(s, s.size())) return false;
  int sum = 0;
  bool dbl = false;
  for (auto i = s.size(); i-- > 0;) {
    int v = d(s, i);
    if (dbl) v = v * 2 > 9 ? v * 2 - 9 : v * 2;
    sum += v;
    dbl = !dbl;
  }
  return sum % 10 == 0;
}

bool snils(std::string_view s) {
  if (!all_digits(s, 11)) return false;
  // Numbers up to 001-001-998 were issued without a check (Pension Fund rules): not a finding.
  if (s.substr(0, 9) <= "001001998") return false;
  int sum = 0;
  for (std::size_t i = 0; i < 9; ++i) sum += d(s, i) * static_cast<int>(9 - i);
  int check = sum < 100 ? sum : (sum == 100 || sum == 101) ? 0 : sum % 101;
  if (check == 100) check = 0;
  return check == d(s, 9) * 10 + d(s, 10);
}

bool inn10(std::string_view s) {
  if (!all_digits(s, 10) || s.substr(0, 2) == "00") return false;
  return inn_check(s, std::array<int, 9>{2, 4, 10, 3, 5, 9, 4, 6, 8}) == d(s, 9);
}

bool inn12(std::string_view s) {
  if (!all_digits(s, 12) || s.substr(0, 2) == "00") return false;
  return inn_check(s, std::array<int, 10>{7, 2, 4, 10, 3, 5, 9, 4, 6, 8}) == d(s, 10) &&
         inn_check(s, std::array<int, 11>{3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8}) == d(s, 11);
}

bool ogrn(std::string_view s) {
  // The first digit is the record kind: 1 and 5 are OGRN of a legal entity.
  if (!all_digits(s, 13) || (s[0] != '1' && s[0] != '5')) return false;
  return mod_of(s.substr(0, 12), 11) % 10 == d(s, 12);
}

bool ogrnip(std::string_view s) {
  if (!all_digits(s, 15) || s[0] != '3') return false;
  return mod_of(s.substr(0, 14), 13) % 10 == d(s, 14);
}

bool bik_shape(std::string_view s) { return all_digits(s, 9) && s.substr(0, 2) == "04"; }

bool account_with_bik(std::string_view account, std::string_view bik) {
  if (!all_digits(account, 20) || !bik_shape(bik)) return false;
  auto keyed = [&](const std::string& prefix) {
    std::string all = prefix + std::string(account);
    static constexpr std::array<int, 3> kWeights{7, 1, 3};
    int sum = 0;
    for (std::size_t i = 0; i < all.size(); ++i) sum += (d(all, i) * kWeights[i % 3]) % 10;
    return sum % 10 == 0;
  };
  return keyed(std::string(bik.substr(6, 3))) || keyed("0" + std::string(bik.substr(4, 2)));
}

}  // namespace dozor::analyzer::checksum
