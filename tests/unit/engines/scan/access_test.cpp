// The host an active scan's permission is decided by (engines/scan/access).
#include "engines/scan/access.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::scan;

BOOST_AUTO_TEST_SUITE(scan_access)

BOOST_AUTO_TEST_CASE(the_host_ignores_scheme_port_path_and_case) {
  BOOST_TEST(target_host("https://Shop.Example.COM:8443/a?b=c") == "shop.example.com");
  BOOST_TEST(target_host("http://shop.example.com/") == "shop.example.com");
  BOOST_TEST(target_host("http://127.0.0.1:9/") == "127.0.0.1");
  BOOST_TEST(target_host("http://[::1]:8080/") == "[::1]");
}

BOOST_AUTO_TEST_CASE(what_is_no_http_url_has_no_host) {
  BOOST_TEST(target_host("tcp://db.example.com:5432").empty());
  BOOST_TEST(target_host("not a url").empty());
  BOOST_TEST(target_host("").empty());
}

BOOST_AUTO_TEST_CASE(reasons_have_stable_names_for_the_log) {
  BOOST_TEST(to_string(Reason::Admin) == "admin");
  BOOST_TEST(to_string(Reason::Grant) == "grant");
  BOOST_TEST(to_string(Reason::Everyone) == "everyone");
  BOOST_TEST(to_string(Reason::OwnService) == "own_service");
  BOOST_TEST(to_string(Reason::NotOwned) == "not_owned");
}

BOOST_AUTO_TEST_SUITE_END()
