#include "engines/monitor/debounce.hpp"

#include <algorithm>

#include "engines/limits.hpp"

namespace dozor::monitor {

State parse_state(const std::string& s) {
  if (s == "up") return State::Up;
  if (s == "down") return State::Down;
  return State::Unknown;
}

const char* to_string(State s) {
  switch (s) {
    case State::Up: return "up";
    case State::Down: return "down";
    case State::Unknown: break;
  }
  return "unknown";
}

Decision decide(const Counters& now, bool available, int interval_seconds, const Thresholds& t) {
  Decision d;
  d.next = now;
  d.next_check_in = interval_seconds;
  if (available) {
    d.next.failures = 0;
    d.next.successes = now.successes + 1;
    d.next.failed_locations.clear();
    if (now.state != State::Up && d.next.successes >= t.successes_to_up) {
      d.went_up = now.state == State::Down;
      d.next.state = State::Up;
    }
    return d;
  }
  d.next.successes = 0;
  d.next.failures = now.failures + 1;
  auto& seen = d.next.failed_locations;
  auto at = std::lower_bound(seen.begin(), seen.end(), t.location);
  bool known = at != seen.end() && *at == t.location;
  if (!known && seen.size() < static_cast<std::size_t>(limits::kMaxLocations)) seen.insert(at, t.location);
  if (now.state != State::Down) {
    bool confirmed = static_cast<int>(seen.size()) >= std::max(1, t.locations_required);
    if (d.next.failures >= t.failures_to_down && confirmed) {
      d.went_down = true;
      d.next.state = State::Down;
    } else {
      d.next_check_in = std::min(interval_seconds, t.recheck_seconds);  // confirm it soon
      d.awaiting_location = !confirmed;
    }
  }
  return d;
}

}  // namespace dozor::monitor
