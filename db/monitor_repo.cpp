#include "db/monitor_repo.hpp"

#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

#include <algorithm>
#include <ctime>
#include <map>
#include <set>

#include "db/batch.hpp"
#include "engines/monitor/schedule.hpp"
#include "engines/notify/transition.hpp"
#include "engines/text/utc_time.hpp"
#include "engines/text/utf8.hpp"

namespace dozor::db::monitor {
namespace {

std::string iso(std::time_t t) { return text::utc_format(t, text::kUtcIso); }

std::string sql_time(std::time_t t) { return text::utc_format(t, "%Y-%m-%d %H:%M:%S"); }

void bind_opt(sql::PreparedStatement& st, int i, const std::optional<std::int64_t>& v) {
  if (v)
    st.setInt64(static_cast<unsigned>(i), *v);
  else
    st.setNull(static_cast<unsigned>(i), sql::DataType::INTEGER);
}

// Opens (down) or closes (up) the incident of a transition and writes its outbox events.
void transition(Connection& c, const Outcome& o, std::optional<std::int64_t>& incident) {
  notify::Transition t;
  t.user_id = o.due.user_id;
  t.service_id = o.due.service_id;
  t.service_name = o.due.name;
  t.url = o.due.url;
  t.at = iso(o.checked_at_epoch);
  t.up = o.went_up;
  if (o.went_down) {
    auto& ins = c.prepare("INSERT INTO incidents (service_id, started_at, cause) VALUES (?, ?, ?)");
    ins.setInt64(1, o.due.service_id);
    ins.setString(2, o.checked_at);
    ins.setString(3, text::utf8_prefix(o.error.value_or("unavailable"), 1024));
    ins.executeUpdate();
    incident = c.last_insert_id();
    t.error = o.error.value_or("");
  } else {
    if (o.due.open_incident_id) {
      auto& upd = c.prepare("UPDATE incidents SET ended_at = ? WHERE id = ? AND ended_at IS NULL");
      upd.setString(1, o.checked_at);
      upd.setInt64(2, *o.due.open_incident_id);
      upd.executeUpdate();
    }
    if (o.due.down_since_epoch)
      t.outage_seconds = std::max<std::int64_t>(0, o.checked_at_epoch - *o.due.down_since_epoch);
    incident = std::nullopt;
  }
  t.incident_id = o.went_down ? incident.value_or(0) : o.due.open_incident_id.value_or(0);
  notify::enqueue(c, t);
}

// service_state.failed_locations is a comma-separated list (location names have no commas).
std::vector<std::string> split_locations(const std::string& list) {
  std::vector<std::string> out;
  std::size_t from = 0;
  while (from < list.size()) {
    auto comma = list.find(',', from);
    if (comma == std::string::npos) comma = list.size();
    if (comma > from) out.push_back(list.substr(from, comma - from));
    from = comma + 1;
  }
  return out;
}

std::string join_locations(const std::vector<std::string>& list) {
  std::string out;
  for (const auto& l : list) out += (out.empty() ? "" : ",") + l;
  return out;
}

}  // namespace

std::vector<std::pair<std::int64_t, int>> services_without_state(Connection& c, int limit) {
  auto& st = c.prepare(
      "SELECT s.id, s.check_interval FROM services s LEFT JOIN service_state st ON st.service_id = s.id"
      " WHERE st.service_id IS NULL ORDER BY s.id LIMIT ?");
  st.setInt(1, limit);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<std::pair<std::int64_t, int>> out;
  while (rs->next()) out.emplace_back(rs->getInt64(1), rs->getInt(2));
  return out;
}

void add_state_rows(Connection& c, const std::vector<std::pair<std::int64_t, std::int64_t>>& offsets) {
  std::size_t done = 0;
  for (std::size_t chunk : chunk_sizes(offsets.size())) {
    // The service may be deleted meanwhile: the SELECT finds nothing and inserts nothing.
    auto& st = c.prepare(
        "INSERT INTO service_state (service_id, next_check_at) SELECT s.id, NOW(3) + INTERVAL v.offset_us MICROSECOND"
        " FROM services s JOIN (" +
        repeat_rows("SELECT ? AS id, ? AS offset_us", chunk, " UNION ALL ") +
        ") v ON v.id = s.id ON DUPLICATE KEY UPDATE service_state.service_id = service_state.service_id");
    unsigned i = 1;
    for (std::size_t k = 0; k < chunk; ++k) {
      st.setInt64(i++, offsets[done + k].first);
      st.setInt64(i++, offsets[done + k].second * 1000);
    }
    st.executeUpdate();
    done += chunk;
  }
}

std::vector<Due> claim_due(Connection& c, const Claim& claim) {
  std::vector<Due> out;
  c.transaction([&] {
    auto& sel = c.prepare(
        "SELECT st.service_id, s.user_id, s.name, s.url, s.check_interval, st.state, st.failures, st.successes,"
        " st.open_incident_id, UNIX_TIMESTAMP(st.down_since), s.method, s.expected_status, s.keyword,"
        " s.keyword_absent, UNIX_TIMESTAMP(st.cert_warned_at), st.failed_locations"
        " FROM service_state st JOIN services s ON s.id = st.service_id"
        " WHERE st.next_check_at <= NOW(3) AND s.is_active AND (st.lease_until IS NULL OR st.lease_until < NOW(3))"
        " AND NOT (st.awaiting_location AND FIND_IN_SET(?, st.failed_locations)"
        "          AND st.next_check_at > NOW(3) - INTERVAL ? SECOND)"
        " ORDER BY st.next_check_at LIMIT ? FOR UPDATE SKIP LOCKED");
    sel.setString(1, claim.location);
    sel.setInt(2, claim.handover_seconds);
    sel.setInt(3, claim.limit);
    std::unique_ptr<sql::ResultSet> rs(sel.executeQuery());
    while (rs->next()) {
      Due d;
      d.service_id = rs->getInt64(1);
      d.user_id = rs->getInt64(2);
      d.name = rs->getString(3);
      d.url = rs->getString(4);
      d.interval = rs->getInt(5);
      d.state = rs->getString(6);
      d.failures = rs->getInt(7);
      d.successes = rs->getInt(8);
      if (!rs->isNull(9)) d.open_incident_id = rs->getInt64(9);
      if (!rs->isNull(10)) d.down_since_epoch = static_cast<std::int64_t>(rs->getDouble(10));
      d.options.method = rs->getString(11);
      d.options.expected_status = opt_string(*rs, 12);
      d.options.keyword = opt_string(*rs, 13);
      d.options.keyword_absent = get_bool(*rs, 14);
      if (!rs->isNull(15)) d.cert_warned_epoch = static_cast<std::int64_t>(rs->getDouble(15));
      d.failed_locations = split_locations(rs->getString(16));
      out.push_back(std::move(d));
    }
    // One statement per chunk, not one per service: at 30,000 services a minute the claim's
    // round trips were what held dozord's loop back.
    std::size_t done = 0;
    for (std::size_t chunk : chunk_sizes(out.size())) {
      auto& lease = c.prepare(
          "UPDATE service_state SET lease_owner = ?, lease_until = NOW(3) + INTERVAL ? SECOND WHERE service_id IN (" +
          repeat_rows("?", chunk) + ")");
      lease.setString(1, claim.owner);
      lease.setInt(2, claim.lease_seconds);
      for (std::size_t k = 0; k < chunk; ++k) lease.setInt64(static_cast<unsigned>(k + 3), out[done + k].service_id);
      lease.executeUpdate();
      done += chunk;
    }
  });
  return out;
}

int live_locations(Connection& c, int seconds) {
  auto& st =
      c.prepare("SELECT COUNT(DISTINCT location) FROM daemon_heartbeats WHERE beat_at > NOW(3) - INTERVAL ? SECOND");
  st.setInt(1, seconds);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  return rs->next() ? rs->getInt(1) : 0;
}

namespace {

// Which services of the batch still exist, share-locked so they cannot vanish before commit.
std::set<std::int64_t> existing_services(Connection& c, const std::vector<std::int64_t>& ids) {
  std::set<std::int64_t> out;
  std::size_t done = 0;
  for (std::size_t chunk : chunk_sizes(ids.size())) {
    auto& st = c.prepare("SELECT id FROM services WHERE id IN (" + repeat_rows("?", chunk) + ") LOCK IN SHARE MODE");
    for (std::size_t k = 0; k < chunk; ++k) st.setInt64(static_cast<unsigned>(k + 1), ids[done + k]);
    done += chunk;
    std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
    while (rs->next()) out.insert(rs->getInt64(1));
  }
  return out;
}

void insert_checks(Connection& c, const std::vector<const Outcome*>& rows) {
  std::size_t done = 0;
  for (std::size_t chunk : chunk_sizes(rows.size())) {
    auto& st = c.prepare(
        "INSERT INTO checks (service_id, checked_at, is_available, status_code, response_time_ms, error, location,"
        " dns_ms, connect_ms, tls_ms, first_byte_ms, cert_expires_at) VALUES " +
        repeat_rows("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", chunk));
    unsigned i = 1;
    for (std::size_t k = 0; k < chunk; ++k) {
      const Outcome& o = *rows[done + k];
      st.setInt64(i++, o.due.service_id);
      st.setString(i++, o.checked_at);
      st.setBoolean(i++, o.available);
      bind_optional(st, i++, o.status_code);
      bind_optional(st, i++, o.response_time_ms);
      bind_optional(st, i++, o.error ? std::optional(text::utf8_prefix(*o.error, 1024)) : std::nullopt);
      st.setString(i++, o.location);
      bind_optional(st, i++, o.dns_ms);
      bind_optional(st, i++, o.connect_ms);
      bind_optional(st, i++, o.tls_ms);
      bind_optional(st, i++, o.first_byte_ms);
      bind_optional(st, i++, o.cert_expires ? std::optional(sql_time(*o.cert_expires)) : std::nullopt);
    }
    st.executeUpdate();
    done += chunk;
  }
}

// A state row as it is now, under its row lock.
struct Held {
  std::string lease_owner;
  std::optional<std::int64_t> accounted_until_ms;
  std::int64_t due_ms = 0;  // next_check_at
  std::int64_t now_ms = 0;  // the database's clock: every dozord schedules by the same one
};

std::map<std::int64_t, Held> lock_states(Connection& c, const std::vector<std::int64_t>& ids) {
  std::map<std::int64_t, Held> out;
  std::size_t done = 0;
  for (std::size_t chunk : chunk_sizes(ids.size())) {
    auto& st = c.prepare(
        "SELECT service_id, IFNULL(lease_owner, ''), CAST(UNIX_TIMESTAMP(accounted_until) * 1000 AS SIGNED),"
        " CAST(UNIX_TIMESTAMP(next_check_at) * 1000 AS SIGNED), CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED)"
        " FROM service_state WHERE service_id IN (" +
        repeat_rows("?", chunk) + ") ORDER BY service_id FOR UPDATE");
    for (std::size_t k = 0; k < chunk; ++k) st.setInt64(static_cast<unsigned>(k + 1), ids[done + k]);
    done += chunk;
    std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
    while (rs->next()) {
      Held h;
      h.lease_owner = rs->getString(2);
      h.accounted_until_ms = opt_int(*rs, 3);
      h.due_ms = rs->getInt64(4);
      h.now_ms = rs->getInt64(5);
      out.emplace(rs->getInt64(1), h);
    }
  }
  return out;
}

std::string sql_time_ms(std::int64_t ms) {
  return sql_time(static_cast<std::time_t>(ms / 1000)) + "." + std::to_string(1000 + ms % 1000).substr(1);
}

}  // namespace

int record(Connection& c, const std::string& owner, const std::vector<Outcome>& batch, int timeout_seconds,
           std::vector<dozor::monitor::rollup::Sample>& samples) {
  int transitions = 0;
  c.transaction([&] {
    transitions = 0;  // a transaction retried after a deadlock starts over
    samples.clear();
    std::vector<std::int64_t> ids;
    ids.reserve(batch.size());
    for (const auto& o : batch) ids.push_back(o.due.service_id);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    auto existing = existing_services(c, ids);  // deleted while checked: no row at all
    std::vector<const Outcome*> stored;
    for (const auto& o : batch)
      if (existing.count(o.due.service_id)) stored.push_back(&o);
    insert_checks(c, stored);
    std::vector<std::int64_t> kept(existing.begin(), existing.end());
    auto states = lock_states(c, kept);

    for (const Outcome* op : stored) {
      const Outcome& o = *op;
      dozor::monitor::rollup::Sample sample;
      sample.service_id = o.due.service_id;
      sample.checked_at_ms = o.checked_at_ms;
      sample.available = o.available;
      sample.response_ms = o.response_time_ms;
      auto st = states.find(o.due.service_id);
      // Only the lease holder moves the state; a result that lost its lease is history only.
      if (st == states.end() || st->second.lease_owner != owner) {
        samples.push_back(sample);
        continue;
      }
      Held& held = st->second;
      // The time since the state was last accounted was spent in the state the check found.
      if (held.accounted_until_ms && o.due.state != "unknown") {
        std::int64_t cap = dozor::monitor::rollup::max_span_ms(o.due.interval, timeout_seconds);
        std::int64_t from = std::max(*held.accounted_until_ms, o.checked_at_ms - cap);
        if (from < o.checked_at_ms) sample.span = {from, o.checked_at_ms, o.due.state == "down"};
      }
      samples.push_back(sample);

      std::optional<std::int64_t> incident = o.due.open_incident_id;
      if (o.went_down || o.went_up) {
        transition(c, o, incident);
        ++transitions;
      }
      std::int64_t next_ms = o.next_check_in < o.due.interval
                                 ? held.now_ms + std::int64_t{o.next_check_in} * 1000  // a re-check
                                 : dozor::monitor::next_due_ms(held.due_ms, held.now_ms, o.due.interval);
      auto& upd = c.prepare(
          "UPDATE service_state SET state = ?, failures = ?, successes = ?,"
          " open_incident_id = ?, down_since = IF(? = 'down', COALESCE(down_since, ?), NULL),"
          " last_checked_at = ?, last_available = ?, last_response_time = ?, last_error = ?,"
          " cert_expires_at = COALESCE(?, cert_expires_at), next_check_at = ?,"
          " accounted_until = GREATEST(IFNULL(accounted_until, ?), ?),"
          " checks_total = checks_total + 1, failures_total = failures_total + IF(?, 0, 1),"
          " failed_locations = ?, awaiting_location = ?, lease_owner = NULL, lease_until = NULL"
          " WHERE service_id = ?");
      upd.setString(1, o.new_state);
      upd.setInt(2, o.failures);
      upd.setInt(3, o.successes);
      bind_opt(upd, 4, incident);
      upd.setString(5, o.new_state);
      upd.setString(6, o.checked_at);
      upd.setString(7, o.checked_at);
      upd.setBoolean(8, o.available);
      bind_opt(upd, 9, o.response_time_ms);
      bind_optional(upd, 10, o.error ? std::optional(text::utf8_prefix(*o.error, 1024)) : std::nullopt);
      bind_optional(upd, 11, o.cert_expires ? std::optional(sql_time(*o.cert_expires)) : std::nullopt);
      upd.setString(12, sql_time_ms(next_ms));
      upd.setString(13, o.checked_at);
      upd.setString(14, o.checked_at);
      upd.setBoolean(15, o.available);
      upd.setString(16, join_locations(o.failed_locations));
      upd.setBoolean(17, o.awaiting_location);
      upd.setInt64(18, o.due.service_id);
      upd.executeUpdate();
      if (o.warn_cert && o.cert_expires) {
        notify::CertWarning w;
        w.user_id = o.due.user_id;
        w.service_id = o.due.service_id;
        w.service_name = o.due.name;
        w.url = o.due.url;
        w.expires_at = iso(*o.cert_expires);
        auto left = *o.cert_expires - o.checked_at_epoch;
        w.days_left = left >= 0 ? left / 86400 : -1 - (-left - 1) / 86400;  // floor
        w.day = o.checked_at.substr(0, 10);
        notify::enqueue(c, w);
        auto& warned = c.prepare("UPDATE service_state SET cert_warned_at = ? WHERE service_id = ?");
        warned.setString(1, o.checked_at);
        warned.setInt64(2, o.due.service_id);
        warned.executeUpdate();
      }
      held.accounted_until_ms = std::max(held.accounted_until_ms.value_or(o.checked_at_ms), o.checked_at_ms);
      held.lease_owner.clear();  // released: a second result of this batch is history only
    }
  });
  return transitions;
}

void release_all(Connection& c, const std::string& owner) {
  auto& st = c.prepare("UPDATE service_state SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ?");
  st.setString(1, owner);
  st.executeUpdate();
}

void heartbeat(Connection& c, const Beat& b) {
  auto& st = c.prepare(
      "INSERT INTO daemon_heartbeats (owner, location, pid, started_at, beat_at, checks_done, rss_bytes, cpu_ms,"
      " in_flight) VALUES (?, ?, ?, ?, NOW(3), ?, ?, ?, ?)"
      " ON DUPLICATE KEY UPDATE beat_at = NOW(3), checks_done = VALUES(checks_done), rss_bytes = VALUES(rss_bytes),"
      " cpu_ms = VALUES(cpu_ms), in_flight = VALUES(in_flight)");
  st.setString(1, b.owner);
  st.setString(2, b.location);
  st.setInt(3, b.pid);
  st.setString(4, b.started_at);
  st.setInt64(5, b.checks_done);
  st.setInt64(6, b.rss_bytes);
  st.setInt64(7, b.cpu_ms);
  st.setInt64(8, b.in_flight);
  st.executeUpdate();
}

MetricsSnapshot metrics_snapshot(Connection& c) {
  MetricsSnapshot m;
  {
    auto& st = c.prepare(
        "SELECT s.id, s.user_id, s.is_active, IFNULL(st.state, 'unknown'), st.last_response_time,"
        " IFNULL(st.checks_total, 0), IFNULL(st.failures_total, 0), CAST(UNIX_TIMESTAMP(st.cert_expires_at) AS SIGNED)"
        " FROM services s LEFT JOIN service_state st ON st.service_id = s.id ORDER BY s.id");
    std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
    while (rs->next()) {
      ServiceFigures f;
      f.service_id = get_int(*rs, 1);
      f.user_id = get_int(*rs, 2);
      f.active = get_bool(*rs, 3);
      f.state = get_string(*rs, 4);
      f.last_response_ms = opt_int(*rs, 5);
      f.checks_total = get_int(*rs, 6);
      f.failures_total = get_int(*rs, 7);
      f.cert_expires = opt_int(*rs, 8);
      m.services.push_back(std::move(f));
    }
  }
  {
    auto& st = c.prepare(
        "SELECT owner, location, pid, checks_done, rss_bytes, cpu_ms, in_flight,"
        " CAST(UNIX_TIMESTAMP(started_at) AS SIGNED), TIMESTAMPDIFF(MICROSECOND, beat_at, NOW(3)) DIV 1000"
        " FROM daemon_heartbeats ORDER BY owner");
    std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
    while (rs->next()) {
      DaemonFigures d;
      d.owner = get_string(*rs, 1);
      d.location = get_string(*rs, 2);
      d.pid = get_int(*rs, 3);
      d.checks_done = get_int(*rs, 4);
      d.rss_bytes = get_int(*rs, 5);
      d.cpu_ms = get_int(*rs, 6);
      d.in_flight = get_int(*rs, 7);
      d.started_at = get_int(*rs, 8);
      d.beat_age_ms = get_int(*rs, 9);
      m.daemons.push_back(std::move(d));
    }
  }
  {
    auto& st = c.prepare("SELECT COUNT(*) FROM notification_outbox WHERE state = 'pending'");
    std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
    if (rs->next()) m.outbox_pending = get_int(*rs, 1);
  }
  return m;
}

int purge_heartbeats(Connection& c, int days) {
  auto& st = c.prepare("DELETE FROM daemon_heartbeats WHERE beat_at < NOW(3) - INTERVAL ? DAY");
  st.setInt(1, days);
  return st.executeUpdate();
}

int purge_checks(Connection& c, int days, int limit) {
  auto& st = c.prepare("DELETE FROM checks WHERE checked_at < NOW(3) - INTERVAL ? DAY LIMIT ?");
  st.setInt(1, days);
  st.setInt(2, limit);
  return st.executeUpdate();
}

}  // namespace dozor::db::monitor
