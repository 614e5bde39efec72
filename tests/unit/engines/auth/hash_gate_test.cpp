#include "engines/auth/hash_gate.hpp"

#include <atomic>
#include <boost/test/unit_test.hpp>
#include <thread>
#include <vector>

using dozor::auth::HashGate;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(hash_gate)

BOOST_AUTO_TEST_CASE(permits_then_queue_then_refusal_without_waiting) {
  HashGate gate(2, 1, 2000ms);
  auto a = gate.enter();
  auto b = gate.enter();
  BOOST_REQUIRE(a && b);
  BOOST_TEST(!gate.full());
  std::atomic<bool> queued_got{false};
  std::thread waiter([&] { queued_got = gate.enter().has_value(); });
  while (gate.waiting() == 0) std::this_thread::yield();
  BOOST_TEST(gate.full());
  auto start = std::chrono::steady_clock::now();
  BOOST_TEST(!gate.enter().has_value());  // queue full: refused at once
  BOOST_TEST((std::chrono::steady_clock::now() - start < 500ms));
  a.reset();  // a permit frees: the queued caller gets it
  waiter.join();
  BOOST_TEST(queued_got.load());
  BOOST_TEST(gate.running() == 1);
}

BOOST_AUTO_TEST_CASE(a_queued_caller_gives_up_after_max_wait) {
  HashGate gate(1, 4, 50ms);
  auto a = gate.enter();
  BOOST_REQUIRE(a);
  auto start = std::chrono::steady_clock::now();
  BOOST_TEST(!gate.enter().has_value());
  BOOST_TEST((std::chrono::steady_clock::now() - start >= 50ms));
  BOOST_TEST(gate.waiting() == 0);
}

BOOST_AUTO_TEST_CASE(never_more_than_permits_at_once_under_contention) {
  HashGate gate(3, 100, 5000ms);
  std::atomic<int> inside{0}, peak{0}, done{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 24; ++i)
    threads.emplace_back([&] {
      auto p = gate.enter();
      if (!p) return;
      int now = ++inside;
      int seen = peak.load();
      while (now > seen && !peak.compare_exchange_weak(seen, now)) {
      }
      std::this_thread::sleep_for(2ms);
      --inside;
      ++done;
    });
  for (auto& t : threads) t.join();
  BOOST_TEST(peak.load() <= 3);
  BOOST_TEST(done.load() == 24);
  BOOST_TEST(gate.running() == 0);
}

BOOST_AUTO_TEST_SUITE_END()
