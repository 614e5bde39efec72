#include "db/batch.hpp"

#include <bit>
#include <boost/test/unit_test.hpp>
#include <numeric>
#include <set>

using namespace dozor::db;

BOOST_AUTO_TEST_SUITE(batch)

BOOST_AUTO_TEST_CASE(chunks_are_powers_of_two_that_sum_to_the_batch) {
  BOOST_TEST((chunk_sizes(200) == std::vector<std::size_t>{128, 64, 8}));
  BOOST_TEST(chunk_sizes(0).empty());
  std::set<std::size_t> shapes;
  for (std::size_t n = 0; n <= 1000; ++n) {
    auto c = chunk_sizes(n);
    BOOST_REQUIRE_EQUAL(std::accumulate(c.begin(), c.end(), std::size_t{0}), n);
    for (auto s : c) {
      BOOST_REQUIRE(std::has_single_bit(s));
      BOOST_REQUIRE_LE(s, kMaxChunk);
      shapes.insert(s);
    }
  }
  BOOST_TEST(shapes.size() == 8u);  // 1, 2, 4 … 128: eight statement texts per kind, whatever n
  BOOST_TEST((chunk_sizes(5, 3) == std::vector<std::size_t>{2, 2, 1}));
}

BOOST_AUTO_TEST_CASE(rows_are_repeated_between_separators) {
  BOOST_TEST(repeat_rows("(?, ?)", 2) == "(?, ?), (?, ?)");
  BOOST_TEST(repeat_rows("?", 1) == "?");
  BOOST_TEST(repeat_rows("a", 3, " OR ") == "a OR a OR a");
  BOOST_TEST(repeat_rows("?", 0).empty());
}

BOOST_AUTO_TEST_SUITE_END()
