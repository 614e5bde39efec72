// Matchers and extractors of the template scanner on one answer (engines/scan/templates/match.hpp).
#include "engines/scan/templates/match.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor;
using namespace dozor::scan::templates;

namespace {

// The first block of a template whose http block is `block` (YAML, indented by four).
HttpBlock block(const std::string& block) {
  auto t = parse_template(
      "id: t\ninfo: {name: t, author: a, severity: info}\nhttp:\n  - method: GET\n    path: ['{{BaseURL}}/']\n" +
      block);
  return t.http.at(0);
}

const std::vector<net::HeaderField> kFields = {
    {"server", "Apache/2.4.57"}, {"x-powered-by", "PHP/8.1"}, {"set-cookie", "PHPSESSID=abc123; path=/"}};

Response answer(int status, std::string body) {
  Response r;
  r.status = status;
  r.body = std::move(body);
  r.headers = header_text(kFields);
  return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(template_match)

BOOST_AUTO_TEST_CASE(header_names_come_back_in_canonical_case) {
  BOOST_TEST(header_text(kFields) ==
             "Server: Apache/2.4.57\r\nX-Powered-By: PHP/8.1\r\nSet-Cookie: PHPSESSID=abc123; path=/\r\n");
}

BOOST_AUTO_TEST_CASE(word_matchers_honour_part_condition_case_and_negation) {
  auto r = answer(200, "<h1>Welcome Admin</h1>");
  BOOST_TEST(evaluate(block("    matchers: [{type: word, words: [Admin, nothing]}]\n"), r, kFields).matched);
  BOOST_TEST(
      !evaluate(block("    matchers: [{type: word, condition: and, words: [Admin, nothing]}]\n"), r, kFields).matched);
  BOOST_TEST(!evaluate(block("    matchers: [{type: word, words: [admin]}]\n"), r, kFields).matched);
  BOOST_TEST(
      evaluate(block("    matchers: [{type: word, case-insensitive: true, words: [ADMIN]}]\n"), r, kFields).matched);
  BOOST_TEST(!evaluate(block("    matchers: [{type: word, words: [Admin], negative: true}]\n"), r, kFields).matched);
  BOOST_TEST(evaluate(block("    matchers: [{type: word, part: header, words: ['X-Powered-By: PHP']}]\n"), r, kFields)
                 .matched);
  BOOST_TEST(!evaluate(block("    matchers: [{type: word, part: header, words: [Welcome]}]\n"), r, kFields).matched);
  BOOST_TEST(!evaluate(block("    matchers: [{type: word, part: body, words: [Apache]}]\n"), r, kFields).matched);
  auto all = evaluate(block("    matchers: [{type: word, part: all, condition: and, words: [Apache, Welcome]}]\n"), r,
                      kFields);
  BOOST_TEST(all.matched);
  BOOST_TEST(all.excerpt == "Apache (+1 more words)");
}

BOOST_AUTO_TEST_CASE(regex_status_and_size_matchers) {
  auto r = answer(403, "version 1.2.3");
  auto re = evaluate(block("    matchers: [{type: regex, regex: ['version [0-9.]+']}]\n"), r, kFields);
  BOOST_TEST(re.matched);
  BOOST_TEST(re.excerpt == "version 1.2.3");
  BOOST_TEST(evaluate(block("    matchers: [{type: status, status: [401, 403]}]\n"), r, kFields).matched);
  BOOST_TEST(!evaluate(block("    matchers: [{type: status, status: [200]}]\n"), r, kFields).matched);
  BOOST_TEST(evaluate(block("    matchers: [{type: size, size: [13]}]\n"), r, kFields).matched);
  BOOST_TEST(!evaluate(block("    matchers: [{type: size, size: [12]}]\n"), r, kFields).matched);
}

BOOST_AUTO_TEST_CASE(matchers_condition_and_needs_every_matcher) {
  auto r = answer(200, "catch-all page");
  std::string two = "    matchers:\n      - {type: status, status: [200]}\n      - {type: word, words: [phpMyAdmin]}\n";
  BOOST_TEST(evaluate(block(two), r, kFields).matched);  // or: the status alone
  BOOST_TEST(!evaluate(block("    matchers-condition: and\n" + two), r, kFields).matched);
  BOOST_TEST(evaluate(block("    matchers-condition: and\n" + two), answer(200, "<title>phpMyAdmin"), kFields).matched);
}

BOOST_AUTO_TEST_CASE(extractors_read_groups_headers_and_cookies) {
  auto r = answer(200, "v=1.2 and v=3.4 and v=1.2");
  auto b = evaluate(block("    matchers: [{type: status, status: [200]}]\n"
                          "    extractors:\n"
                          "      - {type: regex, name: v, group: 1, regex: ['v=([0-9.]+)']}\n"
                          "      - {type: kval, kval: [x_powered_by, PHPSESSID]}\n"),
                    r, kFields);
  BOOST_TEST(b.matched);
  BOOST_TEST(b.extracted == (std::vector<std::string>{"v=1.2", "v=3.4", "PHP/8.1", "abc123"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_block_of_extractors_only_matches_when_something_is_extracted) {
  auto b = block("    extractors: [{type: regex, regex: ['token-[0-9]+']}]\n");
  BOOST_TEST(evaluate(b, answer(200, "token-42"), kFields).matched);
  BOOST_TEST(evaluate(b, answer(200, "token-42"), kFields).extracted.front() == "token-42");
  BOOST_TEST(!evaluate(b, answer(200, "none"), kFields).matched);
}

BOOST_AUTO_TEST_SUITE_END()
