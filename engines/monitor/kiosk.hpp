#pragma once
#include "engines/limits.hpp"
// Kiosk mode: the wallboard's current site, derived from when it started, its interval and the
// manual steps — no background job, so every API worker and every screen agree.
#include <boost/json/value.hpp>
#include <cstdint>

#include "db/database.hpp"

namespace dozor::monitor {

constexpr int kKioskDefaultInterval = 30;  // seconds (spec §9)
constexpr int kKioskMinInterval = limits::kKioskIntervalMin;
constexpr int kKioskMaxInterval = limits::kKioskIntervalMax;

// Index of the site shown at `now_ms` (pure: tested without a database).
std::int64_t kiosk_index(bool running, std::int64_t base, std::int64_t started_ms, int interval_s, std::int64_t now_ms,
                         std::int64_t count);

// The rotation's order (pure): problems first — down services, the longest outage first, then
// pending ones (a failed check not yet confirmed) — then the rest by id.
struct RotationKey {
  std::int64_t id = 0;
  bool down = false;
  std::int64_t down_since = 0;  // seconds since 1970, when down
  bool pending = false;
};
bool rotation_before(const RotationKey& a, const RotationKey& b);

enum class KioskAction { Start, Stop, Next, Previous };

// Applies the action (interval only for Start) and answers the state; State when no action.
boost::json::value kiosk_apply(db::Database& db, std::int64_t user_id, KioskAction action, int interval_s);
boost::json::value kiosk_state(db::Database& db, std::int64_t user_id);

}  // namespace dozor::monitor
