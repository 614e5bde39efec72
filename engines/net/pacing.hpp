#pragma once
// The polite gap between request starts to one origin, kept as a schedule.
#include <chrono>

namespace dozor::net {

// When the start after one made at `now` may begin, given when that one was due (`slot`; a
// default time point if none was). Counting from the due time rather than from `now` keeps the
// rate at one start per `gap` however late the loop wakes (a busy machine, the poll's
// millisecond grain); a schedule fallen more than a gap behind restarts from `now`, so a late
// origin never gets a burst to catch up.
template <class TimePoint, class Duration>
TimePoint next_start_slot(TimePoint slot, TimePoint now, Duration gap) {
  return (slot + gap > now ? slot : now) + gap;
}

}  // namespace dozor::net
