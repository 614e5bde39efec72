#pragma once
// The up/down decision after each check, with debounce: one failed check is re-checked soon
// (min(interval, 10 s)) and only `failures_to_down` failures in a row make a service down;
// `successes_to_up` successes make it up again. With several locations, a service is down only
// when `locations_required` distinct locations saw the failures (monitor.confirm_locations,
// at most the locations alive); until then each re-check is left to another location.
// Pure logic: dozord stores what it returns.
#include <string>
#include <vector>

namespace dozor::monitor {

enum class State { Unknown, Up, Down };

State parse_state(const std::string& s);
const char* to_string(State s);

struct Thresholds {
  int failures_to_down = 2;
  int successes_to_up = 1;
  int recheck_seconds = 10;  // a first failure is re-checked after min(interval, this)
  int locations_required = 1;
  std::string location = "default";  // where this dozord checks from
};

struct Counters {
  State state = State::Unknown;
  int failures = 0;   // consecutive failed checks
  int successes = 0;  // consecutive good checks
  // Distinct locations that saw the current run of failures (sorted; empty after a success).
  std::vector<std::string> failed_locations;
};

struct Decision {
  Counters next;
  bool went_down = false;  // a new outage starts (from up or unknown)
  bool went_up = false;    // an outage ends (from down)
  int next_check_in = 0;   // seconds until this service is due again
  // Enough failures, too few locations: the re-check should come from a location not yet seen.
  bool awaiting_location = false;
};

Decision decide(const Counters& now, bool available, int interval_seconds, const Thresholds& t);

}  // namespace dozor::monitor
