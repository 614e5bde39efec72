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
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;

  static Response json(const boost::json::value& v, int status = 200);
  // FastAPI's error shape: {"detail": "text"}.
  static Response error(int status, std::string_view detail);
  Response& with_header(std::string name, std::string value);
};

const char* reason_phrase(int status);

}  // namespace dozor::http
