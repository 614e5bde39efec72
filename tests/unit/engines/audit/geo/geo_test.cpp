#include "engines/audit/geo/geo.hpp"

#include <unistd.h>
#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

using namespace dozor::audit;
using namespace dozor::audit::geo;

namespace {

// A MaxMind DB (format 2.0) written here: an IPv4 tree of 32 levels, 24-bit records, in which
// 203.0.113.0/24 leads to one record {"country": {"iso_code": "FI", "names": {"en": "Finland"}},
// "city": {"names": {"en": "Helsinki"}}, "autonomous_system_number": 64500} and every other
// address to "no data". Enough to prove that the reader, its paths and the metadata are used.
class TinyMmdb {
 public:
  TinyMmdb() {
    path_ = (std::filesystem::temp_directory_path() / ("dozor-geo-" + std::to_string(::getpid()) + ".mmdb")).string();
    const std::uint32_t nodes = 32;             // node i tests bit i of the address; the last one points at the data
    const std::uint32_t data_ptr = nodes + 16;  // a record value past the tree: 16 + offset into the data section
    const std::uint32_t prefix = 0xCB007100;    // 203.0.113.0
    std::string tree;
    for (std::uint32_t i = 0; i < nodes; ++i) {
      const bool bit = ((prefix >> (31 - i)) & 1) != 0;
      // Past /24 every address of the network has the data; before it, the other branch has none.
      std::uint32_t on = i >= 23 ? data_ptr : i + 1;
      std::uint32_t off = i >= 24 ? data_ptr : nodes;  // `nodes` means "no data"
      std::uint32_t left = bit ? off : on, right = bit ? on : off;
      put24(tree, left);
      put24(tree, right);
    }
    std::string data = map(3) + str("autonomous_system_number") + uint32(64500) + str("city") + map(1) + str("names") +
                       map(1) + str("en") + str("Helsinki") + str("country") + map(2) + str("iso_code") + str("FI") +
                       str("names") + map(1) + str("en") + str("Finland");
    std::string meta = map(9) + str("node_count") + uint32(nodes) + str("record_size") + uint16(24) +
                       str("ip_version") + uint16(4) + str("database_type") + str("Dozor-Test-City") +
                       str("binary_format_major_version") + uint16(2) + str("binary_format_minor_version") + uint16(0) +
                       str("build_epoch") + uint64(1764028800) /* 2025-11-25 */ + str("languages") + array1("en") +
                       str("description") + map(1) + str("en") + str("test");
    std::ofstream out(path_, std::ios::binary);
    out << tree << std::string(16, '\0') << data << std::string("\xAB\xCD\xEFMaxMind.com") << meta;
  }
  ~TinyMmdb() { std::remove(path_.c_str()); }
  TinyMmdb(const TinyMmdb&) = delete;
  TinyMmdb& operator=(const TinyMmdb&) = delete;
  const std::string& path() const { return path_; }

