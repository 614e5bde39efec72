#include "fcgi/worker.hpp"

#include <fcgiapp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <iostream>
#include <thread>
#include <vector>

#include "fcgi/fcgi_io.hpp"

namespace dozor::fcgi {
namespace {

std::atomic<bool> g_stop{false};
std::atomic<long long> g_served{0};
std::atomic<int> g_in_flight{0};

// Waits for a new connection on the shared (non-blocking) listening socket; -1 when stopping.
int accept_connection(int listen_fd) {
  while (!g_stop.load()) {
    pollfd p{listen_fd, POLLIN, 0};
    int rc = poll(&p, 1, 200);  // wake now and then to notice a stop
    if (rc <= 0) continue;
    int fd = accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd >= 0) return fd;  // another worker may have won the race: EAGAIN, poll again
  }
  return -1;
}

void serve(int listen_fd, const WorkerLimits& limits, const RequestHandler& handle) {
  FCGX_Request req;
  // listen_sock -1: when a kept connection ends, FCGX_Accept_r returns instead of accepting
  // by itself, so the next accept comes back through accept_connection (which can stop).
  FCGX_InitRequest(&req, -1, 0);
  while (!g_stop.load()) {
    if (req.ipcFd < 0) {
      int fd = accept_connection(listen_fd);
      if (fd < 0) break;
      req.ipcFd = fd;
      // FCGX_Accept_r begins by finishing the previous request and closes the connection
      // unless it was kept: mark the fresh one as kept so it survives until it is read.
      req.keepConnection = 1;
    }
    if (FCGX_Accept_r(&req) < 0) {
      req.ipcFd = -1;
      continue;
    }
    g_in_flight.fetch_add(1);
    http::Request in;
    http::Response out;
    switch (read_request(req, limits.max_body, in)) {
      case ReadStatus::Ok: out = handle(in); break;
      case ReadStatus::BadRequest:
        out = http::Response::error(400, "Bad request");
        req.keepConnection = 0;
        break;
      case ReadStatus::TooLarge:
        out = http::Response::error(413, "Request body too large");
        req.keepConnection = 0;  // the unread body must not be taken for the next request
        break;
    }
    write_response(req, out);
    long long served = g_served.fetch_add(1) + 1;
    if (limits.max_requests > 0 && served >= limits.max_requests) g_stop.store(true);
    if (g_stop.load()) req.keepConnection = 0;
    FCGX_Finish_r(&req);
    g_in_flight.fetch_sub(1);
  }
  if (req.ipcFd >= 0) close(req.ipcFd);
}

}  // namespace

int run_worker(int listen_fd, const WorkerLimits& limits, const RequestHandler& handle) {
  FCGX_Init();
  // SIGTERM is taken synchronously by this thread; the serving threads never see it.
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  std::vector<std::thread> threads;
  for (int i = 0; i < limits.threads; ++i) threads.emplace_back(serve, listen_fd, std::cref(limits), std::cref(handle));

  while (!g_stop.load()) {
    timespec tick{0, 200'000'000};
    int sig = sigtimedwait(&set, nullptr, &tick);
    if (sig == SIGTERM || sig == SIGINT) g_stop.store(true);
  }
  // Graceful end: in-flight requests finish (bounded); threads idle on a kept connection are
  // not waited for — nginx retries a request that meets a closed cached connection.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(limits.shutdown_timeout);
  int quiet_rounds = 0;
  while (std::chrono::steady_clock::now() < deadline && quiet_rounds < 3) {
    quiet_rounds = g_in_flight.load() == 0 ? quiet_rounds + 1 : 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (g_in_flight.load() > 0) std::cerr << "worker " << getpid() << ": shutdown timeout with requests in flight\n";
  std::cerr.flush();
  _exit(0);  // threads blocked in reads are ended with the process
}

}  // namespace dozor::fcgi
