#include "fcgi/supervisor.hpp"

#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <iostream>
#include <optional>
#include <stdexcept>

#include "engines/health/scoreboard.hpp"
#include "fcgi/listen_socket.hpp"
#include "fcgi/supervisor_machine.hpp"
#include "fcgi/test_hooks.hpp"

namespace dozor::fcgi {
namespace {

namespace sv = supervision;
using sv::Clock;

std::string errno_text() { return std::strerror(errno); }

int checked(int rc, const char* what) {
  if (rc < 0) throw std::runtime_error(std::string(what) + ": " + errno_text());
  return rc;
}

timespec to_timespec(Clock::duration d) {
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(d).count();
  if (ns <= 0) ns = 1;  // 0 would disarm the timer
  return timespec{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
}

// The master's system side: signals through a signalfd, deadlines through a timerfd, both
// waited on by one epoll_wait, so that a signal, a worker's exit and a due timer are each
// handled the moment they happen.
class Master final : public sv::Effects {
 public:
  Master(const std::function<config::Config()>& load_config, const WorkerMain& worker_main)
      : load_config_(load_config), worker_main_(worker_main), cfg_(load_config()) {
    listen_ = ListenSocket::open(cfg_.server.socket, cfg_.server.socket_mode);
    // Inherited SIG_IGN for SIGCHLD would have the kernel reap the workers unseen.
    std::signal(SIGCHLD, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    for (int s : kSignals) sigaddset(&set, s);
    checked(sigprocmask(SIG_BLOCK, &set, &old_mask_), "sigprocmask");
    signal_fd_ = checked(signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC), "signalfd");
    timer_fd_ = checked(timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC), "timerfd_create");
    epoll_fd_ = checked(epoll_create1(EPOLL_CLOEXEC), "epoll_create1");
    for (int fd : {signal_fd_, timer_fd_}) {
      epoll_event ev{};
      ev.events = EPOLLIN;
      ev.data.fd = fd;
      checked(epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev), "epoll_ctl");
    }
    board_ = health::Scoreboard::create();  // before the first fork: every worker inherits it
    if (board_) board_->master_started(getpid());
    std::uint64_t usec = 0;
    if (sd_watchdog_enabled(0, &usec) > 0 && usec > 0) watchdog_every_ = std::chrono::microseconds(usec / 2);
  }

  ~Master() override {
    for (int fd : {epoll_fd_, timer_fd_, signal_fd_})
      if (fd >= 0) close(fd);
  }

  int run() {
    sv::Machine machine(policy(), *this);
    machine_ = &machine;
    machine.start(Clock::now());
    publish();
    std::cerr << "dozor-fcgi: master " << getpid() << " on " << listen_.path() << " with " << cfg_.server.workers
              << " workers x " << cfg_.server.threads << " threads" << (test_hooks::enabled() ? " (test hooks)" : "")
              << "\n";
    sv::State seen = sv::State::Starting;
    announce(seen, machine.state());
    seen = machine.state();
    auto next_ping = Clock::now();

    while (machine.state() != sv::State::Stopped) {
      auto now = Clock::now();
      if (watchdog_every_ && now >= next_ping) {
        sd_notify(0, "WATCHDOG=1");
        next_ping = now + *watchdog_every_;
      }
      std::optional<Clock::time_point> wake = machine.next_deadline();
      if (watchdog_every_ && (!wake || next_ping < *wake)) wake = next_ping;
      arm_timer(wake);

      epoll_event events[2];
      int n = epoll_wait(epoll_fd_, events, 2, -1);
      if (n < 0 && errno != EINTR) throw std::runtime_error("epoll_wait: " + errno_text());
      drain_timer();
      Pending p = drain_signals();

      now = Clock::now();
      if (p.child) reap(now);
      if (p.stop) begin_stop(now);
      if (p.reload) reload(now);
      machine.tick(now);
      announce(seen, machine.state());
      seen = machine.state();
      publish();
    }
    listen_.close_and_unlink();
    machine_ = nullptr;
    std::cerr << "dozor-fcgi: stopped\n";
    return 0;
  }

