#include "engines/monitor/kiosk.hpp"

#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

#include <algorithm>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <optional>
#include <string>
#include <vector>

#include "db/audit_repo.hpp"
#include "engines/audit/store.hpp"
#include "engines/limits.hpp"

namespace dozor::monitor {
namespace {

using boost::json::object;
using boost::json::value;

struct Row {
  bool running = false;
  int interval = kKioskDefaultInterval;
  std::int64_t base = 0;
  std::int64_t started_ms = 0;
};

struct Site {
  std::int64_t id;
  std::string name, url;
  std::optional<std::string> status, checked_at;
  std::optional<std::int64_t> response_ms;
  RotationKey key;
};

std::int64_t now_ms(db::Connection& c) {
  auto& st = c.prepare("SELECT ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000)");
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  rs->next();
  return rs->getInt64(1);
}

// The row, locked for the rest of the transaction (created on first use).
Row load(db::Connection& c, std::int64_t user_id) {
  auto& ins = c.prepare("INSERT IGNORE INTO kiosk_state (user_id, started_at) VALUES (?, NOW(3))");
  ins.setInt64(1, user_id);
  ins.executeUpdate();
  auto& st = c.prepare(
      "SELECT running, interval_seconds, base_index, ROUND(UNIX_TIMESTAMP(started_at) * 1000) FROM kiosk_state"
      " WHERE user_id = ? FOR UPDATE");
  st.setInt64(1, user_id);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  Row r;
  if (rs->next()) r = {rs->getBoolean(1), rs->getInt(2), rs->getInt64(3), rs->getInt64(4)};
  return r;
}

void save(db::Connection& c, std::int64_t user_id, const Row& r) {
  auto& st = c.prepare(
      "UPDATE kiosk_state SET running = ?, interval_seconds = ?, base_index = ?, started_at = FROM_UNIXTIME(? / 1000)"
      " WHERE user_id = ?");
  st.setBoolean(1, r.running);
  st.setInt(2, r.interval);
  st.setInt64(3, r.base);
  st.setInt64(4, r.started_ms);
  st.setInt64(5, user_id);
  st.executeUpdate();
}

std::vector<Site> sites(db::Connection& c, std::int64_t user_id) {
  auto& st = c.prepare(
      "SELECT s.id, s.name, s.url, IF(st.last_checked_at IS NULL, NULL, IF(st.last_available, 'up', 'down')),"
      " DATE_FORMAT(st.last_checked_at, '%Y-%m-%dT%H:%i:%sZ'), st.last_response_time, IFNULL(st.state, 'unknown'),"
      " IFNULL(UNIX_TIMESTAMP(st.down_since), 0)"
      " FROM services s LEFT JOIN service_state st ON st.service_id = s.id"
      " WHERE s.user_id = ? AND s.is_active ORDER BY s.id");
  st.setInt64(1, user_id);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<Site> out;
  while (rs->next()) {
    Site s{db::get_int(*rs, 1),
           db::get_string(*rs, 2),
           db::get_string(*rs, 3),
           db::opt_string(*rs, 4),
           db::opt_string(*rs, 5),
           std::nullopt,
           {}};
    if (!rs->isNull(6)) s.response_ms = rs->getInt64(6);
    bool down = db::get_string(*rs, 7) == "down";
    s.key = {s.id, down, static_cast<std::int64_t>(rs->getDouble(8)), !down && s.status == "down"};
    out.push_back(std::move(s));
  }
  std::stable_sort(out.begin(), out.end(), [](const Site& a, const Site& b) { return rotation_before(a.key, b.key); });
  return out;
}

std::string iso_ms(std::int64_t ms) {
  std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return std::string(buf) + "." + std::to_string(1000 + ms % 1000).substr(1) + "Z";
}

// The site's latest stored audit (grade, counts) with its high and critical findings, or null.
value latest_audit(db::Connection& c, std::int64_t user_id, const std::string& url) {
  auto target = audit::store::service_target(url);
  if (!target) return nullptr;
  auto summary = db::audits::latest_summary(c, user_id, *target);
  if (!summary) return nullptr;
  auto out = audit::store::summary_json(*summary);
  boost::json::array serious;
  for (const auto& f : db::audits::serious_findings(c, summary->id, limits::kKioskSeriousFindings))
    serious.push_back({{"id", f.id}, {"title", f.title}, {"severity", f.severity}});
  out["serious_findings"] = std::move(serious);
  return out;
}

value encode(db::Connection& c, std::int64_t user_id, const Row& r, std::int64_t now, const std::vector<Site>& list) {
  auto count = static_cast<std::int64_t>(list.size());
  std::int64_t idx = kiosk_index(r.running, r.base, r.started_ms, r.interval, now, count);
  value current = nullptr;
  if (count > 0) {
    const auto& s = list[static_cast<std::size_t>(idx)];
    current = object{{"id", s.id},
                     {"name", s.name},
                     {"url", s.url},
                     {"last_status", s.status ? value(*s.status) : value(nullptr)},
                     {"last_response_time", s.response_ms ? value(*s.response_ms) : value(nullptr)},
                     {"last_checked_at", s.checked_at ? value(*s.checked_at) : value(nullptr)},
                     {"audit", latest_audit(c, user_id, s.url)}};
  }
  value next = nullptr;
  if (r.running && count > 0) {
    std::int64_t period = std::int64_t{r.interval} * 1000;
    std::int64_t elapsed = std::max<std::int64_t>(0, now - r.started_ms);
    next = iso_ms(r.started_ms + (elapsed / period + 1) * period);
  }
  boost::json::array order;  // the rotation, so a screen lists its tiles the same way
  for (const auto& s : list) order.push_back(s.id);
  return object{{"running", r.running},       {"interval", r.interval},
                {"current_index", idx},       {"count", count},
                {"current_service", current}, {"next_switch_at", next},
                {"server_time", iso_ms(now)}, {"order", std::move(order)}};
}

}  // namespace

bool rotation_before(const RotationKey& a, const RotationKey& b) {
  auto rank = [](const RotationKey& k) { return k.down ? 0 : k.pending ? 1 : 2; };
  if (rank(a) != rank(b)) return rank(a) < rank(b);
  if (a.down && a.down_since != b.down_since) return a.down_since < b.down_since;
  return a.id < b.id;
}

std::int64_t kiosk_index(bool running, std::int64_t base, std::int64_t started_ms, int interval_s, std::int64_t now_ms,
                         std::int64_t count) {
  if (count <= 0) return 0;
  std::int64_t steps = 0;
  if (running && interval_s > 0 && now_ms > started_ms)
    steps = (now_ms - started_ms) / (std::int64_t{interval_s} * 1000);
  std::int64_t i = (base + steps) % count;
  return i < 0 ? i + count : i;
}

boost::json::value kiosk_apply(db::Database& db, std::int64_t user_id, KioskAction action, int interval_s) {
  value out;
  db.run(
      [&](db::Connection& c) {
        c.transaction([&] {
          Row r = load(c, user_id);
          auto now = now_ms(c);
          auto list = sites(c, user_id);
          auto count = static_cast<std::int64_t>(list.size());
          // Every action pins the position shown now, then moves from there.
          std::int64_t here = kiosk_index(r.running, r.base, r.started_ms, r.interval, now, count);
          r.base = here;
          r.started_ms = now;
          switch (action) {
            case KioskAction::Start:
              r.running = true;
              r.interval = interval_s;
              break;
            case KioskAction::Stop: r.running = false; break;
            case KioskAction::Next: r.base = here + 1; break;
            case KioskAction::Previous: r.base = here - 1 + (count > 0 ? count : 1); break;
          }
          save(c, user_id, r);
          out = encode(c, user_id, r, now, list);
        });
      },
      db::Retry::Never);
  return out;
}

boost::json::value kiosk_state(db::Database& db, std::int64_t user_id) {
  value out;
  db.run(
      [&](db::Connection& c) {
        c.transaction([&] {
          Row r = load(c, user_id);
          out = encode(c, user_id, r, now_ms(c), sites(c, user_id));
        });
      },
      db::Retry::OnLostConnection);
  return out;
}

}  // namespace dozor::monitor
