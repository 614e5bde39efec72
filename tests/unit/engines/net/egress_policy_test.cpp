#include "engines/net/egress_policy.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::net;

namespace {

IpAddress ip(const char* s) {
  auto a = IpAddress::parse(s);
  BOOST_REQUIRE_MESSAGE(a, s);
  return *a;
}

bool refused(const EgressPolicy& p, const char* s) { return p.refusal(ip(s)).has_value(); }

}  // namespace

BOOST_AUTO_TEST_SUITE(egress_policy)

BOOST_AUTO_TEST_CASE(public_addresses_pass) {
  EgressPolicy strict(false);
  for (auto a : {"8.8.8.8", "93.184.216.34", "77.88.55.242", "2a02:6b8::2:242", "2606:4700::1111"})
    BOOST_TEST(!refused(strict, a), a);
}

BOOST_AUTO_TEST_CASE(every_blocked_ipv4_range_is_refused) {
  EgressPolicy strict(false);
  for (auto a :
       {"0.0.0.0",         "0.1.2.3",        "127.0.0.1",       "127.255.255.254", "10.0.0.1",        "10.255.255.255",
        "172.16.0.1",      "172.31.255.255", "192.168.1.1",     "100.64.0.1",      "100.127.255.255", "169.254.1.1",
        "169.254.169.254", "224.0.0.1",      "239.255.255.255", "240.0.0.1",       "255.255.255.255", "192.0.2.1",
        "198.51.100.7",    "203.0.113.9",    "198.18.0.1",      "192.0.0.8"})
    BOOST_TEST(refused(strict, a), a);
  // Neighbours of the ranges stay public.
  for (auto a : {"172.15.255.255", "172.32.0.0", "100.63.255.255", "100.128.0.0", "11.0.0.0", "192.169.0.0"})
    BOOST_TEST(!refused(strict, a), a);
}

BOOST_AUTO_TEST_CASE(every_blocked_ipv6_range_is_refused) {
  EgressPolicy strict(false);
  for (auto a : {"::", "::1", "fc00::1", "fd12:3456::1", "fe80::1", "ff02::1", "2001:db8::1", "2001:0:4136::1",
                 "100::1", "fec0::1", "::127.0.0.1"})
    BOOST_TEST(refused(strict, a), a);
}

BOOST_AUTO_TEST_CASE(ipv6_wrappers_are_judged_by_the_ipv4_inside) {
  EgressPolicy strict(false);
  BOOST_TEST(refused(strict, "::ffff:127.0.0.1"));
  BOOST_TEST(refused(strict, "::ffff:10.1.2.3"));
  BOOST_TEST(refused(strict, "::ffff:169.254.169.254"));
  BOOST_TEST(refused(strict, "64:ff9b::a00:1"));  // NAT64 of 10.0.0.1
  BOOST_TEST(refused(strict, "2002:7f00:1::1"));  // 6to4 of 127.0.0.1
  BOOST_TEST(!refused(strict, "::ffff:8.8.8.8"));
  BOOST_TEST(!refused(strict, "64:ff9b::808:808"));
}

BOOST_AUTO_TEST_CASE(allow_private_opens_loopback_and_private_only) {
  EgressPolicy dev(true);
  for (auto a : {"127.0.0.1", "::1", "10.0.0.5", "192.168.0.2", "fd00::5", "100.64.1.1"})
    BOOST_TEST(!refused(dev, a), a);
  // Cloud metadata, link-local, multicast and reserved stay closed even in development.
  for (auto a : {"169.254.169.254", "169.254.170.2", "100.100.100.200", "fd00:ec2::254", "::ffff:169.254.169.254",
                 "169.254.0.1", "fe80::1", "224.0.0.251", "0.0.0.0", "255.255.255.255"})
    BOOST_TEST(refused(dev, a), a);
}

BOOST_AUTO_TEST_CASE(mixed_dns_answer_is_refused_as_a_whole) {
  EgressPolicy strict(false);
  BOOST_TEST(!strict.refusal(std::vector<IpAddress>{ip("8.8.8.8"), ip("1.1.1.1")}));
  BOOST_TEST(strict.refusal(std::vector<IpAddress>{ip("8.8.8.8"), ip("10.0.0.1")}).has_value());
  BOOST_TEST(strict.refusal(std::vector<IpAddress>{ip("::1"), ip("8.8.8.8")}).has_value());
  BOOST_TEST(strict.refusal(std::vector<IpAddress>{}).has_value());
}

BOOST_AUTO_TEST_CASE(refusal_names_the_address_and_its_kind) {
  EgressPolicy strict(false);
  auto why = strict.refusal(ip("169.254.169.254"));
  BOOST_REQUIRE(why);
  BOOST_TEST(why->find("169.254.169.254") != std::string::npos);
  BOOST_TEST(why->find("cloud metadata") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
