#include "engines/net/connect.hpp"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>

#include "tests/unit/support/loopback_listener.hpp"

using namespace dozor::net;
using namespace std::chrono_literals;

namespace {

using Listener = dozor::test::LoopbackListener;

}  // namespace

BOOST_AUTO_TEST_SUITE(net_connect)

BOOST_AUTO_TEST_CASE(literals_resolve_without_dns) {
  auto v4 = resolve_host("127.0.0.1", 1s);
  BOOST_REQUIRE_EQUAL(v4.size(), 1u);
  BOOST_TEST(v4[0].to_string() == "127.0.0.1");
  auto v6 = resolve_host("[::1]", 1s);
  BOOST_REQUIRE_EQUAL(v6.size(), 1u);
  BOOST_TEST(v6[0].v6);
}

BOOST_AUTO_TEST_CASE(localhost_resolves_to_loopback) {
  auto a = resolve_host("localhost", 5s);
  BOOST_REQUIRE(!a.empty());
  for (const auto& x : a) BOOST_TEST((classify(x) == AddressKind::Loopback));
}

BOOST_AUTO_TEST_CASE(an_unknown_name_is_a_resolve_error) {
  try {
    resolve_host("no-such-host.invalid", 5s);
    BOOST_FAIL("resolved");
  } catch (const ConnectError& e) {
    BOOST_TEST((e.kind == ConnectError::Kind::Resolve || e.kind == ConnectError::Kind::Timeout));
  }
}

BOOST_AUTO_TEST_CASE(allowed_address_connects) {
  Listener l(true);
  EgressPolicy dev(true);
  auto s = connect_gated("127.0.0.1", l.port, dev, 2s);
  BOOST_TEST(s.fd() >= 0);
}

BOOST_AUTO_TEST_CASE(the_policy_refuses_before_any_connect) {
  Listener l(true);
  EgressPolicy strict(false);
  try {
    connect_gated("127.0.0.1", l.port, strict, 2s);
    BOOST_FAIL("connected");
  } catch (const ConnectError& e) {
    BOOST_TEST((e.kind == ConnectError::Kind::Refused));
    BOOST_TEST(std::string(e.what()).find("loopback") != std::string::npos);
  }
  // The address-list form judges each address too, even with allow_private on for metadata.
  EgressPolicy dev(true);
  auto meta = IpAddress::parse("169.254.169.254");
  try {
    connect_gated(std::vector<IpAddress>{*meta}, 80, dev, 1s);
    BOOST_FAIL("the metadata address was connected to");
  } catch (const ConnectError& e) {
    BOOST_TEST((e.kind == ConnectError::Kind::Refused));  // refused by the policy, not a failed connect
  }
}

BOOST_AUTO_TEST_CASE(a_closed_port_is_a_connect_error) {
  std::uint16_t port = 0;
  {
    Listener l(false);
    port = l.port;
  }
  EgressPolicy dev(true);
  try {
    connect_gated("127.0.0.1", port, dev, 2s);
    BOOST_FAIL("connected");
  } catch (const ConnectError& e) {
    BOOST_TEST((e.kind == ConnectError::Kind::Connect));
  }
}

BOOST_AUTO_TEST_CASE(a_mixed_answer_is_refused_as_a_whole) {
  EgressPolicy strict(false);
  std::vector<IpAddress> mixed{*IpAddress::parse("8.8.8.8"), *IpAddress::parse("10.0.0.1")};
  BOOST_TEST(strict.refusal(mixed).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
