#pragma once
// Decoding of request bodies and parameters with FastAPI/pydantic v2 error reporting: every
// invalid field is collected, then one ValidationFailed carries them all.
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engines/limits.hpp"
#include "fcgi/http_error.hpp"
#include "fcgi/request.hpp"

namespace dozor::handlers {

constexpr std::size_t kMaxJsonDepth = limits::kJsonDepth;

// Parses a JSON body (depth-limited). Throws ValidationFailed: json_invalid, or missing when empty.
boost::json::value parse_json_body(std::string_view body);

struct StringRule {
  std::size_t min_length = 0;
  std::size_t max_length = 0;  // 0 = no limit
};

class Fields {
 public:
  // `body` must be an object (model_attributes_type otherwise, raised at finish()).
  // Issues are located at loc_prefix + field name (["body", "params", "token"] for a nested object).
  explicit Fields(const boost::json::value& body, boost::json::array loc_prefix = {"body"});

  std::optional<std::string> string(const char* name, bool required, StringRule rule = {});
  std::optional<std::int64_t> integer(const char* name, bool required, std::optional<std::int64_t> ge = {},
                                      std::optional<std::int64_t> le = {});
  std::optional<bool> boolean(const char* name, bool required);
  std::optional<std::string> http_url(const char* name, bool required);
  // What a service may watch: an http(s) URL, or tcp://host:port (a port check).
  std::optional<std::string> monitor_target(const char* name, bool required);
  std::optional<std::string> email(const char* name, bool required);
  // Nullable variants: absent and null both give nullopt.
  std::optional<std::string> nullable_string(const char* name, StringRule rule = {});
  std::optional<bool> nullable_boolean(const char* name);
  std::optional<std::string> nullable_email(const char* name);

  void add(http::FieldIssue issue) { issues_.push_back(std::move(issue)); }
  // Throws ValidationFailed when anything was wrong.
  void finish();
  // The issues so far (for a nested object's Fields to hand to its parent's).
  std::vector<http::FieldIssue> take_issues();
  const boost::json::value* raw(const char* name) const;  // the member as given, or nullptr

 private:
  const boost::json::value* get(const char* name, bool required);
  boost::json::array loc(const char* name) const;
  bool absent_or_null(const char* name) const;
  const boost::json::value& body_;
  const boost::json::object* object_ = nullptr;
  boost::json::array prefix_;
  std::vector<http::FieldIssue> issues_;
};

// Lax conversions shared by bodies, path and query parameters (pydantic's lax mode).
std::optional<std::int64_t> parse_int_text(std::string_view text);
std::optional<bool> parse_bool_text(std::string_view text);
bool is_valid_email(std::string_view email);

// A path parameter as an integer (int_parsing / greater_than_equal with loc ["path", name]).
std::int64_t path_int(const std::string& raw, const char* name, std::optional<std::int64_t> ge = {});

// The `{target_url}` path parameter as an absolute http(s) URL (ARCHITECTURE §4, one parser for
// every route: net::parse_target_url); url_parsing / url_scheme / url_too_long at ["path", "target_url"].
std::string path_target_url(const std::string& raw);

// An optional integer query parameter within [min, max] (int_parsing, greater_than_equal,
// less_than_equal at ["query", name]); `fallback` when absent.
std::int64_t query_int(const http::Request& request, const char* name, std::int64_t fallback, std::int64_t min,
                       std::int64_t max);

}  // namespace dozor::handlers
