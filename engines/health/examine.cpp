#include <chrono>

#include "db/errors.hpp"
#include "engines/health/analyzer_probe.hpp"
#include "engines/health/system_health.hpp"

namespace dozor::health {
namespace {

DatabaseFigures read_database(db::Database& db, std::optional<db::health::Backlog>& backlog) {
  DatabaseFigures d;
  try {
    auto start = std::chrono::steady_clock::now();
    db.run([&](db::Connection& c) { d.schema = db::health::schema(c); }, db::Retry::OnLostConnection);
    d.latency_us =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
    d.reachable = true;
    db.run([&](db::Connection& c) { backlog = db::health::backlog(c, kHeartbeatDays); }, db::Retry::OnLostConnection);
  } catch (const db::DbTimeout&) {
    d.error = "a statement timed out";
  } catch (const db::DbBusy&) {
    d.error = "no connection free in time";
  } catch (const db::DbUnavailable&) {
    d.error = "connection refused or lost";
  } catch (const db::DbError&) {
    d.error = "a statement failed";
  }
  return d;
}

}  // namespace

Report examine(db::Database& db, const config::Config& cfg, const Scoreboard* board) {
  Report r;
  if (board) r.pool = board->snapshot();
  r.database = read_database(db, r.monitor);
  r.analyzer = probe_analyzer(cfg.analyzer.listen, kAnalyzerProbeTimeout);
  r.disks.push_back(disk_figures("state", cfg.server.state_dir));
  r.disks.push_back(disk_figures("vault", cfg.vault.root));

  r.pool_part = assess_pool(r.pool);
  r.database_part = assess_database(r.database);
  if (r.monitor) {
    r.monitor_part = assess_monitor(*r.monitor);
  } else {
    r.monitor_part.degrade("not read: the database cannot be reached");
  }
  r.analyzer_part = assess_analyzer(r.analyzer);
  r.disk_part = assess_disks(r.disks);
  r.level = overall({&r.pool_part, &r.database_part, &r.monitor_part, &r.analyzer_part, &r.disk_part});
  return r;
}

}  // namespace dozor::health
