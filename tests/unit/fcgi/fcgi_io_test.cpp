// The libfcgi internals fcgi_io.hpp documents, exercised against the real library over a
// socketpair (no network, no other process): if a libfcgi upgrade changes any of them, a case
// here fails before a worker misbehaves.
#include "fcgi/fcgi_io.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cerrno>
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using namespace dozor::fcgi;

namespace {

constexpr unsigned char kBeginRequest = 1, kEndRequest = 3, kParams = 4, kStdin = 5, kStdout = 6;
constexpr unsigned char kKeepConn = 1;

void record(std::string& out, unsigned char type, std::uint16_t id, const std::string& content) {
  out += static_cast<char>(1);  // FCGI_VERSION_1
  out += static_cast<char>(type);
  out += static_cast<char>(id >> 8);
  out += static_cast<char>(id & 0xff);
  out += static_cast<char>(content.size() >> 8);
  out += static_cast<char>(content.size() & 0xff);
  out += '\0';  // padding
  out += '\0';  // reserved
  out += content;
}

// One FastCGI request as nginx sends it: BEGIN_REQUEST, PARAMS, empty PARAMS, STDIN, empty STDIN.
std::string request_bytes(std::uint16_t id, bool keep, const std::string& uri, const std::string& body) {
  std::string begin{'\0', '\1', static_cast<char>(keep ? kKeepConn : 0), '\0', '\0', '\0', '\0', '\0'};
  std::string params;
  auto pair = [&](const std::string& k, const std::string& v) {
    params += static_cast<char>(k.size());
    params += static_cast<char>(v.size());
    params += k + v;
  };
  pair("REQUEST_METHOD", "POST");
  pair("REQUEST_URI", uri);
  pair("CONTENT_LENGTH", std::to_string(body.size()));
  std::string out;
  record(out, kBeginRequest, id, begin);
  record(out, kParams, id, params);
  record(out, kParams, id, "");
  if (!body.empty()) record(out, kStdin, id, body);
  record(out, kStdin, id, "");
  return out;
}

void send_all(int fd, const std::string& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + sent, bytes.size() - sent);
    BOOST_REQUIRE(n > 0);
    sent += static_cast<std::size_t>(n);
  }
}

struct Reply {
  std::string stdout_text;
  bool ended = false;
};

// Reads records from the web server's end until END_REQUEST (or 2 s without data).
Reply read_reply(int fd) {
  Reply r;
  std::string buf;
  while (!r.ended) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 2000) <= 0) break;
    char chunk[4096];
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n <= 0) break;
    buf.append(chunk, static_cast<std::size_t>(n));
    while (buf.size() >= 8) {
      auto len =
          (static_cast<std::size_t>(static_cast<unsigned char>(buf[4])) << 8) | static_cast<unsigned char>(buf[5]);
      std::size_t total = 8 + len + static_cast<unsigned char>(buf[6]);
      if (buf.size() < total) break;
      auto type = static_cast<unsigned char>(buf[1]);
      if (type == kStdout) r.stdout_text += buf.substr(8, len);
      if (type == kEndRequest) r.ended = true;
      buf.erase(0, total);
    }
  }
  return r;
}

bool fd_open(int fd) { return fcntl(fd, F_GETFD) != -1 || errno != EBADF; }

// The web server's end sees EOF (libfcgi closed its side) within a short wait.
bool peer_sees_eof(int fd) {
  pollfd p{fd, POLLIN, 0};
  if (poll(&p, 1, 2000) <= 0) return false;
  char c;
  return read(fd, &c, 1) == 0;
}

bool peer_has_nothing(int fd) {
  pollfd p{fd, POLLIN, 0};
  return poll(&p, 1, 50) == 0;
}

struct Fixture {
  int app = -1;  // the worker's end
  int web = -1;  // nginx's end
  FCGX_Request req{};

