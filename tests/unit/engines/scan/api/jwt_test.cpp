// JWTs as the API check reads, forges and cracks them; the shipped secrets wordlist.
#include "engines/scan/api/jwt.hpp"

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <boost/test/unit_test.hpp>
#include <stdexcept>

#include "engines/auth/jwt.hpp"
#include "engines/limits.hpp"
#include "tests/unit/support/audit_data.hpp"

using namespace dozor::api;

namespace {

bool throws_with(const std::string& text, const std::string& part) {
  try {
    JwtSecrets::parse(text);
  } catch (const std::runtime_error& e) {
    return std::string(e.what()).find(part) != std::string::npos;
  }
  return false;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(api_jwt)

BOOST_AUTO_TEST_CASE(a_signed_token_parses_with_its_header_claims_and_signature) {
  auto token = sign_hs256({{"sub", "2"}, {"name", "guest"}}, "changeme");
  auto jwt = parse_jwt(token);
  BOOST_REQUIRE(jwt);
  BOOST_TEST(jwt->alg == "HS256");
  BOOST_TEST(jwt->payload.at("sub").as_string() == "2");
  BOOST_TEST(!jwt->has_exp());
  BOOST_TEST(jwt->signature.size() == 32u);
  BOOST_TEST(jwt->signing_input == token.substr(0, token.rfind('.')));
}

BOOST_AUTO_TEST_CASE(a_python_pyjwt_style_token_parses_and_exp_is_seen) {
  // {"alg":"HS256","typ":"JWT"}.{"sub":"1","exp":1700000000} signed with "secret"
  auto token = sign_hs256({{"sub", "1"}, {"exp", 1700000000}}, "secret");
  auto jwt = parse_jwt(token);
  BOOST_REQUIRE(jwt);
  BOOST_TEST(jwt->has_exp());
}

BOOST_AUTO_TEST_CASE(anything_else_is_not_a_token) {
  for (const char* text : {"", "a.b", "a.b.c.d", "eyJ.eyJ.", "not a token", "eyJhbGciOiJub25lIn0.bm90IGpzb24.",
                           "eyJhbGciOiJub25lIn0.W10.", "e30.e30.%%%", "e30.e30.c2ln!"})
    BOOST_TEST(!parse_jwt(text).has_value(), text);
  BOOST_TEST(parse_jwt("e30.e30.").has_value());  // {}.{}. with an empty signature is well-formed
  BOOST_TEST(!parse_jwt(std::string(dozor::limits::api::kJwtBytes + 1, 'e')).has_value());
}

BOOST_AUTO_TEST_CASE(the_alg_none_twin_keeps_the_claims_and_has_no_signature) {
  auto jwt = parse_jwt(sign_hs256({{"sub", "7"}, {"adm", true}}, "k"));
  BOOST_REQUIRE(jwt);
  auto forged = forge_none(*jwt);
  BOOST_TEST(forged.back() == '.');
  auto again = parse_jwt(forged);
  BOOST_REQUIRE(again);
  BOOST_TEST(again->alg == "none");
  BOOST_TEST(again->signature.empty());
  BOOST_TEST(boost::json::serialize(again->payload) == boost::json::serialize(jwt->payload));
  // Dozor's own verifier refuses it, as every server should.
  BOOST_TEST(!dozor::auth::verify_jwt(forged, "k", 0));
}

BOOST_AUTO_TEST_CASE(a_badly_signed_twin_has_the_same_claims_and_another_signature) {
  auto token = sign_hs256({{"sub", "7"}}, "k");
  auto jwt = parse_jwt(token);
  BOOST_REQUIRE(jwt);
  auto bad = forge_bad_signature(*jwt);
  BOOST_TEST(bad != token);
  BOOST_TEST(bad.substr(0, bad.rfind('.')) == jwt->signing_input);
  BOOST_TEST(!crack_hs256(*parse_jwt(bad), {"k"}).has_value());
}

BOOST_AUTO_TEST_CASE(a_weak_secret_is_cracked_and_a_strong_one_is_not) {
  const auto& words = dozor::test::shipped_audit_data().jwt_secrets.secrets();
  auto weak = parse_jwt(sign_hs256({{"sub", "2"}}, "changeme"));
  BOOST_REQUIRE(weak);
  auto found = crack_hs256(*weak, words);
  BOOST_REQUIRE(found);
  BOOST_TEST(*found == "changeme");
  auto strong = parse_jwt(sign_hs256({{"sub", "2"}}, "k9Vq2x7ZbLr0Tw4N8cYpHs1dFe6JuGa3"));
  BOOST_REQUIRE(strong);
  BOOST_TEST(!crack_hs256(*strong, words).has_value());
  auto none = parse_jwt(forge_none(*weak));
  BOOST_TEST(!crack_hs256(*none, words).has_value());  // nothing to crack without an HS256 signature
}

BOOST_AUTO_TEST_CASE(tokens_are_found_in_bodies_and_headers_once_each) {
  auto a = sign_hs256({{"sub", "1"}}, "x");
  auto b = sign_hs256({{"sub", "2"}}, "x");
  std::string text = R"({"token":")" + a + R"(","again":")" + a + "\"}\nAuthorization: Bearer " + b +
                     "\nSet-Cookie: jwt=" + b + "; Path=/\nnoise eyJhbGciOi.broken";
  auto found = find_jwts(text, 10);
  BOOST_REQUIRE(found.size() == 2u);
  BOOST_TEST(found[0] == a);
  BOOST_TEST(found[1] == b);
  BOOST_TEST(find_jwts(text, 1).size() == 1u);
  BOOST_TEST(find_jwts("xeyJhbGciOiJub25lIn0.e30.", 10).empty());  // not at a word boundary
}

BOOST_AUTO_TEST_CASE(the_shipped_wordlist_loads_within_its_bounds) {
  const auto& s = dozor::test::shipped_audit_data().jwt_secrets;
  BOOST_TEST(!s.version().empty());
  BOOST_TEST(s.secrets().size() >= 100u);
  BOOST_TEST(s.secrets().size() <= dozor::limits::api::kJwtSecrets);
  for (const char* w : {"secret", "changeme", "your-256-bit-secret", "keyboard cat"})
    BOOST_TEST((std::find(s.secrets().begin(), s.secrets().end(), w) != s.secrets().end()), w);
}

BOOST_AUTO_TEST_CASE(a_bad_wordlist_is_refused_with_a_reason) {
  BOOST_TEST(throws_with("secret\n", "first line"));
  BOOST_TEST(throws_with("# dozor jwt-secrets \nsecret\n", "first line"));
  BOOST_TEST(throws_with("# dozor jwt-secrets 1\n", "no entries"));
  BOOST_TEST(throws_with("# dozor jwt-secrets 1\na\n\nb\n", "empty entry"));
  BOOST_TEST(throws_with("# dozor jwt-secrets 1\na\na\n", "listed twice"));
  BOOST_TEST(throws_with("# dozor jwt-secrets 1\na\tb\n", "control character"));
  BOOST_TEST(throws_with("# dozor jwt-secrets 1\n" + std::string(dozor::limits::api::kJwtSecretBytes + 1, 'x') + "\n",
                         "longer than"));
  std::string many = "# dozor jwt-secrets 1\n";
  for (std::size_t i = 0; i <= dozor::limits::api::kJwtSecrets; ++i) many += "s" + std::to_string(i) + "\n";
  BOOST_TEST(throws_with(many, "more than"));
  auto ok = JwtSecrets::parse("# dozor jwt-secrets 7\r\n# comment\r\nkeyboard cat\r\n");
  BOOST_TEST(ok.version() == "7");
  BOOST_TEST(ok.secrets().size() == 1u);
  BOOST_TEST(ok.secrets()[0] == "keyboard cat");
}

BOOST_AUTO_TEST_SUITE_END()
