// The nginx lines production's site includes from the config (engines/config/nginx_includes.hpp):
// networks and listen addresses are checked at load, and the files say exactly what the config does.
#include "engines/config/nginx_includes.hpp"

#include <boost/test/unit_test.hpp>
#include <map>

using namespace dozor::config;

namespace {

std::map<std::string, std::string> files(const Config& c) {
  std::map<std::string, std::string> out;
  for (const auto& inc : nginx_includes(c)) out[inc.file] = inc.text;
  return out;
}

bool refused(const std::string& toml) {
  try {
    parse(toml, {});
    return false;
  } catch (const ConfigError&) {
    return true;
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(nginx_includes)

BOOST_AUTO_TEST_CASE(networks_are_addresses_with_prefixes_in_range) {
  BOOST_TEST(network_problems("127.0.0.1/32, ::1/128 10.0.0.0/8,192.0.2.7 2001:db8::/0", "k").empty());
  BOOST_TEST(network_problems("", "k").empty());
  // N and N+1 of each family's prefix length.
  BOOST_TEST(network_problems("10.0.0.0/32", "k").empty());
  BOOST_TEST(network_problems("10.0.0.0/33", "k").size() == 1u);
  BOOST_TEST(network_problems("::/128", "k").empty());
  BOOST_TEST(network_problems("::/129", "k").size() == 1u);
  for (const char* bad : {"10.0.0.0/", "10.0.0.0/x", "10.0.0.0/-1", "example.com", "10.0.0.256", "all", "10.0.0.0/8;",
                          "unix:", "1.2.3.4/8/8"})
    BOOST_TEST(network_problems(bad, "analyzer.networks").size() == 1u, bad);
  auto p = network_problems("10.0.0.0/8 bogus", "analyzer.networks");
  BOOST_REQUIRE(p.size() == 1u);
  BOOST_TEST(p[0].find("analyzer.networks: 'bogus' is not a network") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(listen_is_an_address_and_a_port_in_range) {
  for (const char* ok : {"127.0.0.1:8181", "[::1]:8181", "analyzer.internal:1", "0.0.0.0:65535"})
    BOOST_TEST(valid_listen(ok), ok);
  for (const char* bad : {"8181", ":8181", "127.0.0.1:0", "127.0.0.1:65536", "127.0.0.1:", "[::1:8181", "[x]:81",
                          "127.0.0.1:81; deny all", "a b:81", "*:8181"})
    BOOST_TEST(!valid_listen(bad), bad);
}

BOOST_AUTO_TEST_CASE(the_config_refuses_what_nginx_would_refuse) {
  BOOST_TEST(!refused("[analyzer]\nnetworks = \"10.0.0.0/32\"\n[nginx]\ninternal_networks = \"::/128\"\n"));
  BOOST_TEST(refused("[analyzer]\nnetworks = \"10.0.0.0/33\"\n"));
  BOOST_TEST(refused("[vault]\ndocserver_networks = \"docs.example.com\"\n"));
  BOOST_TEST(refused("[nginx]\ninternal_networks = \"::/129\"\n"));
  BOOST_TEST(refused("[analyzer]\nlisten = \"8181\"\n"));
  BOOST_TEST(!refused("[analyzer]\nlisten = \"\"\n"));
  BOOST_TEST(refused("[nginx]\nbogus = 1\n"));
}

BOOST_AUTO_TEST_CASE(the_defaults_allow_loopback_only) {
  auto f = files(Config{});
  BOOST_TEST(f.size() == 7u);
  BOOST_TEST(f["analyzer-networks-from-config.conf"].find("allow 127.0.0.1/32;\nallow ::1/128;\n") !=
             std::string::npos);
  BOOST_TEST(f["docserver-networks-from-config.conf"].find("allow 127.0.0.1/32;\nallow ::1/128;\n") !=
             std::string::npos);
  // /monitoring/ and /metrics allow loopback in the site itself; nothing else by default.
  BOOST_TEST(f["internal-networks-from-config.conf"].find("allow") == std::string::npos);
  BOOST_TEST(f["analyzer-listen.conf"].find("\nlisten 127.0.0.1:8181;\n") != std::string::npos);
  BOOST_TEST(f["analyzer-body.conf"].find("client_max_body_size 53477376;") != std::string::npos);  // 50 MiB + 1 MiB
  BOOST_TEST(f["vault-body.conf"].find("client_max_body_size 1074790400;") != std::string::npos);   // 1 GiB + 1 MiB
  // No out-of-band listener: a loopback port that answers 404 to everything.
  BOOST_TEST(f["oast-listen.conf"].find("\nlisten 127.0.0.1:8182;\nreturn 404;\n") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_oast_listener_has_a_listen_line_per_address) {
  auto f = files(parse("[scanner]\noast_listen = \"0.0.0.0:8880, [::]:8880\"\n", {}));
  BOOST_TEST(f["oast-listen.conf"].find("\nlisten 0.0.0.0:8880;\nlisten [::]:8880;\n") != std::string::npos);
  BOOST_TEST(f["oast-listen.conf"].find("return") == std::string::npos);
  BOOST_TEST(refused("[scanner]\noast_listen = \"8880\"\n"));
  BOOST_TEST(refused("[scanner]\noast_listen = \"0.0.0.0:8880 *:80\"\n"));
  BOOST_TEST(refused("[scanner]\noast_listen = \"0.0.0.0:8880;return\"\n"));
}

BOOST_AUTO_TEST_CASE(an_empty_analyzer_listen_leaves_the_listener_open_to_no_one) {
  auto c = parse("[analyzer]\nlisten = \"\"\n", {});
  auto f = files(c);
  BOOST_TEST(f["analyzer-networks-from-config.conf"].find("allow") == std::string::npos);
  BOOST_TEST(f["analyzer-listen.conf"].find("listen 127.0.0.1:8181;") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
