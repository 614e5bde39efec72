#include "engines/health/scoreboard.hpp"

#include <sys/mman.h>

#include <chrono>
#include <new>

namespace dozor::health {
namespace {

// Atomics in memory shared by processes must not fall back to a lock.
static_assert(std::atomic<std::int64_t>::is_always_lock_free);
static_assert(std::atomic<pid_t>::is_always_lock_free);
static_assert(std::atomic<bool>::is_always_lock_free);

Scoreboard* g_board = nullptr;

std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

constexpr auto kRelaxed = std::memory_order_relaxed;

}  // namespace

const char* name(PoolState s) {
  switch (s) {
    case PoolState::Starting: return "starting";
    case PoolState::Running: return "running";
    case PoolState::Reloading: return "reloading";
    case PoolState::Stopping: return "stopping";
    case PoolState::Stopped: return "stopped";
  }
  return "unknown";
}

Scoreboard* Scoreboard::create() {
  void* mem = mmap(nullptr, sizeof(Scoreboard), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) return nullptr;
  g_board = new (mem) Scoreboard();
  return g_board;
}

Scoreboard* Scoreboard::process() { return g_board; }

void Scoreboard::master_started(pid_t pid) {
  master_pid_.store(pid);
  started_ms_.store(unix_ms());
}

void Scoreboard::pool_state(PoolState state, int generation, int configured_workers, int threads_per_worker) {
  state_.store(static_cast<int>(state));
  generation_.store(generation);
  configured_.store(configured_workers);
  threads_.store(threads_per_worker);
}

void Scoreboard::worker_ended(pid_t pid, bool failed) {
  for (auto& cell : cells_) {
    if (cell.pid.load() != pid) continue;
    if (cell.recycling.load())
      recycled_.fetch_add(1);
    else if (failed)
      restarts_.fetch_add(1);
    cell.busy.store(0);
    cell.requests.store(0);
    cell.recycling.store(false);
    cell.pid.store(0);  // last: the slot is free for the next claim only once it is clean
    return;
  }
  // A worker that died before it claimed a slot still counts.
  if (failed) restarts_.fetch_add(1);
}

bool Scoreboard::claim(pid_t pid, int threads) {
  for (auto& cell : cells_) {
    pid_t vacant = 0;
    if (!cell.pid.compare_exchange_strong(vacant, pid)) continue;
    cell.generation.store(generation_.load());
    cell.started_ms.store(unix_ms());
    cell.threads.store(threads);
    return true;
  }
  return false;
}

Scoreboard::Slot Scoreboard::slot_of(pid_t pid) {
  for (auto& cell : cells_)
    if (cell.pid.load() == pid) return Slot(this, &cell);
  return Slot();
}

void Scoreboard::Slot::request_started() {
  if (cell_) cell_->busy.fetch_add(1, kRelaxed);
}

void Scoreboard::Slot::request_finished() {
  if (!cell_) return;
  cell_->busy.fetch_sub(1, kRelaxed);
  cell_->requests.fetch_add(1, kRelaxed);
  board_->requests_total_.fetch_add(1, kRelaxed);
}

void Scoreboard::Slot::recycling() {
  if (cell_) cell_->recycling.store(true);
}

PoolFigures Scoreboard::snapshot() const {
  PoolFigures f;
  f.master_pid = master_pid_.load();
  f.started_ms = started_ms_.load();
  f.state = static_cast<PoolState>(state_.load());
  f.generation = generation_.load();
  f.configured_workers = configured_.load();
  f.threads_per_worker = threads_.load();
  f.restarts = restarts_.load();
  f.recycled = recycled_.load();
  f.requests_total = requests_total_.load(kRelaxed);
  for (const auto& cell : cells_) {
    pid_t pid = cell.pid.load();
    if (pid == 0) continue;
    WorkerFigures w;
    w.pid = pid;
    w.generation = cell.generation.load();
    w.started_ms = cell.started_ms.load();
    w.threads = cell.threads.load();
    w.busy = cell.busy.load(kRelaxed);
    w.requests = cell.requests.load(kRelaxed);
    f.workers.push_back(w);
  }
  return f;
}

}  // namespace dozor::health
