// The observers of one crawl fed together (engines/audit/observer.hpp ObserverSet): a broken one
// loses only its own pages, its error named first; the others see every page.
#include "engines/audit/observer.hpp"

#include <boost/test/unit_test.hpp>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using namespace dozor::audit;

namespace {

// Counts pages; throws from observe() at page `throw_at` (0: never) or from finish() when asked.
class Counting : public PageObserver {
 public:
  Counting(std::string name, int throw_at, bool throw_in_finish)
      : name_(std::move(name)), throw_at_(throw_at), throw_in_finish_(throw_in_finish) {}
  std::string name() const override { return name_; }
  void observe(const dozor::crawl::PageSeen&) override {
    if (++seen_ == throw_at_) throw std::runtime_error("broken at page " + std::to_string(seen_));
  }
  void finish(const dozor::crawl::CrawlResult&, AuditParts& out) override {
    if (throw_in_finish_) throw std::runtime_error("broken in finish");
    Finding f;
    f.check = name_;
    f.title = std::to_string(seen_) + " pages";
    out.findings.push_back(f);
  }

 private:
  std::string name_;
  int throw_at_;
  bool throw_in_finish_;
  int seen_ = 0;
};

std::vector<std::unique_ptr<PageObserver>> three() {
  std::vector<std::unique_ptr<PageObserver>> v;
  v.push_back(std::make_unique<Counting>("fine", 0, false));
  v.push_back(std::make_unique<Counting>("observe-breaks", 2, false));
  v.push_back(std::make_unique<Counting>("finish-breaks", 0, true));
  return v;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(observer_set)

BOOST_AUTO_TEST_CASE(a_broken_observer_costs_the_others_nothing) {
  ObserverSet set(three());
  const std::string url = "http://site.test/";
  const std::vector<dozor::net::Exchange> exchanges;
  const dozor::crawl::PageSeen page{url, 0, 200, exchanges};
  for (int i = 0; i < 4; ++i) set.observe(page);
  AuditParts out;
  out.errors.push_back({"before", "an earlier step"});
  set.finish(dozor::crawl::CrawlResult{}, out);
  BOOST_REQUIRE_EQUAL(out.findings.size(), 1U);
  BOOST_TEST(out.findings[0].check == "fine");
  BOOST_TEST(out.findings[0].title == "4 pages");
  BOOST_REQUIRE_EQUAL(out.errors.size(), 3U);
  BOOST_TEST(out.errors[0].check == "before");  // appended, never replacing
  BOOST_TEST(out.errors[1].check == "observe-breaks");
  BOOST_TEST(out.errors[1].error == "broken at page 2");
  BOOST_TEST(out.errors[2].check == "finish-breaks");
}

BOOST_AUTO_TEST_CASE(a_crawl_that_did_not_run_is_an_error_of_every_observer) {
  ObserverSet set(three());
  AuditParts out;
  set.not_run("time budget", out);
  BOOST_REQUIRE_EQUAL(out.errors.size(), 3U);
  BOOST_TEST(out.errors[2].check == "finish-breaks");
  BOOST_TEST(out.errors[2].error == "time budget");
}

BOOST_AUTO_TEST_SUITE_END()