  // ---- Effects

  std::optional<pid_t> spawn() override {
    if (test_hooks::take_fork_failure()) {
      std::cerr << "dozor-fcgi: fork failed: " << std::strerror(EAGAIN) << " (injected by DOZOR_TEST_FORK_FAILURES)\n";
      return std::nullopt;
    }
    publish();  // the new worker reads its generation from the board
    pid_t master = getpid();
    pid_t pid = fork();
    if (pid < 0) {
      std::cerr << "dozor-fcgi: fork failed: " << errno_text() << "\n";
      return std::nullopt;
    }
    if (pid == 0) become_worker(master);
    if (board_) board_->claim(pid, cfg_.server.threads);
    return pid;
  }

  void signal(pid_t pid, int sig) override {
    // Only unreaped children are signalled (the machine forgets a pid when it is reaped), so a
    // pid cannot have been reused by another process.
    if (kill(pid, sig) != 0 && errno != ESRCH)
      std::cerr << "dozor-fcgi: kill(" << pid << ", " << sig << "): " << errno_text() << "\n";
  }

  void note(const std::string& line) override { std::cerr << "dozor-fcgi: " << line << "\n"; }

 private:
  static constexpr int kSignals[] = {SIGTERM, SIGINT, SIGQUIT, SIGHUP, SIGCHLD};

  struct Pending {
    bool stop = false;
    bool reload = false;
    bool child = false;
  };

  sv::Policy policy() const { return sv::policy_for(cfg_.server.workers, cfg_.server.shutdown_timeout); }

  static health::PoolState pool_state(sv::State s) {
    switch (s) {
      case sv::State::Starting: return health::PoolState::Starting;
      case sv::State::Running: return health::PoolState::Running;
      case sv::State::Reloading: return health::PoolState::Reloading;
      case sv::State::Stopping: return health::PoolState::Stopping;
      case sv::State::Stopped: return health::PoolState::Stopped;
    }
    return health::PoolState::Stopped;
  }

  // The pool's figures for /monitoring/health.
  void publish() {
    if (board_ && machine_)
      board_->pool_state(pool_state(machine_->state()), machine_->generation(), policy().workers, cfg_.server.threads);
  }

  [[noreturn]] void become_worker(pid_t master) {
    // A worker must not outlive its master (killed with SIGKILL, say): it would keep serving
    // on a socket nobody supervises.
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != master) _exit(0);  // the master died before prctl took effect
    for (int fd : {epoll_fd_, timer_fd_, signal_fd_}) close(fd);
    for (int s : kSignals) std::signal(s, SIG_DFL);
    sigprocmask(SIG_SETMASK, &old_mask_, nullptr);
    int code = 1;
    try {
      code = worker_main_(listen_.fd(), cfg_);
    } catch (const std::exception& e) {
      std::cerr << "dozor-fcgi worker " << getpid() << ": " << e.what() << "\n";
    }
    std::cerr.flush();
    _exit(code);
  }

  void arm_timer(std::optional<Clock::time_point> when) {
    itimerspec spec{};
    if (when) spec.it_value = to_timespec(when->time_since_epoch());  // steady_clock is CLOCK_MONOTONIC
    checked(timerfd_settime(timer_fd_, when ? TFD_TIMER_ABSTIME : 0, &spec, nullptr), "timerfd_settime");
  }

  void drain_timer() {
    std::uint64_t expirations;
    [[maybe_unused]] auto n = read(timer_fd_, &expirations, sizeof expirations);
  }

  Pending drain_signals() {
    Pending p;
    signalfd_siginfo info;
    while (read(signal_fd_, &info, sizeof info) == static_cast<ssize_t>(sizeof info)) {
      switch (static_cast<int>(info.ssi_signo)) {
        case SIGTERM:
        case SIGINT:
        case SIGQUIT: p.stop = true; break;
        case SIGHUP: p.reload = true; break;
        case SIGCHLD: p.child = true; break;
        default: break;
      }
    }
    return p;
  }

