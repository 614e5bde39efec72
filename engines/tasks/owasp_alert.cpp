#include "engines/tasks/owasp_alert.hpp"

#include "db/services_repo.hpp"
#include "engines/limits.hpp"
#include "engines/notify/transition.hpp"
#include "engines/scan/owasp/stored.hpp"

namespace dozor::tasks {

int alert_new_serious(db::Database& db, std::int64_t user_id, std::int64_t service_id,
                      const boost::json::object& stored) {
  const auto* id = stored.if_contains("id");
  const auto* target = stored.if_contains("target");
  if (!id || !id->is_number() || !target || !target->is_string()) return 0;
  auto scan_id = id->to_number<std::int64_t>();
  // The scan stored before this one (the newest two; a later one may have landed meanwhile).
  auto scans = owasp::newest(db, user_id, std::string(target->as_string()), 3);
  const boost::json::object* previous = nullptr;
  for (std::size_t i = 0; i + 1 < scans.size(); ++i)
    if (scans[i].contains("id") && scans[i].at("id").to_number<std::int64_t>() == scan_id) previous = &scans[i + 1];
  auto fresh = owasp::new_serious(stored, previous);
  if (fresh.empty()) return 0;

  notify::NewFindings n;
  n.user_id = user_id;
  n.service_id = service_id;
  n.scan_id = scan_id;
  n.total = static_cast<std::int64_t>(fresh.size());
  for (const auto* f : fresh) {
    if (n.top.size() == limits::owasp::kNotifiedTitles) break;
    auto text = [&](const char* key) {
      const auto* v = f->if_contains(key);
      return v && v->is_string() ? std::string(v->as_string()) : std::string();
    };
    n.top.emplace_back(text("severity"), text("title"));
  }
  int rows = 0;
  db.run(
      [&](db::Connection& c) {
        auto service = db::services::find_owned(c, user_id, service_id);
        if (!service) return;
        n.service_name = service->name;
        n.url = service->url;
        c.transaction([&] { rows = notify::enqueue(c, n); });
      },
      db::Retry::OnLostConnection);
  return rows;
}

}  // namespace dozor::tasks
