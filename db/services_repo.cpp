#include "db/services_repo.hpp"

#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

#include "engines/text/utf8.hpp"

namespace dozor::db::services {
namespace {

constexpr const char* kColumns =
    "SELECT id, user_id, name, url, check_interval, is_active, last_status, last_response_time,"
    " DATE_FORMAT(last_checked_at, '%Y-%m-%dT%H:%i:%sZ') AS last_checked_at FROM services ";

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
  return s;
}

void bump_revision(Connection& c, std::int64_t user_id) {
  auto& st = c.prepare("UPDATE users SET services_rev = services_rev + 1 WHERE id = ?");
  st.setInt64(1, user_id);
  st.executeUpdate();
}

}  // namespace

std::vector<Service> list_by_user(Connection& c, std::int64_t user_id) {
  auto& st = c.prepare(std::string(kColumns) + "WHERE user_id = ? ORDER BY id");
  st.setInt64(1, user_id);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<Service> out;
  while (rs->next()) out.push_back(read(*rs));
  return out;
}

std::optional<Service> find_owned(Connection& c, std::int64_t user_id, std::int64_t id) {
  auto& st = c.prepare(std::string(kColumns) + "WHERE user_id = ? AND id = ?");
  st.setInt64(1, user_id);
  st.setInt64(2, id);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  if (!rs->next()) return std::nullopt;
  return read(*rs);
}

std::optional<std::int64_t> insert(Connection& c, const Service& s, int max_per_user) {
  std::optional<std::int64_t> id;
  c.transaction([&] {
    bump_revision(c, s.user_id);  // first: the user row is every writer's first lock
    // Counted under the user row's lock: concurrent creates cannot both pass the bound.
    auto& count = c.prepare("SELECT COUNT(*) FROM services WHERE user_id = ?");
    count.setInt64(1, s.user_id);
    std::unique_ptr<sql::ResultSet> rs(count.executeQuery());
    if (rs->next() && rs->getInt64(1) >= max_per_user) return;
    auto& st = c.prepare("INSERT INTO services (user_id, name, url, check_interval, is_active) VALUES (?, ?, ?, ?, ?)");
    st.setInt64(1, s.user_id);
    st.setString(2, s.name);
    st.setString(3, s.url);
    st.setInt64(4, s.check_interval);
    st.setBoolean(5, s.is_active);
    st.executeUpdate();
    id = c.last_insert_id();
  });
  return id;
}

bool remove_owned(Connection& c, std::int64_t user_id, std::int64_t id) {
  bool removed = false;
  c.transaction([&] {
    bump_revision(c, user_id);  // first, as in every writer; harmless when nothing is removed
    auto& st = c.prepare("DELETE FROM services WHERE user_id = ? AND id = ?");
    st.setInt64(1, user_id);
    st.setInt64(2, id);
    removed = st.executeUpdate() > 0;
  });
  return removed;
}

void record_check(Connection& c, const CheckRecord& r) {
  c.transaction([&] {
    bump_revision(c, r.user_id);  // first: the user row is every writer's first lock
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
    auto& upd =
        c.prepare("UPDATE services SET last_status = ?, last_response_time = ?, last_checked_at = ? WHERE id = ?");
    upd.setString(1, r.is_available ? "up" : "down");
    bind_optional(upd, 2, r.response_time_ms);
    upd.setString(3, r.checked_at);
    upd.setInt64(4, r.service_id);
    upd.executeUpdate();
  });
}

}  // namespace dozor::db::services
