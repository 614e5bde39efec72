#pragma once
// Errors that already know their HTTP form (raised by the runtime, router and validation).
#include <boost/json/array.hpp>
#include <boost/json/value.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace dozor::http {

struct HttpError : std::runtime_error {
  HttpError(int status_code, const std::string& detail) : std::runtime_error(detail), status(status_code) {}
  int status;
  std::vector<std::pair<std::string, std::string>> headers;
};

// One pydantic-v2-style item of a 422 answer.
struct FieldIssue {
  std::string type;
  boost::json::array loc;
  std::string msg;
  std::optional<boost::json::value> input;
  boost::json::object ctx;
};

struct ValidationFailed : std::runtime_error {
  explicit ValidationFailed(std::vector<FieldIssue> list)
      : std::runtime_error("validation failed"), issues(std::move(list)) {}
  std::vector<FieldIssue> issues;
};

}  // namespace dozor::http
