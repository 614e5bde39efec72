#pragma once
// The web pool's scoreboard (php-fpm's model): one anonymous shared mapping that dozor-fcgi's
// master creates before its first fork. The master writes the pool's figures and claims and
// frees the workers' slots; each worker counts its busy threads and requests in its own; /monitoring/health reads a
// snapshot from any worker. Lock-free atomics only, so a worker killed mid-write leaves nothing
// locked and the master never waits on a worker.
#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace dozor::health {

// Slots for worker processes: a reload overlaps two generations, so twice the most workers a
// pool may have (config::kMaxDefaultWorkers is the default; an admin may set more, up to this).
constexpr int kScoreboardSlots = 128;

// The master's states (fcgi/supervisor_machine.hpp's State, which maps onto these).
enum class PoolState { Starting, Running, Reloading, Stopping, Stopped };
const char* name(PoolState s);

struct WorkerFigures {
  pid_t pid = 0;
  int generation = 0;
  std::int64_t started_ms = 0;  // Unix milliseconds
  int threads = 0;
  int busy = 0;  // threads serving a request right now
  std::int64_t requests = 0;
};

struct PoolFigures {
  pid_t master_pid = 0;
  std::int64_t started_ms = 0;  // when the master started, Unix milliseconds
  PoolState state = PoolState::Starting;
  int generation = 0;
  int configured_workers = 0;
  int threads_per_worker = 0;
  std::int64_t restarts = 0;        // workers replaced after they failed or crashed
  std::int64_t recycled = 0;        // workers that ended after server.max_requests and were replaced
  std::int64_t requests_total = 0;  // every worker since the master started
  std::vector<WorkerFigures> workers;
};

class Scoreboard {
 public:
  // Maps a fresh board shared with every process forked afterwards; nullptr when mmap fails
  // (the pool then runs without figures). The board lives until the process exits.
  static Scoreboard* create();
  // The board this process created or inherited; nullptr in processes without one.
  static Scoreboard* process();

  // ---- master
  void master_started(pid_t pid);
  void pool_state(PoolState state, int generation, int configured_workers, int threads_per_worker);
  // A reaped worker: its slot is freed; `failed` when it exited non-zero or by a signal.
  void worker_ended(pid_t pid, bool failed);

  // A forked worker's slot, taken by the master right after fork() (so a worker counts as alive
  // from its fork to its reaping, starting up included) with the board's current generation.
  // False when every slot is taken (the worker then runs without figures).
  bool claim(pid_t pid, int threads);

  // ---- a worker: its own slot (an empty Slot when the master could not claim one)
  class Slot;
  Slot slot_of(pid_t pid);

  PoolFigures snapshot() const;

  struct Cell {
    std::atomic<pid_t> pid{0};
    std::atomic<int> generation{0};
    std::atomic<std::int64_t> started_ms{0};
    std::atomic<int> threads{0};
    std::atomic<int> busy{0};
    std::atomic<std::int64_t> requests{0};
    std::atomic<bool> recycling{false};  // set by a worker that stops after max_requests
  };

 private:
  Scoreboard() = default;

  std::atomic<pid_t> master_pid_{0};
  std::atomic<std::int64_t> started_ms_{0};
  std::atomic<int> state_{0};
  std::atomic<int> generation_{0};
  std::atomic<int> configured_{0};
  std::atomic<int> threads_{0};
  std::atomic<std::int64_t> restarts_{0};
  std::atomic<std::int64_t> recycled_{0};
  std::atomic<std::int64_t> requests_total_{0};
  Cell cells_[kScoreboardSlots];
};

// A worker's view of its slot; every call is a no-op on an empty one.
class Scoreboard::Slot {
 public:
  Slot() = default;
  bool empty() const { return cell_ == nullptr; }
  void request_started();
  void request_finished();
  void recycling();  // this worker stops because it served server.max_requests

 private:
  Slot(Scoreboard* board, Cell* cell) : board_(board), cell_(cell) {}
  Scoreboard* board_ = nullptr;
  Cell* cell_ = nullptr;
  friend class Scoreboard;
};

// Counts a request as busy for its lifetime.
class BusyRequest {
 public:
  explicit BusyRequest(Scoreboard::Slot& slot) : slot_(slot) { slot_.request_started(); }
  ~BusyRequest() { slot_.request_finished(); }
  BusyRequest(const BusyRequest&) = delete;
  BusyRequest& operator=(const BusyRequest&) = delete;

 private:
  Scoreboard::Slot& slot_;
};

}  // namespace dozor::health
