#include "engines/vault/rights.hpp"

#include <boost/test/unit_test.hpp>

using dozor::vault::Access;
using dozor::vault::Rights;
using dozor::vault::Rule;
using dozor::vault::VaultPath;

namespace {
VaultPath P(const char* s) { return VaultPath::parse(s); }
}  // namespace

BOOST_AUTO_TEST_SUITE(vault_rights)

BOOST_AUTO_TEST_CASE(every_user_owns_a_home_folder) {
  Access a({}, false, "alice");
  BOOST_TEST((a.rights_on(P("/home/alice/x.txt")) == Rights{true, true, true}));
  BOOST_TEST((a.rights_on(P("/home/bob")) == Rights{}));
  BOOST_TEST((a.rights_on(P("/home/alicex")) == Rights{}));
  BOOST_TEST((a.rights_on(P("/")) == Rights{}));
}

BOOST_AUTO_TEST_CASE(rules_cover_whole_components_only) {
  Access a({{1, P("/Secret"), {true, false, false}}}, false, "alice");
  BOOST_TEST(a.may_read(P("/Secret")));
  BOOST_TEST(a.may_read(P("/Secret/a/b")));
  BOOST_TEST(!a.may_read(P("/Secretive")));
  BOOST_TEST(!a.may_read(P("/secret")));
}

// A rule and a request spelling one name differently (NFC, NFD) are one path.
BOOST_AUTO_TEST_CASE(unicode_spellings_of_a_rule_path_are_one_path) {
  Access a({{1, P("/Caf\xc3\xa9"), {true, false, false}}}, false, "alice");
  BOOST_TEST(a.may_read(P("/Cafe\xcc\x81/menu.txt")));
  BOOST_TEST(!a.may_read(P("/Cafe/menu.txt")));
}

BOOST_AUTO_TEST_CASE(the_most_specific_rule_decides) {
  Access a({{1, P("/Shared"), {true, true, true}},
            {2, P("/Shared/Locked"), {true, false, false}},
            {3, P("/Shared/Locked/Hidden"), {false, false, false}}},
           false, "alice");
  BOOST_TEST((a.rights_on(P("/Shared/x")) == Rights{true, true, true}));
  BOOST_TEST((a.rights_on(P("/Shared/Locked/x")) == Rights{true, false, false}));
  BOOST_TEST((a.rights_on(P("/Shared/Locked/Hidden/y")) == Rights{}));
  BOOST_TEST(!a.may_see(P("/Shared/Locked/Hidden")));
}

BOOST_AUTO_TEST_CASE(folders_on_the_way_to_a_readable_one_may_be_passed) {
  Access a({{1, P("/Projects/Apollo"), {true, false, false}}}, false, "alice");
  BOOST_TEST(a.may_pass(P("/")));
  BOOST_TEST(a.may_pass(P("/Projects")));
  BOOST_TEST(!a.may_read(P("/Projects")));
  BOOST_TEST(!a.may_see(P("/Projects/Gemini")));
  BOOST_TEST(a.may_see(P("/home")));  // on the way to her home
  BOOST_TEST(!a.may_see(P("/home/bob")));
}

BOOST_AUTO_TEST_CASE(a_write_only_rule_does_not_open_the_way) {
  Access a({{1, P("/Dropbox"), {false, true, false}}}, false, "alice");
  BOOST_TEST(a.may_pass(P("/")));  // the home folder still leads through the root
  BOOST_TEST(!a.may_see(P("/Dropbox")));
  BOOST_TEST(a.rights_on(P("/Dropbox/x")).write);
}

BOOST_AUTO_TEST_CASE(an_explicit_rule_on_the_home_replaces_the_implicit_one) {
  Access a({{1, P("/home/alice"), {true, false, false}}}, false, "alice");
  BOOST_TEST((a.rights_on(P("/home/alice/x")) == Rights{true, false, false}));
}

BOOST_AUTO_TEST_CASE(admins_hold_every_right) {
  Access a({}, true, "root");
  BOOST_TEST((a.rights_on(P("/anything")) == Rights{true, true, true}));
  BOOST_TEST(a.may_see(P("/home/bob")));
}

// Moving or deleting /Shared whole would carry /Shared/Locked along: its rule withholds the rights.
BOOST_AUTO_TEST_CASE(a_protected_folder_beneath_is_found) {
  Access a({{1, P("/Shared"), {true, true, true}},
            {2, P("/Shared/Locked"), {false, false, false}},
            {3, P("/Shared/Open"), {true, true, true}},
            {4, P("/Shared/ReadOnly"), {true, false, false}},
            {5, P("/Sharedx/Locked"), {false, false, false}}},
           false, "bob");
  auto del = a.lacking_beneath(P("/Shared"), {false, false, true});
  BOOST_TEST_REQUIRE(del.size() == 2u);
  BOOST_TEST((del[0] == P("/Shared/Locked")));
  BOOST_TEST((del[1] == P("/Shared/ReadOnly")));
  BOOST_TEST(a.lacking_beneath(P("/Shared/Open"), {false, true, true}).empty());
  BOOST_TEST(a.lacking_beneath(P("/Shared/Locked"), {false, false, true}).empty());  // its own rule: require's
  BOOST_TEST(a.lacking_beneath(P("/home/bob"), {false, true, true}).empty());
  Access admin({{2, P("/Shared/Locked"), {}}}, true, "root");
  BOOST_TEST(admin.lacking_beneath(P("/Shared"), {false, true, true}).empty());
}

// An account whose home is not made yet (Vault::access_for passes no name) holds nothing under
// /home: what lies at its name may be a deleted account's files (docs/vault.md "Homes").
BOOST_AUTO_TEST_CASE(no_home_rule_without_a_made_home) {
  Access a({{1, P("/Shared"), {true, false, false}}}, false, "");
  BOOST_TEST((a.rights_on(P("/home/alice")) == Rights{}));
  BOOST_TEST(!a.may_see(P("/home")));
  BOOST_TEST(a.may_read(P("/Shared/x")));
}

// The destination of a move: a rule beneath it that withholds write is where moved content
// would land against its rule (Vault::require_destination maps it back to the source).
BOOST_AUTO_TEST_CASE(a_rule_withholding_write_beneath_a_destination_is_found) {
  Access a({{1, P("/Shared"), {true, true, true}}, {2, P("/Shared/Proj/RO"), {true, false, false}}}, false, "alice");
  auto lacking = a.lacking_beneath(P("/Shared/Proj"), {false, true, false});
  BOOST_TEST_REQUIRE(lacking.size() == 1u);
  BOOST_TEST(lacking[0].rebased(P("/Shared/Proj"), P("/home/alice/P")).display() == "/home/alice/P/RO");
  BOOST_TEST(a.lacking_beneath(P("/Shared/Other"), {false, true, false}).empty());
}

BOOST_AUTO_TEST_SUITE_END()
