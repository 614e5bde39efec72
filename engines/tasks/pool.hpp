#pragma once
// dozord's task runners (docs/tasks.md): a fixed number of threads, each claiming one queued task
// at a time from MariaDB and running it; one keeper thread renews the leases of running tasks
// every second (writing their progress), turns a cancellation asked for through the API into the
// task's cancel token, queues the runs of due schedules, queues again or fails tasks whose runner
// died (lease passed), and purges old finished tasks. Every task drives its own requests through the scan client's
// event loop; the thread count bounds the work, never a thread per request.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engines/tasks/kinds.hpp"

namespace dozor::tasks {

struct PoolOptions {
  std::string owner;  // host:pid:…, unique per process run: the claims' name
  int runners = 2;
  int per_user = 2;
  int max_attempts = 3;
  int lease_seconds = 60;
  int keep_days = 30;
  std::chrono::milliseconds tick{1000};  // the keeper's period and an idle runner's poll
};

PoolOptions pool_options(const config::Config& cfg, std::string owner);

class TaskPool {
 public:
  TaskPool(TaskEnv env, PoolOptions options);
  ~TaskPool();
  TaskPool(const TaskPool&) = delete;
  TaskPool& operator=(const TaskPool&) = delete;

  void start();
  // Stops claiming, cancels what runs and puts it back in the queue (the attempt not counted,
  // so the next dozord starts it afresh), then joins every thread. Idempotent.
  void stop();

  struct Stats {
    std::int64_t succeeded = 0, failed = 0, cancelled = 0;
  };
  Stats stats() const;

 private:
  struct Running {
    std::string id;
    CancelToken cancel;
    std::atomic<bool> by_owner{false};  // the API asked for it (not a stop of this process)
    std::atomic<bool> lost{false};      // another runner holds the lease now
    std::mutex m;
    int progress = 0;
    std::string phase = "starting";
  };

  void runner_loop();
  void keeper_loop();
  void run_one(const std::string& id);
  void keep_leases();

  TaskEnv env_;
  PoolOptions options_;
  mutable std::mutex m_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::map<std::string, std::shared_ptr<Running>> running_;
  std::vector<std::thread> threads_;
  Stats stats_;
};

}  // namespace dozor::tasks
