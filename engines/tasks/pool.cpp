#include "engines/tasks/pool.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <iostream>

#include "db/scan_access_repo.hpp"
#include "db/tasks_repo.hpp"
#include "engines/limits.hpp"
#include "engines/tasks/schedules.hpp"

namespace dozor::tasks {
namespace {

using Clock = std::chrono::steady_clock;

constexpr auto kReapEvery = std::chrono::seconds(5);
constexpr auto kPurgeEvery = std::chrono::hours(1);
constexpr int kPurgeChunk = 1000;
constexpr std::size_t kErrorChars = 2000;

}  // namespace

PoolOptions pool_options(const config::Config& cfg, std::string owner) {
  PoolOptions o;
  o.owner = std::move(owner);
  o.runners = cfg.tasks.runners;
  o.per_user = cfg.tasks.per_user;
  o.max_attempts = cfg.tasks.max_attempts;
  o.lease_seconds = cfg.tasks.lease_seconds;
  o.keep_days = cfg.tasks.keep_days;
  return o;
}

TaskPool::TaskPool(TaskEnv env, PoolOptions options) : env_(std::move(env)), options_(std::move(options)) {}

TaskPool::~TaskPool() { stop(); }

void TaskPool::start() {
  std::lock_guard lock(m_);
  if (!threads_.empty() || stopping_) return;
  for (int i = 0; i < options_.runners; ++i) threads_.emplace_back([this] { runner_loop(); });
  threads_.emplace_back([this] { keeper_loop(); });
}

void TaskPool::stop() {
  {
    std::lock_guard lock(m_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
    for (auto& [id, run] : running_) run->cancel.cancel();
  }
  wake_.notify_all();
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
}

TaskPool::Stats TaskPool::stats() const {
  std::lock_guard lock(m_);
  return stats_;
}

void TaskPool::runner_loop() {
  db::tasks::ClaimLimits limits;
  limits.per_user = options_.per_user;
  limits.lease_seconds = options_.lease_seconds;
  for (;;) {
    {
      std::lock_guard lock(m_);
      if (stopping_) return;
    }
    std::optional<db::tasks::TaskRow> task;
    try {
      env_.db.run([&](db::Connection& c) { task = db::tasks::claim(c, options_.owner, limits); }, db::Retry::Never);
    } catch (const std::exception& e) {
      std::cerr << "dozord: tasks: claim: " << e.what() << "\n";  // database away: the next turn tries again
    }
    if (task) {
      run_one(task->id);
      continue;
    }
    std::unique_lock lock(m_);
    wake_.wait_for(lock, options_.tick, [this] { return stopping_; });
  }
}

void TaskPool::run_one(const std::string& id) {
  auto run = std::make_shared<Running>();
  run->id = id;
  std::optional<db::tasks::TaskRow> row;
  try {
    env_.db.run([&](db::Connection& c) { row = db::tasks::find(c, id, false); }, db::Retry::OnLostConnection);
  } catch (const std::exception& e) {
    // Claimed but unreadable (the database went away): its lease runs out and it is queued again.
    std::cerr << "dozord: tasks: cannot read claimed task " << id << ": " << e.what() << "\n";
    return;
  }
  {
    std::lock_guard lock(m_);
    running_[id] = run;
    if (stopping_) run->cancel.cancel();
  }
  std::optional<std::string> error;
  TaskOutcome outcome;
  try {
    if (!row) throw std::runtime_error("task disappeared");
    TaskSpec spec{row->user_id, row->kind, row->target, boost::json::parse(row->options_json).as_object(),
                  row->service_id};
    outcome = run_kind(env_, spec, run->cancel, [&run](int percent, const std::string& phase) {
      std::lock_guard lock(run->m);
      run->progress = percent;
      run->phase = phase;
    });
  } catch (const std::exception& e) {
    error = std::string(e.what()).substr(0, kErrorChars);
  }
  {
    std::lock_guard lock(m_);
    running_.erase(id);
  }
  if (run->lost) return;  // another runner has it now; what this one found is not written
  try {
    env_.db.run(
        [&](db::Connection& c) {
          if (run->cancel.cancelled() && !run->by_owner) {
            db::tasks::release(c, id, options_.owner);  // this process stops: another takes it over
            return;
          }
          std::string state = run->by_owner ? "cancelled" : error ? "failed" : "succeeded";
          std::optional<std::string> result;
          if (state == "succeeded") result = boost::json::serialize(outcome.result);
          if (state == "cancelled") error = "cancelled by its owner";
          db::tasks::finish(c, id, options_.owner, state, error, result, outcome.audit_id);
          std::lock_guard lock(m_);
          (state == "succeeded" ? stats_.succeeded : state == "failed" ? stats_.failed : stats_.cancelled) += 1;
        },
        db::Retry::Never);
  } catch (const std::exception& e) {
    // The lease runs out and the reaper queues the task again: it is not lost.
    std::cerr << "dozord: tasks: cannot record the end of task " << id << ": " << e.what() << "\n";
  }
}

void TaskPool::keep_leases() {
  std::vector<std::shared_ptr<Running>> runs;
  {
    std::lock_guard lock(m_);
    for (auto& [id, run] : running_) runs.push_back(run);
  }
  for (auto& run : runs) {
    int progress;
    std::string phase;
    {
      std::lock_guard lock(run->m);
      progress = run->progress;
      phase = run->phase;
    }
    std::optional<bool> cancel;
    env_.db.run(
        [&](db::Connection& c) {
          cancel = db::tasks::heartbeat(c, run->id, options_.owner, progress, phase, options_.lease_seconds);
        },
        db::Retry::OnLostConnection);
    if (!cancel) {
      run->lost = true;
      run->cancel.cancel();
    } else if (*cancel) {
      run->by_owner = true;
      run->cancel.cancel();
    }
  }
}

void TaskPool::keeper_loop() {
  auto next_reap = Clock::now();
  auto next_purge = Clock::now();
  for (;;) {
    try {
      keep_leases();
      if (int n = fire_due_schedules(env_.db)) std::cerr << "dozord: tasks: " << n << " scheduled task(s) queued\n";
      auto now = Clock::now();
      if (now >= next_reap) {
        next_reap = now + kReapEvery;
        int n = 0;
        env_.db.run([&](db::Connection& c) { n = db::tasks::reap_expired(c, options_.max_attempts); },
                    db::Retry::Never);
        if (n) std::cerr << "dozord: tasks: " << n << " task(s) whose runner stopped answering handled\n";
      }
      if (now >= next_purge) {
        next_purge = now + kPurgeEvery;
        env_.db.run(
            [&](db::Connection& c) {
              db::tasks::purge_finished(c, options_.keep_days, kPurgeChunk);
              db::scan_access::purge(c, limits::kScanLogKeepDays);
            },
            db::Retry::Never);
      }
    } catch (const std::exception& e) {
      std::cerr << "dozord: tasks: " << e.what() << "\n";
    }
    std::unique_lock lock(m_);
    if (wake_.wait_for(lock, options_.tick, [this] { return stopping_; })) return;
  }
}

}  // namespace dozor::tasks
