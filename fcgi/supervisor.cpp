#include "fcgi/supervisor.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <iostream>
#include <map>
#include <thread>

namespace dozor::fcgi {
namespace {

using Clock = std::chrono::steady_clock;

struct Worker {
  int generation;
  Clock::time_point started;
};

pid_t spawn(int listen_fd, const config::Config& cfg, const WorkerMain& worker_main, const sigset_t& old_mask) {
  pid_t master = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    std::cerr << "dozor-fcgi: fork failed: " << std::strerror(errno) << "\n";
    return -1;
  }
  if (pid == 0) {
    // A worker must not outlive its master (killed with SIGKILL, say): it would keep serving
    // on a socket nobody supervises.
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != master) _exit(0);  // the master died before prctl took effect
    for (int s : {SIGTERM, SIGINT, SIGHUP, SIGCHLD}) std::signal(s, SIG_DFL);
    sigprocmask(SIG_SETMASK, &old_mask, nullptr);
    int code = 1;
    try {
      code = worker_main(listen_fd, cfg);
    } catch (const std::exception& e) {
      std::cerr << "dozor-fcgi worker " << getpid() << ": " << e.what() << "\n";
    }
    std::cerr.flush();
    _exit(code);
  }
  return pid;
}

}  // namespace

int open_listen_socket(const std::string& path, unsigned mode, bool& bound_here) {
  bound_here = false;
  int n = sd_listen_fds(1);
  int fd = -1;
  if (n >= 1) {
    fd = SD_LISTEN_FDS_START;
  } else {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (path.size() >= sizeof addr.sun_path) throw std::runtime_error("socket path too long: " + path);
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
    unlink(path.c_str());  // a stale socket from a previous run
    if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
      throw std::runtime_error("bind " + path + ": " + std::strerror(errno));
    chmod(path.c_str(), mode);
    if (listen(fd, 1024) != 0) throw std::runtime_error(std::string("listen: ") + std::strerror(errno));
    bound_here = true;
  }
  // Non-blocking so that a worker that loses an accept race goes back to poll, not to sleep.
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  return fd;
}

int run_supervisor(const std::function<config::Config()>& load_config, const WorkerMain& worker_main) {
  config::Config cfg = load_config();
  bool bound_here = false;
  int listen_fd = open_listen_socket(cfg.server.socket, cfg.server.socket_mode, bound_here);

  sigset_t set, old_mask;
  sigemptyset(&set);
  for (int s : {SIGTERM, SIGINT, SIGHUP, SIGCHLD}) sigaddset(&set, s);
  sigprocmask(SIG_BLOCK, &set, &old_mask);

  std::map<pid_t, Worker> workers;
  int generation = 0;
  auto start_generation = [&] {
    ++generation;
    for (int i = 0; i < cfg.server.workers; ++i) {
      pid_t pid = spawn(listen_fd, cfg, worker_main, old_mask);
      if (pid > 0) workers[pid] = {generation, Clock::now()};
    }
  };
  start_generation();
  std::cerr << "dozor-fcgi: master " << getpid() << " serving with " << cfg.server.workers << " workers x "
            << cfg.server.threads << " threads\n";
  sd_notify(0, "READY=1");

  uint64_t watchdog_usec = 0;
  bool watchdog = sd_watchdog_enabled(0, &watchdog_usec) > 0;
  bool stopping = false;
  Clock::time_point stop_deadline{};
  int quick_deaths = 0;
  Clock::time_point last_death{};

  while (true) {
    timespec tick{0, 250'000'000};
    int sig = sigtimedwait(&set, nullptr, &tick);
    if (watchdog) sd_notify(0, "WATCHDOG=1");

    if (sig == SIGTERM || sig == SIGINT) {
      if (!stopping) {
        stopping = true;
        sd_notify(0, "STOPPING=1");
        // New connections fail at once instead of waiting in the backlog of a closing pool.
        if (bound_here) unlink(cfg.server.socket.c_str());
        stop_deadline = Clock::now() + std::chrono::seconds(cfg.server.shutdown_timeout + 2);
        for (const auto& [pid, w] : workers) kill(pid, SIGTERM);
      }
    } else if (sig == SIGHUP && !stopping) {
      try {
        config::Config next = load_config();
        sd_notify(0, "RELOADING=1");
        cfg = next;
        int old_generation = generation;
        start_generation();
        for (const auto& [pid, w] : workers)
          if (w.generation == old_generation) kill(pid, SIGTERM);
        std::cerr << "dozor-fcgi: configuration reloaded, workers replaced\n";
        sd_notify(0, "READY=1");
      } catch (const std::exception& e) {
        std::cerr << "dozor-fcgi: reload refused, keeping the running configuration: " << e.what() << "\n";
      }
    }

    // Reap every exited worker; replace the current generation's unless stopping.
    int status = 0;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
      auto it = workers.find(pid);
      if (it == workers.end()) continue;
      bool current = it->second.generation == generation;
      workers.erase(it);
      if (WIFSIGNALED(status))
        std::cerr << "dozor-fcgi: worker " << pid << " killed by signal " << WTERMSIG(status) << "\n";
      if (stopping || !current) continue;
      // A crash loop (bad config, database down at start) must not fork-bomb the host.
      auto now = Clock::now();
      quick_deaths = now - last_death < std::chrono::seconds(5) ? quick_deaths + 1 : 0;
      last_death = now;
      if (quick_deaths > 10) std::this_thread::sleep_for(std::chrono::seconds(1));
      pid_t fresh = spawn(listen_fd, cfg, worker_main, old_mask);
      if (fresh > 0) workers[fresh] = {generation, Clock::now()};
    }

    if (stopping) {
      if (workers.empty()) break;
      if (Clock::now() > stop_deadline) {
        for (const auto& [wpid, w] : workers) kill(wpid, SIGKILL);
        stop_deadline = Clock::now() + std::chrono::seconds(5);
      }
    }
  }
  close(listen_fd);
  if (bound_here) unlink(cfg.server.socket.c_str());
  std::cerr << "dozor-fcgi: stopped\n";
  return 0;
}

}  // namespace dozor::fcgi
