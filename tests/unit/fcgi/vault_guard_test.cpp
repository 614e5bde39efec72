#include "fcgi/vault_guard.hpp"

#include <boost/test/unit_test.hpp>

#include "engines/errors.hpp"

using dozor::http::Request;
using dozor::http::require_same_origin;
using dozor::http::same_origin;

namespace {
Request with(std::map<std::string, std::string> headers) {
  Request r;
  r.method = "POST";
  r.headers = std::move(headers);
  return r;
}
const std::string kOrigins = "https://files.example.com https://127.0.0.1:8443";
}  // namespace

BOOST_AUTO_TEST_SUITE(vault_guard)

BOOST_AUTO_TEST_CASE(origin_must_be_one_of_the_configured) {
  BOOST_TEST(same_origin(with({{"origin", "https://files.example.com"}}), kOrigins));
  BOOST_TEST(same_origin(with({{"origin", "https://127.0.0.1:8443"}}), kOrigins));
  for (const char* o :
       {"https://evil.example", "null", "https://files.example.com.evil.example", "http://files.example.com",
        "https://files.example.com:443", "https://127.0.0.1", "https://files.example.co", ""})
    BOOST_TEST(!same_origin(with({{"origin", o}}), kOrigins), o);
}

BOOST_AUTO_TEST_CASE(referer_stands_in_only_when_origin_is_absent) {
  BOOST_TEST(same_origin(with({{"referer", "https://files.example.com/vault/browse?path=/"}}), kOrigins));
  BOOST_TEST(!same_origin(with({{"referer", "https://files.example.com.evil.example/x"}}), kOrigins));
  BOOST_TEST(!same_origin(with({{"referer", "/relative"}}), kOrigins));
  // A foreign Origin is not rescued by a matching Referer.
  BOOST_TEST(
      !same_origin(with({{"origin", "https://evil.example"}, {"referer", "https://files.example.com/"}}), kOrigins));
  BOOST_TEST(!same_origin(with({}), kOrigins));
}

BOOST_AUTO_TEST_CASE(without_configured_origins_the_host_decides) {
  BOOST_TEST(same_origin(with({{"origin", "https://h.example:8443"}, {"host", "h.example:8443"}}), ""));
  BOOST_TEST(!same_origin(with({{"origin", "https://evil.example"}, {"host", "h.example"}}), ""));
  BOOST_TEST(!same_origin(with({{"origin", "https://"}}), ""));
}

BOOST_AUTO_TEST_CASE(cross_site_fetch_metadata_is_refused) {
  BOOST_CHECK_THROW(
      require_same_origin(with({{"origin", "https://files.example.com"}, {"sec-fetch-site", "cross-site"}}), kOrigins),
      dozor::Forbidden);
  BOOST_CHECK_NO_THROW(require_same_origin(
      with({{"origin", "https://files.example.com"}, {"sec-fetch-site", "same-origin"}}), kOrigins));
  BOOST_CHECK_THROW(require_same_origin(with({}), kOrigins), dozor::Forbidden);
}

BOOST_AUTO_TEST_SUITE_END()
