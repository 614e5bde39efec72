#include "fcgi/supervisor_machine.hpp"

#include <sys/wait.h>

#include <algorithm>
#include <csignal>

namespace dozor::fcgi::supervision {
namespace {

std::string ms_text(Ms d) { return std::to_string(d.count()) + " ms"; }

void earliest(std::optional<TimePoint>& acc, TimePoint t) {
  if (!acc || t < *acc) acc = t;
}

}  // namespace

std::string_view name(State s) {
  switch (s) {
    case State::Starting: return "starting";
    case State::Running: return "running";
    case State::Reloading: return "reloading";
    case State::Stopping: return "stopping";
    case State::Stopped: return "stopped";
  }
  return "?";
}

Ms Backoff::delay(int failures) const {
  if (failures <= 0) return Ms{0};
  Ms d = initial;
  for (int i = 1; i < failures && d < max; ++i) d *= 2;  // stops doubling at the cap: no overflow
  return std::min(d, max);
}

Policy policy_for(int workers, int shutdown_timeout_seconds) {
  Policy p;
  p.workers = std::max(1, workers);
  p.term_grace = Ms{1000LL * std::max(0, shutdown_timeout_seconds) + 2000};
  return p;
}

ExitKind classify_wait_status(int status) {
  if (WIFSIGNALED(status)) return ExitKind::Crashed;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return ExitKind::Clean;
  return ExitKind::Failed;
}

Machine::Machine(Policy policy, Effects& fx) : policy_(policy), fx_(fx) {}

std::size_t Machine::current_workers() const {
  return static_cast<std::size_t>(std::count_if(workers_.begin(), workers_.end(),
                                                [&](const auto& kv) { return kv.second.generation == generation_; }));
}

bool Machine::spawning() const {
  return state_ == State::Starting || state_ == State::Running || state_ == State::Reloading;
}

void Machine::start(TimePoint now) {
  generation_ = 1;
  state_ = State::Starting;
  slots_.assign(static_cast<std::size_t>(std::max(1, policy_.workers)), Slot{0, now});
  fill(now);
  settle(now);
}

void Machine::reload(Policy next, TimePoint now) {
  if (!spawning()) {
    fx_.note("reload ignored: " + std::string(name(state_)));
    return;
  }
  policy_ = next;
  ++generation_;
  state_ = State::Reloading;
  crash_streak_ = 0;  // the new configuration gets a fresh start
  slots_.assign(static_cast<std::size_t>(std::max(1, policy_.workers)), Slot{0, now});
  fx_.note("reloading: starting generation " + std::to_string(generation_) + " with " + std::to_string(slots_.size()) +
           " workers");
  fill(now);
  settle(now);
}

void Machine::stop(TimePoint now) {
  if (state_ == State::Stopping || state_ == State::Stopped) return;
  state_ = State::Stopping;
  fx_.note("stopping " + std::to_string(workers_.size()) + " workers (SIGKILL after " + ms_text(policy_.term_grace) +
           ")");
  for (auto& [pid, w] : workers_)
    if (!w.kill_due) terminate(pid, w, now);
  settle(now);
}

void Machine::exited(pid_t pid, ExitKind kind, TimePoint now) {
  auto it = workers_.find(pid);
  if (it == workers_.end()) return;  // not one of ours (or reaped twice)
  Worker w = it->second;
  workers_.erase(it);
  if (spawning() && w.generation == generation_ && w.slot < slots_.size() && slots_[w.slot].pid == pid) {
    bool quick = now - w.started < policy_.quick_death;
    if (kind != ExitKind::Clean && quick)
      ++crash_streak_;
    else if (!quick)
      crash_streak_ = 0;
    // A clean exit (max_requests reached) is replaced at once; a crash loop (bad config, say)
    // is slowed down so that it cannot fork-bomb the host.
    Ms delay = kind == ExitKind::Clean ? Ms{0} : policy_.crash_backoff.delay(crash_streak_ - 1);
    slots_[w.slot] = Slot{0, now + delay};
    if (delay > Ms{0})
      fx_.note("worker " + std::to_string(pid) + " failed " + std::to_string(crash_streak_) +
               " times in a row soon after its start: replacing it in " + ms_text(delay));
  }
  fill(now);
  settle(now);
}

void Machine::tick(TimePoint now) {
  for (auto& [pid, w] : workers_) {
    if (w.kill_due && !w.killed_at && *w.kill_due <= now) {
      fx_.note("worker " + std::to_string(pid) + " ignored SIGTERM for " + ms_text(policy_.term_grace) +
               ": sending SIGKILL");
      fx_.signal(pid, SIGKILL);
      w.killed_at = now;
    }
  }
  if (state_ == State::Stopping) {
    bool hopeless = std::any_of(workers_.begin(), workers_.end(), [&](const auto& kv) {
      return kv.second.killed_at && *kv.second.killed_at + policy_.kill_wait <= now;
    });
    if (hopeless) {
      // A process in uninterruptible sleep outlives SIGKILL; the master must still exit.
      fx_.note(std::to_string(workers_.size()) + " workers not reaped " + ms_text(policy_.kill_wait) +
               " after SIGKILL: giving up");
      workers_.clear();
    }
  }
  fill(now);
  settle(now);
}

std::optional<TimePoint> Machine::next_deadline() const {
  std::optional<TimePoint> next;
  for (const auto& [pid, w] : workers_) {
    if (w.kill_due && !w.killed_at) earliest(next, *w.kill_due);
    if (w.killed_at && state_ == State::Stopping) earliest(next, *w.killed_at + policy_.kill_wait);
  }
  if (spawning())
    for (const auto& s : slots_)
      if (s.pid == 0) earliest(next, std::max(s.due, fork_gate_));
  return next;
}

void Machine::fill(TimePoint now) {
  if (!spawning() || now < fork_gate_) return;
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    Slot& s = slots_[i];
    if (s.pid != 0 || s.due > now) continue;
    std::optional<pid_t> pid = fx_.spawn();
    if (!pid) {
      ++fork_failures_;
      Ms delay = policy_.fork_backoff.delay(fork_failures_);
      fork_gate_ = now + delay;  // the other vacant slots wait too: the host is short of something
      fx_.note("fork failed " + std::to_string(fork_failures_) + " times in a row: next attempt in " + ms_text(delay));
      return;
    }
    fork_failures_ = 0;
    s.pid = *pid;
    workers_[*pid] = Worker{generation_, i, now, std::nullopt, std::nullopt};
  }
}

