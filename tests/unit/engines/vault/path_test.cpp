#include "engines/vault/path.hpp"

#include <boost/test/unit_test.hpp>

using dozor::vault::InvalidPath;
using dozor::vault::VaultPath;

BOOST_AUTO_TEST_SUITE(vault_path)

BOOST_AUTO_TEST_CASE(clean_paths_are_accepted_with_or_without_slashes) {
  BOOST_TEST(VaultPath::parse("/a/b").relative() == "a/b");
  BOOST_TEST(VaultPath::parse("a/b/").relative() == "a/b");
  BOOST_TEST(VaultPath::parse("/").is_root());
  BOOST_TEST(VaultPath::parse("").is_root());
  BOOST_TEST(VaultPath::parse("/a b/c.txt").display() == "/a b/c.txt");
  BOOST_TEST(VaultPath::parse("%2e%2e").name() == "%2e%2e");  // already decoded once: a literal name
}

// Refused, never cleaned: each of these would let a naive join leave the root or confuse rules.
BOOST_AUTO_TEST_CASE(traversal_and_malformed_paths_are_refused) {
  const std::string bad[] = {"..",
                             "/..",
                             "a/../b",
                             "a/..",
                             "./a",
                             "a/./b",
                             "a//b",
                             "//a",
                             "a\\..\\b",
                             "a\\b",
                             std::string("a\0b", 3),
                             "a\nb",
                             "a\rb",
                             "a\x7f",
                             "\xc0\xae\xc0\xae/x",  // overlong '.'
                             "\xe0\x80\xaf",        // overlong '/'
                             "\xed\xa0\x80",        // surrogate
                             "\xff",
                             ".vault-tmp-123",
                             "a/.vault-x",
                             std::string(256, 'x'),
                             std::string(1025, 'a')};
  for (const auto& p : bad) BOOST_CHECK_THROW(VaultPath::parse(p), InvalidPath);
}

BOOST_AUTO_TEST_CASE(names_are_normalised_to_nfc) {
  auto nfd = VaultPath::parse("/Cafe\xcc\x81");  // e + combining acute
  auto nfc = VaultPath::parse("/Caf\xc3\xa9");
  BOOST_TEST((nfd == nfc));
  BOOST_TEST(nfd.relative() == "Caf\xc3\xa9");
}

BOOST_AUTO_TEST_CASE(depth_is_bounded) {
  std::string deep;
  for (int i = 0; i < 64; ++i) deep += "/d";
  BOOST_CHECK_NO_THROW(VaultPath::parse(deep));
  BOOST_CHECK_THROW(VaultPath::parse(deep + "/d"), InvalidPath);
}

BOOST_AUTO_TEST_CASE(prefixes_match_whole_components) {
  auto secret = VaultPath::parse("/Secret");
  BOOST_TEST(VaultPath::parse("/Secret").starts_with(secret));
  BOOST_TEST(VaultPath::parse("/Secret/x").starts_with(secret));
  BOOST_TEST(!VaultPath::parse("/Secretive").starts_with(secret));
  BOOST_TEST(!VaultPath::parse("/secret").starts_with(secret));
  BOOST_TEST(VaultPath::parse("/x").starts_with(VaultPath()));
}

BOOST_AUTO_TEST_CASE(child_validates_the_name) {
  auto home = VaultPath::parse("/home");
  BOOST_TEST(home.child("a.txt").display() == "/home/a.txt");
  BOOST_CHECK_THROW(home.child(".."), InvalidPath);
  BOOST_CHECK_THROW(home.child("a/b"), InvalidPath);
  BOOST_CHECK_THROW(home.child(""), InvalidPath);
  BOOST_TEST(home.parent().is_root());
  BOOST_TEST(VaultPath().parent().is_root());
}

