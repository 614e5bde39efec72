#pragma once
// When services are checked (docs/monitoring.md, "Schedule"): each has a fixed phase within its
// interval, spread evenly over it, and keeps that phase whatever happens to dozord.
#include <cstdint>

namespace dozor::monitor {

// The offset, in [0, interval), of a service's first check after dozord first sees it. The
// golden-ratio (Weyl) sequence of its id: services created together spread evenly over the
// interval, also when ids grow in steps (auto_increment_increment > 1 on Galera), where
// "id mod interval" would pile them onto a fraction of the slots.
std::int64_t spread_offset_ms(std::int64_t service_id, int interval_seconds);

// The next due time after a check that was due at `due_ms`, seen at `now_ms`: one interval
// later, or — when dozord fell behind by more than that (a stop, a slow database) — the first
// slot of the same phase after now, so a backlog does not collapse every phase onto one moment.
std::int64_t next_due_ms(std::int64_t due_ms, std::int64_t now_ms, int interval_seconds);

}  // namespace dozor::monitor
