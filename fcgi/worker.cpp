#include "fcgi/worker.hpp"

#include <fcgiapp.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdint>
#include <iostream>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "engines/health/scoreboard.hpp"
#include "fcgi/fcgi_io.hpp"
#include "fcgi/nginx_proof.hpp"
#include "fcgi/test_hooks.hpp"

namespace dozor::fcgi {
namespace {

std::atomic<bool> g_stop{false};
std::atomic<long long> g_served{0};
// Readable once the worker stops (never read, so it stays readable): every thread polls it
// beside its socket, so a stop wakes all of them at once.
int g_stop_fd = -1;
// This worker's slot on the master's scoreboard (empty outside dozor-fcgi's pool).
health::Scoreboard::Slot g_slot;

// After a stop, a kept connection is closed only once it has been idle this long: nginx reuses
// its most recent connections first, so one idle this long is not about to carry a request.
// Closing a busy one would race nginx's next request, which nginx does not retry for a POST.
constexpr int kIdleCloseMs = 1000;
// An unread streamed body at most this long is read away after its answer instead of closing
// the connection (a refused small upload).
constexpr long long kDiscardBodyBytes = 64LL * 1024;
int g_drain_ms = 0;
// Steady-clock milliseconds from which busy kept connections close too (after their answer).
std::atomic<std::int64_t> g_drain_deadline_ms{INT64_MAX};

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::mutex g_done_mutex;
std::condition_variable g_done_cv;
int g_running = 0;

void request_stop() {
  if (g_stop.load()) return;
  g_drain_deadline_ms.store(now_ms() + g_drain_ms);
  g_stop.store(true);
  std::uint64_t one = 1;
  [[maybe_unused]] auto n = write(g_stop_fd, &one, sizeof one);
}

// Waits until `fd` is readable; false when the worker stops first.
bool wait_readable(int fd) {
  pollfd p[2] = {{fd, POLLIN, 0}, {g_stop_fd, POLLIN, 0}};
  while (true) {
    int rc = poll(p, 2, -1);
    if (rc < 0 && errno == EINTR) continue;
    // The stop first: a thread woken by it may find a new connection waiting too by the time
    // it runs, and a stopping worker must not take it.
    if (rc < 0 || p[1].revents != 0) return false;
    if (p[0].revents != 0) return true;  // data, or the peer closed: either way FastCGI reads it
  }
}

// On a kept connection: true when nginx sends another request in time to be served.
bool next_request_arrives(int fd) {
  if (!g_stop.load() && wait_readable(fd)) return true;
  if (now_ms() >= g_drain_deadline_ms.load()) return false;
  pollfd p{fd, POLLIN, 0};
  int rc;
  do rc = poll(&p, 1, kIdleCloseMs);
  while (rc < 0 && errno == EINTR);
  return rc > 0;
}

// A new connection on the shared, non-blocking listening socket; -1 when stopping.
int accept_connection(int listen_fd) {
  // A stopping worker takes no new connection, even one that is already waiting: the other
  // workers and this one's replacement share the listening socket.
  while (!g_stop.load() && wait_readable(listen_fd)) {
    int fd = accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd >= 0) return fd;  // another worker may have won the race: EAGAIN, wait again
  }
  return -1;
}

http::Response answer(FCGX_Request& req, const WorkerLimits& limits, const RequestHandler& handle) {
  http::Request in;
  std::optional<FcgiBodyStream> stream;
  switch (read_request(req, limits.max_body, in, limits.stream_body, &stream)) {
    case ReadStatus::Ok: {
      // Only nginx may speak here: a request without its key is refused before any handler
      // reads REMOTE_ADDR or a DOZOR_* parameter (nginx_proof.hpp).
      if (!limits.nginx_key.empty()) {
        auto proof = check_nginx_proof(in, limits.nginx_key);
        if (proof != NginxProof::Valid) {
          std::cerr << "worker " << getpid() << ": refused a request on the socket "
                    << (proof == NginxProof::Missing ? "without" : "with a wrong") << " nginx key\n";
          close_after_answer(req);
          return http::Response::error(403, "Forbidden: only nginx may send requests to this socket");
        }
      }
      http::Response out = handle(in);
      // The unread rest is not a request: a small one is read away (nginx may reuse the
      // connection the instant it has the answer, and a POST it sends on a closed one is a 502),
      // a large one closes the connection.
      if (stream && !stream->fully_read() && !stream->discard_rest(kDiscardBodyBytes)) close_after_answer(req);
      return out;
    }
    case ReadStatus::BadRequest: close_after_answer(req); return http::Response::error(400, "Bad request");
    case ReadStatus::TooLarge:
      close_after_answer(req);  // the unread body must not be taken for the next request
      return http::Response::error(413, "Request body too large");
  }
  return http::Response::error(500, "Internal server error");
}

void serve(int listen_fd, const WorkerLimits& limits, const RequestHandler& handle) {
  FCGX_Request req;
  // listen_sock -1: when a kept connection ends, FCGX_Accept_r returns instead of accepting
  // by itself, so the next accept comes back through accept_connection (which can stop).
  FCGX_InitRequest(&req, -1, 0);
  // The libfcgi internals used here are listed, and tested, in fcgi_io.hpp.
  while (true) {
    if (int kept = kept_connection(req); kept >= 0) {
      // A kept connection: wait for nginx's next request, or for a stop while idle — the
      // moment to close it, since no request is half-read then.
      if (!next_request_arrives(kept)) break;
    } else {
      int fd = accept_connection(listen_fd);
      if (fd < 0) break;
      adopt_connection(req, fd);
    }
    if (FCGX_Accept_r(&req) < 0) {
      // The peer closed (libfcgi closed the fd already); should any other failure leave the
      // connection open, FCGX_Free closes it rather than polling a broken one again.
      FCGX_Free(&req, 1);
      continue;
    }
    // Counted when taken, not when answered: the last request's stop is asked for before its
    // answer leaves, so the client's next request cannot reach this worker's other threads.
    long long taken = g_served.fetch_add(1) + 1;
    if (limits.max_requests > 0 && taken >= limits.max_requests) {
      g_slot.recycling();
      request_stop();
    }
    {
      health::BusyRequest busy(g_slot);
      http::Response out = answer(req, limits, handle);
      write_response(req, out);
    }
    if (g_stop.load() && now_ms() >= g_drain_deadline_ms.load()) close_after_answer(req);
    FCGX_Finish_r(&req);
  }
  if (int kept = kept_connection(req); kept >= 0) close(kept);
  std::lock_guard lock(g_done_mutex);
  --g_running;
  g_done_cv.notify_all();
}

}  // namespace

