#include "fcgi/response.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::http;

BOOST_AUTO_TEST_SUITE(response)

BOOST_AUTO_TEST_CASE(head_carries_status_reason_type_cache_and_length) {
  auto r = Response::json(boost::json::object{{"a", 1}});
  auto head = render_head(r);
  BOOST_TEST(head.rfind("Status: 200 OK\r\n", 0) == 0u);
  BOOST_TEST(head.find("Content-Type: application/json\r\n") != std::string::npos);
  BOOST_TEST(head.find("Cache-Control: no-store\r\n") != std::string::npos);
  BOOST_TEST(head.find("Content-Length: 7\r\n\r\n") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(cache_control_is_decided_per_answer) {
  Response r;
  r.cache_control = "public, max-age=10";
  BOOST_TEST(render_head(r).find("Cache-Control: public, max-age=10\r\n") != std::string::npos);
  r.cache_control.clear();
  BOOST_TEST(render_head(r).find("Cache-Control") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(crlf_in_a_header_value_refuses_the_answer) {
  for (const std::string& bad :
       std::vector<std::string>{"x\r\nSet-Cookie: a=b", "x\nLocation: /evil", std::string("x\0y", 3), "x\ry"}) {
    auto r = Response::error(200, "fine");
    r.with_header("X-Note", bad);
    auto head = render_head(r);
    BOOST_TEST(head.rfind("Status: 500 Internal Server Error\r\n", 0) == 0u);
    BOOST_TEST(head.find("X-Note") == std::string::npos);
    BOOST_TEST(head.find("evil") == std::string::npos);
    BOOST_TEST(std::string(body_to_send(r)).find("Internal server error") != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(invalid_header_name_or_content_type_refuses_the_answer) {
  auto r = Response::error(200, "fine");
  r.with_header("X Bad", "v");
  BOOST_TEST(render_head(r).rfind("Status: 500", 0) == 0u);
  auto t = Response::error(200, "fine");
  t.content_type = "text/html\r\nX-Injected: 1";
  BOOST_TEST(render_head(t).find("X-Injected") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(tab_and_utf8_in_values_are_allowed) {
  auto r = Response::error(200, "fine");
  r.with_header("Content-Disposition", "attachment;\tfilename*=UTF-8''%D0%BE\xD0\xBE");
  BOOST_TEST(render_head(r).rfind("Status: 200 OK", 0) == 0u);
}

BOOST_AUTO_TEST_CASE(head_only_sends_the_length_but_no_body) {
  auto r = Response::error(404, "Not Found");
  r.head_only = true;
  BOOST_TEST(render_head(r).find("Content-Length: " + std::to_string(r.body.size())) != std::string::npos);
  BOOST_TEST(body_to_send(r).empty());
}

BOOST_AUTO_TEST_CASE(every_status_has_a_reason_phrase) {
  for (int s : {200, 201, 204, 301, 302, 304, 400, 401, 403, 404, 405, 409, 413, 415, 422, 429, 500, 502, 503, 504})
    BOOST_TEST(std::string(reason_phrase(s)) != "Unknown");
  BOOST_TEST(std::string(reason_phrase(299)) == "OK");
  BOOST_TEST(std::string(reason_phrase(499)) == "Client Error");
  BOOST_TEST(std::string(reason_phrase(599)) == "Server Error");
}

BOOST_AUTO_TEST_SUITE_END()
