#include "engines/monitor/check_slots.hpp"

#include <boost/test/unit_test.hpp>

#include "engines/errors.hpp"

using dozor::TooManyAttempts;
using dozor::monitor::CheckSlots;

BOOST_AUTO_TEST_SUITE(check_slots)

BOOST_AUTO_TEST_CASE(per_user_bound_leaves_room_for_others) {
  CheckSlots slots(4, 2);
  auto a1 = slots.acquire(1);
  auto a2 = slots.acquire(1);
  BOOST_CHECK_THROW(slots.acquire(1), TooManyAttempts);
  auto b1 = slots.acquire(2);  // another user still gets a slot
}

BOOST_AUTO_TEST_CASE(total_bound_and_release) {
  CheckSlots slots(2, 2);
  {
    auto a = slots.acquire(1);
    auto b = slots.acquire(2);
    BOOST_CHECK_THROW(slots.acquire(3), TooManyAttempts);
  }
  auto again = slots.acquire(3);  // leases gave their slots back
  auto more = slots.acquire(3);
}

BOOST_AUTO_TEST_SUITE_END()
