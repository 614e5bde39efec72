// The shipped fingerprint and vulnerable-library data validate, and broken data is refused
// (docs/audit.md "Technologies").
#include "engines/audit/tech/fingerprints.hpp"

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <set>

#include "dozor_source_dir.hpp"
#include "engines/audit/data.hpp"
#include "engines/audit/tech/vuln_libraries.hpp"

using namespace dozor::audit;
using namespace dozor::audit::tech;

namespace {

const std::filesystem::path kDir = std::filesystem::path(DOZOR_SOURCE_DIR) / "share" / "audit";

const std::string kCats = R"({"format":1,"version":"t","categories":{"cms":"CMS","lang":"Languages"}})";

Fingerprints parse_one(const std::string& technologies) {
  return Fingerprints::parse(kCats, {{"t.json", R"({"format":1,"version":"t","technologies":)" + technologies + "}"}});
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tech_fingerprints)

BOOST_AUTO_TEST_CASE(the_shipped_files_load_through_audit_data_with_every_reference_resolved) {
  auto data = load_audit_data(kDir.string());
  const Fingerprints& fp = data->tech;
  BOOST_TEST(fp.technologies.size() >= 150u);
  BOOST_TEST(!fp.version.empty());
  for (const auto& t : fp.technologies) {
    BOOST_TEST_CONTEXT(t.slug) {
      BOOST_TEST(!t.name.empty());
      BOOST_TEST(!t.categories.empty());
      for (auto c : t.categories) BOOST_TEST(c < fp.categories.size());
      for (auto i : t.implies) BOOST_TEST(i < fp.technologies.size());
    }
  }
  // The Russian ecosystem the issue names.
  for (const char* slug :
       {"1c-bitrix",  "tilda",       "umi-cms",     "netcat",           "hostcms",        "datalife-engine",
        "webasyst",   "shop-script", "insales",     "nethouse",         "yandex-metrica", "yandex-maps",
        "vk-pixel",   "vk-widgets",  "top-mail-ru", "jivochat",         "carrot-quest",   "bitrix24-widget",
        "ddos-guard", "qrator",      "stormwall",   "yandex-cloud-cdn", "selectel",       "modx",
        "opencart",   "cs-cart"})
    BOOST_TEST(fp.by_slug.count(slug) == 1u, slug);
  for (const char* slug : {"wordpress", "drupal", "joomla", "nginx", "apache", "php", "jquery", "react", "vue",
                           "angular", "bootstrap", "cloudflare", "google-analytics", "google-tag-manager"})
    BOOST_TEST(fp.by_slug.count(slug) == 1u, slug);
  BOOST_TEST(fp.html.size() > 50u);
  BOOST_TEST(fp.probe_paths().size() <= 12u);
  BOOST_TEST(fp.probe_paths().front() == "/robots.txt");

  const VulnLibraries& libs = data->vulnlibs;
  for (const char* id :
       {"jquery", "jquery-ui", "jquery-migrate", "bootstrap", "angularjs", "lodash", "moment", "vue", "react-dom",
        "handlebars", "dompurify", "underscore", "knockout", "prototype", "select2", "tinymce"})
    BOOST_TEST(libs.by_id.count(id) == 1u, id);
  std::size_t advisories = 0;
  for (const auto& l : libs.libraries) advisories += l.advisories.size();
  BOOST_TEST(advisories >= 60u);
}

BOOST_AUTO_TEST_CASE(a_minimal_technology_parses_with_keyed_patterns_and_a_probe) {
  auto fp = parse_one(R"({"x":{"name":"X","categories":["cms"],"headers":{"X-Gen":"^X [\\d.]+"},
    "cookies":{"xsess_*":""},"probes":{"/x.txt":"X readme"},"implies":["y"]},
    "y":{"name":"Y","categories":["lang"]}})");
  BOOST_TEST(fp.technologies.size() == 2u);
  BOOST_TEST(fp.headers.size() == 1u);
  BOOST_TEST(fp.headers[0].key == "x-gen");  // header names are matched in lower case
  BOOST_TEST(fp.cookies[0].prefix);
  BOOST_TEST(fp.cookies[0].key == "xsess_");
  BOOST_TEST((fp.probe_paths() == std::vector<std::string>{"/x.txt"}));
  BOOST_TEST(fp.technologies[0].implies.size() == 1u);
}

