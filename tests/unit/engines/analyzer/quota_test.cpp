#include "engines/analyzer/quota.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>

using namespace dozor::analyzer;

namespace {
constexpr std::int64_t kHour = QuotaBoard::kWindowMs;
constexpr std::int64_t kT0 = 1'700'000'000'000;
}  // namespace

BOOST_AUTO_TEST_SUITE(analyzer_quota)

BOOST_AUTO_TEST_CASE(documents_at_n_and_n_plus_one_then_the_hour_renews) {
  auto* q = QuotaBoard::create();
  BOOST_REQUIRE(q);
  Budget b;
  b.documents = 3;
  for (int i = 0; i < 3; ++i) BOOST_TEST(!q->admit(7, b, kT0 + i));
  auto r = q->admit(7, b, kT0 + 1000);
  BOOST_REQUIRE(r);
  BOOST_TEST(r->budget == "documents");
  BOOST_TEST(r->limit == 3);
  BOOST_TEST(r->retry_after == 3599);  // the hour started at kT0
  BOOST_TEST(!q->admit(8, b, kT0 + 1000), "another user has a budget of their own");
  BOOST_TEST(!q->admit(7, b, kT0 + kHour), "a new hour");
}

BOOST_AUTO_TEST_CASE(bytes_at_n_and_n_plus_one) {
  auto* q = QuotaBoard::create();
  Budget b;
  b.bytes = 100;
  BOOST_TEST(!q->admit(1, b, kT0));
  BOOST_TEST(!q->add_bytes(1, 60, b, kT0));
  BOOST_TEST(!q->add_bytes(1, 40, b, kT0), "exactly the budget");
  BOOST_TEST(q->admit(1, b, kT0)->budget == "bytes", "nothing left");
  auto* q2 = QuotaBoard::create();
  BOOST_TEST(!q2->add_bytes(1, 100, b, kT0));
  auto* q3 = QuotaBoard::create();
  auto r = q3->add_bytes(1, 101, b, kT0);
  BOOST_REQUIRE(r);
  BOOST_TEST(r->budget == "bytes");
}

BOOST_AUTO_TEST_CASE(pages_and_seconds_are_charged_after_the_document) {
  auto* q = QuotaBoard::create();
  Budget b;
  b.pages = 10;
  b.seconds = 2;
  BOOST_TEST(!q->admit(1, b, kT0));
  q->charge(1, 9, 1999, kT0);
  BOOST_TEST(!q->admit(1, b, kT0), "9 pages and 1.999 s of 10 and 2");
  q->charge(1, 1, 0, kT0);
  BOOST_TEST(q->admit(1, b, kT0)->budget == "pages");
  auto* q2 = QuotaBoard::create();
  q2->charge(2, 0, 2000, kT0);
  BOOST_TEST(q2->admit(2, b, kT0)->budget == "seconds");
}

BOOST_AUTO_TEST_CASE(zero_is_unlimited) {
  auto* q = QuotaBoard::create();
  Budget none;
  for (int i = 0; i < 1000; ++i) BOOST_TEST_REQUIRE(!q->admit(1, none, kT0));
  BOOST_TEST(!q->add_bytes(1, 1LL << 40, none, kT0));
}

BOOST_AUTO_TEST_CASE(a_full_table_gives_the_oldest_hour_to_a_new_user) {
  auto* q = QuotaBoard::create();
  Budget b;
  b.documents = 1;
  const auto users = static_cast<std::int64_t>(dozor::limits::analyzer::kQuotaUsers);
  for (std::int64_t u = 1; u <= users; ++u) BOOST_TEST_REQUIRE(!q->admit(u, b, kT0 + u));
  BOOST_TEST(q->admit(users, b, kT0 + users + 1).has_value(), "every user is tracked");
  BOOST_TEST(!q->admit(users + 1, b, kT0 + users + 1), "a new user takes user 1's slot");
  BOOST_TEST(!q->admit(1, b, kT0 + users + 2), "user 1 starts over (the least harmful loss)");
}

BOOST_AUTO_TEST_CASE(workers_share_the_table_across_fork) {
  auto* q = QuotaBoard::create();
  Budget b;
  b.documents = 2;
  pid_t child = fork();
  BOOST_REQUIRE(child >= 0);
  if (child == 0) _exit(q->admit(5, b, kT0) || q->admit(5, b, kT0) ? 1 : 0);
  int status = 0;
  waitpid(child, &status, 0);
  BOOST_REQUIRE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  BOOST_TEST(q->admit(5, b, kT0)->budget == "documents", "the child's two documents count here");
}

BOOST_AUTO_TEST_SUITE_END()
