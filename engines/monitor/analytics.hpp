#pragma once
// "How did my sites do": the analytics summary (spec §4.2), a service's history for charts and
// its incidents — from rollups and incidents, a fixed number of queries whatever the services.
#include <boost/json/value.hpp>
#include <cstdint>
#include <string>

#include "db/database.hpp"

namespace dozor::monitor {

// {"totals", "uptime", "response_time_24h", "incidents", "services": [...]} (docs/api.md).
boost::json::value analytics_summary(db::Database& db, std::int64_t user_id);

// window: 24h (raw checks), 7d and 30d (hourly rollups), 365d (daily). Throws NotFound for a
// service the user does not own.
boost::json::value service_history(db::Database& db, std::int64_t user_id, std::int64_t service_id,
                                   const std::string& window);
boost::json::value service_incidents(db::Database& db, std::int64_t user_id, std::int64_t service_id);

}  // namespace dozor::monitor