BOOST_AUTO_TEST_CASE(broken_data_is_refused_with_a_reason) {
  // Unknown category, unknown implies target, a regex RE2 refuses, a version template without
  // its group, an unknown field, no pattern and nobody implying it, a bad confidence.
  BOOST_CHECK_THROW(parse_one(R"({"x":{"name":"X","categories":["nope"],"html":"x"}})"), std::runtime_error);
  BOOST_CHECK_THROW(parse_one(R"({"x":{"name":"X","categories":["cms"],"html":"x","implies":["nope"]}})"),
                    std::runtime_error);
  BOOST_CHECK_THROW(parse_one(R"({"x":{"name":"X","categories":["cms"],"html":"(("}})"), std::runtime_error);
  BOOST_CHECK_THROW(parse_one(R"({"x":{"name":"X","categories":["cms"],"html":{"regex":"x","version":"\\1"}}})"),
                    std::runtime_error);
  // An unknown field is refused by name, even beside a valid pattern.
  try {
    parse_one(R"({"x":{"name":"X","categories":["cms"],"html":"x","htm":"x"}})");
    BOOST_FAIL("an unknown field was accepted");
  } catch (const std::runtime_error& e) {
    BOOST_TEST(std::string(e.what()).find("htm") != std::string::npos);
  }
  BOOST_CHECK_THROW(parse_one(R"({"x":{"name":"X","categories":["cms"]}})"), std::runtime_error);
  BOOST_CHECK_THROW(parse_one(R"({"x":{"name":"X","categories":["cms"],"html":{"regex":"x","confidence":0}}})"),
                    std::runtime_error);
  BOOST_CHECK_THROW(parse_one(R"({"x":{"name":"X","categories":["cms"],"html":"x","implies":["x"]}})"),
                    std::runtime_error);
  // Files of different versions, a wrong format, not JSON.
  BOOST_CHECK_THROW(Fingerprints::parse(kCats, {{"t.json", R"({"format":1,"version":"other","technologies":{}})"}}),
                    std::runtime_error);
  BOOST_CHECK_THROW(Fingerprints::parse(kCats, {{"t.json", R"({"format":2,"version":"t","technologies":{}})"}}),
                    std::runtime_error);
  BOOST_CHECK_THROW(Fingerprints::parse("{", {}), std::runtime_error);
  // The same slug in two files.
  std::string one = R"({"format":1,"version":"t","technologies":{"x":{"name":"X","categories":["cms"],"html":"x"}}})";
  BOOST_CHECK_THROW(Fingerprints::parse(kCats, {{"a.json", one}, {"b.json", one}}), std::runtime_error);
}

BOOST_AUTO_TEST_CASE(broken_library_data_is_refused) {
  auto lib = [](const std::string& body) {
    return VulnLibraries::parse(R"({"format":1,"version":"t","libraries":{"x":)" + body + "}}");
  };
  BOOST_CHECK_NO_THROW(lib(R"({"name":"X","uri":["/x-{version}\\.js"],"advisories":[]})"));
  BOOST_CHECK_THROW(lib(R"({"name":"X","uri":["/x\\.js"],"advisories":[]})"), std::runtime_error);  // no {version}
  BOOST_CHECK_THROW(lib(R"({"name":"X","uri":["/(x)-{version}\\.js"],"advisories":[]})"), std::runtime_error);
  BOOST_CHECK_THROW(lib(R"({"name":"X","advisories":[{"id":"CVE-1","severity":"bad","below":"1.0","summary":"s"}]})"),
                    std::runtime_error);
  BOOST_CHECK_THROW(lib(R"({"name":"X","advisories":[{"id":"CVE-1","severity":"low","below":"x<y","summary":"s"}]})"),
                    std::runtime_error);
  BOOST_CHECK_THROW(
      lib(R"({"name":"X","advisories":[{"id":"CVE-1","severity":"low","at_or_above":"2.0","below":"1.0","summary":"s"}]})"),
      std::runtime_error);
  BOOST_CHECK_THROW(lib(R"({"name":"X","advisories":[{"severity":"low","below":"1.0","summary":"s"}]})"),
                    std::runtime_error);
}

BOOST_AUTO_TEST_SUITE_END()
