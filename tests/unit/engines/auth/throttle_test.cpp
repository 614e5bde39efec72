#include "engines/auth/throttle.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::auth::throttle;

namespace {

Policies test_policies() {
  const std::int64_t min = 60 * 1000;
  return {{20, 15 * min, min, 15 * min},
          {5, 15 * min, min, 15 * min},
          {100, 15 * min, min, 15 * min},
          {5, 15 * min, 1000, 30 * 1000}};
}

// Counts `n` attempts at `now` and returns the wait that follows.
std::int64_t fail(const Attempt& a, std::map<std::string, Row>& rows, int n, std::int64_t now) {
  const auto p = test_policies();
  for (int i = 0; i < n; ++i) {
    BOOST_REQUIRE(wait_for(a, rows, p, now) == 0);
    count(a, rows, p, now);
  }
  return wait_for(a, rows, p, now);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(login_throttle)

BOOST_AUTO_TEST_CASE(client_keys_are_ipv4_addresses_and_ipv6_slash_64) {
  BOOST_TEST(client_key("198.51.100.7") == "198.51.100.7");
  BOOST_TEST(client_key("::ffff:198.51.100.7") == "198.51.100.7");
  BOOST_TEST(client_key("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64");
  BOOST_TEST(client_key("2001:db8:1:2::ffff") == "2001:db8:1:2::/64");
  BOOST_TEST(client_key("2001:DB8:1:2:aaaa::1") == "2001:db8:1:2::/64");
  BOOST_TEST(client_key("2001:db8:1:3::1") == "2001:db8:1:3::/64");
  BOOST_TEST(client_key("::1") == "::/64");
  BOOST_TEST(client_key("") == "other");
  BOOST_TEST(client_key("not an address") == "other");
  BOOST_TEST(client_key("198.51.100.7 ") == "other");
}

BOOST_AUTO_TEST_CASE(a_stranger_counts_in_client_pair_and_account_and_a_cookie_holder_in_its_device_only) {
  Attempt stranger{"198.51.100.7", 42, std::nullopt, 0};
  auto b = buckets_for(stranger);
  BOOST_REQUIRE(b.size() == 3u);
  BOOST_TEST(b[0].key == "a|42");
  BOOST_TEST(b[1].key == "c|198.51.100.7");
  BOOST_TEST(b[2].key == "p|42|198.51.100.7");
  Attempt holder{"198.51.100.7", 42, std::string(32, 'a'), 0};
  b = buckets_for(holder);
  BOOST_REQUIRE(b.size() == 1u);
  BOOST_TEST(b[0].key == "d|42|" + std::string(32, 'a'));
  Attempt unknown{"198.51.100.7", std::nullopt, std::nullopt, 3};
  b = buckets_for(unknown);
  BOOST_REQUIRE(b.size() == 1u);  // no row per guessed name
  BOOST_TEST(b[0].key == "c|198.51.100.7");
}

BOOST_AUTO_TEST_CASE(exactly_limit_attempts_then_a_wait_of_the_first_block) {
  std::map<std::string, Row> rows;
  Attempt a{"198.51.100.7", 42, std::nullopt, 0};
  const std::int64_t t0 = 1'000'000'000;
  BOOST_TEST(fail(a, rows, 4, t0) == 0);
  BOOST_TEST(fail(a, rows, 1, t0) == 60'000);  // the 5th counted one starts the wait
  BOOST_TEST(wait_for(a, rows, test_policies(), t0 + 59'999) == 1);
  BOOST_TEST(wait_for(a, rows, test_policies(), t0 + 60'000) == 0);
  // One more failure after the wait: doubled, and capped at 15 minutes however many follow.
  BOOST_TEST(fail(a, rows, 1, t0 + 60'000) == 120'000);
  std::int64_t t = t0 + 60'000;
  for (int i = 0; i < 10; ++i) {
    t += wait_for(a, rows, test_policies(), t);
    count(a, rows, test_policies(), t);
  }
  BOOST_TEST(wait_for(a, rows, test_policies(), t) == 15 * 60'000);
}

BOOST_AUTO_TEST_CASE(failures_are_forgotten_after_the_window) {
  std::map<std::string, Row> rows;
  Attempt a{"198.51.100.7", 42, std::nullopt, 0};
  const std::int64_t t0 = 1'000'000'000;
  fail(a, rows, 4, t0);
  BOOST_TEST(live_failures(rows["p|42|198.51.100.7"], test_policies().pair, t0 + 15 * 60'000 - 1) == 4);
  BOOST_TEST(live_failures(rows["p|42|198.51.100.7"], test_policies().pair, t0 + 15 * 60'000) == 0);
  BOOST_TEST(fail(a, rows, 4, t0 + 15 * 60'000) == 0);  // a fresh count, not 8
}

BOOST_AUTO_TEST_CASE(another_client_is_not_blocked_by_a_flood_against_the_same_account) {
  std::map<std::string, Row> rows;
  const std::int64_t t0 = 1'000'000'000;
  Attempt attacker{"203.0.113.9", 42, std::nullopt, 0};
  BOOST_TEST(fail(attacker, rows, 5, t0) > 0);
  Attempt owner{"198.51.100.7", 42, std::nullopt, 0};
  BOOST_TEST(wait_for(owner, rows, test_policies(), t0) == 0);
}

BOOST_AUTO_TEST_CASE(a_device_cookie_holder_gets_short_delays_never_a_lock) {
  std::map<std::string, Row> rows;
  const std::int64_t t0 = 1'000'000'000;
  // The flood from the holder's own address without the cookie blocks that client...
  Attempt flood{"198.51.100.7", 42, std::nullopt, 0};
  BOOST_TEST(fail(flood, rows, 5, t0) > 0);
  // ...and the holder is not touched by it.
  Attempt holder{"198.51.100.7", 42, std::string(32, 'b'), 0};
  BOOST_TEST(wait_for(holder, rows, test_policies(), t0) == 0);
  // Its own failures: free tries, then 1 s doubling up to 30 s at most.
  BOOST_TEST(fail(holder, rows, 5, t0) == 1000);
  std::int64_t t = t0 + 1000, worst = 0;
  for (int i = 0; i < 20; ++i) {
    count(holder, rows, test_policies(), t);
    worst = std::max(worst, wait_for(holder, rows, test_policies(), t));
    t += wait_for(holder, rows, test_policies(), t);
  }
  BOOST_TEST(worst == 30'000);
}

BOOST_AUTO_TEST_CASE(the_client_counter_stops_spraying_over_many_names) {
  std::map<std::string, Row> rows;
  const std::int64_t t0 = 1'000'000'000;
  const auto p = test_policies();
  for (int i = 0; i < 20; ++i) {
    Attempt a{"198.51.100.7", 1000 + i, std::nullopt, 0};  // 20 accounts, one guess each
    BOOST_REQUIRE(wait_for(a, rows, p, t0) == 0);
    count(a, rows, p, t0);
  }
  Attempt next{"198.51.100.7", 5000, std::nullopt, 0};
  BOOST_TEST(wait_for(next, rows, p, t0) == 60'000);
  Attempt unknown{"198.51.100.7", std::nullopt, std::nullopt, 7};
  BOOST_TEST(wait_for(unknown, rows, p, t0) == 60'000);
  Attempt elsewhere{"198.51.100.8", 5000, std::nullopt, 0};
  BOOST_TEST(wait_for(elsewhere, rows, p, t0) == 0);
}

BOOST_AUTO_TEST_CASE(an_unknown_name_is_throttled_like_an_account_by_its_slot) {
  std::map<std::string, Row> rows;
  const std::int64_t t0 = 1'000'000'000;
  Attempt ghost{"198.51.100.7", std::nullopt, std::nullopt, 5};
  BOOST_TEST(fail(ghost, rows, 5, t0) == 60'000);  // like an existing account: 5, then a wait
  Attempt other_ghost{"198.51.100.7", std::nullopt, std::nullopt, 6};
  BOOST_TEST(wait_for(other_ghost, rows, test_policies(), t0) == 0);
  BOOST_TEST(rows.size() == 1u);
  BOOST_TEST(slot_count(rows["c|198.51.100.7"], 5) == 5);
}

BOOST_AUTO_TEST_CASE(a_refund_takes_back_exactly_one_attempt) {
  std::map<std::string, Row> rows;
  const std::int64_t t0 = 1'000'000'000;
  Attempt a{"198.51.100.7", std::nullopt, std::nullopt, 2};
  fail(a, rows, 3, t0);
  refund(a, rows);
  BOOST_TEST(rows["c|198.51.100.7"].failures == 2);
  BOOST_TEST(slot_count(rows["c|198.51.100.7"], 2) == 2);
  refund(a, rows);
  refund(a, rows);
  refund(a, rows);
  BOOST_TEST(rows["c|198.51.100.7"].failures == 0);
  BOOST_TEST(slot_count(rows["c|198.51.100.7"], 2) == 0);
}

BOOST_AUTO_TEST_CASE(a_success_forgives_its_own_typos_only) {
  std::map<std::string, Row> rows;
  const std::int64_t t0 = 1'000'000'000;
  // 10 failures against other accounts from this client, then 2 typos and a success on one's own.
  for (int i = 0; i < 10; ++i) fail(Attempt{"198.51.100.7", 100 + i, std::nullopt, 0}, rows, 1, t0);
  Attempt own{"198.51.100.7", 42, std::nullopt, 0};
  fail(own, rows, 3, t0);
  BOOST_TEST(rows["c|198.51.100.7"].failures == 13);
  succeed(own, rows);
  BOOST_TEST(rows["c|198.51.100.7"].failures == 10);  // the 10 against others stay
  BOOST_TEST(rows["p|42|198.51.100.7"].failures == 0);
  BOOST_TEST(rows["a|42"].failures == 0);
  // Successes do not go below zero nor forgive what they did not cause.
  fail(own, rows, 1, t0);
  succeed(own, rows);
  succeed(own, rows);
  BOOST_TEST(rows["c|198.51.100.7"].failures == 10);
}

BOOST_AUTO_TEST_CASE(rows_expire_after_the_window_or_the_block) {
  const auto p = test_policies().pair;
  BOOST_TEST(expiry_ms({1, 1000, {}}, p) == 1000 + 15 * 60'000 + 60'000);
  BOOST_TEST(expiry_ms({50, 1000, {}}, p) == 1000 + 30 * 60'000);
}

BOOST_AUTO_TEST_SUITE_END()
