#include "engines/monitor/service_check.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>

#include "db/errors.hpp"
#include "db/services_repo.hpp"
#include "engines/errors.hpp"
#include "engines/monitor/rollup_store.hpp"
#include "engines/net/multi_fetch.hpp"

namespace dozor::monitor {
namespace {

// Both the SQL DATETIME(3) form and the ISO form of one instant.
std::pair<std::string, std::string> timestamps(std::chrono::system_clock::time_point t) {
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
  std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%d", &tm);
  char time[32];
  std::snprintf(time, sizeof time, "%02d:%02d:%02d.%03d", tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>(ms % 1000));
  return {std::string(date) + " " + time, std::string(date) + "T" + time + "Z"};
}

}  // namespace

CheckRules rules_of(const db::services::CheckOptions& o) {
  return CheckRules{o.method, o.expected_status, o.keyword, o.keyword_absent};
}

CheckResult check_service(db::Database& db, const net::EgressPolicy& egress, int timeout_s, std::int64_t user_id,
                          std::int64_t service_id) {
  std::optional<db::services::Service> service;
  db.run([&](db::Connection& c) { service = db::services::find_owned(c, user_id, service_id); },
         db::Retry::OnLostConnection);
  if (!service) throw NotFound("Service not found");

  auto started = std::chrono::system_clock::now();
  auto rules = rules_of(service->options);
  auto fetched = net::check_once(request_for(service->url, rules, std::chrono::seconds(timeout_s)), egress);

  CheckResult r;
  r.service_id = service_id;
  auto [sql_time, iso_time] = timestamps(started);
  r.checked_at = iso_time;
  if (fetched.responded) {
    if (fetched.status > 0) r.status_code = fetched.status;
    r.response_time_ms = fetched.total_ms;
  }
  auto verdict = judge(service->url, rules, fetched);
  r.is_available = verdict.available;
  r.error = verdict.error;  // valid UTF-8: the fetch engine sanitises what servers send

  db::services::CheckRecord rec{service_id,         user_id, sql_time, r.is_available, r.status_code,
                                r.response_time_ms, r.error};
  // Not retried on a lost connection: a COMMIT that reached the server must not store twice.
  try {
    // The on-demand check is history like any other: its row and its rollup figures commit
    // together. It moves no debounced state, so it accounts no time (docs/monitoring.md).
    rollup::Sample sample;
    sample.service_id = service_id;
    sample.checked_at_ms = std::chrono::duration_cast<std::chrono::milliseconds>(started.time_since_epoch()).count();
    sample.available = r.is_available;
    sample.response_ms = r.response_time_ms;
    db.run(
        [&](db::Connection& c) {
          c.transaction([&] {
            db::services::record_check(c, rec);
            store_rollups(c, {sample});
          });
        },
        db::Retry::Never);
  } catch (const db::MissingParent&) {
    throw NotFound("Service not found");  // deleted while its check ran
  }
  return r;
}

}  // namespace dozor::monitor
