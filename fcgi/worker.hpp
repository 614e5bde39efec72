#pragma once
// A worker process: M threads, each accepting FastCGI connections on the shared listening
// socket and serving requests until told to stop.
#include <functional>
#include <string>

#include "fcgi/request.hpp"
#include "fcgi/response.hpp"

namespace dozor::fcgi {

struct WorkerLimits {
  int threads = 16;
  long long max_requests = 0;  // then the worker exits and the master starts a fresh one
  long long max_body = 1 << 20;
  int shutdown_timeout = 10;
  // Requests whose body the handler streams (see fcgi_io.hpp): their byte limit, or 0.
  std::function<long long(const http::Request&)> stream_body;
  // The key nginx sends as DOZOR_NGINX_KEY (nginx_proof.hpp); requests without it are refused
  // with 403. Empty: no check (server.nginx_key_file = "").
  std::string nginx_key = {};
};

using RequestHandler = std::function<http::Response(const http::Request&)>;

// Runs until SIGTERM (graceful: in-flight requests finish within shutdown_timeout) or until
// max_requests were served. Returns the process exit code.
int run_worker(int listen_fd, const WorkerLimits& limits, const RequestHandler& handle);

}  // namespace dozor::fcgi
