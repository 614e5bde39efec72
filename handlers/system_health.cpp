// GET /monitoring/health: the whole system as one answer (docs/health.md). nginx lets only
// loopback and nginx.internal_networks reach /monitoring/.
#include <boost/json.hpp>

#include "engines/health/system_health.hpp"
#include "engines/text/utc_time.hpp"
#include "handlers/handlers.hpp"
#include "handlers/versions.hpp"

namespace dozor::handlers {
namespace {

namespace json = boost::json;
namespace hl = health;

json::object part_json(const hl::Part& p) {
  json::array reasons;
  for (const auto& r : p.reasons) reasons.emplace_back(r);
  return {{"status", hl::name(p.level)}, {"reasons", std::move(reasons)}};
}

std::string iso_ms(std::int64_t unix_ms) { return unix_ms > 0 ? text::utc_format(unix_ms / 1000, text::kUtcIso) : ""; }

json::object web_json(const hl::Report& r) {
  json::object o = part_json(r.pool_part);
  if (!r.pool) return o;
  const auto& p = *r.pool;
  int threads = 0, busy = 0;
  json::array workers;
  for (const auto& w : p.workers) {
    threads += w.threads;
    busy += w.busy;
    workers.push_back(json::object{{"pid", w.pid},
                                   {"generation", w.generation},
                                   {"started_at", iso_ms(w.started_ms)},
                                   {"threads", w.threads},
                                   {"busy", w.busy},
                                   {"requests", w.requests}});
  }
  o["master_pid"] = p.master_pid;
  o["started_at"] = iso_ms(p.started_ms);
  o["pool_state"] = hl::name(p.state);
  o["generation"] = p.generation;
  o["workers_configured"] = p.configured_workers;
  o["workers_alive"] = static_cast<std::int64_t>(p.workers.size());
  o["threads"] = json::object{{"total", threads}, {"busy", busy}, {"idle", threads - busy}};
  o["restarts"] = p.restarts;
  o["recycled"] = p.recycled;
  o["requests_served"] = p.requests_total;
  o["workers"] = std::move(workers);
  return o;
}

json::object database_json(const hl::Report& r) {
  json::object o = part_json(r.database_part);
  o["reachable"] = r.database.reachable;
  if (!r.database.reachable) return o;
  o["latency_ms"] = static_cast<double>(r.database.latency_us) / 1000.0;
  o["schema_version"] = r.database.schema.version;
  o["schema_name"] = r.database.schema.name;
  o["migrations_applied"] = r.database.schema.applied;
  return o;
}

json::object monitor_json(const hl::Report& r) {
  json::object o = part_json(r.monitor_part);
  if (!r.monitor) return o;
  const auto& b = *r.monitor;
  json::array daemons;
  for (const auto& d : b.daemons)
    daemons.push_back(json::object{{"owner", d.owner},
                                   {"location", d.location},
                                   {"pid", d.pid},
                                   {"heartbeat_age_seconds", static_cast<double>(d.age_ms) / 1000.0},
                                   {"stale", d.age_ms >= hl::kHeartbeatStaleMs},
                                   {"started_at", text::utc_format(d.started_at, text::kUtcIso)},
                                   {"checks_done", d.checks_done},
                                   {"checks_in_flight", d.in_flight}});
  o["daemons"] = std::move(daemons);
  o["overdue_services"] = b.overdue_services;
  o["check_lag_seconds"] = static_cast<double>(b.check_lag_ms) / 1000.0;
  o["task_queue"] = json::object{{"queued", b.tasks_queued}, {"running", b.tasks_running}};
  o["outbox"] = json::object{{"pending", b.outbox_pending},
                             {"oldest_age_seconds", static_cast<double>(b.outbox_oldest_ms) / 1000.0}};
  return o;
}

json::object analyzer_json(const hl::Report& r) {
  json::object o = part_json(r.analyzer_part);
  const auto& a = r.analyzer;
  o["configured"] = a.configured;
  if (!a.configured) return o;
  o["url"] = a.url;
  o["reachable"] = a.reachable;
  o["ready"] = a.ready;
  if (!a.reason.empty()) o["reason"] = a.reason;
  if (a.reachable) {
    o["uptime_seconds"] = a.uptime_seconds;
    o["documents_analysed"] = a.documents_analysed;
    o["in_flight"] = a.in_flight;
    if (!a.model_name.empty()) o["model"] = json::object{{"name", a.model_name}, {"version", a.model_version}};
  }
  return o;
}

json::object disk_json(const hl::Report& r) {
  json::object o = part_json(r.disk_part);
  json::array dirs;
  for (const auto& d : r.disks) {
    json::object e{{"role", d.role}, {"path", d.path}, {"readable", d.readable}};
    if (d.readable) {
      e["free_bytes"] = d.free_bytes;
      e["total_bytes"] = d.total_bytes;
    }
    dirs.push_back(std::move(e));
  }
  o["directories"] = std::move(dirs);
  return o;
}

}  // namespace

Response monitoring_health(Context& ctx) {
  hl::Report r = hl::examine(ctx.app.db, ctx.app.cfg, ctx.app.scoreboard);
  json::object body{{"status", hl::name(r.level)}, {"version", kDiagnosticsRelease},
                    {"build", DOZOR_VERSION},      {"checked_at", text::utc_now(text::kUtcIso)},
                    {"web", web_json(r)},          {"database", database_json(r)},
                    {"monitor", monitor_json(r)},  {"analyzer", analyzer_json(r)},
                    {"disk", disk_json(r)}};
  return Response::json(body, r.level == hl::Level::Down ? 503 : 200);
}

}  // namespace dozor::handlers
