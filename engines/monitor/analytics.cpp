#include "engines/monitor/analytics.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <ctime>
#include <map>

#include "db/analytics_repo.hpp"
#include "db/services_repo.hpp"
#include "engines/errors.hpp"
#include "engines/monitor/rollup.hpp"
#include "engines/monitor/uptime.hpp"
#include "engines/text/utc_time.hpp"

namespace dozor::monitor {
namespace {

using boost::json::array;
using boost::json::object;
using boost::json::value;

constexpr std::int64_t kDay = 86400;

value percent(std::optional<double> p) { return p ? value(*p) : value(nullptr); }

value opt(std::optional<std::int64_t> v) { return v ? value(*v) : value(nullptr); }

}  // namespace

boost::json::value analytics_summary(db::Database& db, std::int64_t user_id) {
  std::vector<db::analytics::ServiceRow> services;
  std::vector<db::analytics::IncidentRow> incidents;
  std::vector<db::analytics::TimingRow> timings;
  std::vector<db::analytics::WatchedRow> watched;
  std::int64_t now = 0;
  db.run(
      [&](db::Connection& c) {
        now = db::analytics::now_epoch(c);
        services = db::analytics::services_of(c, user_id);
        incidents = db::analytics::incidents_of(c, user_id, 7);
        timings = db::analytics::timings_24h(c, user_id);
        watched = db::analytics::watched_of(c, user_id);
      },
      db::Retry::OnLostConnection);

  struct Counts {
    std::int64_t inc24 = 0, inc7 = 0;
  };
  std::map<std::int64_t, Counts> counts;
  for (const auto& i : incidents) {
    if (i.span.start >= now - kDay) ++counts[i.service_id].inc24;
    if (i.span.start >= now - 7 * kDay) ++counts[i.service_id].inc7;
  }
  std::map<std::int64_t, const db::analytics::TimingRow*> timing;
  for (const auto& t : timings) timing[t.service_id] = &t;
  std::map<std::int64_t, const db::analytics::WatchedRow*> weeks;
  for (const auto& w : watched) weeks[w.service_id] = &w;

  object totals{{"services", services.size()}, {"active", 0}, {"up", 0}, {"down", 0}, {"unknown", 0}};
  // Uptime (engines/monitor/uptime): watched and down time from the rollups; the overall figure
  // sums every service's time first, so each weighs by how long it was watched.
  Watched all24, all7, all30;
  rollup::Figures all;  // every service's last 24 hours merged
  std::int64_t inc24 = 0, inc7 = 0;
  array rows;
  for (const auto& s : services) {
    if (s.active) totals["active"] = totals["active"].as_int64() + 1;
    std::string state = s.state == "up" || s.state == "down" ? s.state : "unknown";
    totals[state] = totals[state].as_int64() + 1;
    const auto& n = counts[s.id];
    inc24 += n.inc24;
    inc7 += n.inc7;
    Watched w24, w7, w30;
    std::optional<std::int64_t> avg, p95;
    if (auto it = timing.find(s.id); it != timing.end()) {
      const auto& f24 = it->second->figures;
      w24.add(f24.observed_ms, f24.down_ms);
      if (f24.rt_count > 0) {
        avg = f24.rt_sum_ms / f24.rt_count;
        p95 = f24.p95();
        all.merge(f24);
      }
    }
    if (auto it = weeks.find(s.id); it != weeks.end()) {
      w7 = it->second->week;
      w30 = it->second->month;
    }
    all24.add(w24.observed_ms, w24.down_ms);
    all7.add(w7.observed_ms, w7.down_ms);
    all30.add(w30.observed_ms, w30.down_ms);
    rows.push_back(object{{"id", s.id},
                          {"name", s.name},
                          {"url", s.url},
                          {"is_active", s.active},
                          {"status", state},
                          {"uptime_24h", percent(uptime_percent(w24))},
                          {"uptime_7d", percent(uptime_percent(w7))},
                          {"uptime_30d", percent(uptime_percent(w30))},
                          {"avg_response_ms_24h", opt(avg)},
                          {"p95_response_ms_24h", opt(p95)},
                          {"incidents_24h", n.inc24},
                          {"incidents_7d", n.inc7}});
  }
  return object{
      {"totals", totals},
      {"uptime", object{{"24h", percent(uptime_percent(all24))},
                        {"7d", percent(uptime_percent(all7))},
                        {"30d", percent(uptime_percent(all30))}}},
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
  std::vector<db::analytics::Point> points, buckets;
  std::string source;
  std::int64_t now = 0;
  const int days = window == "24h" ? 1 : window == "7d" ? 7 : window == "30d" ? 30 : 365;
  db.run(
      [&](db::Connection& c) {
        require_owned(c, user_id, service_id);
        now = db::analytics::now_epoch(c);
        if (window == "24h") {
          points = db::analytics::raw_points(c, service_id, 24);
          buckets = db::analytics::rollup_points(c, service_id, "hour", 1);
          source = "checks";
        } else if (window == "365d") {
          points = db::analytics::rollup_points(c, service_id, "day", days);
          buckets = points;
          source = "daily";
        } else {
          points = db::analytics::rollup_points(c, service_id, "hour", days);
          // Uptime bars per hour for 7 days, per day for 30 — the rows the summary's windows sum.
          buckets = window == "7d" ? points : db::analytics::rollup_points(c, service_id, "day", days);
          source = "hourly";
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
  array bars;
  Watched total;
  for (const auto& b : buckets) {
    total.add(b.observed_ms, b.down_ms);
    bars.push_back(object{{"t", b.t},
                          {"observed_ms", b.observed_ms},
                          {"down_ms", b.down_ms},
                          {"uptime", percent(uptime_percent(b.observed_ms, b.down_ms))}});
  }
  return object{{"service_id", service_id},
                {"window", window},
                {"source", source},
                {"from", text::utc_format(static_cast<std::time_t>(now - std::int64_t{days} * kDay), text::kUtcIso)},
                {"to", text::utc_format(static_cast<std::time_t>(now), text::kUtcIso)},
                {"points", out},
                {"uptime", percent(uptime_percent(total))},
                {"uptime_buckets", bars}};
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
