#include "fcgi/supervisor_machine.hpp"

#include <sys/wait.h>

#include <boost/test/unit_test.hpp>
#include <csignal>
#include <set>
#include <utility>

using namespace dozor::fcgi::supervision;
using namespace std::chrono_literals;

namespace {

// Records what the machine asks for; forks "succeed" with increasing pids unless told to fail.
struct FakeOs : Effects {
  pid_t next_pid = 100;
  int failing_forks = 0;
  int fork_attempts = 0;
  std::vector<pid_t> spawned;
  std::vector<std::pair<pid_t, int>> signals;
  std::vector<std::string> notes;

  std::optional<pid_t> spawn() override {
    ++fork_attempts;
    if (failing_forks > 0) {
      --failing_forks;
      return std::nullopt;
    }
    spawned.push_back(next_pid);
    return next_pid++;
  }
  void signal(pid_t pid, int sig) override { signals.emplace_back(pid, sig); }
  void note(const std::string& line) override { notes.push_back(line); }

  std::set<pid_t> signalled_with(int sig) const {
    std::set<pid_t> out;
    for (auto [pid, s] : signals)
      if (s == sig) out.insert(pid);
    return out;
  }
};

Policy policy(int workers) {
  Policy p;
  p.workers = workers;
  p.term_grace = 3000ms;
  p.kill_wait = 5000ms;
  p.quick_death = 5000ms;
  p.fork_backoff = Backoff{100ms, 1600ms};
  p.crash_backoff = Backoff{100ms, 1600ms};
  return p;
}

const TimePoint t0 = TimePoint{} + 1000s;

}  // namespace

BOOST_AUTO_TEST_SUITE(supervisor_backoff)

BOOST_AUTO_TEST_CASE(no_delay_before_the_first_failure_then_doubling_up_to_the_cap) {
  Backoff b{100ms, 1600ms};
  BOOST_TEST(b.delay(0).count() == 0);
  BOOST_TEST(b.delay(-3).count() == 0);
  BOOST_TEST(b.delay(1).count() == 100);
  BOOST_TEST(b.delay(2).count() == 200);
  BOOST_TEST(b.delay(3).count() == 400);
  BOOST_TEST(b.delay(5).count() == 1600);
  BOOST_TEST(b.delay(6).count() == 1600);
  BOOST_TEST(b.delay(1'000'000).count() == 1600);  // no overflow however long the streak
}

BOOST_AUTO_TEST_CASE(cap_that_is_not_a_power_of_two_times_initial_is_still_the_bound) {
  Backoff b{300ms, 1000ms};
  BOOST_TEST(b.delay(2).count() == 600);
  BOOST_TEST(b.delay(3).count() == 1000);
  BOOST_TEST(b.delay(40).count() == 1000);
}

