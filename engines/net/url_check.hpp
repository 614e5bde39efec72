#pragma once
#include "engines/limits.hpp"
// Validation of user-supplied URLs, with pydantic v2's HttpUrl error names (ARCHITECTURE §4).
#include <optional>
#include <string>
#include <string_view>

namespace dozor::net {

struct UrlProblem {
  std::string type;  // url_parsing | url_scheme | url_too_long
  std::string msg;
};

constexpr std::size_t kMaxUrlLength = limits::kUrlLength;

// An absolute http(s) URL with a host that is text (valid UTF-8, no control characters once
// decoded), 1..2083 characters before and after normalisation.
std::optional<UrlProblem> check_http_url(std::string_view url);

// A valid http(s) URL with its scheme and host in lower case ("HTTP://Example.COM/a" →
// "http://example.com/a") and an empty path made "/".
std::string normalize_http_url(std::string_view valid_url);

// A TCP port target "tcp://host:port" (no path, no credentials), normalised
// ("TCP://Example.COM:25" → "tcp://example.com:25"); nullopt with `problem` set otherwise.
std::optional<std::string> tcp_target(std::string_view url, UrlProblem* problem);

// Turns the raw `{target_url}` tail of a request path into an absolute http(s) URL:
// a percent-encoded URL, a bare host[:port][/path] (https assumed) or an unencoded URL.
struct TargetUrl {
  std::optional<std::string> url;
  std::optional<UrlProblem> problem;
};
TargetUrl parse_target_url(std::string_view raw_tail);

}  // namespace dozor::net
