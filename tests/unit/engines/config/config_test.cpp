#include "engines/config/config.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::config;

BOOST_AUTO_TEST_SUITE(config)

BOOST_AUTO_TEST_CASE(defaults_without_file_content) {
  auto c = parse("", {});
  BOOST_TEST(c.server.threads == 16);
  BOOST_TEST(c.server.max_body == 1 << 20);
  BOOST_TEST(c.server.workers >= 1);
  BOOST_TEST(!c.scanner.allow_private_targets);
  BOOST_TEST(c.auth.token_lifetime == 43200);
  BOOST_TEST(c.monitor.timeout == 10);
}

BOOST_AUTO_TEST_CASE(file_values_are_read) {
  auto c = parse("[server]\nworkers = 3\nsocket_mode = \"0666\"\n[database]\nname = \"x\"\n", {});
  BOOST_TEST(c.server.workers == 3);
  BOOST_TEST(c.server.socket_mode == 0666u);
  BOOST_TEST(c.database.name == "x");
}

BOOST_AUTO_TEST_CASE(environment_overrides_the_file) {
  auto c = parse("[scanner]\nallow_private_targets = false\n[server]\nmax_body = 2048\n",
                 {"DOZOR_SCANNER_ALLOW_PRIVATE_TARGETS=true", "DOZOR_SERVER_MAX_BODY=4096", "DOZOR_TEST_BASE_URL=x"});
  BOOST_TEST(c.scanner.allow_private_targets);
  BOOST_TEST(c.server.max_body == 4096);
}

BOOST_AUTO_TEST_CASE(unknown_keys_and_bad_values_are_errors) {
  BOOST_CHECK_THROW(parse("[server]\nwrokers = 2\n", {}), ConfigError);
  BOOST_CHECK_THROW(parse("[server]\nworkers = \"two\"\n", {}), ConfigError);
  BOOST_CHECK_THROW(parse("[server]\nthreads = 0\n", {}), ConfigError);
  BOOST_CHECK_THROW(parse("", {"DOZOR_SERVER_WORKERS=lots"}), ConfigError);
  BOOST_CHECK_THROW(parse("[server\n", {}), ConfigError);
}

BOOST_AUTO_TEST_SUITE_END()
