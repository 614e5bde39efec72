#pragma once
// The alert of a scheduled OWASP scan (issue 9 §1, docs/tasks.md "Schedules"): the high and
// critical findings the service's previous scan did not have go to the owner's channels through
// the notification outbox, once per scan (event key "owasp:<scan id>").
#include <boost/json/object.hpp>
#include <cstdint>

#include "db/database.hpp"

namespace dozor::tasks {

// `stored` is the scan just stored (engines/scan/owasp/stored). Returns the outbox rows written:
// 0 when nothing is new, the user has no enabled channel, or the service is gone.
int alert_new_serious(db::Database& db, std::int64_t user_id, std::int64_t service_id,
                      const boost::json::object& stored);

}  // namespace dozor::tasks
