#include "engines/monitor/status_page.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <ctime>

#include "db/status_repo.hpp"
#include "engines/errors.hpp"
#include "engines/monitor/uptime.hpp"
#include "engines/text/utc_time.hpp"

namespace dozor::monitor {
namespace {

std::string day_of(std::int64_t epoch) { return text::utc_format(static_cast<std::time_t>(epoch), text::kUtcDay); }

std::string iso_of(std::int64_t epoch) { return text::utc_format(static_cast<std::time_t>(epoch), text::kUtcIso); }

// The one uptime definition (engines/monitor/uptime); a day nobody watched has no bar colour.
boost::json::value percent(std::int64_t observed, std::int64_t down) {
  auto p = uptime_percent(observed, down);
  return p ? boost::json::value(*p) : boost::json::value(nullptr);
}

}  // namespace

boost::json::value build_status_page(db::Database& db, const std::string& slug) {
  std::optional<db::status::Page> page;
  std::vector<db::status::ServiceRow> services;
  std::vector<db::status::DayRow> days;
  std::vector<db::status::IncidentRow> incidents;
  db.run(
      [&](db::Connection& c) {
        page = db::status::find_public(c, slug);
        if (!page) return;
        services = db::status::services(c, page->group_id);
        days = db::status::days(c, page->group_id, kStatusPageDays);
        incidents = db::status::incidents(c, page->group_id, kStatusPageDays, kStatusPageIncidents);
      },
      db::Retry::OnLostConnection);
  if (!page) throw NotFound("Status page not found");

  // Index of each day of the window, oldest first.
  std::map<std::string, std::size_t> day_index;
  std::vector<std::string> window;
  for (int k = kStatusPageDays - 1; k >= 0; --k) {
    window.push_back(day_of(page->now_epoch - std::int64_t{k} * 86400));
    day_index[window.back()] = window.size() - 1;
  }
  struct Totals {
    std::vector<std::pair<std::int64_t, std::int64_t>> per_day;  // observed, down
    std::int64_t observed = 0, down = 0;
  };
  std::map<std::int64_t, Totals> totals;
  for (const auto& s : services) totals[s.id].per_day.assign(window.size(), {0, 0});
  for (const auto& d : days) {
    auto t = totals.find(d.service_id);
    auto i = day_index.find(d.day);
    if (t == totals.end() || i == day_index.end()) continue;
    t->second.per_day[i->second].first += d.observed_ms;
    t->second.per_day[i->second].second += d.down_ms;
    t->second.observed += d.observed_ms;
    t->second.down += d.down_ms;
  }

  std::map<std::int64_t, std::string> names;
  boost::json::array out_services;
  int up = 0, down = 0, watched = 0;
  for (const auto& s : services) {
    names[s.id] = s.name;
    const auto& t = totals[s.id];
    boost::json::array bars;
    for (std::size_t i = 0; i < window.size(); ++i)
      bars.push_back({{"date", window[i]}, {"uptime", percent(t.per_day[i].first, t.per_day[i].second)}});
    std::string state = s.active ? s.state : "paused";
    if (state == "up") ++up;
    if (state == "down") ++down;
    if (s.active) ++watched;
    boost::json::object o{{"name", s.name},
                          {"state", state},
                          {"last_checked_at", s.last_checked_at ? boost::json::value(*s.last_checked_at) : nullptr},
                          {"response_time_ms", s.response_time_ms ? boost::json::value(*s.response_time_ms) : nullptr},
                          {"uptime_90d", percent(t.observed, t.down)},
                          {"days", std::move(bars)}};
    if (page->show_urls) o["url"] = s.url;
    out_services.push_back(std::move(o));
  }
  boost::json::array out_incidents;
  for (const auto& i : incidents) {
    boost::json::object o{{"service", names[i.service_id]},
                          {"started_at", i.started_at},
                          {"ended_at", i.ended_at ? boost::json::value(*i.ended_at) : nullptr},
                          {"duration_seconds", i.duration_seconds}};
    if (page->show_urls) o["cause"] = i.cause;  // causes may name hosts and addresses
    out_incidents.push_back(std::move(o));
  }
  // One word for the whole page, as status pages put it at the top.
  std::string overall = watched == 0                 ? "unknown"
                        : down == 0 && up == watched ? "operational"
                        : down == 0                  ? "unknown"
                        : down == watched            ? "major_outage"
                                                     : "partial_outage";
  return boost::json::object{{"slug", slug},
                             {"title", page->title},
                             {"description", page->description ? boost::json::value(*page->description) : nullptr},
                             {"announcement", page->announcement ? boost::json::value(*page->announcement) : nullptr},
                             {"status", overall},
                             {"generated_at", iso_of(page->now_epoch)},
                             {"refresh_seconds", kStatusPageTtl.count()},
                             {"services", std::move(out_services)},
                             {"incidents", std::move(out_incidents)}};
}

std::optional<boost::json::value> StatusPageCache::get(db::Database& db, const std::string& slug) {
  auto now = Clock::now();
  {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(slug);
    if (it != entries_.end() && now - it->second.built < kStatusPageTtl) return it->second.page;
  }
  // Built outside the lock: one slow build does not hold other pages. Two threads may build the
  // same page at once; both results are correct.
  std::optional<boost::json::value> page;
  try {
    page = build_status_page(db, slug);
  } catch (const NotFound&) {
  }
  std::lock_guard lock(mutex_);
  if (entries_.size() >= kStatusPageCacheEntries) {
    for (auto it = entries_.begin(); it != entries_.end();)  // drop the stale ones first
      it = now - it->second.built >= kStatusPageTtl ? entries_.erase(it) : std::next(it);
    if (entries_.size() >= kStatusPageCacheEntries) entries_.clear();
  }
  entries_[slug] = {now, page};
  return page;
}

}  // namespace dozor::monitor
