#include "engines/monitor/outbox_sender.hpp"

#include <atomic>
#include <boost/test/unit_test.hpp>
#include <stdexcept>
#include <thread>

using namespace dozor::monitor;
using namespace std::chrono_literals;

namespace {

// Has `backlog` rows to deliver, one per call; throws once when asked to.
class FakeSender : public OutboxSender {
 public:
  std::atomic<int> backlog{0};
  std::atomic<int> calls{0};
  std::atomic<bool> throw_once{false};
  std::atomic<bool> deadline_in_past{false};  // Boost.Test asserts only on the test's thread
  int deliver_pending(std::chrono::steady_clock::time_point deadline) override {
    ++calls;
    if (deadline <= std::chrono::steady_clock::now()) deadline_in_past = true;
    if (throw_once.exchange(false)) throw std::runtime_error("smtp down");
    if (backlog <= 0) return 0;
    --backlog;
    return 1;
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(outbox_pump)

BOOST_AUTO_TEST_CASE(a_backlog_is_drained_without_waiting_between_rounds) {
  FakeSender sender;
  sender.backlog = 50;
  {
    OutboxPump pump(sender, 10s);  // idle wait far longer than the test
    for (int i = 0; i < 200 && sender.backlog > 0; ++i) std::this_thread::sleep_for(10ms);
  }
  BOOST_TEST(sender.backlog == 0);
  BOOST_TEST(sender.calls >= 51);  // 50 with rows, then one that found none and waited
  BOOST_TEST(!sender.deadline_in_past);
}

BOOST_AUTO_TEST_CASE(an_error_is_logged_and_the_pump_goes_on) {
  FakeSender sender;
  sender.throw_once = true;
  sender.backlog = 1;
  OutboxPump pump(sender, 20ms);
  for (int i = 0; i < 200 && (sender.backlog > 0 || pump.rounds() < 3); ++i) std::this_thread::sleep_for(10ms);
  BOOST_TEST(sender.backlog == 0);
  BOOST_TEST(pump.rounds() >= 3);
}

BOOST_AUTO_TEST_CASE(destruction_stops_an_idle_pump_at_once) {
  NoOutboxSender none;
  auto t0 = std::chrono::steady_clock::now();
  { OutboxPump pump(none, 60s); }
  BOOST_TEST((std::chrono::steady_clock::now() - t0 < 5s));
}

BOOST_AUTO_TEST_SUITE_END()
