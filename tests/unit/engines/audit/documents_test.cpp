#include "engines/audit/documents/documents.hpp"

#include <algorithm>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/test/unit_test.hpp>

#include "engines/limits.hpp"

using namespace dozor::audit;
using namespace dozor::audit::documents;
namespace json = boost::json;

namespace {

dozor::crawl::CrawlResult crawl_with(std::vector<std::pair<std::string, std::string>> media) {
  dozor::crawl::CrawlResult c;
  c.target = "https://shop.test/";
  c.origin = "https://shop.test";
  dozor::crawl::PageRecord p;
  p.url = "http://shop.test/";  // redirected to https: both origins are the site's
  p.final_url = "https://shop.test/";
  c.pages.push_back(p);
  for (auto& [kind, url] : media) c.media.push_back({"https://shop.test/", kind, url});
  return c;
}

// An answer of POST /api/v1/analyze (handlers/analyzer.cpp's shape).
json::object analysis(const std::string& risk, const std::string& counts, const std::string& findings,
                      const std::string& special = "[]") {
  return json::parse(R"({"document": {"type": "docx"}, "findings": )" + findings + R"(, "summary": {"risk": ")" + risk +
                     R"(", "counts": )" + counts + R"(, "special_categories": )" + special + "}}")
      .as_object();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(audit_documents)

BOOST_AUTO_TEST_CASE(only_the_site_s_own_documents_are_read_each_once) {
  auto c = crawl_with({{"document", "https://shop.test/a.pdf"},
                       {"image", "https://shop.test/logo.png"},
                       {"document", "http://shop.test/b.docx"},
                       {"document", "https://shop.test/a.pdf"},
                       {"document", "https://cdn.other.test/c.pdf"},
                       {"document", "https://shop.test:8443/d.pdf"}});
  auto urls = documents_of(c, 10);
  BOOST_TEST(urls == (std::vector<std::string>{"https://shop.test/a.pdf", "http://shop.test/b.docx"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(at_most_the_limit_of_documents_is_read) {
  std::vector<std::pair<std::string, std::string>> media;
  for (std::size_t i = 0; i <= dozor::limits::kAuditDocuments; ++i)
    media.emplace_back("document", "https://shop.test/" + std::to_string(i) + ".pdf");
  auto c = crawl_with(media);
  BOOST_TEST(documents_of(c, dozor::limits::kAuditDocuments).size() == dozor::limits::kAuditDocuments);
  media.pop_back();
  BOOST_TEST(documents_of(crawl_with(media), dozor::limits::kAuditDocuments).size() == dozor::limits::kAuditDocuments);
}

BOOST_AUTO_TEST_CASE(nothing_found_is_no_finding) {
  BOOST_TEST(!finding_for("https://shop.test/a.pdf", analysis("none", "{}", "[]")));
  BOOST_TEST(!finding_for("https://shop.test/a.pdf", json::object{}));
}

BOOST_AUTO_TEST_CASE(the_analyzer_s_risk_sets_the_severity) {
  const std::string one =
      R"([{"category": "phone", "value": "+7 *** ***-**-67", "location": {"kind": "page", "ref": 1}}])";
  BOOST_TEST(to_string(finding_for("u", analysis("high", R"({"snils": 1})", one))->severity) == "high");
  BOOST_TEST(to_string(finding_for("u", analysis("medium", R"({"full_name": 1, "phone": 1})", one))->severity) ==
             "medium");
  BOOST_TEST(to_string(finding_for("u", analysis("low", R"({"phone": 1})", one))->severity) == "low");
}

BOOST_AUTO_TEST_CASE(the_finding_names_the_document_categories_and_masked_samples) {
  json::array fs;
  for (std::size_t i = 0; i <= dozor::limits::kAuditDocumentSamples; ++i)
    fs.push_back(json::object{{"category", "snils"},
                              {"value", "***-***-" + std::to_string(100 + i) + " **"},
                              {"location", json::object{{"kind", "paragraph"}, {"ref", i}}}});
  fs.push_back(fs.front());  // a repeated sample is shown once
  auto a = analysis("high", R"({"snils": 6, "health": 1})", json::serialize(fs), R"(["health"])");
  auto f = finding_for("https://shop.test/staff.docx", a);
  BOOST_REQUIRE(f);
  BOOST_TEST(f->check == "personal-data-in-public-document");
  BOOST_TEST(f->owasp == "A01:2021");
  BOOST_TEST(f->cwe == 359);
  BOOST_TEST(f->description.find("SNILS × 6") != std::string::npos);
  BOOST_TEST(f->description.find("special categories of personal data (152-FZ art. 10): health") != std::string::npos);
  BOOST_REQUIRE_EQUAL(f->evidence.size(), 1u);
  const auto& e = f->evidence[0];
  BOOST_TEST(e.url == "https://shop.test/staff.docx");
  // kAuditDocumentSamples lines, not one more.
  std::size_t lines = 1 + static_cast<std::size_t>(std::count(e.excerpt.begin(), e.excerpt.end(), '\n'));
  BOOST_TEST(lines == dozor::limits::kAuditDocumentSamples);
  BOOST_TEST(e.excerpt.rfind("snils: ***-***-100 ** (paragraph 0)", 0) == 0);
  BOOST_TEST(e.note.find("(docx)") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