  void reap(Clock::time_point now) {
    int status = 0;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
      // scripts/test looks for "killed by signal N" at the end of a line to find crashes.
      if (WIFSIGNALED(status))
        std::cerr << "dozor-fcgi: worker " << pid << " killed by signal " << WTERMSIG(status) << "\n";
      else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
        std::cerr << "dozor-fcgi: worker " << pid << " exited with code " << WEXITSTATUS(status) << "\n";
      auto kind = sv::classify_wait_status(status);
      if (board_) board_->worker_ended(pid, kind != sv::ExitKind::Clean);
      machine_->exited(pid, kind, now);
    }
  }

  void begin_stop(Clock::time_point now) {
    if (machine_->state() == sv::State::Stopping || machine_->state() == sv::State::Stopped) return;
    // New connections fail at once instead of waiting in the backlog of a closing pool.
    listen_.close_and_unlink();
    machine_->stop(now);
  }

  void reload(Clock::time_point now) {
    if (machine_->state() == sv::State::Stopping || machine_->state() == sv::State::Stopped) return;
    config::Config next;
    try {
      next = load_config_();
    } catch (const std::exception& e) {
      std::cerr << "dozor-fcgi: reload refused, keeping the running configuration: " << e.what() << "\n";
      return;
    }
    std::optional<ListenSocket> moved;
    if (next.server.socket != cfg_.server.socket) {
      if (!listen_.bound_here()) {
        std::cerr << "dozor-fcgi: server.socket changed to " << next.server.socket
                  << " but the socket comes from systemd: change the socket unit; keeping " << listen_.path() << "\n";
        next.server.socket = cfg_.server.socket;
      } else {
        // The new socket is bound before the old one goes: if it cannot be, nothing changes.
        try {
          moved = ListenSocket::bind_path(next.server.socket, next.server.socket_mode);
        } catch (const std::exception& e) {
          std::cerr << "dozor-fcgi: reload refused, keeping the running configuration: " << e.what() << "\n";
          return;
        }
      }
    } else if (listen_.bound_here() && next.server.socket_mode != cfg_.server.socket_mode && listen_.path_is_ours()) {
      chmod(listen_.path().c_str(), next.server.socket_mode);
    }
    sd_notify(0, "RELOADING=1");
    reload_announced_ = true;
    cfg_ = next;
    if (moved) {
      std::string old_path = listen_.path();
      // The master's copy is closed before the new generation is forked, so the new workers do
      // not inherit it; the old workers keep theirs until they exit.
      bool removed = listen_.close_and_unlink();
      listen_ = std::move(*moved);
      std::cerr << "dozor-fcgi: socket moved to " << listen_.path() << "; " << old_path
                << (removed ? " removed" : " left alone (no longer ours)") << "\n";
    }
    machine_->reload(policy(), now);
  }

  // systemd's view: READY=1 when the pool is whole (at start and after each reload), STOPPING=1.
  void announce(sv::State before, sv::State after) {
    if (after == sv::State::Running && (before != sv::State::Running || reload_announced_)) {
      sd_notify(0, "READY=1");
      reload_announced_ = false;
    } else if (after == sv::State::Stopping && before != after) {
      sd_notify(0, "STOPPING=1");
    }
  }

  const std::function<config::Config()>& load_config_;
  const WorkerMain& worker_main_;
  config::Config cfg_;
  ListenSocket listen_;
  sigset_t old_mask_{};
  int signal_fd_ = -1;
  int timer_fd_ = -1;
  int epoll_fd_ = -1;
  std::optional<std::chrono::microseconds> watchdog_every_;
  sv::Machine* machine_ = nullptr;
  bool reload_announced_ = false;  // RELOADING=1 sent, READY=1 owed
  health::Scoreboard* board_ = nullptr;
};

}  // namespace

int run_supervisor(const std::function<config::Config()>& load_config, const WorkerMain& worker_main) {
  Master master(load_config, worker_main);
  return master.run();
}

}  // namespace dozor::fcgi
