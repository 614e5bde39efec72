#include "engines/tasks/schedules.hpp"

#include <boost/json/serialize.hpp>

#include "db/schedules_repo.hpp"
#include "db/services_repo.hpp"
#include "db/tasks_repo.hpp"
#include "engines/audit/store.hpp"
#include "engines/errors.hpp"
#include "engines/net/scan_client.hpp"
#include "engines/tasks/kinds.hpp"
#include "engines/tasks/task_id.hpp"

namespace dozor::tasks {
namespace {

constexpr int kDuePerRound = 20;

boost::json::value opt(const std::optional<std::string>& v) {
  return v ? boost::json::value(*v) : boost::json::value(nullptr);
}

boost::json::object to_json(const db::schedules::Schedule& s) {
  return {{"id", s.id},
          {"service_id", s.service_id},
          {"kind", s.kind},
          {"interval_hours", s.interval_hours},
          {"next_run_at", s.next_run_at},
          {"last_task_id", opt(s.last_task_id)},
          {"last_run_at", opt(s.last_run_at)},
          {"created_at", s.created_at}};
}

boost::json::object default_options(const std::string& kind) {
  boost::json::object o;
  if (const auto* spec = find_kind(kind))
    for (const auto& opt : spec->options) o[opt.name] = opt.fallback;
  return o;
}

}  // namespace

boost::json::object schedule_service(db::Database& db, std::int64_t user_id, std::int64_t service_id,
                                     const std::string& kind, int interval_hours) {
  std::optional<db::schedules::Schedule> stored;
  db.run(
      [&](db::Connection& c) {
        c.transaction([&] {
          if (!db::services::find_owned(c, user_id, service_id)) return;
          auto id = db::schedules::upsert(c, user_id, service_id, kind, interval_hours);
          stored = db::schedules::find(c, user_id, id);
        });
      },
      db::Retry::Never);
  if (!stored) throw NotFound("Service not found");
  return to_json(*stored);
}

boost::json::array list_schedules(db::Database& db, std::int64_t user_id) {
  std::vector<db::schedules::Schedule> rows;
  db.run([&](db::Connection& c) { rows = db::schedules::list(c, user_id); }, db::Retry::OnLostConnection);
  boost::json::array out;
  for (const auto& s : rows) out.push_back(to_json(s));
  return out;
}

void delete_schedule(db::Database& db, std::int64_t user_id, std::int64_t id) {
  bool removed = false;
  db.run([&](db::Connection& c) { removed = db::schedules::remove(c, user_id, id); }, db::Retry::Never);
  if (!removed) throw NotFound("Schedule not found");
}

int fire_due_schedules(db::Database& db) {
  int queued = 0;
  db.run(
      [&](db::Connection& c) {
        c.transaction([&] {
          queued = 0;
          for (const auto& due : db::schedules::lock_due(c, kDuePerRound)) {
            auto target = audit::store::service_target(due.service_url);
            bool in_flight = due.last_task_state == "queued" || due.last_task_state == "running";
            if (!target || in_flight) {
              db::schedules::advance(c, due.schedule.id, std::nullopt);
              continue;
            }
            db::tasks::NewTask t;
            t.id = new_task_id();
            t.user_id = due.schedule.user_id;
            t.kind = due.schedule.kind;
            t.target = *target;
            t.origin = net::origin_of(*target);
            t.service_id = due.schedule.service_id;
            t.options_json = boost::json::serialize(default_options(due.schedule.kind));
            db::tasks::insert(c, t);
            // The scan log's entry is written when the run starts (engines/tasks/kinds.cpp): the
            // owner's permission is decided then, as for every active scan.
            db::schedules::advance(c, due.schedule.id, t.id);
            ++queued;
          }
        });
      },
      db::Retry::Never);
  return queued;
}

}  // namespace dozor::tasks
