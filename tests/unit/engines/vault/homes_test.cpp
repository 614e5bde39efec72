#include <boost/test/unit_test.hpp>

#include "engines/vault/path.hpp"
#include "engines/vault/rights.hpp"
#include "engines/vault/vault.hpp"

using dozor::vault::archived_home_name;
using dozor::vault::VaultPath;

BOOST_AUTO_TEST_SUITE(vault_homes)

// An archived home keeps the account's name first (admins find it by name), then whose it was
// and when: two accounts of one name never share an archive folder.
BOOST_AUTO_TEST_CASE(an_archived_home_is_named_by_the_name_the_account_and_the_time) {
  BOOST_TEST(archived_home_name("alice", "7", "20261127T101500Z") == "alice~7~20261127T101500Z");
  BOOST_TEST(archived_home_name("alice", "found", "20261127T101500Z") == "alice~found~20261127T101500Z");
  BOOST_TEST(archived_home_name("alice", "7", "20261127T101500Z") !=
             archived_home_name("alice", "9", "20261127T101500Z"));
  // A valid vault name for every name a home can have (64 characters at most, any script).
  std::string longest;
  for (int i = 0; i < 64; ++i) longest += "\u0436";
  auto name = archived_home_name(longest, "18446744073709551615", "20261127T101500Z");
  BOOST_CHECK_NO_THROW(VaultPath().child(dozor::vault::kHomeArchiveFolder).child(name));
}

BOOST_AUTO_TEST_SUITE_END()
