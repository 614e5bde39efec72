#pragma once
// A loopback HTTP/1.0 server for scanner tests: each connection on its own thread, a handler per
// path returning the raw answer, request heads recorded, the peak of concurrent requests kept.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace dozor::test {

// A request's head, read from `fd` up to its blank line (what a test server needs of it).
inline std::string read_http_head(int fd) {
  std::string head;
  char buf[4096];
  while (head.find("\r\n\r\n") == std::string::npos) {
    auto n = ::read(fd, buf, sizeof buf);
    if (n <= 0) break;
    head.append(buf, static_cast<std::size_t>(n));
  }
  return head;
}

class LocalHttp {
 public:
  using Handler = std::function<std::string(const std::string& head)>;

  explicit LocalHttp(std::map<std::string, Handler> routes, Handler fallback = nullptr)
      : routes_(std::move(routes)), fallback_(std::move(fallback)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    BOOST_REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    BOOST_REQUIRE(::listen(fd_, 64) == 0);
    socklen_t len = sizeof a;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~LocalHttp() {
    stop_ = true;
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    thread_.join();
    std::lock_guard l(mutex_);
    for (auto& t : workers_) t.join();
  }
  std::string url(const std::string& path) const { return "http://127.0.0.1:" + std::to_string(port_) + path; }
  int port() const { return port_; }
  std::vector<std::string> heads() {
    std::lock_guard l(mutex_);
    return heads_;
  }
  int peak() const { return peak_; }

  static std::string answer(int status, const std::string& headers, const std::string& body) {
    return "HTTP/1.0 " + std::to_string(status) + " X\r\n" + headers +
           "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  }
  static Handler fixed(std::string raw) {
    return [raw = std::move(raw)](const std::string&) { return raw; };
  }

 private:
  void serve() {
    while (!stop_) {
      int c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (c < 0) return;
      std::lock_guard l(mutex_);
      workers_.emplace_back([this, c] { handle(c); });
    }
  }

  void handle(int c) {
    int now = ++active_;
    int seen = peak_;
    while (now > seen && !peak_.compare_exchange_weak(seen, now)) {
    }
    std::string head = read_http_head(c);
    {
      std::lock_guard l(mutex_);
      heads_.push_back(head);
    }
    auto sp1 = head.find(' ');
    auto sp2 = head.find(' ', sp1 + 1);
    std::string target = sp1 == std::string::npos ? "" : head.substr(sp1 + 1, sp2 - sp1 - 1);
    std::string path = target.substr(0, target.find('?'));
    auto it = routes_.find(path);
    std::string out;
    if (it != routes_.end())
      out = it->second(head);
    else if (fallback_)
      out = fallback_(head);
    else
      out = answer(404, "", "");
    // Done before the answer leaves: a client that has read it may start its next request at once,
    // and counting this one until after send() would see one more "at once" than there ever was.
    --active_;
    std::size_t sent = 0;
    while (sent < out.size() && !stop_) {
      auto n = ::send(c, out.data() + sent, out.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) break;
      sent += static_cast<std::size_t>(n);
    }
    ::close(c);
  }

  std::map<std::string, Handler> routes_;
  Handler fallback_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> active_{0};
  std::atomic<int> peak_{0};
  std::mutex mutex_;
  std::vector<std::string> heads_;
  std::vector<std::thread> workers_;
  std::thread thread_;
};

}  // namespace dozor::test
