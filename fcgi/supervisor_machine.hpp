#pragma once
// The master's decisions, free of system calls: which workers to start, which to signal,
// when to retry a failed fork and when a worker that ignores SIGTERM gets SIGKILL.
// fcgi/supervisor.cpp feeds it events (signals, worker exits, timer ticks) and carries out
// its requests through Effects; the unit tests feed it the same events with a fake Effects.
// States and transitions: docs/supervisor.md.
#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dozor::fcgi::supervision {

using Clock = std::chrono::steady_clock;
using TimePoint = Clock::time_point;
using Ms = std::chrono::milliseconds;

enum class State {
  Starting,   // the first generation is being forked; READY=1 once every slot holds a worker
  Running,    // one generation serves; a worker that exits is replaced
  Reloading,  // a new generation is forked; the old one gets SIGTERM once the new one is whole
  Stopping,   // every worker got SIGTERM; SIGKILL after the grace period
  Stopped,    // no worker left (or none that SIGKILL could end): the master exits
};
std::string_view name(State s);

// Exponential backoff: no delay before the first failure, then `initial`, twice that, …,
// never more than `max`.
struct Backoff {
  Ms initial{100};
  Ms max{10'000};
  Ms delay(int failures) const;
};

struct Policy {
  int workers = 1;
  Ms term_grace{12'000};  // SIGTERM → SIGKILL
  Ms kill_wait{5'000};    // after SIGKILL, how long a stop waits for the kernel to reap
  Ms quick_death{5'000};  // a worker failing sooner than this after its start feeds the crash backoff
  Backoff fork_backoff{};
  Backoff crash_backoff{};
};

// server.shutdown_timeout is the worker's own drain budget; the master adds slack before SIGKILL.
Policy policy_for(int workers, int shutdown_timeout_seconds);

enum class ExitKind { Clean, Failed, Crashed };  // exit 0, non-zero exit, ended by a signal
ExitKind classify_wait_status(int status);

// What the machine asks of the outside world.
class Effects {
 public:
  virtual ~Effects() = default;
  // Forks a worker of the machine's current generation; nullopt when the fork failed.
  virtual std::optional<pid_t> spawn() = 0;
  virtual void signal(pid_t pid, int sig) = 0;
  virtual void note(const std::string& line) = 0;  // a log line explaining a decision
};

class Machine {
 public:
  Machine(Policy policy, Effects& fx);

  void start(TimePoint now);
  // Replaces every worker with a new generation under `next` (the caller has already switched
  // the config and socket the new workers get). Ignored once stopping.
  void reload(Policy next, TimePoint now);
  void stop(TimePoint now);
  void exited(pid_t pid, ExitKind kind, TimePoint now);
  // Acts on whatever fell due by `now` (fork retries, SIGKILL escalation, giving up a stop).
  void tick(TimePoint now);
  // When tick() next has something to do; nullopt: only an event can change anything.
  std::optional<TimePoint> next_deadline() const;

  State state() const { return state_; }
  int generation() const { return generation_; }
  std::size_t live_workers() const { return workers_.size(); }
  std::size_t current_workers() const;
  int fork_failures() const { return fork_failures_; }
  int crash_streak() const { return crash_streak_; }

 private:
  struct Worker {
    int generation;
    std::size_t slot;
    TimePoint started;
    std::optional<TimePoint> kill_due;   // set by SIGTERM
    std::optional<TimePoint> killed_at;  // set by SIGKILL
  };
  struct Slot {
    pid_t pid = 0;  // 0: vacant, to be filled from `due` on
    TimePoint due{};
  };

  bool spawning() const;
  void fill(TimePoint now);
  void settle(TimePoint now);  // the transitions that follow from the pool's shape
  void terminate(pid_t pid, Worker& w, TimePoint now);

  Policy policy_;
  Effects& fx_;
  State state_ = State::Starting;
  int generation_ = 0;
  std::vector<Slot> slots_;
  std::map<pid_t, Worker> workers_;
  int fork_failures_ = 0;
  TimePoint fork_gate_{};  // after a failed fork, no fork before this
  int crash_streak_ = 0;
};

}  // namespace dozor::fcgi::supervision
