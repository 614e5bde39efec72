#pragma once
// The owned request: everything copied out of libfcgi at accept, so nothing points into
// buffers that libfcgi frees at the next accept (ARCHITECTURE rule 5).
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dozor::http {

// The body of a request whose route streams it (vault uploads) instead of reading it whole.
class BodyStream {
 public:
  virtual ~BodyStream() = default;
  // Up to n bytes of the body; 0 at its end. Throws when the connection breaks first.
  virtual std::size_t read(char* buf, std::size_t n) = 0;
};

struct Request {
  std::string method;
  std::string raw_target;                                  // REQUEST_URI exactly as the client sent it
  std::string raw_path;                                    // raw_target up to '?', still percent-encoded
  std::vector<std::pair<std::string, std::string>> query;  // decoded, in order
  std::map<std::string, std::string> headers;              // lower-case names
  std::map<std::string, std::string> cookies;
  std::string remote_addr;
  // FastCGI parameters named DOZOR_* that nginx sets itself (a client's headers arrive as HTTP_*,
  // so none of these can come from the client): the analyzer's caller (docs/analyzer.md).
  std::map<std::string, std::string> params;
  std::string body;
  // Set instead of `body` on streamed routes (fcgi::WorkerLimits::stream_body); valid during
  // the handler call only.
  BodyStream* body_stream = nullptr;
  long long content_length = 0;

  std::optional<std::string> header(std::string_view name) const;
  std::optional<std::string> query_param(std::string_view name) const;
};

// Splits a raw request target into path and decoded query (Boost.URL). Returns false when the
// target is not a valid origin-form URI.
bool parse_target(std::string_view raw, Request& out);

// The token of an "Authorization: Bearer …" header (scheme case-insensitive); empty without one.
std::string bearer_token(const Request& req);

// Parses a Cookie header ("a=1; b=2").
std::map<std::string, std::string> parse_cookies(std::string_view header);

}  // namespace dozor::http
