#include "engines/net/multi_fetch.hpp"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <functional>
#include <map>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "tests/unit/support/local_http.hpp"

using namespace dozor::net;

namespace dozor::net {
std::ostream& operator<<(std::ostream& os, CheckError e) { return os << to_string(e); }
}  // namespace dozor::net

namespace {

// A loopback HTTP/1.0 server for the tests: `routes` maps a path to a raw answer; each request's
// head is recorded. One thread, one connection at a time.
class LocalServer {
 public:
  explicit LocalServer(std::map<std::string, std::string> routes) : routes_(std::move(routes)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    BOOST_REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    BOOST_REQUIRE(::listen(fd_, 16) == 0);
    socklen_t len = sizeof a;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~LocalServer() {
    stop_ = true;
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    thread_.join();
  }
  std::string url(const std::string& path) const { return "http://127.0.0.1:" + std::to_string(port_) + path; }
  int port() const { return port_; }
  std::vector<std::string> heads() {
    std::lock_guard l(mutex_);
    return heads_;
  }

 private:
  void serve() {
    while (!stop_) {
      int c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (c < 0) return;
      std::string head = dozor::test::read_http_head(c);
      {
        std::lock_guard l(mutex_);
        heads_.push_back(head);
      }
      auto sp1 = head.find(' ');
      auto sp2 = head.find(' ', sp1 + 1);
      std::string path = sp1 == std::string::npos ? "" : head.substr(sp1 + 1, sp2 - sp1 - 1);
      auto it = routes_.find(path);
      std::string answer = it != routes_.end() ? it->second : "HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n";
      (void)!::write(c, answer.data(), answer.size());
      ::close(c);
    }
  }

  std::map<std::string, std::string> routes_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::vector<std::string> heads_;
  std::thread thread_;
};

const std::string kOk = "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok";

CheckRequest req(const std::string& url) {
  CheckRequest r;
  r.url = url;
  r.timeout = std::chrono::seconds(5);
  return r;
}

struct CurlInit {
  CurlInit() { global_init(); }
};
BOOST_GLOBAL_FIXTURE(CurlInit);

}  // namespace

BOOST_AUTO_TEST_SUITE(multi_fetch)

BOOST_AUTO_TEST_CASE(checks_an_answer_with_its_phases) {
  LocalServer s({{"/ok", kOk}});
  EgressPolicy allow_loopback(true);
  auto r = check_once(req(s.url("/ok")), allow_loopback);
  BOOST_TEST(r.responded);
  BOOST_TEST(r.status == 200);
  BOOST_TEST(r.error.empty());
  BOOST_TEST(r.connect_ms.has_value());
}

BOOST_AUTO_TEST_CASE(every_connect_passes_the_egress_policy_whatever_the_name) {
  LocalServer s({{"/ok", kOk}});
  EgressPolicy public_only(false);
  // An IP literal and a name that resolves to loopback: both refused at the socket, same text.
  for (std::string host : {"127.0.0.1", "localhost"}) {
    auto r = check_once(req("http://" + host + ":" + std::to_string(s.port()) + "/ok"), public_only);
    BOOST_TEST(!r.responded);
    BOOST_TEST(r.error == kUnreachable);
  }
  BOOST_TEST(s.heads().empty());  // nothing ever connected
}

BOOST_AUTO_TEST_CASE(environment_proxies_are_never_used) {
  LocalServer s({{"/ok", kOk}});
  EgressPolicy allow_loopback(true);
  // A proxy that does not exist: a client honouring it would fail.
  for (const char* var : {"http_proxy", "HTTP_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"})
    ::setenv(var, "http://127.0.0.1:1", 1);
  ::unsetenv("no_proxy");
  ::unsetenv("NO_PROXY");
  auto r = check_once(req(s.url("/ok")), allow_loopback);
  for (const char* var : {"http_proxy", "HTTP_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"}) ::unsetenv(var);
  BOOST_TEST(r.responded);
  BOOST_TEST(r.status == 200);
  BOOST_TEST(s.heads().size() == 1u);
}

BOOST_AUTO_TEST_CASE(redirects_drop_credentials_and_carry_their_own_host) {
  LocalServer target({{"/b", kOk}});
  LocalServer first({{"/a", "HTTP/1.0 302 Found\r\nLocation: http://user:secret@localhost:" +
                                std::to_string(target.port()) + "/b\r\nContent-Length: 0\r\n\r\n"}});
  EgressPolicy allow_loopback(true);
  auto r = check_once(req(first.url("/a")), allow_loopback);
  BOOST_TEST(r.status == 200);
  auto heads = target.heads();
  BOOST_REQUIRE(heads.size() == 1u);
  BOOST_TEST(heads[0].find("Authorization") == std::string::npos);
  BOOST_TEST(heads[0].find("Host: localhost:" + std::to_string(target.port())) != std::string::npos);
}

BOOST_AUTO_TEST_CASE(redirect_chains_stop_at_the_bound) {
  std::map<std::string, std::string> routes;
  for (int i = 0; i < 8; ++i)
    routes["/r" + std::to_string(i)] =
        "HTTP/1.0 302 Found\r\nLocation: /r" + std::to_string(i + 1) + "\r\nContent-Length: 0\r\n\r\n";
  LocalServer s(routes);
  EgressPolicy allow_loopback(true);
  auto r = check_once(req(s.url("/r0")), allow_loopback);
  BOOST_TEST(r.status == 302);
  BOOST_TEST(r.error.find("redirects") != std::string::npos);
  BOOST_TEST(s.heads().size() == 6u);  // the first request and five redirects
}

BOOST_AUTO_TEST_CASE(remote_bytes_in_errors_become_valid_utf8) {
  std::map<std::string, std::string> routes{
      {"/bad", "HTTP/1.0 302 Found\r\nLocation: ftp://\xff\xfe/x\r\nContent-Length: 0\r\n\r\n"}};
  LocalServer s(routes);
  EgressPolicy allow_loopback(true);
  auto r = check_once(req(s.url("/bad")), allow_loopback);
  BOOST_TEST(!r.error.empty());
  BOOST_TEST(r.error.find("\xEF\xBF\xBD") != std::string::npos);  // U+FFFD where the bytes were
}

BOOST_AUTO_TEST_CASE(many_checks_run_at_once_on_one_thread) {
  LocalServer s({{"/ok", kOk}});
  EgressPolicy allow_loopback(true);
  MultiFetcher f(allow_loopback);
  int done = 0;
  for (int i = 0; i < 20; ++i) f.start(req(s.url("/ok")), [&](CheckOutcome o) { done += o.status == 200; });
  BOOST_TEST(f.in_flight() == 20u);
  for (int i = 0; i < 200 && f.in_flight() > 0; ++i) f.run(std::chrono::milliseconds(50));
  BOOST_TEST(done == 20);
}

BOOST_AUTO_TEST_CASE(an_explicit_proxy_is_used_even_for_hosts_no_proxy_names) {
  // An HTTP proxy receives the absolute URL; the target name is never resolved here.
  LocalServer proxy({{"http://target.invalid/x", kOk}});
  EgressPolicy allow_loopback(true);
  ::setenv("no_proxy", "target.invalid", 1);
  auto r = check_once(
      [&] {
        auto q = req("http://target.invalid/x");
        q.proxy = "http://127.0.0.1:" + std::to_string(proxy.port());
        return q;
      }(),
      allow_loopback);
  ::unsetenv("no_proxy");
  BOOST_TEST(r.status == 200);
  BOOST_TEST(r.kind == CheckError::None);
  auto heads = proxy.heads();
  BOOST_REQUIRE(heads.size() == 1u);
  BOOST_TEST(heads[0].rfind("GET http://target.invalid/x ", 0) == 0);
}

BOOST_AUTO_TEST_CASE(the_proxy_itself_passes_the_egress_policy) {
  LocalServer proxy({{"http://target.invalid/x", kOk}});
  EgressPolicy public_only(false);
  auto q = req("http://target.invalid/x");
  q.proxy = "http://127.0.0.1:" + std::to_string(proxy.port());
  auto r = check_once(q, public_only);
  BOOST_TEST(r.kind == CheckError::Unreachable);
  BOOST_TEST(r.error == kUnreachable);
  BOOST_TEST(proxy.heads().empty());
}

BOOST_AUTO_TEST_CASE(an_unsupported_proxy_scheme_is_refused_before_any_connect) {
  LocalServer s({{"/ok", kOk}});
  EgressPolicy allow_loopback(true);
  for (const std::string& proxy :
       std::vector<std::string>{"ftp://127.0.0.1:1", "127.0.0.1:" + std::to_string(s.port()), "socks5://"}) {
    auto q = req(s.url("/ok"));
    q.proxy = proxy;
    auto r = check_once(q, allow_loopback);
    BOOST_TEST(r.kind == CheckError::BadProxy, proxy);
    BOOST_TEST(!r.responded);
  }
  BOOST_TEST(s.heads().empty());
}

BOOST_AUTO_TEST_CASE(failures_carry_a_kind_for_code_and_a_text_for_people) {
  EgressPolicy allow_loopback(true);
  EgressPolicy public_only(false);
  auto unknown = check_once(req("http://no-such-host.invalid/"), public_only);
  auto refused = check_once(req("http://127.0.0.1:1/"), public_only);
  BOOST_TEST(unknown.kind == CheckError::Unreachable);
  BOOST_TEST(refused.kind == CheckError::Unreachable);
  BOOST_TEST(unknown.error == refused.error);  // no probing of internal names through errors

  int closed = 0;
  {
    LocalServer gone({});
    closed = gone.port();
  }
  auto connect = check_once(req("http://127.0.0.1:" + std::to_string(closed) + "/"), allow_loopback);
  BOOST_TEST(connect.kind == CheckError::Connect);
  BOOST_TEST(!connect.error.empty());

  std::map<std::string, std::string> routes;
  for (int i = 0; i < 8; ++i)
    routes["/r" + std::to_string(i)] =
        "HTTP/1.0 302 Found\r\nLocation: /r" + std::to_string(i + 1) + "\r\nContent-Length: 0\r\n\r\n";
  routes["/ftp"] = "HTTP/1.0 302 Found\r\nLocation: ftp://127.0.0.1/x\r\nContent-Length: 0\r\n\r\n";
  LocalServer s(routes);
  BOOST_TEST(check_once(req(s.url("/r0")), allow_loopback).kind == CheckError::TooManyRedirects);
  BOOST_TEST(check_once(req(s.url("/ftp")), allow_loopback).kind == CheckError::BadRedirect);
  BOOST_TEST(std::string(to_string(CheckError::Tls)) == "tls");
}

BOOST_AUTO_TEST_SUITE_END()
