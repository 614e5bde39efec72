#include "engines/monitor/analytics.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <cmath>
#include <map>

#include "db/analytics_repo.hpp"
#include "db/services_repo.hpp"
#include "engines/errors.hpp"
#include "engines/monitor/rollup.hpp"
#include "engines/monitor/uptime.hpp"

namespace dozor::monitor {
namespace {

using boost::json::array;
using boost::json::object;
using boost::json::value;

constexpr std::int64_t kDay = 86400;

value percent(std::optional<double> p) {
  if (!p) return nullptr;
  return std::round(*p * 1000.0) / 1000.0;  // three decimals: 99.999 is a real SLA figure
}

value opt(std::optional<std::int64_t> v) { return v ? value(*v) : value(nullptr); }

struct Figures {
  std::optional<double> up24, up7, up30;
  std::int64_t inc24 = 0, inc7 = 0;
};

}  // namespace

boost::json::value analytics_summary(db::Database& db, std::int64_t user_id) {
  std::vector<db::analytics::ServiceRow> services;
  std::vector<db::analytics::IncidentRow> incidents;
  std::vector<db::analytics::TimingRow> timings;
  std::int64_t now = 0;
  db.run(
      [&](db::Connection& c) {
        now = db::analytics::now_epoch(c);
        services = db::analytics::services_of(c, user_id);
        incidents = db::analytics::incidents_of(c, user_id, 30);
        timings = db::analytics::timings_24h(c, user_id);
      },
      db::Retry::OnLostConnection);

  std::map<std::int64_t, std::vector<Span>> down;
  std::map<std::int64_t, Figures> fig;
  for (const auto& i : incidents) {
    down[i.service_id].push_back(i.span);
    if (i.span.start >= now - kDay) ++fig[i.service_id].inc24;
    if (i.span.start >= now - 7 * kDay) ++fig[i.service_id].inc7;
  }
  std::map<std::int64_t, const db::analytics::TimingRow*> timing;
  for (const auto& t : timings) timing[t.service_id] = &t;

  object totals{{"services", services.size()}, {"active", 0}, {"up", 0}, {"down", 0}, {"unknown", 0}};
  // Time-weighted over all services: total monitored seconds and total down seconds per window.
  struct Window {
    std::int64_t span;
    double monitored = 0, up = 0;
  };
  Window w24{kDay}, w7{7 * kDay}, w30{30 * kDay};
  rollup::Figures all;  // every service's last 24 hours merged
  std::int64_t inc24 = 0, inc7 = 0;
  array rows;
  for (const auto& s : services) {
    if (s.active) totals["active"] = totals["active"].as_int64() + 1;
    std::string state = s.state == "up" || s.state == "down" ? s.state : "unknown";
    totals[state] = totals[state].as_int64() + 1;
    auto& f = fig[s.id];
    const auto& d = down[s.id];
    for (Window* w : {&w24, &w7, &w30}) {
      std::int64_t from = std::max(now - w->span, s.created_epoch);
      if (now <= from) continue;
      w->monitored += static_cast<double>(now - from);
      w->up += static_cast<double>(now - from - seconds_within(d, from, now));
    }
    f.up24 = uptime_percent(d, s.created_epoch, now - kDay, now);
    f.up7 = uptime_percent(d, s.created_epoch, now - 7 * kDay, now);
    f.up30 = uptime_percent(d, s.created_epoch, now - 30 * kDay, now);
    inc24 += f.inc24;
    inc7 += f.inc7;
    std::optional<std::int64_t> avg, p95;
    if (auto it = timing.find(s.id); it != timing.end() && it->second->figures.rt_count > 0) {
      const auto& f24 = it->second->figures;
      avg = f24.rt_sum_ms / f24.rt_count;
      p95 = f24.p95();
      all.merge(f24);
    }
    rows.push_back(object{{"id", s.id},
                          {"name", s.name},
                          {"url", s.url},
                          {"is_active", s.active},
                          {"status", state},
                          {"uptime_24h", percent(f.up24)},
                          {"uptime_7d", percent(f.up7)},
                          {"uptime_30d", percent(f.up30)},
                          {"avg_response_ms_24h", opt(avg)},
                          {"p95_response_ms_24h", opt(p95)},
                          {"incidents_24h", f.inc24},
                          {"incidents_7d", f.inc7}});
  }
  auto overall = [](const Window& w) -> value {
    return w.monitored > 0 ? percent(100.0 * w.up / w.monitored) : value(nullptr);
  };
  return object{
      {"totals", totals},
      {"uptime", object{{"24h", overall(w24)}, {"7d", overall(w7)}, {"30d", overall(w30)}}},
      {"response_time_24h", object{{"avg_ms", all.rt_count ? value(all.rt_sum_ms / all.rt_count) : value(nullptr)},
                                   {"p95_ms", opt(all.p95())}}},
      {"incidents", object{{"24h", inc24}, {"7d", inc7}}},
      {"services", rows},
  };
}

namespace {

void require_owned(db::Connection& c, std::int64_t user_id, std::int64_t service_id) {
  if (!db::services::find_owned(c, user_id, service_id)) throw NotFound("Service not found");
}

}  // namespace

boost::json::value service_history(db::Database& db, std::int64_t user_id, std::int64_t service_id,
                                   const std::string& window) {
  std::vector<db::analytics::Point> points;
  std::string source;
  db.run(
      [&](db::Connection& c) {
        require_owned(c, user_id, service_id);
        if (window == "24h") {
          points = db::analytics::raw_points(c, service_id, 24);
          source = "checks";
        } else {
          bool year = window == "365d";
          points = db::analytics::rollup_points(c, service_id, year ? "day" : "hour",
                                                year             ? 365
                                                : window == "7d" ? 7
                                                                 : 30);
          source = year ? "daily" : "hourly";
        }
      },
      db::Retry::OnLostConnection);
  array out;
  for (const auto& p : points)
    out.push_back(object{{"t", p.t},
                         {"checks", p.checks},
                         {"failures", p.failures},
                         {"avg_ms", opt(p.avg_ms)},
                         {"p95_ms", opt(p.p95_ms)}});
  return object{{"service_id", service_id}, {"window", window}, {"source", source}, {"points", out}};
}

boost::json::value service_incidents(db::Database& db, std::int64_t user_id, std::int64_t service_id) {
  std::vector<db::analytics::Incident> list;
  db.run(
      [&](db::Connection& c) {
        require_owned(c, user_id, service_id);
        list = db::analytics::incidents(c, service_id, 100);
      },
      db::Retry::OnLostConnection);
  array out;
  for (const auto& i : list)
    out.push_back(object{{"id", i.id},
                         {"started_at", i.started_at},
                         {"ended_at", i.ended_at ? value(*i.ended_at) : value(nullptr)},
                         {"duration_seconds", i.duration_seconds},
                         {"cause", i.cause}});
  return out;
}

}  // namespace dozor::monitor
