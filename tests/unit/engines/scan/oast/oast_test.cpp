// OAST tokens, probe URLs and what a hit keeps of an untrusted interaction.
#include "engines/scan/oast/oast.hpp"

#include <boost/test/unit_test.hpp>
#include <set>

#include "engines/limits.hpp"

using namespace dozor::oast;
namespace limits = dozor::limits::oast;

BOOST_AUTO_TEST_SUITE(oast_tokens)

BOOST_AUTO_TEST_CASE(probes_get_fresh_random_tokens_and_markers) {
  std::set<std::string> seen;
  for (int i = 0; i < 200; ++i) {
    auto p = new_probe("ssrf");
    BOOST_TEST(p.kind == "ssrf");
    BOOST_TEST(looks_like_token(p.token));
    BOOST_TEST(looks_like_token(p.marker));
    BOOST_TEST(p.token != p.marker);
    BOOST_TEST(seen.insert(p.token).second);
    BOOST_TEST(seen.insert(p.marker).second);
  }
}

BOOST_AUTO_TEST_CASE(probe_url_is_the_base_and_the_token) {
  BOOST_TEST(probe_url("http://127.0.0.1:8080", "abc") == "http://127.0.0.1:8080/oast/abc");
  BOOST_TEST(probe_url("https://dozor.example/", "abc") == "https://dozor.example/oast/abc");
  BOOST_TEST(probe_url("https://dozor.example//", "abc") == "https://dozor.example/oast/abc");
}

BOOST_AUTO_TEST_CASE(the_token_is_the_first_segment_after_oast) {
  const std::string t = "AbCdEfGhIjKlMnOpQr-_12";
  BOOST_TEST(token_of_path("/oast/" + t).value() == t);
  BOOST_TEST(token_of_path("/oast/" + t + "/any/sub/path").value() == t);
  BOOST_TEST(token_of_path("/oast/" + t + "?q=1").value() == t);
  BOOST_TEST(!token_of_path("/oast/" + t + "x"));  // 23 characters
  BOOST_TEST(!token_of_path("/oast/" + t.substr(1)));
  BOOST_TEST(!token_of_path("/oast/AbCdEfGhIjKlMnOpQr%2F12"));
  BOOST_TEST(!token_of_path("/oast/"));
  BOOST_TEST(!token_of_path("/oast"));
  BOOST_TEST(!token_of_path("/api/oast/" + t));
}

BOOST_AUTO_TEST_CASE(printable_escapes_bytes_and_never_cuts_an_escape) {
  BOOST_TEST(printable("a\r\nb", 100) == "a\\x0d\\x0ab");
  BOOST_TEST(printable("\xff", 100) == "\\xff");
  BOOST_TEST(printable("abc", 2) == "ab");
  BOOST_TEST(printable("a\x01", 4) == "a");  // the escape needs 4
  BOOST_TEST(printable("a\x01", 5) == "a\\x01");
}

BOOST_AUTO_TEST_CASE(a_hit_keeps_a_bounded_record) {
  std::vector<std::pair<std::string, std::string>> headers;
  for (std::size_t i = 0; i < limits::kHeaders + 5; ++i)
    headers.emplace_back("x-h" + std::to_string(i), std::string(limits::kHeaderChars + 10, 'v'));
  auto h = capture("tok", "127.0.0.1", "POST", "/oast/tok/" + std::string(5000, 'p'), headers,
                   std::string(5000, 'b') + "\n");
  BOOST_TEST(h.token == "tok");
  BOOST_TEST(h.source == "127.0.0.1");
  BOOST_TEST(h.method == "POST");
  BOOST_TEST(h.headers.size() == limits::kHeaders);
  BOOST_TEST(h.headers.front().second.size() == limits::kHeaderChars);
  BOOST_TEST(h.path.size() == limits::kPathChars);
  BOOST_TEST(h.body_excerpt.size() == limits::kBodyExcerptChars);
}

// A same-site request during a scan must not hand the scanning user a victim's session: no
// cookie, no credentials, none of Dozor's own headers are stored, in any case of their names.
BOOST_AUTO_TEST_CASE(a_hit_keeps_no_cookie_credentials_or_dozor_headers) {
  std::vector<std::pair<std::string, std::string>> headers{{"cookie", "__Host-dozor_vault=secret"},
                                                           {"Cookie2", "$Version=1"},
                                                           {"authorization", "Bearer eyJ.x.y"},
                                                           {"Proxy-Authorization", "Basic eA=="},
                                                           {"x-dozor-caller-id", "1"},
                                                           {"X-Dozor-Caller-Admin", "1"},
                                                           {"dozor-nginx-key", "k"},
                                                           {"user-agent", "parser/1.0"},
                                                           {"x-cookie-note", "kept"},
                                                           {"accept", "*/*"}};
  auto h = capture("tok", "127.0.0.1", "GET", "/oast/tok", headers, "");
  std::vector<std::string> names;
  for (const auto& [n, v] : h.headers) names.push_back(n);
  BOOST_TEST(names == (std::vector<std::string>{"user-agent", "x-cookie-note", "accept"}),
             boost::test_tools::per_element());
  for (const auto& [n, v] : h.headers) BOOST_TEST(v.find("secret") == std::string::npos);
  BOOST_TEST(!kept_header("cookie"));
  BOOST_TEST(!kept_header("authorization"));
  BOOST_TEST(!kept_header("x-dozor-anything"));
  BOOST_TEST(kept_header("x-forwarded-for"));
}

BOOST_AUTO_TEST_SUITE_END()
