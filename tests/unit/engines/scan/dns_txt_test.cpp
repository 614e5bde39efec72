// The DNS TXT query and the reading of its answer (engines/scan/dns_txt): packets built by hand.
#include "engines/scan/dns_txt.hpp"

#include <boost/test/unit_test.hpp>
#include <string>

#include "engines/limits.hpp"

using namespace dozor::scan::dns;

namespace {

std::string u16(unsigned v) { return std::string{static_cast<char>(v >> 8), static_cast<char>(v & 0xff)}; }

std::string name(const std::string& dotted) {
  std::string out;
  std::size_t start = 0;
  while (start < dotted.size()) {
    auto dot = dotted.find('.', start);
    auto label = dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    out += static_cast<char>(label.size());
    out += label;
    start = dot == std::string::npos ? dotted.size() : dot + 1;
  }
  return out + '\0';
}

std::string txt_rr(const std::string& owner, const std::vector<std::string>& strings, unsigned type = 16) {
  std::string rdata;
  for (const auto& s : strings) rdata += static_cast<char>(s.size()) + s;
  return owner + u16(type) + u16(1) + std::string("\0\0\x0e\x10", 4) + u16(static_cast<unsigned>(rdata.size())) + rdata;
}

// An answer to build_txt_query(id, qname): header, the question, then `answers` records.
std::string answer(unsigned id, const std::string& qname, const std::vector<std::string>& answers,
                   unsigned flags = 0x8180) {
  std::string p = u16(id) + u16(flags) + u16(1) + u16(static_cast<unsigned>(answers.size())) + u16(0) + u16(0);
  p += name(qname) + u16(16) + u16(1);
  for (const auto& a : answers) p += a;
  return p;
}

const std::string kPtr = std::string("\xc0\x0c", 2);  // the question's name, at offset 12

}  // namespace

BOOST_AUTO_TEST_SUITE(scan_dns_txt)

BOOST_AUTO_TEST_CASE(the_query_asks_txt_in_with_recursion) {
  auto q = build_txt_query(0x1234, "Shop.Example.COM.");
  BOOST_REQUIRE(q);
  BOOST_TEST(*q == u16(0x1234) + u16(0x0100) + u16(1) + u16(0) + u16(0) + u16(0) + name("shop.example.com") + u16(16) +
                       u16(1));
  BOOST_TEST(!build_txt_query(1, ""));
  BOOST_TEST(!build_txt_query(1, "a..b"));
  BOOST_TEST(!build_txt_query(1, std::string(64, 'a') + ".example"));
  BOOST_TEST(build_txt_query(1, std::string(63, 'a') + ".example").has_value());
  BOOST_TEST(!build_txt_query(1, "bad name.example"));
}

BOOST_AUTO_TEST_CASE(txt_records_are_read_with_their_strings_joined) {
  auto p = answer(7, "shop.example",
                  {txt_rr(kPtr, {"v=spf1 -all"}), txt_rr(kPtr, {"dozor-verification=", "abc"}),
                   txt_rr(kPtr, {"ignored"}, 5 /* CNAME */)});
  auto a = parse_txt_answer(p, 7, "shop.example");
  BOOST_TEST(a.ok, a.error);
  BOOST_TEST((a.records == std::vector<std::string>{"v=spf1 -all", "dozor-verification=abc"}));
}

BOOST_AUTO_TEST_CASE(no_such_name_and_no_record_are_valid_empty_answers) {
  auto nx = parse_txt_answer(answer(7, "shop.example", {}, 0x8183), 7, "shop.example");
  BOOST_TEST(nx.ok);
  BOOST_TEST(nx.records.empty());
  auto none = parse_txt_answer(answer(7, "shop.example", {}), 7, "shop.example");
  BOOST_TEST(none.ok);
}

