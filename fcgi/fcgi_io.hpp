#pragma once
#include "engines/limits.hpp"
// Copying between libfcgi's request and Dozor's owned Request/Response.
#include <fcgiapp.h>

#include <functional>
#include <optional>

#include "fcgi/request.hpp"
#include "fcgi/response.hpp"

namespace dozor::fcgi {

constexpr std::size_t kMaxHeaders = limits::kRequestHeaders;

enum class ReadStatus { Ok, BadRequest, TooLarge };

// The body of one request read from libfcgi as the handler asks for it.
class FcgiBodyStream : public http::BodyStream {
 public:
  FcgiBodyStream(FCGX_Stream* in, long long length) : in_(in), left_(length) {}
  std::size_t read(char* buf, std::size_t n) override;
  bool fully_read() const { return left_ == 0; }
  // Reads and drops the rest when at most `max` bytes are left (a small body a handler refused
  // unread), so that the kept connection can carry nginx's next request; false when more is
  // left or it ends early (the caller then closes the connection).
  bool discard_rest(long long max);

 private:
  FCGX_Stream* in_;
  long long left_;
};

// Routes whose body is streamed: the byte limit for the request, or 0 to read it whole.
using StreamDecider = std::function<long long(const http::Request&)>;

// Fills `out` from the params and stdin of `req`; the body is read only when within max_body.
// When `decide` gives a limit for the request, the body is left unread and `out.body_stream`
// points to `stream` instead (set up here).
ReadStatus read_request(FCGX_Request& req, long long max_body, http::Request& out, const StreamDecider& decide = {},
                        std::optional<FcgiBodyStream>* stream = nullptr);

void write_response(FCGX_Request& req, const http::Response& res);

// ---- The two libfcgi internals the worker relies on, and only here.
//
// libfcgi's public API accepts connections itself, blocking, and does not say whether the
// connection of a finished request is kept. The worker needs to accept through poll() beside
// its stop eventfd (so a stop wakes every thread) and to close kept nginx connections only
// while idle (so no POST is lost). It therefore uses two fields of FCGX_Request that
// fcgiapp.h lists under "Don't use anything below here":
//
//   int ipcFd;           the connection; < 0 means none
//   int keepConnection;  don't close ipcFd at the end of the request
//
// with this behaviour of libfcgi 2.4.2 (Debian 12: libfcgi0ldbl 2.4.2-2+deb12u1; the same
// code through upstream 2.4.7), with the request initialised by FCGX_InitRequest(&req, -1, 0):
//   - FCGX_Accept_r first finishes the previous request (closing ipcFd unless keepConnection),
//     then reads the next request from ipcFd if it is >= 0 instead of accepting;
//   - each FCGI_BEGIN_REQUEST sets keepConnection from its FCGI_KEEP_CONN flag;
//   - FCGX_Finish_r closes ipcFd and sets it to -1 unless keepConnection is set;
//   - when the peer closed an idle kept connection, FCGX_Accept_r closes it, sets ipcFd to -1
//     and returns < 0 at once (listen socket -1: it never accepts by itself).
// tests/unit/fcgi/fcgi_io_test.cpp drives the real library through each of these and fails
// if any changes.

// Hands a connection the worker accepted to libfcgi: the next FCGX_Accept_r reads from it.
// Marked kept, or the finish at the start of FCGX_Accept_r would close it unread.
void adopt_connection(FCGX_Request& req, int fd);
// The connection libfcgi kept open after the last request, or -1.
int kept_connection(const FCGX_Request& req);
// The connection closes after this request's answer whatever nginx asked (an unread body).
void close_after_answer(FCGX_Request& req);

}  // namespace dozor::fcgi
