#include "db/migrations.hpp"

#include <unistd.h>
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>

#include "db/errors.hpp"
#include "dozor_source_dir.hpp"

using namespace dozor::db;

BOOST_AUTO_TEST_SUITE(migrations)

BOOST_AUTO_TEST_CASE(statements_split_at_semicolons_outside_quotes_and_comments) {
  auto s = split_statements("-- a comment; with semicolon\nCREATE TABLE a (x INT);\nINSERT INTO a VALUES ('x;y');\n");
  BOOST_REQUIRE(s.size() == 2u);
  BOOST_TEST(s[0] == "CREATE TABLE a (x INT)");
  BOOST_TEST(s[1] == "INSERT INTO a VALUES ('x;y')");
}

BOOST_AUTO_TEST_CASE(project_migrations_are_well_named_and_ordered) {
  auto files = list_migrations(std::string(DOZOR_SOURCE_DIR) + "/db/migrations");
  BOOST_REQUIRE(!files.empty());
  BOOST_TEST(files.front().version == 1);
  for (std::size_t i = 1; i < files.size(); ++i) BOOST_TEST(files[i].version > files[i - 1].version);
}

namespace {

// A scratch directory removed at the end of the test.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    path = std::filesystem::temp_directory_path() /
           ("dozor-mig-" + std::to_string(::getpid()) + "-" + std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  MigrationFile write(int version, const std::string& name, const std::string& text) const {
    auto p = path / (std::string(version < 10 ? "000" : "00") + std::to_string(version) + "_" + name + ".sql");
    std::ofstream(p) << text;
    return {version, name, p.string()};
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(unreadable_migration_stops_the_run) {
  TempDir d;
  auto dangling = d.path / "0001_gone.sql";
  std::filesystem::create_symlink(d.path / "nowhere.sql", dangling);
  BOOST_CHECK_THROW(read_migration({1, "gone", dangling.string()}), DbError);
  auto dir = d.path / "0002_dir.sql";
  std::filesystem::create_directory(dir);
  BOOST_CHECK_THROW(read_migration({2, "dir", dir.string()}), DbError);
}

BOOST_AUTO_TEST_CASE(empty_or_comment_only_migration_is_refused) {
  TempDir d;
  BOOST_CHECK_THROW(read_migration(d.write(1, "empty", "")), DbError);
  BOOST_CHECK_THROW(read_migration(d.write(2, "comment", "-- nothing to do\n")), DbError);
  BOOST_TEST(read_migration(d.write(3, "real", "CREATE TABLE t (x INT);\n")) == "CREATE TABLE t (x INT);\n");
}

BOOST_AUTO_TEST_CASE(sha256_matches_the_known_digest) {
  BOOST_TEST(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

BOOST_AUTO_TEST_CASE(changed_applied_migration_is_reported_by_name) {
  std::vector<MigrationFile> files{{1, "init", "/m/0001_init.sql"}, {2, "more", "/m/0002_more.sql"}};
  std::map<int, std::string> now{{1, sha256_hex("one")}, {2, sha256_hex("two, edited")}};
  std::map<int, std::optional<std::string>> applied{{1, sha256_hex("one")}, {2, sha256_hex("two")}};
  auto problems = changed_migrations(applied, files, now);
  BOOST_REQUIRE(problems.size() == 1u);
  BOOST_TEST(problems[0].find("0002_more.sql") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(unchanged_unrecorded_or_pending_migrations_are_fine) {
  std::vector<MigrationFile> files{{1, "init", "a"}, {2, "old", "b"}, {3, "new", "c"}};
  std::map<int, std::string> now{{1, sha256_hex("one")}, {2, sha256_hex("two")}, {3, sha256_hex("three")}};
  // 1 matches, 2 predates checksums (NULL), 3 is not applied yet.
  std::map<int, std::optional<std::string>> applied{{1, sha256_hex("one")}, {2, std::nullopt}};
  BOOST_TEST(changed_migrations(applied, files, now).empty());
}

BOOST_AUTO_TEST_SUITE_END()
