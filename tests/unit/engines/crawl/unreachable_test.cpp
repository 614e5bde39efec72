#include "engines/crawl/unreachable.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <string>
#include <thread>

#include "tests/unit/support/local_http.hpp"

using namespace dozor::crawl;
using dozor::test::LocalHttp;

namespace {

const dozor::net::EgressPolicy allow_loopback(true);

CrawlOptions quick() {
  CrawlOptions o;
  o.scan.request_timeout = std::chrono::seconds(3);
  o.scan.per_host_interval = std::chrono::milliseconds(0);
  o.time_budget = std::chrono::seconds(20);
  return o;
}

std::string html(const std::string& body) { return LocalHttp::answer(200, "Content-Type: text/html\r\n", body); }

const PageRecord* page(const CrawlResult& r, const std::string& suffix) {
  for (const auto& p : r.pages)
    if (p.url.size() >= suffix.size() && p.url.compare(p.url.size() - suffix.size(), suffix.size(), suffix) == 0)
      return &p;
  return nullptr;
}

// A loopback port nobody listens on: bound, read, closed.
int closed_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  BOOST_REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(crawl_unreachable)

BOOST_AUTO_TEST_CASE(a_refused_start_page_is_unreachable_with_its_reason) {
  int port = closed_port();
  auto r = crawl("http://127.0.0.1:" + std::to_string(port) + "/", allow_loopback, quick());
  auto why = start_unreachable(r);
  BOOST_TEST_REQUIRE(why.has_value());
  BOOST_TEST(*why == "could not reach 127.0.0.1:" + std::to_string(port) + ": connection refused");
}

BOOST_AUTO_TEST_CASE(a_silent_start_page_is_unreachable_as_timed_out) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);  // listens, never answers
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  BOOST_REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  BOOST_REQUIRE(::listen(fd, 8) == 0);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  auto o = quick();
  o.scan.request_timeout = std::chrono::milliseconds(300);
  auto r = crawl("http://127.0.0.1:" + std::to_string(ntohs(a.sin_port)) + "/", allow_loopback, o);
  ::close(fd);
  auto why = start_unreachable(r);
  BOOST_TEST_REQUIRE(why.has_value());
  BOOST_TEST(why->find(": timed out after 300 ms") != std::string::npos, *why);
}

BOOST_AUTO_TEST_CASE(a_start_page_that_answers_is_reachable_whatever_its_status_or_later_pages) {
  LocalHttp err({}, [](const std::string&) { return LocalHttp::answer(500, "Content-Type: text/html\r\n", "oops"); });
  BOOST_TEST(!start_unreachable(crawl(err.url("/"), allow_loopback, quick())).has_value());
  LocalHttp ok({{"/", LocalHttp::fixed(html("<a href=\"/slow\">s</a>"))}, {"/slow", [](const std::string&) {
                                                                             std::this_thread::sleep_for(
                                                                                 std::chrono::seconds(2));
                                                                             return html("late");
                                                                           }}});
  auto o = quick();
  o.scan.request_timeout = std::chrono::milliseconds(300);
  auto r = crawl(ok.url("/"), allow_loopback, o);
  BOOST_TEST(page(r, "/slow")->error_kind == "timeout");
  BOOST_TEST(!start_unreachable(r).has_value());
}

BOOST_AUTO_TEST_CASE(a_cancelled_crawl_is_not_called_unreachable) {
  CrawlResult r;
  r.stopped = "cancelled";
  PageRecord p;
  p.url = "http://127.0.0.1:9/";
  p.found_via = "target";
  p.error_kind = "timeout";
  r.pages.push_back(p);
  BOOST_TEST(!start_unreachable(r).has_value());
  r.stopped = "time_budget";
  BOOST_TEST(start_unreachable(r).value() == "could not reach 127.0.0.1:9: timed out");
}

BOOST_AUTO_TEST_SUITE_END()
