#include "fcgi/fcgi_io.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <string>
#include "fcgi/http_error.hpp"

namespace dozor::fcgi {
namespace {

// After the body comes the end of the stdin stream (an empty FCGI_STDIN record), which must be
// read with the request: libfcgi drops its buffer at the next request, so an end record that
// arrived after the body was read stays in the socket, the next request on the kept connection
// starts with it, and libfcgi closes the connection as a protocol error under nginx's request (a
// 502 nginx never retries for a POST). True when the stream ends there, as it must.
bool read_stdin_end(FCGX_Stream* in) { return FCGX_GetChar(in) == EOF; }

}  // namespace

std::size_t FcgiBodyStream::read(char* buf, std::size_t n) {
  if (left_ <= 0) return 0;
  if (static_cast<long long>(n) > left_) n = static_cast<std::size_t>(left_);
  int got = FCGX_GetStr(buf, static_cast<int>(std::min<std::size_t>(n, 1 << 20)), in_);
  if (got <= 0) throw http::HttpError(400, "The request body ended before its Content-Length");
  left_ -= got;
  if (left_ == 0 && !read_stdin_end(in_))
    throw http::HttpError(400, "The request body is longer than its Content-Length");
  return static_cast<std::size_t>(got);
}

bool FcgiBodyStream::discard_rest(long long max) {
  if (left_ > max) return false;
  char buf[4096];
  try {
    while (left_ > 0) read(buf, sizeof buf);
  } catch (const http::HttpError&) {
    return false;
  }
  return true;
}

ReadStatus read_request(FCGX_Request& req, long long max_body, http::Request& out, const StreamDecider& decide,
                        std::optional<FcgiBodyStream>* stream) {
  long long content_length = 0;
  std::size_t header_count = 0;
  for (char** p = req.envp; p && *p; ++p) {
    const char* eq = std::strchr(*p, '=');
    if (!eq) continue;
    std::string_view name(*p, static_cast<std::size_t>(eq - *p));
    std::string value(eq + 1);
    if (name == "REQUEST_METHOD")
      out.method = value;
    else if (name == "REQUEST_URI")
      out.raw_target = value;
    else if (name == "REMOTE_ADDR")
      out.remote_addr = value;
    else if (name.substr(0, 6) == "DOZOR_")
      out.params[std::string(name)] = value;
    else if (name == "CONTENT_LENGTH") {
      try {
        content_length = value.empty() ? 0 : std::stoll(value);
      } catch (...) {
        return ReadStatus::BadRequest;
      }
    } else if (name == "CONTENT_TYPE")
      out.headers["content-type"] = value;
    else if (name.substr(0, 5) == "HTTP_") {
      if (++header_count > kMaxHeaders) return ReadStatus::BadRequest;
      std::string h(name.substr(5));
      for (auto& c : h) c = c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      out.headers[h] = value;
    }
  }
  if (out.method.empty() || !http::parse_target(out.raw_target, out)) return ReadStatus::BadRequest;
  if (auto cookie = out.header("cookie")) out.cookies = http::parse_cookies(*cookie);
  if (content_length < 0) return ReadStatus::BadRequest;
  if (long long limit = decide && stream ? decide(out) : 0; limit > 0) {
    if (content_length > limit) return ReadStatus::TooLarge;
    if (content_length == 0 && !read_stdin_end(req.in)) return ReadStatus::BadRequest;
    stream->emplace(req.in, content_length);
    out.body_stream = &**stream;
    out.content_length = content_length;
    return ReadStatus::Ok;
  }
  if (content_length > max_body) return ReadStatus::TooLarge;
  out.body.resize(static_cast<std::size_t>(content_length));
  std::size_t got = 0;
  while (got < out.body.size()) {
    int n = FCGX_GetStr(out.body.data() + got, static_cast<int>(out.body.size() - got), req.in);
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got < out.body.size()) return ReadStatus::BadRequest;    // the body ended before CONTENT_LENGTH
  if (!read_stdin_end(req.in)) return ReadStatus::BadRequest;  // longer than CONTENT_LENGTH
  return ReadStatus::Ok;
}

void write_response(FCGX_Request& req, const http::Response& res) {
  std::string head = http::render_head(res);
  FCGX_PutStr(head.data(), static_cast<int>(head.size()), req.out);
  auto body = http::body_to_send(res);
  if (!body.empty()) FCGX_PutStr(body.data(), static_cast<int>(body.size()), req.out);
}

void adopt_connection(FCGX_Request& req, int fd) {
  req.ipcFd = fd;
  req.keepConnection = 1;
}

int kept_connection(const FCGX_Request& req) { return req.ipcFd >= 0 ? req.ipcFd : -1; }

void close_after_answer(FCGX_Request& req) { req.keepConnection = 0; }

}  // namespace dozor::fcgi
