#include "engines/tasks/queue.hpp"

#include <boost/json/array.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "db/tasks_repo.hpp"
#include "engines/errors.hpp"
#include "engines/net/scan_client.hpp"
#include "engines/secrets.hpp"
#include "engines/tasks/task_id.hpp"

namespace dozor::tasks {
namespace {

constexpr long kRetryAfterFullQueue = 30;
constexpr const char* kNotFound = "Task not found";

boost::json::value opt(const std::optional<std::string>& v) {
  return v ? boost::json::value(*v) : boost::json::value(nullptr);
}

// The options as stored, every secret (the auth scan's password, cookie, bearer) as "****":
// docs/scan.md "Auth scan".
boost::json::value shown_options(const std::string& json) {
  auto v = boost::json::parse(json);
  if (auto* o = v.if_object())
    for (auto& [key, value] : *o)
      if (secrets::is_secret_name(key)) value = "****";
  return v;
}

boost::json::object to_json(const db::tasks::TaskRow& t) {
  boost::json::object o;
  o["task_id"] = t.id;
  o["kind"] = t.kind;
  o["target"] = t.target;
  o["service_id"] = t.service_id ? boost::json::value(*t.service_id) : boost::json::value(nullptr);
  o["status"] = t.state;
  o["progress"] = t.progress;
  o["phase"] = t.phase;
  o["attempts"] = t.attempts;
  o["cancel_requested"] = t.cancel_requested;
  o["options"] = shown_options(t.options_json);
  o["created_at"] = t.created_at;
  o["started_at"] = opt(t.started_at);
  o["finished_at"] = opt(t.finished_at);
  o["error"] = opt(t.error);
  o["audit_id"] = t.audit_id ? boost::json::value(*t.audit_id) : boost::json::value(nullptr);
  o["status_url"] = "/api/task/" + t.id + "/status";
  return o;
}

db::tasks::TaskRow find_or_404(db::Database& db, const std::string& id, bool with_result) {
  std::optional<db::tasks::TaskRow> row;
  if (looks_like_task_id(id))
    db.run([&](db::Connection& c) { row = db::tasks::find(c, id, with_result); }, db::Retry::OnLostConnection);
  if (!row) throw NotFound(kNotFound);
  return std::move(*row);
}

}  // namespace

boost::json::object enqueue(db::Database& db, const NewTaskRequest& request, int queued_per_user) {
  db::tasks::NewTask t;
  t.id = new_task_id();
  t.user_id = request.user_id;
  t.kind = request.kind;
  t.target = request.target;
  t.origin = net::origin_of(request.target);
  t.service_id = request.service_id;
  t.options_json = boost::json::serialize(request.options);
  bool full = false;
  db.run(
      [&](db::Connection& c) {
        c.transaction([&] {
          full = db::tasks::open_count(c, request.user_id) >= queued_per_user;
          if (!full) db::tasks::insert(c, t);
        });
      },
      db::Retry::Never);
  if (full)
    throw Busy("you have " + std::to_string(queued_per_user) +
                   " tasks queued or running (tasks.queued_per_user); wait for one to finish or cancel one",
               kRetryAfterFullQueue);
  return to_json(find_or_404(db, t.id, false));
}

boost::json::object read(db::Database& db, const std::string& id, std::int64_t caller_id, bool caller_is_admin) {
  auto row = find_or_404(db, id, true);
  if (row.user_id != caller_id && !caller_is_admin) throw NotFound(kNotFound);
  auto o = to_json(row);
  o["result"] = row.result_json ? boost::json::parse(*row.result_json) : boost::json::value(nullptr);
  return o;
}

boost::json::object public_status(db::Database& db, const std::string& id) {
  auto row = find_or_404(db, id, false);
  return {{"task_id", row.id},
          {"status", row.state},
          {"progress", row.progress},
          {"phase", row.phase},
          {"created_at", row.created_at},
          {"started_at", opt(row.started_at)},
          {"finished_at", opt(row.finished_at)}};
}

boost::json::object list(db::Database& db, std::int64_t user_id, int limit, int offset) {
  std::vector<db::tasks::TaskRow> rows;
  int total = 0;
  db.run(
      [&](db::Connection& c) {
        rows = db::tasks::list(c, user_id, limit, offset);
        total = db::tasks::count(c, user_id);
      },
      db::Retry::OnLostConnection);
  boost::json::array items;
  for (const auto& r : rows) items.push_back(to_json(r));
  return {{"items", std::move(items)}, {"total", total}, {"limit", limit}, {"offset", offset}};
}

boost::json::object cancel(db::Database& db, const std::string& id, std::int64_t user_id) {
  std::optional<std::string> state;
  if (looks_like_task_id(id))
    db.run([&](db::Connection& c) { state = db::tasks::request_cancel(c, id, user_id); }, db::Retry::Never);
  if (!state) throw NotFound(kNotFound);
  return to_json(find_or_404(db, id, false));
}

}  // namespace dozor::tasks
