#include "engines/auth/block_cache.hpp"

#include <boost/test/unit_test.hpp>

using dozor::auth::BlockCache;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(block_cache)

BOOST_AUTO_TEST_CASE(a_remembered_wait_runs_out_by_time) {
  BlockCache c;
  auto t0 = BlockCache::Clock::now();
  c.remember("c|198.51.100.7", 60'000, t0);
  BOOST_TEST(c.wait_ms("c|198.51.100.7", t0) > 59'000);
  BOOST_TEST(c.wait_ms("c|198.51.100.7", t0 + 59s) > 0);
  BOOST_TEST(c.wait_ms("c|198.51.100.7", t0 + 60s) == 0);
  BOOST_TEST(c.wait_ms("c|198.51.100.8", t0) == 0);
}

BOOST_AUTO_TEST_CASE(a_shorter_wait_never_shortens_a_known_one) {
  BlockCache c;
  auto t0 = BlockCache::Clock::now();
  c.remember("k", 60'000, t0);
  c.remember("k", 1'000, t0);
  BOOST_TEST(c.wait_ms("k", t0 + 2s) > 0);
}

BOOST_AUTO_TEST_CASE(the_memory_is_bounded) {
  BlockCache c;
  auto t0 = BlockCache::Clock::now();
  for (std::size_t i = 0; i < BlockCache::kMaxEntries + 500; ++i) c.remember("k" + std::to_string(i), 1000, t0);
  BOOST_TEST(c.size() <= BlockCache::kMaxEntries);
  BlockCache d;
  for (std::size_t i = 0; i < BlockCache::kMaxEntries; ++i) d.remember("k" + std::to_string(i), 1000, t0);
  BOOST_TEST(d.size() == BlockCache::kMaxEntries);
  // Expired entries make room first.
  d.remember("late", 1000, t0 + 5s);
  BOOST_TEST(d.size() == 1u);
  BOOST_TEST(d.wait_ms("late", t0 + 5s) > 0);
}

BOOST_AUTO_TEST_SUITE_END()