void Machine::settle(TimePoint now) {
  bool whole = std::all_of(slots_.begin(), slots_.end(), [](const Slot& s) { return s.pid != 0; });
  switch (state_) {
    case State::Starting:
      if (whole) {
        state_ = State::Running;
        fx_.note("running with " + std::to_string(slots_.size()) + " workers");
      }
      break;
    case State::Reloading: {
      if (!whole) break;  // the old generation serves until the new one is complete
      bool old_left = false;
      int signalled = 0;
      for (auto& [pid, w] : workers_) {
        if (w.generation == generation_) continue;
        old_left = true;
        if (!w.kill_due) {
          terminate(pid, w, now);
          ++signalled;
        }
      }
      if (signalled > 0)
        fx_.note("generation " + std::to_string(generation_) + " is complete: SIGTERM to " + std::to_string(signalled) +
                 " old workers");
      if (!old_left) {
        state_ = State::Running;
        fx_.note("reload complete: generation " + std::to_string(generation_) + " serves");
      }
      break;
    }
    case State::Stopping:
      if (workers_.empty()) state_ = State::Stopped;
      break;
    case State::Running:
    case State::Stopped: break;
  }
}

void Machine::terminate(pid_t pid, Worker& w, TimePoint now) {
  fx_.signal(pid, SIGTERM);
  w.kill_due = now + policy_.term_grace;
}

}  // namespace dozor::fcgi::supervision
