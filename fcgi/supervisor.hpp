#pragma once
// The master process: owns the listening socket, forks the workers, replaces the ones that
// die, reloads on SIGHUP and stops gracefully on SIGTERM. It serves no requests.
// The decisions live in supervisor_machine.hpp; this is the part that makes system calls.
#include <functional>

#include "engines/config/config.hpp"

namespace dozor::fcgi {

// Runs in each forked worker with the listening fd and the config it was started with.
using WorkerMain = std::function<int(int listen_fd, const config::Config& cfg)>;

// `load_config` is called at start and on every SIGHUP. Returns the exit code.
int run_supervisor(const std::function<config::Config()>& load_config, const WorkerMain& worker_main);

}  // namespace dozor::fcgi
