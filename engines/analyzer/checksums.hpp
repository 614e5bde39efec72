#pragma once
// Check digits of Russian and international identifiers (docs/analyzer.md cites the sources;
// /work/shared/research/pii-ru.md). Every function takes the digits only (separators removed)
// and returns false for a wrong length or a non-digit.
#include <string>
#include <string_view>

namespace dozor::analyzer::checksum {

// Only the ASCII digits of `text`, in order.
std::string digits_of(std::string_view text);

bool luhn(std::string_view digits);    // bank cards, 12..19 digits
bool snils(std::string_view digits);   // 11 digits; numbers up to 001-001-998 have no check
bool inn10(std::string_view digits);   // legal entity
bool inn12(std::string_view digits);   // person
bool ogrn(std::string_view digits);    // 13 digits
bool ogrnip(std::string_view digits);  // 15 digits
// A 20-digit account against a 9-digit BIK: settlement accounts use the BIK's last three
// digits as the key prefix, correspondent accounts "0" + digits 5..6.
bool account_with_bik(std::string_view account, std::string_view bik);
// BIK shape: 9 digits starting with 04 (Bank of Russia).
bool bik_shape(std::string_view digits);

}  // namespace dozor::analyzer::checksum
