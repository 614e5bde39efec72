#include "engines/audit/batch.hpp"

#include <atomic>
#include <boost/test/unit_test.hpp>
#include <thread>

using namespace dozor::audit;

BOOST_AUTO_TEST_SUITE(audit_batch)

BOOST_AUTO_TEST_CASE(at_most_n_audits_run_at_once_and_outcomes_keep_the_order) {
  std::vector<BatchItem> items;
  for (int i = 0; i < 9; ++i) items.push_back({i, "s" + std::to_string(i), "https://s" + std::to_string(i) + ".test/"});
  std::atomic<int> running{0}, peak{0};
  auto out = run_batch(items, 3, std::chrono::steady_clock::now() + std::chrono::seconds(30), [&](const BatchItem& it) {
    int now = ++running;
    int p = peak.load();
    while (now > p && !peak.compare_exchange_weak(p, now)) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    --running;
    if (it.service_id == 4) throw std::runtime_error("boom");
    AuditReport r;
    r.target = it.url;
    return r;
  });
  BOOST_TEST(peak.load() <= 3);
  BOOST_TEST(peak.load() >= 2);
  BOOST_REQUIRE(out.size() == 9u);
  BOOST_TEST(out[0].report->target == "https://s0.test/");
  BOOST_TEST(out[8].report->target == "https://s8.test/");
  BOOST_TEST(!out[4].report.has_value());
  BOOST_TEST(out[4].error == "boom");
}

BOOST_AUTO_TEST_CASE(nothing_starts_after_the_deadline) {
  std::vector<BatchItem> items{{1, "a", "https://a.test/"}, {2, "b", "https://b.test/"}};
  auto out = run_batch(items, 4, std::chrono::steady_clock::now() - std::chrono::seconds(1),
                       [](const BatchItem&) -> AuditReport { throw std::logic_error("must not run"); });
  for (const auto& o : out) BOOST_TEST(o.error.find("time budget") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
