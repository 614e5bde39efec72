// dozor-fcgi: the FastCGI application server (master + worker pool).
#include <iostream>
#include <string>

#include "db/database.hpp"
#include "engines/config/config.hpp"
#include "engines/net/multi_fetch.hpp"
#include "fcgi/dispatch.hpp"
#include "fcgi/routes.hpp"
#include "fcgi/supervisor.hpp"
#include "fcgi/worker.hpp"
#include "handlers/app.hpp"

int main(int argc, char** argv) {
  std::string config_path;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--config" && i + 1 < argc)
      config_path = argv[++i];
    else if (arg == "--version") {
      std::cout << "dozor-fcgi " << DOZOR_VERSION << "\n";
      return 0;
    } else {
      std::cerr << "usage: dozor-fcgi [--config FILE]\n";
      return 2;
    }
  }
  try {
    auto load = [&] { return dozor::config::load(config_path); };
    // Each worker builds its own state after fork: connections and threads never cross fork().
    auto worker = [](int listen_fd, const dozor::config::Config& cfg) {
      dozor::net::global_init();
      dozor::db::init_driver();
      dozor::App app(cfg);
      auto router = dozor::http::build_router();
      dozor::fcgi::WorkerLimits limits{cfg.server.threads, cfg.server.max_requests, cfg.server.max_body,
                                       cfg.server.shutdown_timeout};
      return dozor::fcgi::run_worker(
          listen_fd, limits, [&](const dozor::http::Request& req) { return dozor::http::dispatch(router, app, req); });
    };
    return dozor::fcgi::run_supervisor(load, worker);
  } catch (const std::exception& e) {
    std::cerr << "dozor-fcgi: " << e.what() << "\n";
    return 1;
  }
}
