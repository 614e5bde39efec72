#include "handlers/response_cache.hpp"

#include <boost/test/unit_test.hpp>

using dozor::handlers::ResponseCache;
using dozor::http::Response;

namespace {

Response body(const std::string& text, int status = 200) {
  Response r;
  r.status = status;
  r.body = text;
  return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(response_cache)

BOOST_AUTO_TEST_CASE(same_version_is_served_from_cache) {
  ResponseCache cache;
  int made = 0;
  auto make = [&] { return body("v" + std::to_string(++made)); };
  BOOST_TEST(cache.get_or_make("k", 1, make).body == "v1");
  BOOST_TEST(cache.get_or_make("k", 1, make).body == "v1");
  BOOST_TEST(made == 1);
}

BOOST_AUTO_TEST_CASE(new_version_rebuilds) {
  ResponseCache cache;
  int made = 0;
  auto make = [&] { return body("v" + std::to_string(++made)); };
  cache.get_or_make("k", 1, make);
  BOOST_TEST(cache.get_or_make("k", 2, make).body == "v2");
  BOOST_TEST(cache.get_or_make("other", 2, make).body == "v3");
}

BOOST_AUTO_TEST_CASE(errors_are_not_cached) {
  ResponseCache cache;
  int made = 0;
  auto make = [&] {
    ++made;
    return body("e" + std::to_string(made), made == 1 ? 503 : 200);
  };
  BOOST_TEST(cache.get_or_make("k", 1, make).status == 503);
  BOOST_TEST(cache.get_or_make("k", 1, make).status == 200);
  BOOST_TEST(made == 2);
}

BOOST_AUTO_TEST_CASE(size_is_bounded) {
  ResponseCache cache(2);
  int made = 0;
  auto make = [&] { return body(std::to_string(++made)); };
  cache.get_or_make("a", 1, make);
  cache.get_or_make("b", 1, make);
  cache.get_or_make("c", 1, make);  // over the bound: the cache starts over
  cache.get_or_make("a", 1, make);
  BOOST_TEST(made == 4);
}

BOOST_AUTO_TEST_SUITE_END()
