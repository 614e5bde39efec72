#include "engines/monitor/schedule.hpp"

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <vector>

using namespace dozor::monitor;

namespace {

// Checks per one-second slot of a 60 s interval for `n` services with ids start, start+step, …
std::vector<int> per_second(std::int64_t start, std::int64_t step, int n, int interval) {
  std::vector<int> slots(static_cast<std::size_t>(interval), 0);
  for (int i = 0; i < n; ++i) {
    auto off = spread_offset_ms(start + i * step, interval);
    ++slots[static_cast<std::size_t>(off / 1000)];
  }
  return slots;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(schedule)

BOOST_AUTO_TEST_CASE(offsets_stay_inside_the_interval) {
  for (int interval : {10, 11, 60, 3600, 7 * 86400})
    for (std::int64_t id = 1; id < 5000; id += 13) {
      auto off = spread_offset_ms(id, interval);
      BOOST_REQUIRE_GE(off, 0);
      BOOST_REQUIRE_LT(off, std::int64_t{interval} * 1000);
    }
}

BOOST_AUTO_TEST_CASE(ten_thousand_services_spread_evenly_over_a_minute) {
  // 10,000 services at 60 s: 166.7 checks per second on average; every second within 3 %.
  for (std::int64_t step : {1, 2, 3, 60}) {  // 2 and 3: Galera's auto_increment_increment
    auto slots = per_second(1, step, 10000, 60);
    auto [lo, hi] = std::minmax_element(slots.begin(), slots.end());
    BOOST_TEST(*lo >= 161, "step " << step << ": quietest second has " << *lo);
    BOOST_TEST(*hi <= 172, "step " << step << ": busiest second has " << *hi);
  }
}

BOOST_AUTO_TEST_CASE(a_stride_of_the_interval_does_not_pile_up) {
  // "id mod 60" would put all of these in one second; the spread uses all sixty.
  auto slots = per_second(7, 60, 600, 60);
  BOOST_TEST(std::count(slots.begin(), slots.end(), 0) == 0);
  BOOST_TEST(*std::max_element(slots.begin(), slots.end()) <= 12);
}

BOOST_AUTO_TEST_CASE(on_time_the_next_check_is_one_interval_later) {
  BOOST_TEST(next_due_ms(100'000, 100'300, 60) == 160'000);
  BOOST_TEST(next_due_ms(100'000, 159'999, 60) == 160'000);  // late, but within the interval
}

BOOST_AUTO_TEST_CASE(after_a_backlog_the_phase_is_kept) {
  // Due at 100 s, seen at 310.5 s (dozord was stopped): the next slot of the same phase.
  auto next = next_due_ms(100'000, 310'500, 60);
  BOOST_TEST(next == 340'000);
  BOOST_TEST((next - 100'000) % 60'000 == 0);
  BOOST_TEST(next > 310'500);
  BOOST_TEST(next_due_ms(100'000, 160'000, 60) == 220'000);  // exactly on a slot: the next one
}

BOOST_AUTO_TEST_SUITE_END()
