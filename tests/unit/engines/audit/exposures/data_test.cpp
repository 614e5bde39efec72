// The exposure probes' data file (share/audit/exposures/exposures.json) and its validation.
#include "engines/audit/exposures/data.hpp"
#include "tests/unit/support/audit_data.hpp"

#include <re2/re2.h>

#include <boost/test/unit_test.hpp>
#include <set>

#include "engines/limits.hpp"

using namespace dozor::audit;
using namespace dozor::audit::exposures;

namespace {

const Data& real() { return dozor::test::shipped_audit_data().exposures; }

// A valid file with one probe; `probe` replaces the probe's text.
std::string file_with(const std::string& probe) {
  return R"({"format": 1, "version": "t", "probes": [)" + probe + "]}";
}

std::string probe(const std::string& id = "x", const std::string& match = R"({"body": ["secret"]})",
                  const std::string& extra = "") {
  return R"({"id": ")" + id + R"(", "path": "/)" + id + R"(", "severity": "high", "confidence": "firm",
     "owasp": "A05:2021", "cwe": 200, "match": )" +
         match + extra + R"(, "title": {"en": "t", "ru": "т"}, "description": {"en": "d", "ru": "о"},
     "recommendation": {"en": "r", "ru": "р"}})";
}

bool refused(const std::string& json, const std::string& words) {
  try {
    Data::parse(json);
  } catch (const std::runtime_error& e) {
    BOOST_TEST_MESSAGE(e.what());
    return std::string(e.what()).find(words) != std::string::npos;
  }
  return false;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(exposure_data)

BOOST_AUTO_TEST_CASE(the_shipped_file_validates_and_covers_the_issues_list) {
  const auto& d = real();
  BOOST_TEST(!d.version.empty());
  BOOST_TEST(d.probes.size() >= 40u);
  BOOST_TEST(d.probes.size() <= dozor::limits::kExposureProbes);
  std::set<std::string> ids, paths;
  for (const auto& p : d.probes) {
    BOOST_TEST_CONTEXT(p.id) {
      BOOST_TEST(ids.insert(p.id).second);
      paths.insert(p.path);
      BOOST_TEST(!(p.body.empty() && p.magic.empty()));  // never status alone
      for (const auto& re : p.body) BOOST_TEST(re->ok());
      for (const auto& re : p.not_body) BOOST_TEST(re->ok());
      BOOST_TEST(severity_from(to_string(p.severity)).has_value());
      BOOST_TEST(!p.title.en.empty());
      BOOST_TEST(!p.title.ru.empty());
      BOOST_TEST(!p.recommendation.en.empty());
      BOOST_TEST(!p.recommendation.ru.empty());
      BOOST_TEST(p.check().rfind("exposure-", 0) == 0u);
    }
  }
  for (const char* path : {"/.git/HEAD",     "/.git/config",       "/.env",
                           "/.svn/entries",  "/.DS_Store",         "/backup.zip",
                           "/db.sql",        "/site.tar.gz",       "/server-status",
                           "/server-info",   "/phpinfo.php",       "/info.php",
                           "/.htpasswd",     "/wp-config.php.bak", "/config.php~",
                           "/bitrix/admin/", "/wp-login.php",      "/administrator/",
                           "/phpmyadmin/",   "/adminer.php",       "/.well-known/security.txt",
                           "/composer.json", "/package.json",      "/.idea/workspace.xml",
                           "/web.config",    "/crossdomain.xml",   "/actuator/env",
                           "/elmah.axd",     "/trace.axd",         "/uploads/"})
    BOOST_TEST(paths.count(path) == 1u, path);
}

BOOST_AUTO_TEST_CASE(a_minimal_file_parses) {
  auto d = Data::parse(file_with(probe()));
  BOOST_REQUIRE(d.probes.size() == 1u);
  BOOST_TEST(d.probes[0].statuses == std::vector<int>{200});
  BOOST_TEST(d.probes[0].check() == "exposure-x");
  BOOST_TEST(d.probes[0].title.ru == "т");
}

BOOST_AUTO_TEST_CASE(broken_files_are_refused_with_the_reason) {
  BOOST_TEST(refused("{", "not JSON"));
  BOOST_TEST(refused(R"({"format": 2, "version": "t", "probes": []})", "format"));
  BOOST_TEST(refused(file_with(probe("a") + "," + probe("a")), "duplicate id"));
  BOOST_TEST(refused(file_with(probe("x", R"({"body": ["(unclosed"]})")), "probe x"));
  BOOST_TEST(refused(file_with(probe("x", R"({"min_size": 10})")), "content check"));
  BOOST_TEST(refused(file_with(probe("x", R"({"body": ["a"], "colour": "red"})")), "unknown match key"));
  BOOST_TEST(refused(file_with(probe("x", R"({"magic": ["504"]})")), "even number"));
  BOOST_TEST(refused(file_with(probe("x", R"({"magic": ["zz"]})")), "not hex"));
  BOOST_TEST(refused(file_with(probe("x", R"({"body": ["a"], "status": [99]})")), "100..599"));
  BOOST_TEST(refused(file_with(probe("X")), "[a-z0-9-]"));
  auto bad_severity = probe();
  bad_severity.replace(bad_severity.find("\"high\""), 6, "\"severe\"");
  BOOST_TEST(refused(file_with(bad_severity), "severity"));
  auto bad_owasp = probe();
  bad_owasp.replace(bad_owasp.find("A05:2021"), 8, "A11:2017");
  BOOST_TEST(refused(file_with(bad_owasp), "owasp"));
  auto no_ru = probe();
  const std::string ru_field = R"(, "ru": "р")";
  no_ru.replace(no_ru.find(ru_field), ru_field.size(), "");
  BOOST_TEST(refused(file_with(no_ru), "lacks 'ru'"));
}

BOOST_AUTO_TEST_CASE(the_number_of_probes_is_bounded) {
  auto many = [](std::size_t n) {
    std::string list;
    for (std::size_t i = 0; i < n; ++i) list += (i ? "," : "") + probe("p" + std::to_string(i));
    return file_with(list);
  };
  BOOST_TEST(Data::parse(many(dozor::limits::kExposureProbes)).probes.size() == dozor::limits::kExposureProbes);
  BOOST_TEST(refused(many(dozor::limits::kExposureProbes + 1), "kExposureProbes"));
}

BOOST_AUTO_TEST_SUITE_END()
