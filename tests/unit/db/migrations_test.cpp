#include "db/migrations.hpp"

#include <boost/test/unit_test.hpp>

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

BOOST_AUTO_TEST_SUITE_END()
