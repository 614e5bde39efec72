#pragma once
#include <boost/json/value.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dozor::http {

struct Response {
  int status = 200;
  std::string content_type = "application/json";
  // Per answer: API data is personal and changes, so no-store unless a handler decides
  // otherwise (a public status page may be cached briefly, for example).
  std::string cache_control = "no-store";
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  bool head_only = false;  // HEAD: Content-Length of the body, but no body

  static Response json(const boost::json::value& v, int status = 200);
  // FastAPI's error shape: {"detail": "text"}.
  static Response error(int status, std::string_view detail);
  Response& with_header(std::string name, std::string value);
};

const char* reason_phrase(int status);

// The CGI response head ("Status: …\r\n…\r\n\r\n"). The one place headers are written:
// a name that is not an RFC 9110 token, or a value with CR, LF or NUL (header injection,
// response splitting), is refused — the whole answer becomes a bare 500 — never written.
std::string render_head(const Response& r);

// What is written after the head: the body, or nothing for HEAD.
std::string_view body_to_send(const Response& r);

}  // namespace dozor::http
