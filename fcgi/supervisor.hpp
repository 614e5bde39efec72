#pragma once
// The master process: owns the listening socket, forks the workers, respawns the ones that
// die, recycles, reloads on SIGHUP and stops gracefully on SIGTERM. It serves no requests.
#include <functional>
#include <string>

#include "engines/config/config.hpp"

namespace dozor::fcgi {

// Runs in each forked worker with the listening fd and the config it was started with.
using WorkerMain = std::function<int(int listen_fd, const config::Config& cfg)>;

// `load_config` is called at start and on every SIGHUP.
int run_supervisor(const std::function<config::Config()>& load_config, const WorkerMain& worker_main);

// The listening socket: from systemd (sd_listen_fds) or bound at `path` with `mode`.
// Sets `bound_here` when the caller must unlink the path at exit.
int open_listen_socket(const std::string& path, unsigned mode, bool& bound_here);

}  // namespace dozor::fcgi
