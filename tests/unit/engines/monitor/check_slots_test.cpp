#include "engines/monitor/check_slots.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <optional>
#include <vector>

#include "engines/errors.hpp"

using dozor::TooManyAttempts;
using dozor::monitor::CheckSlots;
using dozor::monitor::SlotLimits;

namespace {

struct SlotsFile {
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("dozor-slots-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  ~SlotsFile() { std::filesystem::remove(path); }
  static inline int counter = 0;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(check_slots)

BOOST_AUTO_TEST_CASE(per_user_bound_at_n_and_n_plus_1_leaves_room_for_others) {
  SlotsFile f;
  CheckSlots slots(f.path, SlotLimits{8, 2, 8});
  auto a1 = slots.acquire(1);
  auto a2 = slots.acquire(1);                            // N = 2 accepted
  BOOST_CHECK_THROW(slots.acquire(1), TooManyAttempts);  // N + 1 refused
  auto b1 = slots.acquire(2);                            // another user still gets a slot
}

BOOST_AUTO_TEST_CASE(global_bound_at_n_and_n_plus_1_and_release) {
  SlotsFile f;
  CheckSlots slots(f.path, SlotLimits{2, 2, 8});
  {
    auto a = slots.acquire(1);
    auto b = slots.acquire(2);  // N = 2 accepted
    BOOST_TEST(slots.global_in_use() == 2);
    BOOST_CHECK_THROW(slots.acquire(3), TooManyAttempts);  // N + 1 refused
  }
  BOOST_TEST(slots.global_in_use() == 0);  // leases gave their slots back
  auto again = slots.acquire(3);
  auto more = slots.acquire(4);
}

BOOST_AUTO_TEST_CASE(per_process_bound) {
  SlotsFile f;
  CheckSlots slots(f.path, SlotLimits{16, 2, 3});
  auto a = slots.acquire(1);
  auto b = slots.acquire(2);
  auto c = slots.acquire(3);
  BOOST_CHECK_THROW(slots.acquire(4), TooManyAttempts);
}

BOOST_AUTO_TEST_CASE(under_load_a_user_gets_one_slot_so_many_users_fit) {
  SlotsFile f;
  CheckSlots slots(f.path, SlotLimits{8, 2, 16});
  std::vector<CheckSlots::Lease> held;
  held.push_back(slots.acquire(1));
  held.push_back(slots.acquire(1));  // half free: a second slot is fine
  held.push_back(slots.acquire(2));
  held.push_back(slots.acquire(2));                      // now half the global slots are held
  auto c1 = slots.acquire(3);                            // a newcomer's first slot is always open
  BOOST_CHECK_THROW(slots.acquire(3), TooManyAttempts);  // but not a second one under load
  held.clear();
  auto c2 = slots.acquire(3);  // load gone: the second slot is back
}

BOOST_AUTO_TEST_CASE(slots_are_shared_between_processes_and_freed_when_a_holder_dies) {
  SlotsFile f;
  CheckSlots slots(f.path, SlotLimits{2, 2, 8});
  int ready[2];
  BOOST_REQUIRE(::pipe(ready) == 0);
  pid_t child = ::fork();
  BOOST_REQUIRE(child >= 0);
  if (child == 0) {
    CheckSlots mine(f.path, SlotLimits{2, 2, 8});
    auto a = mine.acquire(10);
    auto b = mine.acquire(11);
    char c = 'x';
    (void)!::write(ready[1], &c, 1);
    ::pause();  // killed below, holding both slots
    ::_exit(0);
  }
  char c;
  BOOST_REQUIRE(::read(ready[0], &c, 1) == 1);
  BOOST_TEST(slots.global_in_use() == 2);
  BOOST_CHECK_THROW(slots.acquire(1), TooManyAttempts);  // the other process holds them all
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  BOOST_TEST(slots.global_in_use() == 0);  // the kernel released the dead holder's slots
  auto now = slots.acquire(1);
  ::close(ready[0]);
  ::close(ready[1]);
}

BOOST_AUTO_TEST_CASE(an_unwritable_directory_still_bounds_the_process) {
  CheckSlots slots("/nonexistent-dir/check-slots", SlotLimits{2, 2, 8});
  auto a = slots.acquire(1);
  auto b = slots.acquire(2);
  BOOST_CHECK_THROW(slots.acquire(3), TooManyAttempts);
}

BOOST_AUTO_TEST_SUITE_END()

// The vault's checks for personal data use the same slots with their own bounds and words
// (handlers/app.cpp; issue 26 §1): one per user, kVaultChecksInFlight at once, Retry-After 5.
BOOST_AUTO_TEST_SUITE(check_slots_refusal)

BOOST_AUTO_TEST_CASE(a_refusal_names_whose_slots_are_held_and_when_to_retry) {
  SlotsFile f;
  CheckSlots slots(f.path, SlotLimits{2, 1, 8}, {"yours is running", "everyone's are running", 5});
  auto a = slots.acquire(1);
  try {
    (void)slots.acquire(1);  // the user's N + 1
    BOOST_FAIL("a second slot of user 1");
  } catch (const TooManyAttempts& e) {
    BOOST_TEST(std::string(e.what()) == "yours is running");
    BOOST_TEST(e.retry_after == 5);
  }
  auto b = slots.acquire(2);  // the global N
  try {
    (void)slots.acquire(3);  // the global N + 1
    BOOST_FAIL("a third slot");
  } catch (const TooManyAttempts& e) {
    BOOST_TEST(std::string(e.what()) == "everyone's are running");
    BOOST_TEST(e.retry_after == 5);
  }
  // The one-shot checks keep their words.
  SlotsFile g;
  CheckSlots checks(g.path, SlotLimits{1, 1, 8});
  auto c = checks.acquire(1);
  try {
    (void)checks.acquire(2);
    BOOST_FAIL("a second slot");
  } catch (const TooManyAttempts& e) {
    BOOST_TEST(std::string(e.what()) == "Too many checks in progress; try again shortly");
    BOOST_TEST(e.retry_after == CheckSlots::kRetryAfterSeconds);
  }
}

BOOST_AUTO_TEST_SUITE_END()