// Bidirectional controls make a name display as another ("invoice\u202Efdp.exe" is shown as
// "invoiceexe.pdf"): each of them is refused wherever it stands, in a path and in a single name.
BOOST_AUTO_TEST_CASE(bidirectional_controls_are_refused_with_the_reason) {
  const char* controls[] = {"\u202A", "\u202B", "\u202C", "\u202D", "\u202E", "\u2066",
                            "\u2067", "\u2068", "\u2069", "\u200E", "\u200F", "\u061C"};
  for (const char* c : controls) {
    std::string name = std::string("invoice") + c + "fdp.exe";
    BOOST_CHECK_THROW(VaultPath::parse("/Reports/" + name), InvalidPath);
    BOOST_CHECK_THROW(VaultPath::parse(std::string(c) + "/x"), InvalidPath);
    BOOST_CHECK_THROW(VaultPath::parse_name(name), InvalidPath);
    BOOST_CHECK_THROW(VaultPath().child(name), InvalidPath);
  }
  try {
    VaultPath::parse("/a\u202Eb");
    BOOST_FAIL("accepted");
  } catch (const InvalidPath& e) {
    BOOST_TEST(std::string(e.what()).find("bidirectional control characters") != std::string::npos);
  }
  // Their neighbours are ordinary characters: U+202F (narrow no-break space), U+2065 and U+206A,
  // U+200D (zero width joiner, in emoji), U+061B (Arabic semicolon), Hebrew and Arabic letters.
  for (const char* ok : {"a\u202Fb", "a\u206Ab", "\U0001F468\u200D\U0001F469", "a\u061Bb",
                         "\u05E9\u05DC\u05D5\u05DD.txt", "\u0645\u0644\u0641.pdf"})
    BOOST_CHECK_NO_THROW(VaultPath::parse_name(ok));
}

BOOST_AUTO_TEST_CASE(a_path_beneath_a_moved_folder_is_rebased_onto_its_destination) {
  auto from = VaultPath::parse("/home/a/P"), to = VaultPath::parse("/Shared/Proj");
  BOOST_TEST(VaultPath::parse("/home/a/P/RO/x").rebased(from, to).display() == "/Shared/Proj/RO/x");
  BOOST_TEST(from.rebased(from, to).display() == "/Shared/Proj");
  BOOST_TEST(VaultPath::parse("/Shared/Proj/RO").rebased(to, from).display() == "/home/a/P/RO");
  BOOST_CHECK_THROW(VaultPath::parse("/home/a/Px/RO").rebased(from, to), InvalidPath);
  std::string deep;
  for (int i = 0; i < 63; ++i) deep += "/d";
  BOOST_CHECK_THROW(VaultPath::parse("/a/b/c").rebased(VaultPath::parse("/a"), VaultPath::parse(deep)), InvalidPath);
}

BOOST_AUTO_TEST_CASE(a_tagged_name_keeps_its_extension_and_fits_the_name_limit) {
  BOOST_TEST(VaultPath::tagged_name("report.txt", "1a2b3c4d") == "report~1a2b3c4d.txt");
  BOOST_TEST(VaultPath::tagged_name("archive.tar.gz", "1a2b3c4d") == "archive.tar~1a2b3c4d.gz");
  BOOST_TEST(VaultPath::tagged_name("README", "1a2b3c4d") == "README~1a2b3c4d");
  BOOST_TEST(VaultPath::tagged_name(".profile", "1a2b3c4d") == ".profile~1a2b3c4d");
  // At the limit the stem gives way, never inside a character (U+0436 is two bytes).
  std::string cyr;
  for (int i = 0; i < 125; ++i) cyr += "\u0436";  // 250 bytes
  auto t = VaultPath::tagged_name(cyr + ".txt", "1a2b3c4d");
  BOOST_TEST(t.size() <= dozor::vault::kMaxNameBytes);
  BOOST_CHECK_NO_THROW(VaultPath::parse_name(t));
  BOOST_TEST(t.substr(t.size() - 13) == "~1a2b3c4d.txt");
  auto plain = VaultPath::tagged_name(std::string(255, 'x'), "1a2b3c4d");
  BOOST_TEST(plain.size() == 255u);
  BOOST_CHECK_NO_THROW(VaultPath::parse_name(plain));
}

BOOST_AUTO_TEST_SUITE_END()
