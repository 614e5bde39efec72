#include "engines/net/url_check.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::net;

namespace {

std::string target(const char* raw) {
  auto t = parse_target_url(raw);
  BOOST_REQUIRE_MESSAGE(t.url, raw << ": " << (t.problem ? t.problem->msg : ""));
  return *t.url;
}

std::string problem(const char* raw) {
  auto t = parse_target_url(raw);
  BOOST_REQUIRE_MESSAGE(t.problem, raw);
  return t.problem->type;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(target_url)

BOOST_AUTO_TEST_CASE(percent_encoded_absolute_url) {
  BOOST_TEST(target("https%3A%2F%2Fexample.com%2Fa%3Fb%3D1") == "https://example.com/a?b=1");
  BOOST_TEST(target("http%3A%2F%2Fexample.com") == "http://example.com/");
}

BOOST_AUTO_TEST_CASE(bare_host_assumes_https) {
  BOOST_TEST(target("example.com") == "https://example.com/");
  BOOST_TEST(target("example.com:8443/x") == "https://example.com:8443/x");
  BOOST_TEST(target("EXAMPLE.com") == "https://example.com/");
}

// POST /api/v1/audit/batch (batch is /api only) reached the audit route with target "batch":
// a bare word is a 422, not https://batch/ and a DNS look-up. A full URL may name any host.
BOOST_AUTO_TEST_CASE(a_bare_word_is_not_a_target) {
  for (const char* word : {"batch", "services", "localhost", "intranet:8443/x", "batch%2F", "xxe"})
    BOOST_TEST(problem(word) == "url_parsing", word);
  BOOST_TEST(parse_target_url("batch").problem->msg.find("bare word") != std::string::npos);
  BOOST_TEST(target("127.0.0.1:8080/a") == "https://127.0.0.1:8080/a");
  BOOST_TEST(target("[::1]:8443") == "https://[::1]:8443/");
  BOOST_TEST(target("example.com") == "https://example.com/");
  BOOST_TEST(target("https://intranet/") == "https://intranet/");
  BOOST_TEST(target("http%3A%2F%2Flocalhost%3A8080%2F") == "http://localhost:8080/");
}

BOOST_AUTO_TEST_CASE(unencoded_url_with_slashes) {
  BOOST_TEST(target("https://example.com/a/b") == "https://example.com/a/b");
  BOOST_TEST(target("http://127.0.0.1:8080/") == "http://127.0.0.1:8080/");
}

BOOST_AUTO_TEST_CASE(merged_slashes_are_restored) {
  BOOST_TEST(target("https:/example.com/a") == "https://example.com/a");
}

BOOST_AUTO_TEST_CASE(only_http_and_https) {
  BOOST_TEST(problem("ftp%3A%2F%2Fexample.com") == "url_scheme");
  BOOST_TEST(problem("file:///etc/passwd") == "url_scheme");
  BOOST_TEST(problem("gopher://x") == "url_scheme");
}

BOOST_AUTO_TEST_CASE(malformed_targets) {
  BOOST_TEST(problem("") == "url_parsing");
  BOOST_TEST(problem("%zz") == "url_parsing");
  BOOST_TEST(problem("https://") == "url_parsing");
  BOOST_TEST(problem("https://user:pw@example.com") == "url_parsing");
}

BOOST_AUTO_TEST_CASE(too_long) {
  std::string long_host = "example.com/" + std::string(2100, 'a');
  BOOST_TEST(problem(long_host.c_str()) == "url_too_long");
}

BOOST_AUTO_TEST_SUITE_END()
