#pragma once
// The reads of a public status page (migration 0010): four queries per build, whatever the
// number of services in the group.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"

namespace dozor::db::status {

struct Page {
  std::int64_t group_id = 0;
  std::string title;
  std::optional<std::string> description, announcement;
  bool show_urls = false;
  std::int64_t now_epoch = 0;  // the database's clock
};
// The group published under `slug`, if it is public.
std::optional<Page> find_public(Connection& c, const std::string& slug);

struct ServiceRow {
  std::int64_t id = 0;
  std::string name, url, state;
  bool active = true;
  std::optional<std::string> last_checked_at;
  std::optional<std::int64_t> response_time_ms;
};
std::vector<ServiceRow> services(Connection& c, std::int64_t group_id);

struct DayRow {
  std::int64_t service_id = 0;
  std::string day;  // YYYY-MM-DD
  std::int64_t observed_ms = 0, down_ms = 0;
};
// Daily rollups of the group's services over the last `days` days.
std::vector<DayRow> days(Connection& c, std::int64_t group_id, int days);

struct IncidentRow {
  std::int64_t service_id = 0;
  std::string started_at;
  std::optional<std::string> ended_at;
  std::int64_t duration_seconds = 0;
  std::string cause;
};
// The newest incidents of the group's services that overlap the last `days` days.
std::vector<IncidentRow> incidents(Connection& c, std::int64_t group_id, int days, int limit);

}  // namespace dozor::db::status
