#include "fcgi/vault_page.hpp"

#include <boost/json/object.hpp>
#include <boost/test/unit_test.hpp>

using dozor::http::is_page_request;
using dozor::http::is_vault_path;
using dozor::http::Request;
using dozor::http::Response;
using dozor::http::vault_error_page;

namespace {
Request get(std::map<std::string, std::string> headers, std::string method = "GET") {
  Request r;
  r.method = std::move(method);
  r.raw_path = "/vault/browse";
  r.headers = std::move(headers);
  return r;
}
const char* kBrowserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
}  // namespace

BOOST_AUTO_TEST_SUITE(vault_page)

BOOST_AUTO_TEST_CASE(a_navigation_is_a_page_request_and_a_script_call_is_not) {
  BOOST_TEST(is_page_request(get({{"sec-fetch-mode", "navigate"}, {"sec-fetch-dest", "document"}})));
  BOOST_TEST(is_page_request(get({{"sec-fetch-dest", "document"}})));
  BOOST_TEST(is_page_request(get({{"accept", kBrowserAccept}})));  // no fetch metadata: Accept decides
  BOOST_TEST(is_page_request(get({{"accept", kBrowserAccept}}, "HEAD")));
  // fetch()/XHR: the JSON error shape stays, whatever Accept says.
  BOOST_TEST(!is_page_request(get({{"sec-fetch-mode", "cors"}, {"sec-fetch-dest", "empty"}, {"accept", "*/*"}})));
  BOOST_TEST(!is_page_request(
      get({{"sec-fetch-mode", "same-origin"}, {"sec-fetch-dest", "empty"}, {"accept", kBrowserAccept}})));
  BOOST_TEST(!is_page_request(get({{"accept", "application/json"}})));
  BOOST_TEST(!is_page_request(get({{"accept", "text/html, application/json"}})));
  BOOST_TEST(!is_page_request(get({})));
  BOOST_TEST(!is_page_request(get({{"sec-fetch-mode", "navigate"}}, "POST")));
  BOOST_TEST(!is_page_request(get({{"sec-fetch-dest", "iframe"}, {"sec-fetch-mode", "no-cors"}})));
}

BOOST_AUTO_TEST_CASE(only_the_vault_and_its_children_are_vault_paths) {
  BOOST_TEST(is_vault_path("/vault"));
  BOOST_TEST(is_vault_path("/vault/"));
  BOOST_TEST(is_vault_path("/vault/no-such-page"));
  BOOST_TEST(!is_vault_path("/vaults"));
  BOOST_TEST(!is_vault_path("/api/vault"));
  BOOST_TEST(!is_vault_path("/"));
}

BOOST_AUTO_TEST_CASE(a_failure_becomes_an_html_page_of_its_status_with_its_headers) {
  auto failed = Response::error(405, "Method Not Allowed").with_header("Allow", "DELETE");
  auto page = vault_error_page(get({{"sec-fetch-mode", "navigate"}}), failed);
  BOOST_TEST(page.status == 405);
  BOOST_TEST(page.content_type == "text/html; charset=utf-8");
  BOOST_TEST(page.cache_control == "no-store");
  BOOST_TEST(page.body.starts_with("<!doctype html>"));
  BOOST_TEST(page.body.find("src=\"/js/vault-error.js\"") != std::string::npos);
  BOOST_TEST(page.body.find("\"status\":405") != std::string::npos);
  BOOST_TEST(page.body.find("id=\"topbar\"") != std::string::npos);
  BOOST_TEST(page.body.find("{\"detail\"") == std::string::npos, "no raw JSON error body");
  BOOST_REQUIRE(page.headers.size() == 1u);
  BOOST_TEST(page.headers[0].first == "Allow");
}

BOOST_AUTO_TEST_CASE(without_a_session_a_page_request_goes_to_the_login_page) {
  auto page = vault_error_page(get({{"sec-fetch-mode", "navigate"}}), Response::error(401, "Not authenticated"));
  BOOST_TEST(page.status == 303);
  BOOST_REQUIRE(page.headers.size() == 1u);
  BOOST_TEST(page.headers[0].second == "/vault/login");
}

BOOST_AUTO_TEST_CASE(page_data_cannot_end_its_script_element) {
  Request r = get({{"sec-fetch-mode", "navigate"}});
  r.raw_path = "/vault/</script><script>alert(1)</script>";
  auto page = vault_error_page(r, Response::error(404, "Not Found"));
  BOOST_TEST(page.body.find("</script><script>alert") == std::string::npos);
  BOOST_TEST(page.body.find("\\u003c/script\\u003e") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
