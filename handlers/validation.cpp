#include "handlers/validation.hpp"

#include <strings.h>
#include <boost/json/stream_parser.hpp>

#include <cmath>
#include <limits>

#include "engines/net/url_check.hpp"

namespace dozor::handlers {
namespace {

using boost::json::array;
using boost::json::value;

// An issue whose ctx carries the bound that was broken (pydantic's "ctx": {"ge": 1}).
http::FieldIssue bounded(const char* type, array loc, std::string msg, value input, const char* key, value bound) {
  http::FieldIssue issue{type, std::move(loc), std::move(msg), std::move(input), {}};
  issue.ctx[key] = std::move(bound);
  return issue;
}

std::string plural(std::size_t n, const char* unit) { return std::to_string(n) + " " + unit + (n == 1 ? "" : "s"); }

}  // namespace

value parse_json_body(std::string_view body) {
  if (body.find_first_not_of(" \t\r\n") == std::string_view::npos)
    throw http::ValidationFailed({{"missing", array{"body"}, "Field required", value(nullptr), {}}});
  boost::json::parse_options opts;
  opts.max_depth = kMaxJsonDepth;
  boost::json::stream_parser p(boost::json::storage_ptr(), opts);
  boost::system::error_code ec;
  std::size_t used = p.write_some(body.data(), body.size(), ec);
  if (!ec) p.finish(ec);
  if (ec) {
    throw http::ValidationFailed({bounded("json_invalid", array{"body", static_cast<std::int64_t>(used)},
                                          "JSON decode error", boost::json::object{}, "error", value(ec.message()))});
  }
  return p.release();
}

std::optional<std::int64_t> parse_int_text(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (text.empty() || text.size() > 20) return std::nullopt;
  std::size_t i = (text[0] == '-' || text[0] == '+') ? 1 : 0;
  if (i == text.size()) return std::nullopt;
  for (std::size_t j = i; j < text.size(); ++j)
    if (text[j] < '0' || text[j] > '9') return std::nullopt;
  try {
    return std::stoll(std::string(text));
  } catch (...) {
    return std::nullopt;
  }
}

std::optional<bool> parse_bool_text(std::string_view text) {
  std::string t;
  for (char c : text) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (t == "true" || t == "1" || t == "yes" || t == "on" || t == "t" || t == "y") return true;
  if (t == "false" || t == "0" || t == "no" || t == "off" || t == "f" || t == "n") return false;
  return std::nullopt;
}

bool is_valid_email(std::string_view email) {
  if (email.size() > 254) return false;
  auto at = email.find('@');
  if (at == std::string_view::npos || at == 0 || email.find('@', at + 1) != std::string_view::npos) return false;
  auto local = email.substr(0, at);
  auto domain = email.substr(at + 1);
  if (local.size() > 64 || local.front() == '.' || local.back() == '.' || local.find("..") != std::string_view::npos)
    return false;
  static constexpr std::string_view kLocalExtra = "!#$%&'*+/=?^_`{|}~.-";
  for (char c : local)
    if (!std::isalnum(static_cast<unsigned char>(c)) && kLocalExtra.find(c) == std::string_view::npos) return false;
  if (domain.empty() || domain.size() > 253 || domain.find('.') == std::string_view::npos) return false;
  std::size_t start = 0;
  std::string_view last;
  while (start <= domain.size()) {
    auto dot = domain.find('.', start);
    auto label = domain.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-') return false;
    for (char c : label)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-') return false;
    last = label;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  if (last.size() < 2) return false;
  bool alpha_tld = true;
  for (char c : last) alpha_tld = alpha_tld && std::isalpha(static_cast<unsigned char>(c));
  return alpha_tld || last.rfind("xn--", 0) == 0;
}

std::int64_t path_int(const std::string& raw, const char* name, std::optional<std::int64_t> ge) {
  auto v = parse_int_text(raw);
  if (!v)
    throw http::ValidationFailed({{"int_parsing",
                                   array{"path", name},
                                   "Input should be a valid integer, unable to parse string as an integer",
                                   value(raw),
                                   {}}});
  if (ge && *v < *ge)
    throw http::ValidationFailed(
        {bounded("greater_than_equal", array{"path", name},
                 "Input should be greater than or equal to " + std::to_string(*ge), value(*v), "ge", *ge)});
  return *v;
}

Fields::Fields(const value& body, array loc_prefix) : body_(body), prefix_(std::move(loc_prefix)) {
  if (body.is_object())
    object_ = &body.as_object();
  else
    issues_.push_back({"model_attributes_type",
                       prefix_,
                       "Input should be a valid dictionary or object to extract fields from",
                       body,
                       {}});
}

const value* Fields::get(const char* name, bool required) {
  if (!object_) return nullptr;
  auto* v = object_->if_contains(name);
  if (!v && required) issues_.push_back({"missing", loc(name), "Field required", body_, {}});
  return v;
}

std::optional<std::string> Fields::string(const char* name, bool required, StringRule rule) {
  auto* v = get(name, required);
  if (!v) return std::nullopt;
  if (!v->is_string()) {
    issues_.push_back({"string_type", loc(name), "Input should be a valid string", *v, {}});
    return std::nullopt;
  }
  std::string s(v->as_string());
  // Lengths count characters (code points), as pydantic does, not bytes.
  std::size_t chars = 0;
  for (char c : s) chars += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  if (chars < rule.min_length) {
    issues_.push_back(bounded("string_too_short", loc(name),
                              "String should have at least " + plural(rule.min_length, "character"), *v, "min_length",
                              rule.min_length));
    return std::nullopt;
  }
  if (rule.max_length && chars > rule.max_length) {
    issues_.push_back(bounded("string_too_long", loc(name),
                              "String should have at most " + plural(rule.max_length, "character"), *v, "max_length",
                              rule.max_length));
    return std::nullopt;
  }
  return s;
}

std::optional<std::int64_t> Fields::integer(const char* name, bool required, std::optional<std::int64_t> ge,
                                            std::optional<std::int64_t> le) {
  auto* v = get(name, required);
  if (!v) return std::nullopt;
  std::optional<std::int64_t> out;
  if (v->is_int64())
    out = v->as_int64();
  else if (v->is_uint64()) {
    if (v->as_uint64() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      out = static_cast<std::int64_t>(v->as_uint64());
  } else if (v->is_double()) {
    double d = v->as_double();
    if (std::floor(d) != d || std::abs(d) > 9e15) {
      issues_.push_back({"int_from_float",
                         loc(name),
                         "Input should be a valid integer, got a number with a fractional part",
                         *v,
                         {}});
      return std::nullopt;
    }
    out = static_cast<std::int64_t>(d);
  } else if (v->is_string()) {
    out = parse_int_text(v->as_string());
    if (!out) {
      issues_.push_back(
          {"int_parsing", loc(name), "Input should be a valid integer, unable to parse string as an integer", *v, {}});
      return std::nullopt;
    }
  }
  if (!out) {
    issues_.push_back({"int_type", loc(name), "Input should be a valid integer", *v, {}});
    return std::nullopt;
  }
  if (ge && *out < *ge) {
    issues_.push_back(bounded("greater_than_equal", loc(name),
                              "Input should be greater than or equal to " + std::to_string(*ge), *v, "ge", *ge));
    return std::nullopt;
  }
  if (le && *out > *le) {
    issues_.push_back(bounded("less_than_equal", loc(name),
                              "Input should be less than or equal to " + std::to_string(*le), *v, "le", *le));
    return std::nullopt;
  }
  return out;
}

std::optional<bool> Fields::boolean(const char* name, bool required) {
  auto* v = get(name, required);
  if (!v) return std::nullopt;
  if (v->is_bool()) return v->as_bool();
  std::optional<bool> out;
  if (v->is_string())
    out = parse_bool_text(v->as_string());
  else if (v->is_int64() && (v->as_int64() == 0 || v->as_int64() == 1))
    out = v->as_int64() == 1;
  if (out) return out;
  if (v->is_string() || v->is_int64() || v->is_uint64())
    issues_.push_back(
        {"bool_parsing", loc(name), "Input should be a valid boolean, unable to interpret input", *v, {}});
  else
    issues_.push_back({"bool_type", loc(name), "Input should be a valid boolean", *v, {}});
  return std::nullopt;
}

std::optional<std::string> Fields::http_url(const char* name, bool required) {
  auto s = string(name, required);
  if (!s) return std::nullopt;
  if (auto problem = net::check_http_url(*s)) {
    http::FieldIssue issue{problem->type, loc(name), problem->msg, value(*s), {}};
    if (problem->type == "url_too_long") issue.ctx["max_length"] = net::kMaxUrlLength;
    if (problem->type == "url_scheme") issue.ctx["expected_schemes"] = "'http' or 'https'";
    issues_.push_back(std::move(issue));
    return std::nullopt;
  }
  return net::normalize_http_url(*s);
}

std::optional<std::string> Fields::monitor_target(const char* name, bool required) {
  auto* v = raw(name);
  if (v && v->is_string() && v->as_string().size() > 6 && strncasecmp(v->as_string().data(), "tcp://", 6) == 0) {
    auto s = string(name, required);
    if (!s) return std::nullopt;
    net::UrlProblem problem;
    auto target = net::tcp_target(*s, &problem);
    if (!target) issues_.push_back({problem.type, loc(name), problem.msg, value(*s), {}});
    return target;
  }
  return http_url(name, required);
}

std::optional<std::string> Fields::email(const char* name, bool required) {
  auto s = string(name, required);
  if (!s) return std::nullopt;
  if (!is_valid_email(*s)) {
    issues_.push_back(bounded("value_error", loc(name), "value is not a valid email address", value(*s), "reason",
                              "The address must look like name@example.com"));
    return std::nullopt;
  }
  return s;
}

const value* Fields::raw(const char* name) const { return object_ ? object_->if_contains(name) : nullptr; }

bool Fields::absent_or_null(const char* name) const {
  if (!object_) return false;  // the body itself is wrong: reported once, by the constructor
  auto* v = object_->if_contains(name);
  return !v || v->is_null();
}

std::optional<std::string> Fields::nullable_string(const char* name, StringRule rule) {
  return absent_or_null(name) ? std::nullopt : string(name, false, rule);
}

std::optional<bool> Fields::nullable_boolean(const char* name) {
  return absent_or_null(name) ? std::nullopt : boolean(name, false);
}

std::optional<std::string> Fields::nullable_email(const char* name) {
  return absent_or_null(name) ? std::nullopt : email(name, false);
}

array Fields::loc(const char* name) const {
  array out = prefix_;
  out.emplace_back(name);
  return out;
}

std::vector<http::FieldIssue> Fields::take_issues() { return std::move(issues_); }

void Fields::finish() {
  if (!issues_.empty()) throw http::ValidationFailed(std::move(issues_));
}

std::string path_target_url(const std::string& raw) {
  auto t = net::parse_target_url(raw);
  if (t.url) return *t.url;
  throw http::ValidationFailed({{t.problem->type, array{"path", "target_url"}, t.problem->msg, value(raw), {}}});
}

std::int64_t query_int(const http::Request& request, const char* name, std::int64_t fallback, std::int64_t min,
                       std::int64_t max) {
  auto raw = request.query_param(name);
  if (!raw) return fallback;
  auto v = parse_int_text(*raw);
  if (!v)
    throw http::ValidationFailed({{"int_parsing",
                                   array{"query", name},
                                   "Input should be a valid integer, unable to parse string as an integer",
                                   value(*raw),
                                   {}}});
  if (*v < min)
    throw http::ValidationFailed(
        {bounded("greater_than_equal", array{"query", name},
                 "Input should be greater than or equal to " + std::to_string(min), value(*raw), "ge", min)});
  if (*v > max)
    throw http::ValidationFailed(
        {bounded("less_than_equal", array{"query", name},
                 "Input should be less than or equal to " + std::to_string(max), value(*raw), "le", max)});
  return *v;
}

}  // namespace dozor::handlers