int run_worker(int listen_fd, const WorkerLimits& limits, const RequestHandler& handle) {
  FCGX_Init();
  g_stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (g_stop_fd < 0) throw std::runtime_error("eventfd failed");
  // SIGTERM is taken synchronously by this thread; the serving threads never see it.
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  if (auto* board = health::Scoreboard::process()) g_slot = board->slot_of(getpid());  // claimed by the master
  g_running = limits.threads;
  g_drain_ms = limits.shutdown_timeout * 500;
  for (int i = 0; i < limits.threads; ++i) std::thread(serve, listen_fd, std::cref(limits), std::cref(handle)).detach();

  while (!g_stop.load()) {
    timespec tick{0, 200'000'000};
    int sig = sigtimedwait(&set, nullptr, &tick);
    if ((sig == SIGTERM || sig == SIGINT) && test_hooks::worker_ignores_sigterm()) {
      std::cerr << "worker " << getpid() << ": ignoring signal " << sig << " (DOZOR_TEST_WORKER_IGNORES_SIGTERM)\n";
      continue;
    }
    if (sig == SIGTERM || sig == SIGINT) request_stop();
  }
  // Graceful end: no new connections; requests in progress finish; kept connections close once
  // idle, or after their next answer from the drain deadline (half the shutdown budget) on.
  std::unique_lock lock(g_done_mutex);
  bool all_done =
      g_done_cv.wait_for(lock, std::chrono::seconds(limits.shutdown_timeout), [] { return g_running == 0; });
  if (!all_done) std::cerr << "worker " << getpid() << ": shutdown timeout with " << g_running << " threads busy\n";
  std::cerr.flush();
  _exit(0);  // the process ends here: no thread outlives it with half-destroyed state
}

}  // namespace dozor::fcgi
