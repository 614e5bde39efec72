#include "engines/monitor/debounce.hpp"

#include "engines/limits.hpp"

#include <boost/test/unit_test.hpp>
#include <ostream>

using namespace dozor::monitor;

namespace dozor::monitor {
std::ostream& operator<<(std::ostream& os, State s) { return os << to_string(s); }
}  // namespace dozor::monitor

BOOST_AUTO_TEST_SUITE(debounce)

BOOST_AUTO_TEST_CASE(one_failure_is_rechecked_soon_and_two_make_it_down) {
  Thresholds t;  // 2 to down, 1 to up, recheck 10 s
  Counters up{State::Up, 0, 5, {}};
  auto d1 = decide(up, false, 60, t);
  BOOST_TEST(d1.next.state == State::Up);  // N - 1 failures: still up
  BOOST_TEST(!d1.went_down);
  BOOST_TEST(d1.next_check_in == 10);
  auto d2 = decide(d1.next, false, 60, t);
  BOOST_TEST(d2.next.state == State::Down);  // N failures: down, once
  BOOST_TEST(d2.went_down);
  BOOST_TEST(d2.next_check_in == 60);
  auto d3 = decide(d2.next, false, 60, t);
  BOOST_TEST(!d3.went_down);  // still down: no second outage
  BOOST_TEST(d3.next.failures == 3);
}

BOOST_AUTO_TEST_CASE(recheck_never_later_than_the_interval) {
  Thresholds t;
  t.failures_to_down = 3;
  auto d = decide(Counters{State::Up, 0, 1, {}}, false, 5, t);
  BOOST_TEST(d.next_check_in == 5);
}

BOOST_AUTO_TEST_CASE(a_success_between_failures_resets_the_count) {
  Thresholds t;
  auto d = decide(Counters{State::Up, 0, 1, {}}, false, 60, t);
  d = decide(d.next, true, 60, t);
  d = decide(d.next, false, 60, t);
  BOOST_TEST(d.next.state == State::Up);
  BOOST_TEST(!d.went_down);
}

BOOST_AUTO_TEST_CASE(recovery_needs_successes_to_up_and_is_told_once) {
  Thresholds t;
  t.successes_to_up = 2;
  Counters down{State::Down, 4, 0, {}};
  auto d1 = decide(down, true, 60, t);
  BOOST_TEST(d1.next.state == State::Down);
  BOOST_TEST(!d1.went_up);
  auto d2 = decide(d1.next, true, 60, t);
  BOOST_TEST(d2.next.state == State::Up);
  BOOST_TEST(d2.went_up);
  BOOST_TEST(d2.next.failures == 0);
  auto d3 = decide(d2.next, true, 60, t);
  BOOST_TEST(!d3.went_up);
}

BOOST_AUTO_TEST_CASE(first_checks_leave_unknown_without_a_recovery_message) {
  Thresholds t;
  auto up = decide(Counters{}, true, 60, t);
  BOOST_TEST(up.next.state == State::Up);
  BOOST_TEST(!up.went_up);  // unknown → up is not a recovery
  auto d = decide(Counters{}, false, 60, t);
  d = decide(d.next, false, 60, t);
  BOOST_TEST(d.went_down);  // unknown → down is an outage
}

BOOST_AUTO_TEST_CASE(state_names_round_trip) {
  for (auto s : {State::Unknown, State::Up, State::Down}) BOOST_TEST((parse_state(to_string(s)) == s));
}

BOOST_AUTO_TEST_CASE(with_two_locations_required_one_location_alone_never_makes_it_down) {
  Thresholds msk;
  msk.location = "msk";
  msk.locations_required = 2;
  Thresholds spb = msk;
  spb.location = "spb";
  Counters c{State::Up, 0, 3, {}};
  for (int i = 0; i < 5; ++i) {
    auto d = decide(c, false, 60, msk);
    BOOST_TEST(d.next.state == State::Up);
    BOOST_TEST(!d.went_down);
    BOOST_TEST(d.awaiting_location);  // the re-check is for another location
    BOOST_TEST(d.next_check_in == 10);
    c = d.next;
  }
  BOOST_TEST(c.failed_locations == std::vector<std::string>{"msk"});
  auto d = decide(c, false, 60, spb);  // a second location agrees: down, once
  BOOST_TEST(d.went_down);
  BOOST_TEST(d.next.state == State::Down);
  BOOST_TEST(!d.awaiting_location);
  BOOST_TEST((d.next.failed_locations == std::vector<std::string>{"msk", "spb"}));
}

BOOST_AUTO_TEST_CASE(a_second_location_alone_still_needs_the_failure_count) {
  Thresholds t;
  t.failures_to_down = 3;
  t.locations_required = 2;
  t.location = "spb";
  auto d = decide(Counters{State::Up, 1, 0, {"msk"}}, false, 60, t);  // two locations, two failures
  BOOST_TEST(d.next.state == State::Up);
  BOOST_TEST(!d.awaiting_location);  // locations agree; the count is what is missing
  d = decide(d.next, false, 60, t);
  BOOST_TEST(d.went_down);
}

BOOST_AUTO_TEST_CASE(a_success_anywhere_clears_the_locations_seen) {
  Thresholds t;
  t.locations_required = 2;
  t.location = "msk";
  auto d = decide(Counters{State::Up, 1, 0, {"spb"}}, true, 60, t);
  BOOST_TEST(d.next.failed_locations.empty());
  BOOST_TEST(d.next.failures == 0);
  d = decide(d.next, false, 60, t);  // a new run of failures starts from this location alone
  BOOST_TEST(d.next.state == State::Up);
  BOOST_TEST(d.awaiting_location);
}

BOOST_AUTO_TEST_CASE(the_locations_seen_are_bounded) {
  Thresholds t;
  t.locations_required = 100;  // more than can be stored: never reached, the list stays bounded
  Counters c{State::Up, 0, 0, {}};
  for (int i = 0; i < 40; ++i) {
    t.location = "loc" + std::to_string(100 + i);
    c = decide(c, false, 60, t).next;
  }
  BOOST_TEST(c.failed_locations.size() == static_cast<std::size_t>(dozor::limits::kMaxLocations));
}

BOOST_AUTO_TEST_SUITE_END()