  Fixture() {
    BOOST_REQUIRE(FCGX_Init() == 0);
    int sv[2];
    BOOST_REQUIRE(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
    app = sv[0];
    web = sv[1];
    // As the worker does: listen socket -1, so libfcgi never accepts by itself.
    BOOST_REQUIRE(FCGX_InitRequest(&req, -1, 0) == 0);
  }
  ~Fixture() {
    FCGX_Free(&req, 0);
    if (kept_connection(req) >= 0) close(kept_connection(req));
    close(web);
  }

  // A fresh socketpair in place of the web end's connection (the old worker end is libfcgi's).
  void new_connection() {
    int sv[2];
    BOOST_REQUIRE(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
    if (web >= 0) close(web);
    app = sv[0];
    web = sv[1];
  }

  // The kept connection carries the next request, read from its first byte.
  void serves_the_next_request_on_the_kept_connection() {
    BOOST_REQUIRE(kept_connection(req) == app);
    send_all(web, request_bytes(2, true, "/next", "ok"));
    BOOST_TEST(serve_one() == "/next");
    FCGX_Finish_r(&req);
    BOOST_TEST(read_reply(web).stdout_text.find("/next:ok") != std::string::npos);
  }

  // Serves one request (already sent by the web end): reads its body and answers it.
  std::string serve_one(bool force_close = false) {
    BOOST_REQUIRE(FCGX_Accept_r(&req) == 0);
    dozor::http::Request in;
    BOOST_REQUIRE((read_request(req, 1 << 20, in) == ReadStatus::Ok));
    dozor::http::Response out;
    out.body = in.raw_path + ":" + in.body;
    write_response(req, out);
    if (force_close) close_after_answer(req);
    return in.raw_path;
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(fcgi_io_libfcgi_internals)

BOOST_FIXTURE_TEST_CASE(adopted_connection_is_read_instead_of_accepting_and_kept_when_asked, Fixture) {
  adopt_connection(req, app);
  send_all(web, request_bytes(1, true, "/first", "abc"));
  BOOST_TEST(serve_one() == "/first");
  FCGX_Finish_r(&req);
  Reply r = read_reply(web);
  BOOST_TEST(r.ended);
  BOOST_TEST(r.stdout_text.find("/first:abc") != std::string::npos);
  // FCGI_KEEP_CONN: the connection stays open and libfcgi reports it
  BOOST_TEST(kept_connection(req) == app);
  BOOST_TEST(fd_open(app));
  BOOST_TEST(peer_has_nothing(web));

  // the next request on the same kept connection
  send_all(web, request_bytes(2, true, "/second", "de"));
  BOOST_TEST(serve_one() == "/second");
  FCGX_Finish_r(&req);
  r = read_reply(web);
  BOOST_TEST(r.ended);
  BOOST_TEST(r.stdout_text.find("/second:de") != std::string::npos);
  BOOST_TEST(kept_connection(req) == app);
}

BOOST_FIXTURE_TEST_CASE(connection_without_keep_conn_is_closed_by_finish, Fixture) {
  adopt_connection(req, app);
  send_all(web, request_bytes(1, false, "/once", ""));
  serve_one();
  shutdown(web, SHUT_WR);  // libfcgi drains the peer before closing; let it see EOF at once
  FCGX_Finish_r(&req);
  BOOST_TEST(read_reply(web).ended);
  BOOST_TEST(kept_connection(req) == -1);
  BOOST_TEST(peer_sees_eof(web));
}

BOOST_FIXTURE_TEST_CASE(close_after_answer_overrides_keep_conn, Fixture) {
  adopt_connection(req, app);
  send_all(web, request_bytes(1, true, "/big", "x"));
  serve_one(/*force_close=*/true);
  shutdown(web, SHUT_WR);
  FCGX_Finish_r(&req);
  BOOST_TEST(read_reply(web).ended);
  BOOST_TEST(kept_connection(req) == -1);
  BOOST_TEST(peer_sees_eof(web));
}

BOOST_FIXTURE_TEST_CASE(fresh_connection_survives_the_finish_that_starts_accept, Fixture) {
  // After a closed connection keepConnection is 0; adopting must keep the new fd alive through
  // the FCGX_Finish_r that FCGX_Accept_r begins with.
  adopt_connection(req, app);
  send_all(web, request_bytes(1, false, "/a", ""));
  serve_one();
  shutdown(web, SHUT_WR);
  FCGX_Finish_r(&req);
  read_reply(web);
  BOOST_REQUIRE(kept_connection(req) == -1);

  new_connection();
  adopt_connection(req, app);
  send_all(web, request_bytes(7, true, "/b", "z"));
  BOOST_TEST(serve_one() == "/b");
  FCGX_Finish_r(&req);
  BOOST_TEST(read_reply(web).stdout_text.find("/b:z") != std::string::npos);
  BOOST_TEST(kept_connection(req) == app);
}

BOOST_FIXTURE_TEST_CASE(peer_closing_a_kept_connection_makes_accept_fail_at_once_without_accepting, Fixture) {
  adopt_connection(req, app);
  send_all(web, request_bytes(1, true, "/k", ""));
  serve_one();
  FCGX_Finish_r(&req);
  read_reply(web);
  BOOST_REQUIRE(kept_connection(req) == app);
  close(web);
  web = -1;
  BOOST_TEST(FCGX_Accept_r(&req) < 0);  // listen socket -1: no blocking accept
  BOOST_TEST(kept_connection(req) == -1);
  BOOST_TEST(!fd_open(app));  // libfcgi closed it: the worker must not close it again
}

BOOST_FIXTURE_TEST_CASE(a_small_unread_streamed_body_is_read_away_and_the_connection_kept, Fixture) {
  adopt_connection(req, app);
  send_all(web, request_bytes(1, true, "/upload", std::string(1000, 'x')));
  BOOST_REQUIRE(FCGX_Accept_r(&req) == 0);
  dozor::http::Request in;
  std::optional<FcgiBodyStream> stream;
  BOOST_REQUIRE(
      (read_request(
           req, 1 << 20, in, [](const dozor::http::Request&) { return 1LL << 30; }, &stream) == ReadStatus::Ok));
  BOOST_REQUIRE(stream);
  char first[10];
  BOOST_TEST(stream->read(first, sizeof first) == 10u);  // a handler that refused after a peek
  BOOST_TEST(!stream->discard_rest(989));                // one byte more than the limit: not read
  BOOST_TEST(stream->discard_rest(990));                 // exactly what is left
  BOOST_TEST(stream->fully_read());
  write_response(req, dozor::http::Response::error(422, "refused"));
  FCGX_Finish_r(&req);
  BOOST_TEST(read_reply(web).ended);
  serves_the_next_request_on_the_kept_connection();
}

// The stdin stream's end record arriving after the body was read (nginx writes it separately
// when the body fills its buffer): read with the request, else the next request on the kept
// connection starts with it and libfcgi closes the connection (nginx answered 502).
BOOST_FIXTURE_TEST_CASE(the_stdin_end_that_arrives_late_is_read_with_its_request, Fixture) {
  for (bool streamed : {false, true}) {
    BOOST_TEST_CONTEXT((streamed ? "streamed" : "read whole")) {
      new_connection();
      adopt_connection(req, app);
      std::string first = request_bytes(1, true, "/post", "body");
      send_all(web, first.substr(0, first.size() - 8));  // all but the empty FCGI_STDIN record
      // No Boost.Test macro in this thread: the framework is not thread-safe (ThreadSanitizer).
      bool sent = false;
      std::thread late([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        sent = write(web, first.data() + first.size() - 8, 8) == 8;
      });
      BOOST_REQUIRE(FCGX_Accept_r(&req) == 0);
      dozor::http::Request in;
      std::optional<FcgiBodyStream> stream;
      auto decide = [&](const dozor::http::Request&) { return streamed ? 1LL << 20 : 0LL; };
      BOOST_REQUIRE((read_request(req, 1 << 20, in, decide, &stream) == ReadStatus::Ok));
      if (streamed) {
        char buf[16];
        BOOST_TEST(stream->read(buf, sizeof buf) == 4u);
      }
      late.join();
      BOOST_REQUIRE(sent);
      write_response(req, dozor::http::Response::error(405, "no"));
      FCGX_Finish_r(&req);
      BOOST_TEST(read_reply(web).ended);
      serves_the_next_request_on_the_kept_connection();
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