BOOST_AUTO_TEST_CASE(answers_that_do_not_fit_the_question_are_refused) {
  auto good = answer(7, "shop.example", {txt_rr(kPtr, {"x"})});
  BOOST_TEST(!parse_txt_answer(good, 8, "shop.example").ok);                                   // another id
  BOOST_TEST(!parse_txt_answer(good, 7, "other.example").ok);                                  // another question
  BOOST_TEST(!parse_txt_answer(answer(7, "shop.example", {}, 0x0100), 7, "shop.example").ok);  // a query
  auto truncated = parse_txt_answer(answer(7, "shop.example", {}, 0x8380), 7, "shop.example");
  BOOST_TEST(!truncated.ok);
  BOOST_TEST(truncated.error.find("truncated") != std::string::npos);
  auto servfail = parse_txt_answer(answer(7, "shop.example", {}, 0x8182), 7, "shop.example");
  BOOST_TEST(!servfail.ok);
  BOOST_TEST(!parse_txt_answer("short", 7, "shop.example").ok);
}

BOOST_AUTO_TEST_CASE(hostile_lengths_and_pointer_loops_never_read_past_the_packet) {
  auto base = answer(7, "shop.example", {txt_rr(kPtr, {"abc"})});
  for (std::size_t cut = 0; cut < base.size(); ++cut)
    BOOST_TEST(!parse_txt_answer(base.substr(0, cut), 7, "shop.example").ok);
  // A record claiming more rdata than there is.
  auto lying = answer(7, "shop.example", {});
  lying[7] = 1;  // one answer
  lying += kPtr + u16(16) + u16(1) + std::string("\0\0\0\0", 4) + u16(200) +
           "\x03"
           "abc";
  BOOST_TEST(!parse_txt_answer(lying, 7, "shop.example").ok);
  // A string longer than its record.
  auto inner = answer(7, "shop.example",
                      {kPtr + u16(16) + u16(1) + std::string("\0\0\0\0", 4) + u16(2) +
                       "\x09"
                       "a"});
  BOOST_TEST(!parse_txt_answer(inner, 7, "shop.example").ok);
  // A name pointing at itself.
  auto loop =
      answer(7, "shop.example", {std::string("\xc0\x1e", 2) + u16(16) + u16(1) + std::string("\0\0\0\0", 4) + u16(0)});
  BOOST_TEST(!parse_txt_answer(loop, 7, "shop.example").ok);
}

BOOST_AUTO_TEST_CASE(at_most_k_txt_records_are_kept) {
  std::vector<std::string> rrs(dozor::limits::scope::kTxtRecords + 1, txt_rr(kPtr, {"r"}));
  auto a = parse_txt_answer(answer(7, "shop.example", rrs), 7, "shop.example");
  BOOST_TEST(a.ok);
  BOOST_TEST(a.records.size() == dozor::limits::scope::kTxtRecords);
}

BOOST_AUTO_TEST_CASE(resolver_addresses_parse_with_an_optional_port) {
  auto v4 = parse_resolver("192.0.2.1");
  BOOST_REQUIRE(v4);
  BOOST_TEST(v4->address == "192.0.2.1");
  BOOST_TEST(v4->port == 53);
  auto p = parse_resolver("127.0.0.1:5353");
  BOOST_REQUIRE(p);
  BOOST_TEST(p->port == 5353);
  auto v6 = parse_resolver("[2001:db8::1]:5300");
  BOOST_REQUIRE(v6);
  BOOST_TEST(v6->address == "2001:db8::1");
  BOOST_TEST(v6->port == 5300);
  BOOST_TEST(parse_resolver("2001:db8::1").has_value());
  for (auto bad : {"", "dns.example", "1.2.3.4:", "1.2.3.4:0", "1.2.3.4:65536", "[::1", "1.2.3.4:5x"})
    BOOST_TEST(!parse_resolver(bad), bad);
  auto conf = resolver_from_resolv_conf("# generated\nsearch example\nnameserver fe80::1%eth0\nnameserver 10.0.0.53\n");
  BOOST_REQUIRE(conf);
  BOOST_TEST(conf->address == "10.0.0.53");
  auto six = resolver_from_resolv_conf("nameserver 2001:db8::53\n");
  BOOST_REQUIRE(six);
  BOOST_TEST(six->address == "2001:db8::53");
  BOOST_TEST(!resolver_from_resolv_conf("options ndots:1\n"));
}

BOOST_AUTO_TEST_SUITE_END()