BOOST_AUTO_TEST_CASE(policy_gives_workers_their_drain_budget_plus_slack_before_sigkill) {
  Policy p = policy_for(4, 10);
  BOOST_TEST(p.workers == 4);
  BOOST_TEST(p.term_grace.count() == 12'000);
  BOOST_TEST(policy_for(0, 0).workers == 1);
  BOOST_TEST(policy_for(1, 0).term_grace.count() == 2000);
}

BOOST_AUTO_TEST_CASE(wait_status_classified_as_clean_failed_or_crashed) {
  BOOST_TEST((classify_wait_status(0) == ExitKind::Clean));        // exit(0)
  BOOST_TEST((classify_wait_status(1 << 8) == ExitKind::Failed));  // exit(1)
  BOOST_TEST((classify_wait_status(SIGSEGV) == ExitKind::Crashed));
  BOOST_TEST((classify_wait_status(SIGKILL) == ExitKind::Crashed));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(supervisor_machine)

BOOST_AUTO_TEST_CASE(start_forks_every_slot_and_runs) {
  FakeOs os;
  Machine m(policy(3), os);
  m.start(t0);
  BOOST_TEST(os.spawned.size() == 3u);
  BOOST_TEST((m.state() == State::Running));
  BOOST_TEST(m.live_workers() == 3u);
  BOOST_TEST(!m.next_deadline().has_value());  // nothing to wait for but events
}

BOOST_AUTO_TEST_CASE(fork_failure_is_retried_with_exponential_backoff_and_the_master_keeps_starting) {
  FakeOs os;
  os.failing_forks = 4;
  Machine m(policy(2), os);
  m.start(t0);
  BOOST_TEST((m.state() == State::Starting));
  BOOST_TEST(os.fork_attempts == 1);  // the other slot waits too: no hammering
  std::vector<long long> waits;
  TimePoint now = t0;
  while (m.state() == State::Starting) {
    auto next = m.next_deadline();
    BOOST_REQUIRE(next.has_value());
    waits.push_back(std::chrono::duration_cast<Ms>(*next - now).count());
    m.tick(now + 1ms);  // nothing is due a moment before the deadline
    BOOST_REQUIRE(os.fork_attempts <= 5);
    now = *next;
    m.tick(now);
  }
  BOOST_TEST(waits == (std::vector<long long>{100, 200, 400, 800}), boost::test_tools::per_element());
  BOOST_TEST(os.spawned.size() == 2u);
  BOOST_TEST((m.state() == State::Running));
  BOOST_TEST(m.fork_failures() == 0);
}

BOOST_AUTO_TEST_CASE(endless_fork_failure_waits_no_longer_than_the_cap) {
  FakeOs os;
  os.failing_forks = 1000;
  Machine m(policy(1), os);
  m.start(t0);
  TimePoint now = t0;
  for (int i = 0; i < 20; ++i) {
    auto next = m.next_deadline();
    BOOST_REQUIRE(next.has_value());
    BOOST_TEST((*next - now <= 1600ms));
    now = *next;
    m.tick(now);
  }
  BOOST_TEST(os.fork_attempts == 21);
  os.failing_forks = 0;
  m.tick(*m.next_deadline());
  BOOST_TEST((m.state() == State::Running));
}

BOOST_AUTO_TEST_CASE(worker_that_crashes_after_a_while_is_replaced_at_once) {
  FakeOs os;
  Machine m(policy(2), os);
  m.start(t0);
  pid_t victim = os.spawned[0];
  m.exited(victim, ExitKind::Crashed, t0 + 60s);
  BOOST_TEST(os.spawned.size() == 3u);
  BOOST_TEST(m.current_workers() == 2u);
  BOOST_TEST((m.state() == State::Running));
}

BOOST_AUTO_TEST_CASE(recycled_worker_is_replaced_at_once_even_when_quick) {
  FakeOs os;
  Machine m(policy(1), os);
  m.start(t0);
  for (int i = 0; i < 10; ++i) m.exited(os.spawned.back(), ExitKind::Clean, t0 + 10ms * i);
  BOOST_TEST(os.spawned.size() == 11u);  // max_requests reached is not a crash
  BOOST_TEST(m.crash_streak() == 0);
}

BOOST_AUTO_TEST_CASE(crash_loop_backs_off_exponentially_and_resets_after_a_healthy_run) {
  FakeOs os;
  Machine m(policy(1), os);
  m.start(t0);
  TimePoint now = t0;
  std::vector<long long> delays;
  for (int i = 0; i < 7; ++i) {
    now += 10ms;  // dies right after its start
    m.exited(os.spawned.back(), ExitKind::Failed, now);
    auto before = os.spawned.size();
    auto next = m.next_deadline();
    delays.push_back(next ? std::chrono::duration_cast<Ms>(*next - now).count() : 0);
    if (next) {
      m.tick(*next - 1ms);
      BOOST_TEST(os.spawned.size() == before);  // not early
      now = *next;
      m.tick(now);
    }
    BOOST_TEST(os.spawned.size() == before + (next ? 1u : 0u));
  }
  BOOST_TEST(delays == (std::vector<long long>{0, 100, 200, 400, 800, 1600, 1600}), boost::test_tools::per_element());
  // a worker that lived past quick_death proves the fault is gone
  now += 6s;
  m.exited(os.spawned.back(), ExitKind::Crashed, now);
  BOOST_TEST(m.crash_streak() == 0);
  BOOST_TEST(m.current_workers() == 1u);  // replaced at once
}

BOOST_AUTO_TEST_CASE(stop_sends_sigterm_then_sigkill_after_the_grace_period) {
  FakeOs os;
  Machine m(policy(2), os);
  m.start(t0);
  m.stop(t0 + 1s);
  BOOST_TEST((m.state() == State::Stopping));
  BOOST_TEST(os.signalled_with(SIGTERM) == std::set<pid_t>(os.spawned.begin(), os.spawned.end()));
  // one worker exits on SIGTERM, the other ignores it
  m.exited(os.spawned[0], ExitKind::Clean, t0 + 2s);
  BOOST_TEST(os.spawned.size() == 2u);  // nothing is respawned while stopping
  BOOST_TEST((*m.next_deadline() == t0 + 4s));
  m.tick(t0 + 4s - 1ms);
  BOOST_TEST(os.signalled_with(SIGKILL).empty());
  m.tick(t0 + 4s);
  BOOST_TEST(os.signalled_with(SIGKILL) == std::set<pid_t>{os.spawned[1]});
  BOOST_TEST((m.state() == State::Stopping));
  m.exited(os.spawned[1], ExitKind::Crashed, t0 + 4s + 5ms);
  BOOST_TEST((m.state() == State::Stopped));
}

BOOST_AUTO_TEST_CASE(stop_gives_up_on_a_worker_sigkill_cannot_end) {
  FakeOs os;
  Machine m(policy(1), os);
  m.start(t0);
  m.stop(t0);
  m.tick(t0 + 3s);
  BOOST_TEST(os.signalled_with(SIGKILL).size() == 1u);
  BOOST_TEST((*m.next_deadline() == t0 + 8s));
  m.tick(t0 + 8s);
  BOOST_TEST((m.state() == State::Stopped));
}

BOOST_AUTO_TEST_CASE(stop_with_no_workers_is_immediate_and_cancels_pending_retries) {
  FakeOs os;
  os.failing_forks = 100;
  Machine m(policy(2), os);
  m.start(t0);
  m.stop(t0 + 10ms);
  BOOST_TEST((m.state() == State::Stopped));
  BOOST_TEST(!m.next_deadline().has_value());
  m.tick(t0 + 1h);
  BOOST_TEST(os.fork_attempts == 1);
}

BOOST_AUTO_TEST_CASE(second_stop_does_not_restart_the_grace_period) {
  FakeOs os;
  Machine m(policy(1), os);
  m.start(t0);
  m.stop(t0);
  m.stop(t0 + 2s);
  BOOST_TEST(os.signals.size() == 1u);
  BOOST_TEST((*m.next_deadline() == t0 + 3s));
}

BOOST_AUTO_TEST_CASE(reload_starts_the_new_generation_before_terminating_the_old) {
  FakeOs os;
  Machine m(policy(2), os);
  m.start(t0);
  std::vector<pid_t> old(os.spawned.begin(), os.spawned.end());
  m.reload(policy(3), t0 + 1s);
  BOOST_TEST(m.generation() == 2);
  BOOST_TEST(os.spawned.size() == 5u);  // three new ones
  BOOST_TEST(os.signalled_with(SIGTERM) == std::set<pid_t>(old.begin(), old.end()));
  BOOST_TEST((m.state() == State::Reloading));
  m.exited(old[0], ExitKind::Clean, t0 + 2s);
  BOOST_TEST((m.state() == State::Reloading));
  BOOST_TEST(os.spawned.size() == 5u);  // the old generation is not replaced
  m.exited(old[1], ExitKind::Clean, t0 + 2s);
  BOOST_TEST((m.state() == State::Running));
  BOOST_TEST(m.live_workers() == 3u);
}

BOOST_AUTO_TEST_CASE(reload_kills_an_old_worker_that_ignores_sigterm) {
  FakeOs os;
  Machine m(policy(1), os);
  m.start(t0);
  pid_t old = os.spawned[0];
  m.reload(policy(1), t0);
  BOOST_TEST((*m.next_deadline() == t0 + 3s));
  m.tick(t0 + 3s);
  BOOST_TEST(os.signalled_with(SIGKILL) == std::set<pid_t>{old});
  m.exited(old, ExitKind::Crashed, t0 + 3s + 1ms);
  BOOST_TEST((m.state() == State::Running));
}

BOOST_AUTO_TEST_CASE(reload_keeps_the_old_generation_serving_while_the_new_cannot_fork) {
  FakeOs os;
  Machine m(policy(2), os);
  m.start(t0);
  os.failing_forks = 2;
  m.reload(policy(2), t0);
  BOOST_TEST(os.signals.empty());  // nobody is terminated while the new pool is short
  m.tick(*m.next_deadline());
  BOOST_TEST(os.signals.empty());
  m.tick(*m.next_deadline());
  BOOST_TEST(os.spawned.size() == 4u);
  BOOST_TEST(os.signalled_with(SIGTERM) == (std::set<pid_t>{100, 101}));
}

BOOST_AUTO_TEST_CASE(reload_during_a_reload_retires_both_older_generations) {
  FakeOs os;
  Machine m(policy(1), os);
  m.start(t0);
  m.reload(policy(1), t0 + 1s);
  m.reload(policy(1), t0 + 2s);
  BOOST_TEST(m.generation() == 3);
  BOOST_TEST(os.signalled_with(SIGTERM) == (std::set<pid_t>{100, 101}));
  m.exited(100, ExitKind::Clean, t0 + 3s);
  BOOST_TEST((m.state() == State::Reloading));
  m.exited(101, ExitKind::Clean, t0 + 3s);
  BOOST_TEST((m.state() == State::Running));
  BOOST_TEST(m.live_workers() == 1u);
}

BOOST_AUTO_TEST_CASE(stop_during_reload_terminates_both_generations_and_keeps_earlier_deadlines) {
  FakeOs os;
  Machine m(policy(1), os);
  m.start(t0);
  m.reload(policy(1), t0);
  m.stop(t0 + 1s);
  BOOST_TEST(os.signalled_with(SIGTERM) == (std::set<pid_t>{100, 101}));
  BOOST_TEST((*m.next_deadline() == t0 + 3s));  // the old worker's grace started at the reload
}

BOOST_AUTO_TEST_CASE(reload_after_stop_is_ignored) {
  FakeOs os;
  Machine m(policy(1), os);
  m.start(t0);
  m.stop(t0);
  m.reload(policy(4), t0);
  BOOST_TEST(os.spawned.size() == 1u);
  BOOST_TEST((m.state() == State::Stopping));
}

BOOST_AUTO_TEST_CASE(crash_of_a_new_worker_during_reload_is_replaced_and_old_exits_do_not_count) {
  FakeOs os;
  Machine m(policy(1), os);
  m.start(t0);
  m.reload(policy(1), t0);
  m.exited(100, ExitKind::Crashed, t0 + 1ms);  // the old one, killed: no respawn, no streak
  BOOST_TEST(m.crash_streak() == 0);
  BOOST_TEST(os.spawned.size() == 2u);
  m.exited(101, ExitKind::Crashed, t0 + 2ms);
  BOOST_TEST(os.spawned.size() == 3u);
  BOOST_TEST((m.state() == State::Running));
}

BOOST_AUTO_TEST_CASE(unknown_child_is_ignored) {
  FakeOs os;
  Machine m(policy(1), os);
  m.start(t0);
  m.exited(4242, ExitKind::Crashed, t0);
  BOOST_TEST(os.spawned.size() == 1u);
  BOOST_TEST(m.crash_streak() == 0);
}

BOOST_AUTO_TEST_CASE(state_names_for_the_log) {
  BOOST_TEST(name(State::Starting) == "starting");
  BOOST_TEST(name(State::Reloading) == "reloading");
  BOOST_TEST(name(State::Stopped) == "stopped");
}

BOOST_AUTO_TEST_SUITE_END()
