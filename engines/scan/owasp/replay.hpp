#pragma once
// What makes a finding of the OWASP scan replayable by a human: the request as a curl command,
// the piece of the answer that proves it, and the URLs the checks build (docs/scan.md "OWASP scan").
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dozor::owasp {

// Percent-encodes everything but RFC 3986 unreserved characters (a query value, a form field).
std::string url_encode(std::string_view s);

// `base` (no query) with the parameters as an application/x-www-form-urlencoded query.
std::string url_with_query(std::string_view base, const std::vector<std::pair<std::string, std::string>>& params);

// A shell command that repeats the request: curl -i -s [-X METHOD] [-H 'Name: value' …]
// [--data-binary 'BODY'] 'URL'. Every argument single-quoted, so the payload reaches curl as sent.
std::string curl_command(std::string_view method, std::string_view url, const std::vector<std::string>& headers,
                         std::string_view body = {});

// Up to `chars` bytes of `body` around [offset, offset + length), cut on UTF-8 boundaries.
std::string excerpt_around(std::string_view body, std::size_t offset, std::size_t length, std::size_t chars);

// A random marker: "dzr" and 10 lower-case hex digits.
std::string make_canary();

}  // namespace dozor::owasp
