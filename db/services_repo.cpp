#include "db/services_repo.hpp"

#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

#include "db/users_repo.hpp"

#include "engines/text/utf8.hpp"

namespace dozor::db::services {
namespace {

// The latest check comes from service_state (written by checks without touching services).
constexpr const char* kColumns =
    "SELECT s.id, s.user_id, s.name, s.url, s.check_interval, s.is_active,"
    " IF(st.last_checked_at IS NULL, NULL, IF(st.last_available, 'up', 'down')), st.last_response_time,"
    " DATE_FORMAT(st.last_checked_at, '%Y-%m-%dT%H:%i:%sZ') AS last_checked_at,"
    " s.group_id, s.method, s.expected_status, s.keyword, s.keyword_absent, s.slow_ms,"
    " IFNULL(st.state, 'unknown'), DATE_FORMAT(st.down_since, '%Y-%m-%dT%H:%i:%sZ'), st.last_error,"
    " DATE_FORMAT(st.cert_expires_at, '%Y-%m-%dT%H:%i:%sZ'), DATE_FORMAT(st.next_check_at, '%Y-%m-%dT%H:%i:%sZ')"
    " FROM services s LEFT JOIN service_state st ON st.service_id = s.id ";

Service read(sql::ResultSet& rs) {
  Service s;
  // Positions follow kColumns.
  s.id = get_int(rs, 1);
  s.user_id = get_int(rs, 2);
  s.name = get_string(rs, 3);
  s.url = get_string(rs, 4);
  s.check_interval = get_int(rs, 5);
  s.is_active = get_bool(rs, 6);
  s.last_status = opt_string(rs, 7);
  s.last_response_time = opt_int(rs, 8);
  s.last_checked_at = opt_string(rs, 9);
  s.group_id = opt_int(rs, 10);
  s.options.method = get_string(rs, 11);
  s.options.expected_status = opt_string(rs, 12);
  s.options.keyword = opt_string(rs, 13);
  s.options.keyword_absent = get_bool(rs, 14);
  s.slow_ms = opt_int(rs, 15);
  s.state = get_string(rs, 16);
  s.down_since = opt_string(rs, 17);
  s.last_error = opt_string(rs, 18);
  s.cert_expires_at = opt_string(rs, 19);
  s.next_check_at = opt_string(rs, 20);
  return s;
}

bool owns_group(Connection& c, std::int64_t user_id, std::int64_t group_id) {
  auto& st = c.prepare("SELECT 1 FROM `groups` WHERE id = ? AND user_id = ?");
  st.setInt64(1, group_id);
  st.setInt64(2, user_id);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  return rs->next();
}

}  // namespace

std::vector<Service> list_by_user(Connection& c, std::int64_t user_id) {
  auto& st = c.prepare(std::string(kColumns) + "WHERE s.user_id = ? ORDER BY s.id");
  st.setInt64(1, user_id);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<Service> out;
  while (rs->next()) out.push_back(read(*rs));
  return out;
}

std::optional<Service> find_owned(Connection& c, std::int64_t user_id, std::int64_t id) {
  auto& st = c.prepare(std::string(kColumns) + "WHERE s.user_id = ? AND s.id = ?");
  st.setInt64(1, user_id);
  st.setInt64(2, id);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  if (!rs->next()) return std::nullopt;
  return read(*rs);
}

Inserted insert(Connection& c, const Service& s, int max_per_user) {
  Inserted out;
  c.transaction([&] {
    users::bump_services_revision(c, s.user_id);  // first: the user row is every writer's first lock
    // Counted under the user row's lock: concurrent creates cannot both pass the bound.
    auto& count = c.prepare("SELECT COUNT(*) FROM services WHERE user_id = ?");
    count.setInt64(1, s.user_id);
    std::unique_ptr<sql::ResultSet> rs(count.executeQuery());
    if (rs->next() && rs->getInt64(1) >= max_per_user) {
      out.full = true;
      return;
    }
    if (s.group_id && !owns_group(c, s.user_id, *s.group_id)) {
      out.no_such_group = true;
      return;
    }
    auto& st = c.prepare(
        "INSERT INTO services (user_id, name, url, check_interval, is_active, group_id, method, expected_status,"
        " keyword, keyword_absent, slow_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    st.setInt64(1, s.user_id);
    st.setString(2, s.name);
    st.setString(3, s.url);
    st.setInt64(4, s.check_interval);
    st.setBoolean(5, s.is_active);
    bind_optional(st, 6, s.group_id);
    st.setString(7, s.options.method);
    bind_optional(st, 8, s.options.expected_status);
    bind_optional(st, 9, s.options.keyword);
    st.setBoolean(10, s.options.keyword_absent);
    bind_optional(st, 11, s.slow_ms);
    st.executeUpdate();
    out.id = c.last_insert_id();
  });
  return out;
}

bool remove_owned(Connection& c, std::int64_t user_id, std::int64_t id) {
  bool removed = false;
  c.transaction([&] {
    users::bump_services_revision(c, user_id);  // first, as in every writer; harmless when nothing is removed
    auto& st = c.prepare("DELETE FROM services WHERE user_id = ? AND id = ?");
    st.setInt64(1, user_id);
    st.setInt64(2, id);
    removed = st.executeUpdate() > 0;
  });
  return removed;
}

UpdateResult update_owned(Connection& c, std::int64_t user_id, std::int64_t id, const ServiceUpdate& u) {
  UpdateResult result = UpdateResult::Updated;
  c.transaction([&] {
    users::bump_services_revision(c, user_id);  // first, as in every writer
    auto& cur = c.prepare("SELECT url, is_active FROM services WHERE user_id = ? AND id = ? FOR UPDATE");
    cur.setInt64(1, user_id);
    cur.setInt64(2, id);
    std::unique_ptr<sql::ResultSet> rs(cur.executeQuery());
    if (!rs->next()) {
      result = UpdateResult::NotFound;
      return;
    }
    std::string old_url = get_string(*rs, 1);
    bool was_active = get_bool(*rs, 2);
    if (u.group_id && *u.group_id && !owns_group(c, user_id, **u.group_id)) {
      result = UpdateResult::NoSuchGroup;
      return;
    }
    // Every column is written: the unchanged ones with their own value (COALESCE of NULL), the
    // nullable ones through a "given" flag, so one prepared statement serves every edit.
    auto& st = c.prepare(
        "UPDATE services SET name = COALESCE(?, name), url = COALESCE(?, url),"
        " check_interval = COALESCE(?, check_interval), is_active = COALESCE(?, is_active),"
        " method = COALESCE(?, method), keyword_absent = COALESCE(?, keyword_absent),"
        " group_id = IF(?, ?, group_id), slow_ms = IF(?, ?, slow_ms),"
        " expected_status = IF(?, ?, expected_status), keyword = IF(?, ?, keyword)"
        " WHERE user_id = ? AND id = ?");
    unsigned i = 1;
    bind_optional(st, i++, u.name);
    bind_optional(st, i++, u.url);
    bind_optional(st, i++, u.check_interval);
    bind_optional(st, i++, u.is_active);
    bind_optional(st, i++, u.method);
    bind_optional(st, i++, u.keyword_absent);
    auto nullable = [&](const auto& field) {
      st.setBoolean(i++, field.has_value());
      bind_optional(st, i++, field ? *field : std::nullopt);
    };
    nullable(u.group_id);
    nullable(u.slow_ms);
    nullable(u.expected_status);
    nullable(u.keyword);
    st.setInt64(i++, user_id);
    st.setInt64(i++, id);
    st.executeUpdate();
    if (u.is_active && !*u.is_active && was_active) {
      // Paused: nothing will check it, so it is neither up nor down, and an open outage ends here.
      auto& close = c.prepare(
          "UPDATE incidents i JOIN service_state st ON st.open_incident_id = i.id SET i.ended_at = NOW(3)"
          " WHERE st.service_id = ?");
      close.setInt64(1, id);
      close.executeUpdate();
      auto& reset = c.prepare(
          "UPDATE service_state SET state = 'unknown', failures = 0, successes = 0, down_since = NULL,"
          " open_incident_id = NULL, failed_locations = '', awaiting_location = 0 WHERE service_id = ?");
      reset.setInt64(1, id);
      reset.executeUpdate();
    }
    if ((u.url && *u.url != old_url) || (u.is_active && *u.is_active && !was_active)) {
      auto& due = c.prepare("UPDATE service_state SET next_check_at = NOW(3) WHERE service_id = ?");
      due.setInt64(1, id);
      due.executeUpdate();
    }
  });
  return result;
}

void record_check(Connection& c, const CheckRecord& r) {
  // No revision bump and no write to services: a check touches only its own rows, so it never
  // queues behind (or blocks) the owner's edits.
  c.transaction([&] {
    auto& ins = c.prepare(
        "INSERT INTO checks (service_id, checked_at, is_available, status_code, response_time_ms, error)"
        " VALUES (?, ?, ?, ?, ?, ?)");
    ins.setInt64(1, r.service_id);
    ins.setString(2, r.checked_at);
    ins.setBoolean(3, r.is_available);
    bind_optional(ins, 4, r.status_code);
    bind_optional(ins, 5, r.response_time_ms);
    bind_optional(ins, 6, r.error ? std::optional(text::utf8_prefix(*r.error, 1024)) : std::nullopt);
    ins.executeUpdate();
    // The latest check for the list; dozord's debounced state and schedule are left alone.
    auto& upd = c.prepare(
        "INSERT INTO service_state (service_id, next_check_at, last_checked_at, last_available, last_response_time,"
        " last_error, checks_total, failures_total)"
        " SELECT id, NOW(3) + INTERVAL check_interval SECOND, ?, ?, ?, ?, 1, ? FROM services WHERE id = ?"
        " ON DUPLICATE KEY UPDATE last_checked_at = VALUES(last_checked_at),"
        " last_available = VALUES(last_available), last_response_time = VALUES(last_response_time),"
        " last_error = VALUES(last_error), checks_total = checks_total + 1,"
        " failures_total = failures_total + VALUES(failures_total)");
    upd.setString(1, r.checked_at);
    upd.setBoolean(2, r.is_available);
    bind_optional(upd, 3, r.response_time_ms);
    bind_optional(upd, 4, r.error ? std::optional(text::utf8_prefix(*r.error, 1024)) : std::nullopt);
    upd.setInt(5, r.is_available ? 0 : 1);
    upd.setInt64(6, r.service_id);
    upd.executeUpdate();
  });
}

}  // namespace dozor::db::services
