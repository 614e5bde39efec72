#include "engines/net/scan_client.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <string>
#include <thread>

#include "engines/net/pacing.hpp"
#include "tests/unit/support/local_http.hpp"
#include "tests/unit/support/loopback_listener.hpp"

namespace dozor::net {
std::ostream& operator<<(std::ostream& os, CheckError e);  // defined in multi_fetch_test.cpp
}  // namespace dozor::net

using namespace dozor::net;
using dozor::test::LocalHttp;

namespace {

const EgressPolicy allow_loopback(true);
const EgressPolicy public_only(false);

ScanOptions quick() {
  ScanOptions o;
  o.request_timeout = std::chrono::seconds(5);
  o.per_host_interval = std::chrono::milliseconds(0);
  return o;
}

FetchRequest get(std::string url) {
  FetchRequest r;
  r.url = std::move(url);
  return r;
}

std::string gzip_of(const std::string& data) {
  z_stream z{};
  deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, static_cast<uLong>(data.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

// One connection's endless answer: the head, then `total` bytes (0: until the client hangs up)
// sent 64 KiB at a time from one buffer, so a gigabyte is never held. Counts what was sent.
class StreamingServer {
 public:
  StreamingServer(std::string head, std::uint64_t total) : head_(std::move(head)), total_(total) {
    thread_ = std::thread([this] { serve(); });
  }
  ~StreamingServer() {
    stop_ = true;
    ::shutdown(listener_.fd, SHUT_RDWR);
    if (int c = conn_.load(); c >= 0) ::shutdown(c, SHUT_RDWR);
    thread_.join();
    if (int c = conn_.load(); c >= 0) ::close(c);  // closed only here: the fd is never reused under us
  }
  std::string url(const std::string& path) const { return "http://127.0.0.1:" + std::to_string(listener_.port) + path; }
  // Bytes of body sent once the client has hung up (or the stream ended); waits at most `wait`.
  std::uint64_t sent_when_done(std::chrono::milliseconds wait) {
    auto until = std::chrono::steady_clock::now() + wait;
    while (!done_ && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return sent_;
  }
  bool done() const { return done_; }

 private:
  void serve() {
    pollfd p{listener_.fd, POLLIN, 0};
    if (::poll(&p, 1, 15000) <= 0 || stop_) return finish();
    int c = ::accept4(listener_.fd, nullptr, nullptr, SOCK_CLOEXEC);
    if (c < 0) return finish();
    conn_ = c;
    dozor::test::read_http_head(c);  // the request itself does not matter
    bool ok = ::send(c, head_.data(), head_.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(head_.size());
    const std::string chunk(64 * 1024, 'x');
    while (ok && !stop_ && (total_ == 0 || sent_ < total_)) {
      auto want = total_ == 0 ? chunk.size() : std::min<std::uint64_t>(chunk.size(), total_ - sent_);
      auto n = ::send(c, chunk.data(), want, MSG_NOSIGNAL);
      if (n <= 0) break;  // the client hung up
      sent_ += static_cast<std::uint64_t>(n);
    }
    finish();
  }
  void finish() { done_ = true; }

  dozor::test::LoopbackListener listener_{true};
  std::string head_;
  std::uint64_t total_;
  std::atomic<int> conn_{-1};
  std::atomic<bool> stop_{false};
  std::atomic<bool> done_{false};
  std::atomic<std::uint64_t> sent_{0};
  std::thread thread_;
};
}  // namespace

BOOST_AUTO_TEST_SUITE(scan_client)

BOOST_AUTO_TEST_CASE(records_the_exchange_as_evidence) {
  LocalHttp s(
      {{"/page", LocalHttp::fixed(LocalHttp::answer(200, "X-Test: yes\r\nContent-Type: text/html\r\n", "<p>hi</p>"))}});
  ScanSession session(allow_loopback, quick());
  FetchRequest r;
  r.url = s.url("/page?a=1");
  r.headers = {"X-Probe: 1"};
  auto o = session.fetch(r);
  BOOST_TEST(o.kind == CheckError::None);
  BOOST_TEST(o.status == 200);
  BOOST_TEST(o.body == "<p>hi</p>");
  BOOST_REQUIRE(o.exchanges.size() == 1u);
  const auto& ex = o.exchanges[0];
  BOOST_TEST(ex.request_line == "GET /page?a=1 HTTP/1.1");
  BOOST_TEST(first_header(ex.request_headers, "x-probe").value_or("") == "1");
  BOOST_TEST(ex.status == 200);
  BOOST_TEST(ex.status_line == "HTTP/1.0 200 X");
  BOOST_TEST(first_header(ex.response_headers, "x-test").value_or("") == "yes");
  BOOST_TEST(ex.body_excerpt == "<p>hi</p>");
}

BOOST_AUTO_TEST_CASE(body_excerpt_is_bounded) {
  std::string big(100000, 'a');
  LocalHttp s({{"/big", LocalHttp::fixed(LocalHttp::answer(200, "", big))}});
  ScanSession session(allow_loopback, quick());
  auto o = session.fetch(get(s.url("/big")));
  BOOST_TEST(o.body.size() == big.size());
  BOOST_TEST(o.exchanges.at(0).body_excerpt.size() == dozor::limits::kEvidenceExcerptBytes);
}

BOOST_AUTO_TEST_CASE(a_body_over_the_cap_is_a_clear_error) {
  LocalHttp s({{"/huge", LocalHttp::fixed(LocalHttp::answer(200, "", std::string(300000, 'x')))}});
  auto o = quick();
  o.max_body = 100000;
  ScanSession session(allow_loopback, o);
  auto r = session.fetch(get(s.url("/huge")));
  BOOST_TEST(r.kind == CheckError::TooLarge);
  BOOST_TEST(r.error.find("100000") != std::string::npos);
  // At the cap exactly, the answer is whole.
  LocalHttp t({{"/n", LocalHttp::fixed(LocalHttp::answer(200, "", std::string(100000, 'x')))}});
  auto ok = session.fetch(get(t.url("/n")));
  BOOST_TEST(ok.kind == CheckError::None);
  BOOST_TEST(ok.body.size() == 100000u);
}

BOOST_AUTO_TEST_CASE(a_gzip_bomb_is_capped_on_decoded_bytes) {
  std::string bomb = gzip_of(std::string(std::size_t{64} * 1024 * 1024, '\0'));  // 64 MiB → about 64 KB
  BOOST_REQUIRE(bomb.size() < 200000u);
  LocalHttp s({{"/bomb", LocalHttp::fixed(LocalHttp::answer(200, "Content-Encoding: gzip\r\n", bomb))}});
  auto o = quick();
  o.max_body = std::size_t{1} * 1024 * 1024;
  ScanSession session(allow_loopback, o);
  auto started = std::chrono::steady_clock::now();
  auto r = session.fetch(get(s.url("/bomb")));
  BOOST_TEST(r.kind == CheckError::TooLarge);
  BOOST_TEST(r.body.size() <= o.max_body);
  BOOST_TEST((std::chrono::steady_clock::now() - started < std::chrono::seconds(3)));
  FetchRequest keep = get(s.url("/bomb"));
  keep.oversize_is_error = false;
  auto cut = session.fetch(keep);
  BOOST_TEST(cut.kind == CheckError::None);
  BOOST_TEST(cut.truncated);
  BOOST_TEST(cut.body.size() == o.max_body);
}

BOOST_AUTO_TEST_CASE(an_endless_body_stops_at_the_default_cap_without_reading_the_stream) {
  // The product's cap, not a lowered one: 5 MiB of decoded bytes per answer.
  ScanOptions o;
  o.per_host_interval = std::chrono::milliseconds(0);
  BOOST_REQUIRE(o.max_body == dozor::limits::kScanBodyBytes);
  BOOST_REQUIRE(o.max_body == std::size_t{5} * 1024 * 1024);
  // An answer without a length that never ends (a log tail, a misconfigured stream).
  StreamingServer endless("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n", 0);
  ScanSession session(allow_loopback, o);
  auto started = std::chrono::steady_clock::now();
  auto r = session.fetch(get(endless.url("/stream")));
  auto took = std::chrono::steady_clock::now() - started;
  BOOST_TEST(r.kind == CheckError::TooLarge);
  BOOST_TEST(r.error.find(std::to_string(o.max_body)) != std::string::npos, r.error);
  BOOST_TEST(r.status == 200);
  BOOST_TEST(r.body.size() <= o.max_body);
  BOOST_TEST((took < o.request_timeout));
  // It hung up after about the cap: what the server got out is the cap plus what the loopback
  // socket buffers held, not the stream.
  auto sent = endless.sent_when_done(std::chrono::seconds(5));
  BOOST_TEST(endless.done());
  BOOST_TEST(sent >= o.max_body);
  BOOST_TEST(sent < o.max_body + std::uint64_t{32} * 1024 * 1024, sent);
}

BOOST_AUTO_TEST_CASE(a_declared_gigabyte_stops_at_the_default_cap_too) {
  ScanOptions o;
  o.per_host_interval = std::chrono::milliseconds(0);
  const std::uint64_t gib = std::uint64_t{1} << 30;
  StreamingServer big(
      "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: " + std::to_string(gib) + "\r\n\r\n", gib);
  ScanSession session(allow_loopback, o);
  auto started = std::chrono::steady_clock::now();
  auto r = session.fetch(get(big.url("/dump.html")));
  BOOST_TEST(r.kind == CheckError::TooLarge);
  BOOST_TEST(r.body.size() <= o.max_body);
  BOOST_TEST((std::chrono::steady_clock::now() - started < o.request_timeout));
  auto sent = big.sent_when_done(std::chrono::seconds(5));
  BOOST_TEST(sent < o.max_body + std::uint64_t{32} * 1024 * 1024, sent);
}

BOOST_AUTO_TEST_CASE(a_target_that_accepts_and_never_answers_is_a_timeout_with_a_clear_error) {
  // The kernel completes the handshake into the backlog and nobody ever reads the request.
  dozor::test::LoopbackListener silent(true);
  auto o = quick();
  o.request_timeout = std::chrono::milliseconds(300);
  ScanSession session(allow_loopback, o);
  auto started = std::chrono::steady_clock::now();
  auto r = session.fetch(get("http://127.0.0.1:" + std::to_string(silent.port) + "/"));
  auto took = std::chrono::steady_clock::now() - started;
  BOOST_TEST(r.kind == CheckError::Timeout);
  BOOST_TEST(r.error == "timed out after 300 ms");
  BOOST_TEST(!r.responded);
  BOOST_TEST((took >= std::chrono::milliseconds(250)));
  BOOST_TEST((took < std::chrono::seconds(2)));
}

BOOST_AUTO_TEST_CASE(a_redirect_loop_stops_with_a_clear_error) {
  LocalHttp s({{"/a", LocalHttp::fixed("HTTP/1.0 302 Found\r\nLocation: /b\r\nContent-Length: 0\r\n\r\n")},
               {"/b", LocalHttp::fixed("HTTP/1.0 302 Found\r\nLocation: /a\r\nContent-Length: 0\r\n\r\n")}});
  ScanSession session(allow_loopback, quick());
  auto r = session.fetch(get(s.url("/a")));
  BOOST_TEST(r.kind == CheckError::TooManyRedirects);
  BOOST_TEST(r.exchanges.size() == 6u);  // the first request and five redirects, each recorded
  FetchRequest no_follow = get(s.url("/a"));
  no_follow.max_redirects = 0;
  auto once = session.fetch(no_follow);
  BOOST_TEST(once.kind == CheckError::TooManyRedirects);
  BOOST_TEST(once.exchanges.size() == 1u);
}

BOOST_AUTO_TEST_CASE(a_target_that_never_answers_times_out) {
  LocalHttp s({{"/slow", [](const std::string&) {
                  std::this_thread::sleep_for(std::chrono::seconds(3));
                  return LocalHttp::answer(200, "", "late");
                }}});
  auto o = quick();
  o.request_timeout = std::chrono::milliseconds(300);
  ScanSession session(allow_loopback, o);
  auto started = std::chrono::steady_clock::now();
  auto r = session.fetch(get(s.url("/slow")));
  BOOST_TEST(r.kind == CheckError::Timeout);
  BOOST_TEST((std::chrono::steady_clock::now() - started < std::chrono::seconds(2)));
}

BOOST_AUTO_TEST_CASE(a_cancelled_session_stops_like_at_its_deadline) {
  std::atomic<int> served{0};
  LocalHttp s({{"/slow", [&](const std::string&) {
                  ++served;
                  std::this_thread::sleep_for(std::chrono::milliseconds(500));
                  return LocalHttp::answer(200, "", "late");
                }}});
  auto o = quick();
  o.per_host_concurrency = 1;
  ScanSession session(allow_loopback, o);
  int done = 0;
  for (int i = 0; i < 5; ++i) session.submit(get(s.url("/slow")), [&](CheckOutcome) { ++done; });
  std::thread canceller([&] {
    while (served.load() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    o.cancel.cancel();  // the session holds a copy of the options: copies share the flag
  });
  bool finished = session.run(std::chrono::steady_clock::now() + std::chrono::seconds(30));
  canceller.join();
  BOOST_TEST(!finished);
  BOOST_TEST(done == 0);          // the request in flight ends into nothing
  BOOST_TEST(served.load() < 5);  // the queued ones never start
}

BOOST_AUTO_TEST_CASE(cookies_are_kept_per_session) {
  LocalHttp s({{"/set", LocalHttp::fixed(LocalHttp::answer(200, "Set-Cookie: sid=abc; Path=/\r\n", "ok"))},
               {"/echo", [](const std::string& head) { return LocalHttp::answer(200, "", head); }}});
  ScanSession one(allow_loopback, quick());
  one.fetch(get(s.url("/set")));
  auto echoed = one.fetch(get(s.url("/echo")));
  BOOST_TEST(echoed.body.find("Cookie: sid=abc") != std::string::npos);
  BOOST_TEST(first_header(echoed.exchanges.at(0).request_headers, "cookie").value_or("") == "sid=abc");
  BOOST_TEST(one.cookies().size() == 1u);
  ScanSession other(allow_loopback, quick());  // another scan: another jar
  auto fresh = other.fetch(get(s.url("/echo")));
  BOOST_TEST(fresh.body.find("Cookie:") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(per_host_concurrency_is_bounded) {
  LocalHttp s({}, [](const std::string&) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    return LocalHttp::answer(200, "", "ok");
  });
  auto o = quick();
  o.per_host_concurrency = 3;
  ScanSession session(allow_loopback, o);
  int done = 0;
  for (int i = 0; i < 12; ++i)
    session.submit(get(s.url("/p" + std::to_string(i))), [&](CheckOutcome r) {
      BOOST_TEST(r.status == 200);
      ++done;
    });
  BOOST_TEST(session.run(std::chrono::steady_clock::now() + std::chrono::seconds(10)));
  BOOST_TEST(done == 12);
  BOOST_TEST(s.peak() <= 3);
  BOOST_TEST(s.peak() >= 2);  // and they do run side by side
}

BOOST_AUTO_TEST_CASE(the_rate_limit_spaces_request_starts) {
  LocalHttp s({}, [](const std::string&) { return LocalHttp::answer(200, "", "ok"); });
  auto o = quick();
  o.per_host_interval = std::chrono::milliseconds(50);
  ScanSession session(allow_loopback, o);
  int done = 0;
  for (int i = 0; i < 6; ++i) session.submit(get(s.url("/r" + std::to_string(i))), [&](CheckOutcome) { ++done; });
  auto started = std::chrono::steady_clock::now();
  BOOST_TEST(session.run(started + std::chrono::seconds(10)));
  BOOST_TEST(done == 6);
  BOOST_TEST((std::chrono::steady_clock::now() - started >= std::chrono::milliseconds(250)));  // 5 gaps of 50 ms
}

BOOST_AUTO_TEST_CASE(the_gap_keeps_a_schedule_when_the_loop_wakes_late) {
  using ms = std::chrono::milliseconds;
  using T = std::chrono::steady_clock::time_point;
  const T t0 = T{} + std::chrono::hours(1);
  const ms gap(10);
  BOOST_TEST((next_start_slot(T{}, t0, gap) == t0 + gap));                      // the first start
  BOOST_TEST((next_start_slot(t0 + ms(10), t0 + ms(13), gap) == t0 + ms(20)));  // 3 ms late: due time kept
  BOOST_TEST((next_start_slot(t0 + ms(10), t0 + ms(19), gap) == t0 + ms(20)));  // 9 ms late: still kept
  BOOST_TEST((next_start_slot(t0 + ms(10), t0 + ms(20), gap) == t0 + ms(30)));  // a whole gap late: from now
  BOOST_TEST((next_start_slot(t0 + ms(10), t0 + ms(45), gap) == t0 + ms(55)));  // long idle: no burst
  // A loop that always wakes 3 ms after the due time starts 100 requests in 100 gaps, not 130.
  T slot{}, now = t0;
  for (int i = 0; i < 100; ++i) {
    slot = next_start_slot(slot, now, gap);
    now = slot + ms(3);
  }
  BOOST_TEST((slot == t0 + 100 * gap));
  // And never two starts less than a gap apart when the loop is on time.
  BOOST_TEST((next_start_slot(t0 + ms(10), t0 + ms(10), gap) - (t0 + ms(10)) == gap));
}

BOOST_AUTO_TEST_CASE(the_deadline_abandons_what_is_left) {
  LocalHttp s({}, [](const std::string&) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    return LocalHttp::answer(200, "", "ok");
  });
  ScanSession session(allow_loopback, quick());
  int done = 0;
  for (int i = 0; i < 4; ++i) session.submit(get(s.url("/d" + std::to_string(i))), [&](CheckOutcome) { ++done; });
  BOOST_TEST(!session.run(std::chrono::steady_clock::now() + std::chrono::milliseconds(100)));
  BOOST_TEST(done == 0);
  BOOST_TEST(session.run(std::chrono::steady_clock::now() + std::chrono::seconds(1)));  // nothing left
  BOOST_TEST(done == 0);
}

BOOST_AUTO_TEST_CASE(the_egress_policy_holds_for_every_request) {
  LocalHttp s({{"/x", LocalHttp::fixed(LocalHttp::answer(200, "", "ok"))}});
  ScanSession session(public_only, quick());
  auto r = session.fetch(get(s.url("/x")));
  BOOST_TEST(r.kind == CheckError::Unreachable);
  BOOST_TEST(s.heads().empty());
}

BOOST_AUTO_TEST_CASE(origins_are_scheme_host_and_port) {
  BOOST_TEST(origin_of("HTTPS://Example.com/a?b") == "https://example.com:443");
  BOOST_TEST(origin_of("http://example.com:8080/") == "http://example.com:8080");
  BOOST_TEST(origin_of("http://example.com") == "http://example.com:80");
}

BOOST_AUTO_TEST_CASE(a_scope_keeps_requests_and_redirects_on_the_origins_it_admits) {
  LocalHttp b({{"/payload", LocalHttp::fixed(LocalHttp::answer(200, "", "b"))}});
  LocalHttp a({{"/", LocalHttp::fixed("HTTP/1.0 302 Found\r\nLocation: " + b.url("/payload?q=%27") +
                                      "\r\nContent-Length: 0\r\n\r\n")}});
  auto o = quick();
  std::vector<std::string> asked;
  o.scope = [&](const std::string& origin) {
    asked.push_back(origin);
    return origin == origin_of(a.url("/"));
  };
  ScanSession session(allow_loopback, o);
  auto r = session.fetch(get(a.url("/")));
  BOOST_TEST(r.kind == CheckError::OutOfScope);
  BOOST_TEST(r.status == 302);  // A answered; its redirect was not followed
  BOOST_TEST(r.out_of_scope_url == b.url("/payload?q=%27"));
  BOOST_TEST(r.exchanges.size() == 1u);
  auto direct = session.fetch(get(b.url("/payload")));
  BOOST_TEST(direct.kind == CheckError::OutOfScope);
  BOOST_TEST(!direct.responded);
  BOOST_TEST(b.heads().empty(), "B received a request");
  BOOST_TEST(a.heads().size() == 1u);
  BOOST_TEST(session.started() == 1u);
  BOOST_TEST(std::string(to_string(CheckError::OutOfScope)) == "out_of_scope");
  BOOST_TEST((asked == std::vector<std::string>{origin_of(a.url("/")), origin_of(b.url("/")), origin_of(b.url("/"))}));
}

BOOST_AUTO_TEST_CASE(an_admitted_redirect_is_followed_and_refusals_answer_from_run) {
  LocalHttp b({{"/", LocalHttp::fixed(LocalHttp::answer(200, "", "b"))}});
  LocalHttp a(
      {{"/", LocalHttp::fixed("HTTP/1.0 302 Found\r\nLocation: " + b.url("/") + "\r\nContent-Length: 0\r\n\r\n")}});
  auto o = quick();
  o.scope = [](const std::string&) { return true; };
  ScanSession session(allow_loopback, o);
  BOOST_TEST(session.fetch(get(a.url("/"))).status == 200);
  BOOST_TEST(b.heads().size() == 1u);
  // A refusal's callback runs from run(), and may submit more.
  auto none = quick();
  none.scope = [](const std::string&) { return false; };
  ScanSession refusing(allow_loopback, none);
  int answered = 0;
  refusing.submit(get(a.url("/")), [&](CheckOutcome r) {
    ++answered;
    BOOST_TEST(r.kind == CheckError::OutOfScope);
    if (answered == 1) refusing.submit(get(b.url("/")), [&](CheckOutcome) { ++answered; });
  });
  BOOST_TEST(answered == 0);
  BOOST_TEST(refusing.run(std::chrono::steady_clock::now() + std::chrono::seconds(1)));
  BOOST_TEST(answered == 2);
  BOOST_TEST(a.heads().size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
