#pragma once
// The up/down decision after each check, with debounce: one failed check is re-checked soon
// (min(interval, 10 s)) and only `failures_to_down` failures in a row make a service down;
// `successes_to_up` successes make it up again. Pure logic: dozord stores what it returns.
#include <string>

namespace dozor::monitor {

enum class State { Unknown, Up, Down };

State parse_state(const std::string& s);
const char* to_string(State s);

struct Thresholds {
  int failures_to_down = 2;
  int successes_to_up = 1;
  int recheck_seconds = 10;  // a first failure is re-checked after min(interval, this)
};

struct Counters {
  State state = State::Unknown;
  int failures = 0;   // consecutive failed checks
  int successes = 0;  // consecutive good checks
};

struct Decision {
  Counters next;
  bool went_down = false;  // a new outage starts (from up or unknown)
  bool went_up = false;    // an outage ends (from down)
  int next_check_in = 0;   // seconds until this service is due again
};

Decision decide(const Counters& now, bool available, int interval_seconds, const Thresholds& t);

}  // namespace dozor::monitor
