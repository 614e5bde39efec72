// Proof of control (engines/scan/verify): what is published, what proves it, what it covers.
#include "engines/scan/verify.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::scan::verify;

BOOST_AUTO_TEST_SUITE(scan_verify)

BOOST_AUTO_TEST_CASE(a_site_is_its_host_and_origin) {
  auto s = site_of("https://Shop.Example/path?x=1");
  BOOST_REQUIRE(s);
  BOOST_TEST(s->host == "shop.example");
  BOOST_TEST(s->origin == "https://shop.example:443");
  auto p = site_of("http://127.0.0.1:8080/");
  BOOST_REQUIRE(p);
  BOOST_TEST(p->origin == "http://127.0.0.1:8080");
  BOOST_TEST(!site_of("ftp://shop.example/"));
  BOOST_TEST(!site_of("not a url"));
}

BOOST_AUTO_TEST_CASE(the_file_name_is_a_hash_so_the_url_never_holds_the_value) {
  auto token = new_token();
  BOOST_TEST(token.size() == 22u);
  BOOST_TEST(new_token() != token);
  // SHA-256("abc") = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
  BOOST_TEST(file_name("abc") == "ba7816bf8f01cfea414140de5dae2223");
  BOOST_TEST(file_url("https://shop.example:443", "abc") ==
             "https://shop.example:443/.well-known/dozor-verification/ba7816bf8f01cfea414140de5dae2223");
  BOOST_TEST(file_url("https://shop.example:443", token).find(token) == std::string::npos);
  BOOST_TEST(proof_value("abc") == "dozor-verification=abc");
}

BOOST_AUTO_TEST_CASE(only_the_exact_value_proves_control) {
  BOOST_TEST(body_proves("dozor-verification=abc", "abc"));
  BOOST_TEST(body_proves("  dozor-verification=abc\r\n", "abc"));
  BOOST_TEST(!body_proves("dozor-verification=abcd", "abc"));
  BOOST_TEST(!body_proves("<html>dozor-verification=abc</html>", "abc"));
  BOOST_TEST(!body_proves("abc", "abc"));
  BOOST_TEST(!body_proves("/.well-known/dozor-verification/" + file_name("abc"), "abc"));  // an echo of the path
  BOOST_TEST(!body_proves("dozor-verification=", ""));
  BOOST_TEST(txt_proves({"v=spf1 -all", "dozor-verification=abc"}, "abc"));
  BOOST_TEST(!txt_proves({"dozor-verification=abd"}, "abc"));
  BOOST_TEST(!txt_proves({}, "abc"));
}

BOOST_AUTO_TEST_CASE(an_http_proof_covers_the_host_only_on_the_default_port) {
  BOOST_TEST(http_scope("https://shop.example:443") == "host");
  BOOST_TEST(http_scope("http://shop.example:80") == "host");
  BOOST_TEST(http_scope("https://shop.example:8443") == "origin");
  BOOST_TEST(http_scope("http://shop.example:443") == "origin");
  BOOST_TEST(http_scope("http://127.0.0.1:22080") == "origin");
}

BOOST_AUTO_TEST_CASE(the_json_says_what_to_publish_where) {
  dozor::db::scan_verify::Verification v;
  v.id = 3;
  v.host = "shop.example";
  v.origin = "https://shop.example:443";
  v.token = "abc";
  v.created_at = "2026-01-01T00:00:00.000Z";
  auto j = to_json(v);
  BOOST_TEST(j.at("http").at("url").as_string() ==
             "https://shop.example/.well-known/dozor-verification/ba7816bf8f01cfea414140de5dae2223");
  BOOST_TEST(j.at("http").at("body").as_string() == "dozor-verification=abc");
  BOOST_TEST(j.at("http").at("covers").as_string() == "host");
  BOOST_TEST(j.at("dns").at("value").as_string() == "dozor-verification=abc");
  BOOST_TEST(j.at("verified").as_bool() == false);
  BOOST_TEST(j.at("expires_at").is_null());
  v.origin = "http://shop.example:8080";
  BOOST_TEST(to_json(v).at("http").at("url").as_string() ==
             "http://shop.example:8080/.well-known/dozor-verification/ba7816bf8f01cfea414140de5dae2223");
  BOOST_TEST(to_json(v).at("http").at("covers").as_string() == "origin");
}

BOOST_AUTO_TEST_SUITE_END()
