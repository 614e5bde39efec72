#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "dozor_source_dir.hpp"
#include "engines/audit/compliance/data.hpp"

using namespace dozor::audit::compliance;
namespace fs = std::filesystem;

namespace {

const fs::path kDir = fs::path(DOZOR_SOURCE_DIR) / "share" / "audit" / "compliance";

// The requirement sets of research/compliance-ru.md, id by id.
std::set<std::string> research_ids() {
  std::set<std::string> ids;
  auto add = [&](const char* prefix, int n) {
    for (int i = 1; i <= n; ++i) ids.insert(prefix + std::string(i < 10 ? "0" : "") + std::to_string(i));
  };
  add("PD-", 16);
  add("GOV-", 14);
  add("SEC-", 6);
  return ids;
}

fs::path copy_data(const std::string& tag) {
  fs::path dir = fs::temp_directory_path() / ("dozor-compliance-" + tag + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const char* f : {"requirements.toml", "keywords.toml", "services.toml"}) fs::copy_file(kDir / f, dir / f);
  return dir;
}

void replace_in(const fs::path& file, const std::string& from, const std::string& to) {
  std::ifstream in(file);
  std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto at = s.find(from);
  BOOST_REQUIRE(at != std::string::npos);
  s.replace(at, from.size(), to);
  std::ofstream(file) << s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(compliance_data)

BOOST_AUTO_TEST_CASE(every_research_item_is_present_exactly_once_with_its_reference) {
  Data d = load_data(kDir);
  std::map<std::string, int> seen;
  for (const auto& it : d.items) {
    ++seen[it.id];
    BOOST_TEST(!it.reference.empty(), it.id);
    BOOST_TEST(!it.title_ru.empty(), it.id);
    BOOST_TEST(!it.title_en.empty(), it.id);
    BOOST_TEST(!it.recommendation_ru.empty(), it.id);
    BOOST_TEST(!it.recommendation_en.empty(), it.id);
    std::string prefix = it.id.substr(0, it.id.find('-'));
    std::string want = prefix == "PD" ? "152-FZ" : prefix == "GOV" ? "8-FZ" : "FSTEC";
    BOOST_TEST(it.set == want, it.id);
  }
  for (const auto& id : research_ids()) BOOST_TEST(seen[id] == 1, id);
  BOOST_TEST(seen.size() == research_ids().size());
  BOOST_TEST(d.sets.size() == 3u);
  // research: PD-03, PD-10, PD-11 and PD-16 are critical; PD-15 is informational.
  BOOST_TEST(to_string(d.item("PD-03").severity) == "critical");
  BOOST_TEST(to_string(d.item("PD-11").severity) == "critical");
  BOOST_TEST(to_string(d.item("PD-15").severity) == "info");
  BOOST_TEST(!d.item("PD-15").automated);
}

BOOST_AUTO_TEST_CASE(every_keyword_list_the_engine_reads_is_present_and_non_empty) {
  Data d = load_data(kDir);
  for (const auto& n : phrase_list_names()) {
    BOOST_TEST(!d.phrase(n).stems.empty(), n);
    for (const auto& p : d.phrase(n).stems) BOOST_TEST(!p.empty(), n);
  }
  for (const auto& n : token_list_names()) BOOST_TEST(!d.token(n).empty(), n);
  for (const auto& n : policy_topic_names()) BOOST_TEST(!d.policy_topics.at(n).stems.empty(), n);
  for (const auto& n : gov_section_items()) BOOST_TEST(!d.gov_sections.at(n).stems.empty(), n);
  BOOST_TEST(d.services.size() >= 25u);
  for (const auto& s : d.services) BOOST_TEST(!s.hosts.empty(), s.name);
}

BOOST_AUTO_TEST_CASE(a_duplicate_item_an_empty_list_or_a_missing_list_is_refused) {
  fs::path dir = copy_data("dup");
  replace_in(dir / "requirements.toml", "id = \"PD-02\"", "id = \"PD-01\"");
  BOOST_CHECK_EXCEPTION(load_data(dir), std::runtime_error, [](const std::runtime_error& e) {
    return std::string(e.what()).find("PD-01 appears twice") != std::string::npos;
  });
  fs::remove_all(dir);

  dir = copy_data("empty");
  replace_in(dir / "keywords.toml", "inn_labels = [\"инн\"]", "inn_labels = []");
  BOOST_CHECK_EXCEPTION(load_data(dir), std::runtime_error, [](const std::runtime_error& e) {
    return std::string(e.what()).find("inn_labels is empty") != std::string::npos;
  });
  fs::remove_all(dir);

  dir = copy_data("missing");
  replace_in(dir / "keywords.toml", "site_map = ", "site_maps = ");
  BOOST_CHECK_EXCEPTION(load_data(dir), std::runtime_error, [](const std::runtime_error& e) {
    return std::string(e.what()).find("site_map is missing") != std::string::npos;
  });
  fs::remove_all(dir);

  dir = copy_data("noref");
  replace_in(dir / "requirements.toml", "reference = \"152-ФЗ ст. 19\"", "reference = \"\"");
  BOOST_CHECK_THROW(load_data(dir), std::runtime_error);
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
