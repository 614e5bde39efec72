#include "engines/health/system_health.hpp"

#include <boost/test/unit_test.hpp>

#include "engines/analyzer/remote.hpp"
#include "engines/health/analyzer_probe.hpp"

using namespace dozor::health;
using dozor::db::health::Backlog;
using dozor::db::health::Beat;

namespace {

PoolFigures pool(PoolState state, int generation, int configured, std::vector<int> worker_generations) {
  PoolFigures p;
  p.state = state;
  p.generation = generation;
  p.configured_workers = configured;
  for (int g : worker_generations) {
    WorkerFigures w;
    w.pid = 100 + static_cast<int>(p.workers.size());
    w.generation = g;
    p.workers.push_back(w);
  }
  return p;
}

Backlog live_monitor() {
  Backlog b;
  Beat d;
  d.owner = "host:1";
  d.location = "default";
  d.age_ms = 1000;
  b.daemons.push_back(d);
  return b;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(health_assessment)

BOOST_AUTO_TEST_CASE(a_whole_running_pool_is_ok_and_a_missing_worker_degrades_it) {
  BOOST_CHECK(assess_pool(pool(PoolState::Running, 2, 2, {2, 2})).level == Level::Ok);
  Part p = assess_pool(pool(PoolState::Running, 2, 2, {2}));
  BOOST_CHECK(p.level == Level::Degraded);
  BOOST_CHECK_EQUAL(p.reasons.at(0), "1 of 2 workers alive");
  // An old generation's workers do not make up for the current one's.
  BOOST_CHECK(assess_pool(pool(PoolState::Running, 2, 2, {1, 2})).level == Level::Degraded);
  // While a generation is forked fewer are expected.
  BOOST_CHECK(assess_pool(pool(PoolState::Reloading, 3, 2, {2, 2, 3})).level == Level::Ok);
  BOOST_CHECK(assess_pool(pool(PoolState::Stopping, 2, 2, {2, 2})).level == Level::Degraded);
  BOOST_CHECK(assess_pool(std::nullopt).level == Level::Degraded);
}

BOOST_AUTO_TEST_CASE(an_unreachable_database_is_down_and_a_slow_one_degraded) {
  DatabaseFigures d;
  d.reachable = false;
  d.error = "connection refused or lost";
  Part p = assess_database(d);
  BOOST_CHECK(p.level == Level::Down);
  BOOST_CHECK_EQUAL(p.reasons.at(0), "the database cannot be reached: connection refused or lost");
  d.reachable = true;
  d.latency_us = kDbSlowMs * 1000;
  BOOST_CHECK(assess_database(d).level == Level::Ok);
  d.latency_us = kDbSlowMs * 1000 + 1;
  BOOST_CHECK(assess_database(d).level == Level::Degraded);
}

BOOST_AUTO_TEST_CASE(a_heartbeat_is_stale_from_kHeartbeatStaleMs) {
  Backlog b = live_monitor();
  b.daemons[0].age_ms = kHeartbeatStaleMs - 1;
  BOOST_CHECK(assess_monitor(b).level == Level::Ok);
  b.daemons[0].age_ms = kHeartbeatStaleMs;
  Part p = assess_monitor(b);
  BOOST_CHECK(p.level == Level::Degraded);
  BOOST_CHECK_EQUAL(p.reasons.at(0), "dozord host:1 (default) silent for 30 s");
  BOOST_CHECK_EQUAL(p.reasons.at(1), "no dozord wrote a heartbeat in the last 30 s");
  // A second, live dozord: the silent one still degrades (its services wait for their leases).
  Beat live = b.daemons[0];
  live.owner = "host:2";
  live.age_ms = 10;
  b.daemons.push_back(live);
  p = assess_monitor(b);
  BOOST_CHECK(p.level == Level::Degraded);
  BOOST_CHECK_EQUAL(p.reasons.size(), 1u);
  BOOST_CHECK(assess_monitor(Backlog{}).level == Level::Degraded);  // no dozord at all
}

BOOST_AUTO_TEST_CASE(check_lag_and_the_outbox_degrade_past_their_thresholds) {
  Backlog b = live_monitor();
  b.overdue_services = 3;
  b.check_lag_ms = kCheckLagMs;
  BOOST_CHECK(assess_monitor(b).level == Level::Ok);
  b.check_lag_ms = kCheckLagMs + 1;
  Part p = assess_monitor(b);
  BOOST_CHECK(p.level == Level::Degraded);
  BOOST_CHECK_EQUAL(p.reasons.at(0), "3 services overdue, the oldest by 60 s");

  b = live_monitor();
  b.outbox_pending = 2;
  b.outbox_oldest_ms = kOutboxOldestMs;
  BOOST_CHECK(assess_monitor(b).level == Level::Ok);
  b.outbox_oldest_ms = kOutboxOldestMs + 1;
  BOOST_CHECK(assess_monitor(b).level == Level::Degraded);
}

BOOST_AUTO_TEST_CASE(the_analyzer_degrades_when_unreachable_or_not_ready_and_is_ignored_when_absent) {
  AnalyzerFigures a;
  a.url = "http://127.0.0.1:8181/health";
  a.reason = "Couldn't connect to server";
  Part p = assess_analyzer(a);
  BOOST_CHECK(p.level == Level::Degraded);
  BOOST_CHECK_EQUAL(p.reasons.at(0),
                    "the analyzer cannot be reached at http://127.0.0.1:8181/health: Couldn't connect to server");
  a.reachable = true;
  a.reason = "model not loaded";
  BOOST_CHECK(assess_analyzer(a).level == Level::Degraded);
  a.ready = true;
  a.reason.clear();
  BOOST_CHECK(assess_analyzer(a).level == Level::Ok);
  AnalyzerFigures absent;
  absent.configured = false;
  BOOST_CHECK(assess_analyzer(absent).level == Level::Ok);
}

BOOST_AUTO_TEST_CASE(low_disk_space_degrades_by_ratio_or_by_bytes) {
  DiskFigures d{"state", "/var/lib/dozor", true, 100ULL << 30, 1000ULL << 30};  // 10 %, 100 GiB
  BOOST_CHECK(assess_disks({d}).level == Level::Ok);
  d.free_bytes = 49ULL << 30;  // 4.9 %
  BOOST_CHECK(assess_disks({d}).level == Level::Degraded);
  d = DiskFigures{"vault", "/v", true, kDiskFreeBytes - 1, kDiskFreeBytes * 2};
  BOOST_CHECK(assess_disks({d}).level == Level::Degraded);
  d.free_bytes = kDiskFreeBytes;
  BOOST_CHECK(assess_disks({d}).level == Level::Ok);
  BOOST_CHECK(assess_disks({DiskFigures{"state", "/nonexistent"}}).level == Level::Degraded);
  // disk_figures reads a real file system.
  DiskFigures root = disk_figures("state", "/");
  BOOST_CHECK(root.readable);
  BOOST_CHECK(root.total_bytes > 0 && root.free_bytes <= root.total_bytes);
  BOOST_CHECK(!disk_figures("state", "/nonexistent/dir").readable);
}

BOOST_AUTO_TEST_CASE(the_whole_is_the_worst_part) {
  Part ok, degraded, down;
  degraded.degrade("x");
  down.fail("y");
  BOOST_CHECK(overall({&ok, &ok}) == Level::Ok);
  BOOST_CHECK(overall({&ok, &degraded}) == Level::Degraded);
  BOOST_CHECK(overall({&degraded, &down, &ok}) == Level::Down);
  BOOST_CHECK_EQUAL(name(Level::Degraded), "degraded");
}

BOOST_AUTO_TEST_CASE(the_analyzer_is_asked_where_nginx_listens_for_it) {
  using dozor::analyzer::remote::base_url;
  BOOST_CHECK_EQUAL(base_url("127.0.0.1:8181"), "http://127.0.0.1:8181");
  BOOST_CHECK_EQUAL(base_url("0.0.0.0:8181"), "http://127.0.0.1:8181");
  BOOST_CHECK_EQUAL(base_url("*:9000"), "http://127.0.0.1:9000");
  BOOST_CHECK_EQUAL(base_url("8181"), "http://127.0.0.1:8181");
  BOOST_CHECK_EQUAL(base_url("[::]:8181"), "http://[::1]:8181");
  BOOST_CHECK_EQUAL(base_url("[::1]:8181"), "http://[::1]:8181");
  BOOST_CHECK_EQUAL(base_url("10.1.2.3:8181 default_server"), "http://10.1.2.3:8181");
  BOOST_CHECK_EQUAL(base_url(""), "");
  BOOST_CHECK_EQUAL(base_url("[::1"), "");
}

BOOST_AUTO_TEST_CASE(an_analyzer_that_does_not_answer_is_unreachable_within_the_timeout) {
  // Port 1 on loopback: nothing listens, the connection is refused at once.
  AnalyzerFigures a = probe_analyzer("127.0.0.1:1", std::chrono::milliseconds(500));
  BOOST_CHECK(a.configured);
  BOOST_CHECK(!a.reachable);
  BOOST_CHECK(!a.ready);
  BOOST_CHECK(!a.reason.empty());
  BOOST_CHECK(!probe_analyzer("", std::chrono::milliseconds(500)).configured);
}

BOOST_AUTO_TEST_SUITE_END()
