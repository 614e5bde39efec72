// The DBMS error signatures (share/audit/owasp/sql_errors.json) and their validation.
#include "engines/scan/owasp/sql_errors.hpp"

#include <boost/test/unit_test.hpp>

#include "tests/unit/support/audit_data.hpp"

using dozor::owasp::SqlErrors;

namespace {
const SqlErrors& shipped() { return dozor::test::shipped_audit_data().sql_errors; }
}  // namespace

BOOST_AUTO_TEST_SUITE(owasp_sql_errors)

BOOST_AUTO_TEST_CASE(the_shipped_file_loads_with_the_common_databases) {
  std::set<std::string> names;
  for (const auto& d : shipped().dbms()) names.insert(d.name);
  for (const char* n : {"MySQL", "PostgreSQL", "Microsoft SQL Server", "Oracle", "SQLite"})
    BOOST_TEST(names.count(n) == 1u);
  BOOST_TEST(!shipped().version().empty());
}

BOOST_AUTO_TEST_CASE(error_texts_of_each_database_are_recognised) {
  struct Case {
    const char* text;
    const char* dbms;
  } cases[] = {
      {"<b>Warning</b>: You have an error in your SQL syntax; check the manual", "MySQL"},
      {"ERROR: unterminated quoted string at or near \"'1\"", "PostgreSQL"},
      {"Unclosed quotation mark after the character string '1'.", "Microsoft SQL Server"},
      {"ORA-01756: quoted string not properly terminated", "Oracle"},
      {"<pre>sqlite3.OperationalError: unrecognized token: \"'1''\"</pre>", "SQLite"},
  };
  for (const auto& c : cases) {
    auto m = shipped().match(c.text);
    BOOST_TEST_REQUIRE(m.has_value(), c.text);
    BOOST_TEST(m->dbms == c.dbms);
    BOOST_TEST(std::string(c.text).substr(m->offset, m->matched.size()) == m->matched);
  }
}

BOOST_AUTO_TEST_CASE(ordinary_pages_match_nothing) {
  for (const char* text : {"<html><body>Search results for O'Brien: 3 items</body></html>",
                           "SQL tutorial: a syntax error happens when you forget a quote", "Error 404: not found"})
    BOOST_TEST(!shipped().match(text).has_value(), text);
}

BOOST_AUTO_TEST_CASE(invalid_files_are_refused_with_the_reason) {
  auto refused = [](const std::string& json, const std::string& reason) {
    try {
      SqlErrors::parse(json);
    } catch (const std::runtime_error& e) {
      return std::string(e.what()).find(reason) != std::string::npos;
    }
    return false;
  };
  BOOST_TEST(refused("[]", "JSON object"));
  BOOST_TEST(refused(R"({"format":2,"version":"x","dbms":[]})", "format"));
  BOOST_TEST(refused(R"({"format":1,"version":"x","dbms":[]})", "non-empty array"));
  BOOST_TEST(refused(R"({"format":1,"version":"x","dbms":[{"name":"A","patterns":["(unclosed"]}]})", "A:"));
  BOOST_TEST(refused(R"({"format":1,"version":"x","dbms":[{"name":"A","patterns":[]}]})", "patterns"));
  BOOST_TEST(refused(R"({"format":1,"dbms":[{"name":"A","patterns":["abcd"]}]})", "version"));
}

BOOST_AUTO_TEST_SUITE_END()
