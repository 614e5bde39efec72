// Template parsing, the unsupported features that skip a template, variables, and the shipped set
// (engines/scan/templates/template.hpp; golden files under tests/fixtures/scan/templates).
#include "engines/scan/templates/template.hpp"

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <set>
#include <stdexcept>
#include "dozor_source_dir.hpp"

using namespace dozor;
using namespace dozor::scan::templates;

namespace {

const std::filesystem::path kFixtures = std::filesystem::path(DOZOR_SOURCE_DIR) / "tests/fixtures/scan/templates";

std::string reason_of(const std::string& yaml) {
  try {
    parse_template(yaml);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

std::string with_block(const std::string& block, const std::string& top = "") {
  return "id: t\ninfo: {name: t, author: a, severity: info}\n" + top + "http:\n  - " + block;
}

const std::string kGet = "method: GET\n    path: ['{{BaseURL}}/']\n";
const std::string kStatus = "    matchers: [{type: status, status: [200]}]\n";

}  // namespace

BOOST_AUTO_TEST_SUITE(template_parse)

BOOST_AUTO_TEST_CASE(golden_templates_load_with_every_field) {
  auto lib = load_library({kFixtures / "good"});
  BOOST_TEST_REQUIRE(lib.loaded.size() == 2u);
  BOOST_TEST(lib.skipped.empty());
  const auto& legacy = lib.loaded[0];
  BOOST_TEST(legacy.id == "legacy-requests");
  BOOST_TEST(legacy.file == "legacy-requests.yaml");
  BOOST_TEST(legacy.author == "alice, bob");
  BOOST_TEST((legacy.severity == audit::Severity::High));
  BOOST_TEST(legacy.cwe == 94);
  BOOST_TEST(legacy.owasp == "A06:2021");
  BOOST_TEST(legacy.references.size() == 1u);
  const auto& raw = legacy.http.at(0).requests.at(0);
  BOOST_TEST(raw.method == "POST");
  BOOST_TEST(raw.path == "{{RootURL}}/api/echo?x=1");
  BOOST_TEST_REQUIRE(raw.headers.size() == 1u);  // Host and Content-Length are the client's
  BOOST_TEST(raw.headers[0].first == "Content-Type");
  BOOST_TEST(raw.body == "{\"probe\": \"{{Host}}\"}");
  BOOST_TEST(legacy.http[0].max_redirects == 0);  // redirects are not followed unless asked
  BOOST_TEST(legacy.http[0].extractors.size() == 2u);
  const auto& paths = lib.loaded[1];
  BOOST_TEST(paths.request_count() == 2u);
  BOOST_TEST(paths.http[0].stop_at_first_match);
  BOOST_TEST(paths.http[0].matchers_all);
  BOOST_TEST(paths.http[0].max_redirects == 10);  // capped
  BOOST_TEST(paths.http[0].requests[0].headers.at(0).second == "{{Host}}");
}

BOOST_AUTO_TEST_CASE(unsupported_features_skip_the_template_with_a_reason) {
  auto lib = load_library({kFixtures / "good", kFixtures / "unsupported", kFixtures / "missing-folder"});
  BOOST_TEST(lib.loaded.size() == 2u);
  std::map<std::string, std::string> reasons;
  for (const auto& s : lib.skipped) reasons[std::filesystem::path(s.file).filename().string()] = s.reason;
  BOOST_TEST(reasons.size() == 9u);
  BOOST_TEST(reasons["payloads.yaml"].find("unsupported key 'payloads'") != std::string::npos);
  BOOST_TEST(reasons["dns.yaml"].find("unsupported protocol or feature 'dns'") != std::string::npos);
  BOOST_TEST(reasons["interactsh.yaml"].find("{{interactsh-url}}") != std::string::npos);
  BOOST_TEST(reasons["dsl-helper.yaml"].find("compare_versions") != std::string::npos);
  BOOST_TEST(reasons["flow.yaml"].find("'flow'") != std::string::npos);
  BOOST_TEST(reasons["bad-severity.yaml"].find("severity") != std::string::npos);
  BOOST_TEST(reasons["not-yaml.yaml"].find("YAML") != std::string::npos);
  BOOST_TEST(reasons["duplicate-id.yaml"].find("already loaded") != std::string::npos);
  BOOST_TEST(reasons["missing-folder"] == "not a folder");
  for (const auto& s : lib.skipped)
    if (s.file.ends_with("payloads.yaml")) BOOST_TEST(s.id == "uses-payloads");
}

BOOST_AUTO_TEST_CASE(every_unimplemented_key_is_named) {
  BOOST_TEST(reason_of(with_block(kGet + kStatus + "    race: true\n")).find("'race'") != std::string::npos);
  BOOST_TEST(reason_of(with_block(kGet + kStatus + "    req-condition: true\n")).find("req-condition") !=
             std::string::npos);
  BOOST_TEST(reason_of(with_block(kGet + kStatus, "variables: {a: b}\n")).find("'variables'") != std::string::npos);
  BOOST_TEST(
      reason_of(with_block(kGet + "    matchers: [{type: word, words: [x], encoding: hex}]\n")).find("'encoding'") !=
      std::string::npos);
  BOOST_TEST(reason_of(with_block(kGet + "    matchers: [{type: binary, binary: [00]}]\n")).find("'binary'") !=
             std::string::npos);
  BOOST_TEST(reason_of(with_block(kGet + "    matchers: [{type: word, part: interactsh_protocol, words: [dns]}]\n"))
                 .find("interactsh_protocol") != std::string::npos);
  BOOST_TEST(reason_of(with_block(kGet + "    matchers: [{type: word, words: ['{{md5(1)}}']}]\n")).find("words") !=
             std::string::npos);
  BOOST_TEST(reason_of(with_block(kGet + "    matchers: [{type: regex, regex: ['(?<=a)b']}]\n")).find("RE2") !=
             std::string::npos);
  BOOST_TEST(reason_of(with_block(kGet + "    extractors: [{type: json, json: ['.a']}]\n")).find("'json'") !=
             std::string::npos);
  BOOST_TEST(
      reason_of(with_block(kGet + "    extractors: [{type: regex, internal: true, regex: [a]}]\n")).find("internal") !=
      std::string::npos);
  BOOST_TEST(reason_of(with_block(kGet)).find("neither matchers nor extractors") != std::string::npos);
  BOOST_TEST(reason_of(with_block("method: GET\n    path: ['/admin']\n" + kStatus)).find("variable") !=
             std::string::npos);
  BOOST_TEST(reason_of(with_block("raw: ['GET /x HTTP/1.1']\n" + kStatus, "")).empty());
  BOOST_TEST(reason_of(with_block("raw: ['GARBAGE']\n" + kStatus)).find("request line") != std::string::npos);
  BOOST_TEST(reason_of("id: 'bad id!'\ninfo: {name: t, author: a, severity: info}\nhttp: []\n").find("invalid id") !=
             std::string::npos);
  BOOST_TEST(reason_of("- a\n- b\n").find("not a map") != std::string::npos);
  BOOST_TEST(reason_of("{[a]: b}\n").find("YAML") != std::string::npos);  // a key that is not text
  BOOST_TEST(reason_of(std::string(300 * 1024, '#')).find("256 KiB") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(variables_of_a_target) {
  auto v = target_variables("https://example.com:8443/app/?q=1");
  BOOST_TEST(v["BaseURL"] == "https://example.com:8443/app");
  BOOST_TEST(v["RootURL"] == "https://example.com:8443");
  BOOST_TEST(v["Hostname"] == "example.com:8443");
  BOOST_TEST(v["Host"] == "example.com");
  BOOST_TEST(v["Port"] == "8443");
  BOOST_TEST(v["Path"] == "/app/");
  BOOST_TEST(v["Scheme"] == "https");
  auto plain = target_variables("http://example.com");
  BOOST_TEST(plain["BaseURL"] == "http://example.com");
  BOOST_TEST(plain["Hostname"] == "example.com");
  BOOST_TEST(plain["Port"] == "80");
  BOOST_TEST(expand("{{BaseURL}}/x?h={{ Host }}", plain) == "http://example.com/x?h=example.com");
  BOOST_CHECK_THROW(expand("{{Nope}}", plain), std::invalid_argument);
}

// The shipped set: every template loads, has a severity, and cannot match a catch-all site on
// its status alone (each block needs a content matcher, and with `or` every matcher must be one).
BOOST_AUTO_TEST_CASE(the_shipped_set_loads_whole_and_every_template_checks_content) {
  auto lib = load_library({std::filesystem::path(DOZOR_SOURCE_DIR) / "share/scan/templates"});
  for (const auto& s : lib.skipped) BOOST_ERROR("skipped " << s.file << ": " << s.reason);
  BOOST_TEST(lib.loaded.size() >= 80u);  // issue 9: at least 80 shipped
  std::set<std::string> folders;
  for (const auto& t : lib.loaded) {
    BOOST_TEST_CONTEXT(t.id) {
      BOOST_TEST(!t.name.empty());
      BOOST_TEST(!t.description.empty());
      BOOST_TEST(t.author == "dozor");
      BOOST_TEST(t.file == std::filesystem::path(t.file).parent_path().string() + "/" + t.id + ".yaml");
      folders.insert(std::filesystem::path(t.file).parent_path().string());
      BOOST_TEST(!t.owasp.empty());
      if (t.severity >= audit::Severity::Medium) BOOST_TEST(!t.remediation.empty());
      for (const auto& b : t.http) {
        auto content = [](const Matcher& m) {
          return !m.negative &&
                 (m.type == Matcher::Type::Word || m.type == Matcher::Type::Regex || m.type == Matcher::Type::Dsl);
        };
        BOOST_TEST(!b.matchers.empty());
        if (b.matchers_all)
          BOOST_TEST(std::any_of(b.matchers.begin(), b.matchers.end(), content));
        else
          BOOST_TEST(std::all_of(b.matchers.begin(), b.matchers.end(), content));
        for (const auto& m : b.matchers)
          if (!m.negative)
            for (const auto& w : m.words) BOOST_TEST(w.size() >= 4u);  // no word that any page has
      }
    }
  }
  BOOST_TEST(folders == (std::set<std::string>{"cves", "debug", "install", "misconfig", "panels"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