 private:
  static void put24(std::string& s, std::uint32_t v) {
    s += static_cast<char>((v >> 16) & 0xFF);
    s += static_cast<char>((v >> 8) & 0xFF);
    s += static_cast<char>(v & 0xFF);
  }
  static std::string head(int type, std::size_t size) {  // control byte, sizes < 29
    std::string s;
    if (type <= 7) {
      s += static_cast<char>((type << 5) | static_cast<int>(size));
    } else {
      s += static_cast<char>(static_cast<int>(size));  // extended type: type 0 in the control byte
      s += static_cast<char>(type - 7);
    }
    return s;
  }
  static std::string str(const std::string& v) { return head(2, v.size()) + v; }
  static std::string map(std::size_t n) { return head(7, n); }
  static std::string array1(const std::string& v) { return head(11, 1) + str(v); }
  static std::string be(std::uint64_t v, int bytes) {
    std::string s;
    for (int i = bytes - 1; i >= 0; --i) s += static_cast<char>((v >> (8 * i)) & 0xFF);
    return s;
  }
  static std::string uint16(std::uint16_t v) { return head(5, 2) + be(v, 2); }
  static std::string uint32(std::uint32_t v) { return head(6, 4) + be(v, 4); }
  static std::string uint64(std::uint64_t v) { return head(9, 8) + be(v, 8); }
  std::string path_;
};

GeoReport report_with(std::vector<GeoAddress> addresses) {
  GeoReport r;
  r.target = "https://example.com/";
  r.host = "example.com";
  r.addresses = std::move(addresses);
  r.database = Database{"GeoIP legacy (Debian geoip-database)", "GEO-106FREE", {"/usr/share/GeoIP/GeoIP.dat"}, ""};
  return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(geolocation)

BOOST_AUTO_TEST_CASE(debians_geoip_database_locates_public_addresses_and_names_itself) {
  GeoOptions o;  // no scanner.geoip_db: the legacy files of geoip-database
  std::optional<Database> db;
  auto v4 = locate_address("8.8.8.8", o, &db);
  BOOST_TEST(v4.kind == "public");
  BOOST_REQUIRE(v4.country_code);
  BOOST_TEST(*v4.country_code == "US");
  auto v6 = locate_address("2001:4860:4860::8888", o, &db);
  BOOST_REQUIRE(v6.country_code);
  BOOST_TEST(*v6.country_code == "US");
  BOOST_REQUIRE(db);
  BOOST_TEST(db->name == "GeoIP legacy (Debian geoip-database)");
  BOOST_TEST(db->paths.size() == 2u);
  BOOST_TEST(db->build_date.size() == 10u);  // YYYY-MM-DD from the file's own info
}

BOOST_AUTO_TEST_CASE(private_and_loopback_addresses_are_classified_not_located) {
  GeoOptions o;
  auto lo = locate_address("127.0.0.1", o, nullptr);
  BOOST_TEST(lo.kind != "public");
  BOOST_TEST(!lo.country_code);
  auto lan = locate_address("10.1.2.3", o, nullptr);
  BOOST_TEST(lan.kind != "public");
  BOOST_CHECK_THROW(locate_address("not-an-ip", o, nullptr), std::runtime_error);
}

BOOST_AUTO_TEST_CASE(a_maxmind_db_gives_country_city_asn_and_its_build_date) {
  TinyMmdb file;
  GeoOptions o;
  o.mmdb_path = file.path();
  BOOST_CHECK_NO_THROW(check_database(o.mmdb_path));
  std::optional<Database> db;
  auto a = locate_address("203.0.113.77", o, &db);
  BOOST_REQUIRE(a.country_code);
  BOOST_TEST(*a.country_code == "FI");
  BOOST_TEST(a.country.value_or("") == "Finland");
  BOOST_TEST(a.city.value_or("") == "Helsinki");
  BOOST_TEST(a.asn.value_or(0) == 64500u);
  BOOST_REQUIRE(db);
  BOOST_TEST(db->name == "MaxMind DB");
  BOOST_TEST(db->type == "Dozor-Test-City");
  BOOST_TEST(db->build_date == "2025-11-25");
  // Outside the network: no data, no guess.
  auto other = locate_address("198.51.100.1", o, &db);
  BOOST_TEST(!other.country_code);
  BOOST_TEST(!other.city);
}

BOOST_AUTO_TEST_CASE(a_configured_database_that_cannot_be_opened_is_a_clear_error) {
  BOOST_CHECK_NO_THROW(check_database(""));
  BOOST_CHECK_THROW(check_database("/nonexistent/GeoLite2-City.mmdb"), std::runtime_error);
  GeoOptions o;
  o.mmdb_path = "/nonexistent/GeoLite2-City.mmdb";
  BOOST_CHECK_THROW(locate_address("8.8.8.8", o, nullptr), std::runtime_error);
}

BOOST_AUTO_TEST_CASE(the_egress_policy_decides_which_names_are_mapped) {
  GeoOptions o;
  auto closed = locate("https://127.0.0.1:8443/", o, dozor::net::EgressPolicy(false));
  BOOST_TEST(closed.addresses.empty());
  BOOST_REQUIRE(closed.error);
  BOOST_TEST(closed.error->find("egress policy") != std::string::npos);
  auto open = locate("https://127.0.0.1:8443/", o, dozor::net::EgressPolicy(true));
  BOOST_TEST(!open.error);
  BOOST_REQUIRE_EQUAL(open.addresses.size(), 1u);
  BOOST_TEST(open.addresses[0].kind == "loopback");
}

BOOST_AUTO_TEST_CASE(hosting_outside_russia_is_one_info_finding_with_the_addresses) {
  GeoAddress fi{"203.0.113.77", "public", "FI", "Finland", std::nullopt, std::nullopt, std::nullopt};
  GeoAddress ru{"198.51.100.1", "public", "RU", "Russia", std::nullopt, std::nullopt, std::nullopt};
  GeoAddress lan{"10.0.0.1", "private", std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt};
  BOOST_TEST(findings_of(report_with({ru, lan})).empty());
  auto f = findings_of(report_with({fi, ru}));
  BOOST_REQUIRE_EQUAL(f.size(), 1u);
  BOOST_TEST(f[0].check == "geo-hosted-outside-russia");
  BOOST_TEST(static_cast<int>(f[0].severity) == static_cast<int>(Severity::Info));
  BOOST_REQUIRE_EQUAL(f[0].evidence.size(), 1u);
  BOOST_TEST(f[0].evidence[0].excerpt.find("203.0.113.77: FI") == 0u);
}

BOOST_AUTO_TEST_CASE(the_answer_names_the_database_and_each_address) {
  GeoAddress fi{"203.0.113.77", "public", "FI", "Finland", "Helsinki", std::nullopt, 64500u};
  auto j = to_json(report_with({fi}));
  BOOST_TEST(j.at("host").as_string() == "example.com");
  BOOST_TEST(j.at("database").at("name").as_string() == "GeoIP legacy (Debian geoip-database)");
  BOOST_TEST(j.at("database").at("build_date").is_null());
  const auto& a = j.at("addresses").at(0);
  BOOST_TEST(a.at("public").as_bool());
  BOOST_TEST(a.at("city").as_string() == "Helsinki");
  BOOST_TEST(a.at("asn").to_number<std::int64_t>() == 64500);
  BOOST_TEST(j.at("error").is_null());
}

BOOST_AUTO_TEST_SUITE_END()
