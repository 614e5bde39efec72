#include "db/tasks_repo.hpp"

#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

namespace dozor::db::tasks {
namespace {

std::string columns(bool with_result) {
  return "id, user_id, kind, target, service_id, options, state, progress, phase, attempts, cancel_requested, " +
         iso_ms_column("created_at") + ", " + iso_ms_column("started_at") + ", " + iso_ms_column("finished_at") +
         ", error, audit_id, " + (with_result ? "result" : "NULL");
}

TaskRow read_row(sql::ResultSet& rs) {
  TaskRow t;
  t.id = get_string(rs, 1);
  t.user_id = get_int(rs, 2);
  t.kind = get_string(rs, 3);
  t.target = get_string(rs, 4);
  t.service_id = opt_int(rs, 5);
  t.options_json = get_string(rs, 6);
  t.state = get_string(rs, 7);
  t.progress = rs.getInt(8);
  t.phase = get_string(rs, 9);
  t.attempts = rs.getInt(10);
  t.cancel_requested = get_bool(rs, 11);
  t.created_at = get_string(rs, 12);
  t.started_at = opt_string(rs, 13);
  t.finished_at = opt_string(rs, 14);
  t.error = opt_string(rs, 15);
  t.audit_id = opt_int(rs, 16);
  t.result_json = opt_string(rs, 17);
  return t;
}

void drop_origin(Connection& c, const std::string& id) {
  auto& st = c.prepare("DELETE FROM task_origins WHERE task_id = ?");
  st.setString(1, id);
  st.executeUpdate();
}

}  // namespace

int open_count(Connection& c, std::int64_t user_id) {
  auto& st = c.prepare("SELECT COUNT(*) FROM tasks WHERE user_id = ? AND state IN ('queued', 'running')");
  st.setInt64(1, user_id);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  return rs->next() ? rs->getInt(1) : 0;
}

void insert(Connection& c, const NewTask& t) {
  auto& st = c.prepare(
      "INSERT INTO tasks (id, user_id, kind, target, origin_hash, service_id, options, created_at)"
      " VALUES (?, ?, ?, ?, UNHEX(SHA2(?, 256)), ?, ?, NOW(3))");
  st.setString(1, t.id);
  st.setInt64(2, t.user_id);
  st.setString(3, t.kind);
  st.setString(4, t.target);
  st.setString(5, t.origin);
  bind_optional(st, 6, t.service_id);
  st.setString(7, t.options_json);
  st.executeUpdate();
}

std::optional<TaskRow> find(Connection& c, const std::string& id, bool with_result) {
  auto& st = c.prepare("SELECT " + columns(with_result) + " FROM tasks WHERE id = ?");
  st.setString(1, id);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  if (!rs->next()) return std::nullopt;
  return read_row(*rs);
}

std::vector<TaskRow> list(Connection& c, std::int64_t user_id, int limit, int offset) {
  auto& st = c.prepare("SELECT " + columns(false) +
                       " FROM tasks WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?");
  st.setInt64(1, user_id);
  st.setInt(2, limit);
  st.setInt(3, offset);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<TaskRow> out;
  while (rs->next()) out.push_back(read_row(*rs));
  return out;
}

int count(Connection& c, std::int64_t user_id) {
  auto& st = c.prepare("SELECT COUNT(*) FROM tasks WHERE user_id = ?");
  st.setInt64(1, user_id);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  return rs->next() ? rs->getInt(1) : 0;
}

std::optional<std::string> request_cancel(Connection& c, const std::string& id, std::int64_t user_id) {
  std::optional<std::string> state;
  c.transaction([&] {
    auto& sel = c.prepare("SELECT state FROM tasks WHERE id = ? AND user_id = ? FOR UPDATE");
    sel.setString(1, id);
    sel.setInt64(2, user_id);
    std::unique_ptr<sql::ResultSet> rs(sel.executeQuery());
    if (!rs->next()) return;
    state = get_string(*rs, 1);
    if (*state == "queued") {
      auto& upd = c.prepare(
          "UPDATE tasks SET state = 'cancelled', cancel_requested = 1, finished_at = NOW(3), error = 'cancelled by"
          " its owner before it started' WHERE id = ?");
      upd.setString(1, id);
      upd.executeUpdate();
      state = "cancelled";
    } else if (*state == "running") {
      auto& upd = c.prepare("UPDATE tasks SET cancel_requested = 1 WHERE id = ?");
      upd.setString(1, id);
      upd.executeUpdate();
    }
  });
  return state;
}

std::optional<TaskRow> claim(Connection& c, const std::string& owner, const ClaimLimits& limits) {
  std::optional<std::string> claimed;
  c.transaction([&] {
    claimed.reset();
    struct Candidate {
      std::string id;
      std::int64_t user_id;
      std::string origin_hash;
    };
    std::vector<Candidate> candidates;
    {
      auto& pick = c.prepare(
          "SELECT id, user_id, origin_hash FROM tasks WHERE state = 'queued' ORDER BY created_at, id LIMIT ?"
          " FOR UPDATE SKIP LOCKED");
      pick.setInt(1, limits.candidates);
      std::unique_ptr<sql::ResultSet> rs(pick.executeQuery());
      while (rs->next()) candidates.push_back({get_string(*rs, 1), get_int(*rs, 2), get_string(*rs, 3)});
    }
    for (const auto& cand : candidates) {
      // The user's row is locked so that two runners claiming this user's tasks take turns:
      // the count below is then exact across every dozord.
      auto& lock = c.prepare("SELECT id FROM users WHERE id = ? FOR UPDATE");
      lock.setInt64(1, cand.user_id);
      std::unique_ptr<sql::ResultSet> locked(lock.executeQuery());
      auto& running = c.prepare("SELECT COUNT(*) FROM tasks WHERE user_id = ? AND state = 'running'");
      running.setInt64(1, cand.user_id);
      std::unique_ptr<sql::ResultSet> rs(running.executeQuery());
      if (rs->next() && rs->getInt(1) >= limits.per_user) continue;
      auto& slot = c.prepare("INSERT IGNORE INTO task_origins (origin_hash, task_id) VALUES (?, ?)");
      slot.setString(1, cand.origin_hash);
      slot.setString(2, cand.id);
      if (slot.executeUpdate() == 0) continue;  // a task on this origin is running
      auto& take = c.prepare(
          "UPDATE tasks SET state = 'running', claimed_by = ?, lease_until = NOW(3) + INTERVAL ? SECOND,"
          " attempts = attempts + 1, started_at = IFNULL(started_at, NOW(3)), progress = 0, phase = 'starting'"
          " WHERE id = ?");
      take.setString(1, owner);
      take.setInt(2, limits.lease_seconds);
      take.setString(3, cand.id);
      take.executeUpdate();
      claimed = cand.id;
      return;
    }
  });
  if (!claimed) return std::nullopt;
  return find(c, *claimed, false);
}

std::optional<bool> heartbeat(Connection& c, const std::string& id, const std::string& owner, int progress,
                              const std::string& phase, int lease_seconds) {
  auto& upd = c.prepare(
      "UPDATE tasks SET progress = ?, phase = ?, lease_until = NOW(3) + INTERVAL ? SECOND"
      " WHERE id = ? AND claimed_by = ? AND state = 'running'");
  upd.setInt(1, progress);
  upd.setString(2, phase.substr(0, 100));
  upd.setInt(3, lease_seconds);
  upd.setString(4, id);
  upd.setString(5, owner);
  upd.executeUpdate();
  auto& sel = c.prepare("SELECT cancel_requested FROM tasks WHERE id = ? AND claimed_by = ? AND state = 'running'");
  sel.setString(1, id);
  sel.setString(2, owner);
  std::unique_ptr<sql::ResultSet> rs(sel.executeQuery());
  if (!rs->next()) return std::nullopt;
  return get_bool(*rs, 1);
}

bool finish(Connection& c, const std::string& id, const std::string& owner, const std::string& state,
            const std::optional<std::string>& error, const std::optional<std::string>& result_json,
            std::optional<std::int64_t> audit_id) {
  bool done = false;
  c.transaction([&] {
    auto& upd = c.prepare(
        "UPDATE tasks SET state = ?, error = ?, result = ?, audit_id = ?, finished_at = NOW(3),"
        " progress = IF(? = 'succeeded', 100, progress), claimed_by = NULL, lease_until = NULL"
        " WHERE id = ? AND claimed_by = ? AND state = 'running'");
    upd.setString(1, state);
    bind_optional(upd, 2, error);
    bind_optional(upd, 3, result_json);
    bind_optional(upd, 4, audit_id);
    upd.setString(5, state);
    upd.setString(6, id);
    upd.setString(7, owner);
    done = upd.executeUpdate() > 0;
    if (done) drop_origin(c, id);
  });
  return done;
}

void release(Connection& c, const std::string& id, const std::string& owner) {
  c.transaction([&] {
    auto& upd = c.prepare(
        "UPDATE tasks SET state = IF(cancel_requested, 'cancelled', 'queued'),"
        " finished_at = IF(cancel_requested, NOW(3), NULL), attempts = GREATEST(CAST(attempts AS SIGNED) - 1, 0),"
        " progress = 0, phase = '', claimed_by = NULL, lease_until = NULL"
        " WHERE id = ? AND claimed_by = ? AND state = 'running'");
    upd.setString(1, id);
    upd.setString(2, owner);
    if (upd.executeUpdate() > 0) drop_origin(c, id);
  });
}

int reap_expired(Connection& c, int max_attempts) {
  int handled = 0;
  c.transaction([&] {
    handled = 0;
    std::vector<std::string> ids;
    {
      auto& sel = c.prepare(
          "SELECT id FROM tasks WHERE state = 'running' AND lease_until < NOW(3) LIMIT 50 FOR UPDATE SKIP LOCKED");
      std::unique_ptr<sql::ResultSet> rs(sel.executeQuery());
      while (rs->next()) ids.push_back(get_string(*rs, 1));
    }
    for (const auto& id : ids) {
      auto& upd = c.prepare(
          "UPDATE tasks SET"
          " state = CASE WHEN cancel_requested THEN 'cancelled' WHEN attempts >= ? THEN 'failed' ELSE 'queued' END,"
          " error = CASE WHEN cancel_requested THEN error WHEN attempts >= ?"
          "   THEN CONCAT('its runner stopped answering ', attempts, ' times (tasks.max_attempts)') ELSE error END,"
          " finished_at = IF(cancel_requested OR attempts >= ?, NOW(3), NULL),"
          " claimed_by = NULL, lease_until = NULL, progress = 0, phase = ''"
          " WHERE id = ?");
      upd.setInt(1, max_attempts);
      upd.setInt(2, max_attempts);
      upd.setInt(3, max_attempts);
      upd.setString(4, id);
      upd.executeUpdate();
      drop_origin(c, id);
      ++handled;
    }
  });
  return handled;
}

int purge_finished(Connection& c, int days, int chunk) {
  auto& st = c.prepare(
      "DELETE FROM tasks WHERE state IN ('succeeded', 'failed', 'cancelled') AND created_at < NOW(3) - INTERVAL ? DAY"
      " LIMIT ?");
  st.setInt(1, days);
  st.setInt(2, chunk);
  return st.executeUpdate();
}

}  // namespace dozor::db::tasks
