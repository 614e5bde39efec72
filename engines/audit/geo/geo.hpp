#pragma once
// Geolocation of a target (issue 8 §2; docs/audit.md "Geolocation"): its A/AAAA addresses, each
// classified (public, loopback, private … as the egress policy sees it) and located from a MaxMind
// DB file (scanner.geoip_db: country, city, ASN where the file has them) or else Debian's
// geoip-database (GeoIP.dat/GeoIPv6.dat, countries). The answer names the database and its date.
#include <boost/json/object.hpp>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engines/audit/finding.hpp"
#include "engines/audit/observer.hpp"
#include "engines/net/egress_policy.hpp"

namespace dozor::audit::geo {

struct GeoAddress {
  std::string address;
  std::string kind;  // net::to_string(net::classify(address))
  std::optional<std::string> country_code, country, city, as_org;
  std::optional<std::uint32_t> asn;
};

struct Database {
  std::string name;  // "MaxMind DB" | "GeoIP legacy (Debian geoip-database)"
  std::string type;  // the file's own type ("GeoLite2-City", "GEO-106FREE" …)
  std::vector<std::string> paths;
  std::string build_date;  // YYYY-MM-DD, empty when the file does not say
};

struct GeoReport {
  std::string target;
  std::string host;
  std::vector<GeoAddress> addresses;
  std::optional<Database> database;  // null when none could be opened
  std::optional<std::string> error;
};

struct GeoOptions {
  std::string mmdb_path;                        // scanner.geoip_db; empty: the legacy fallback
  std::string legacy_dir = "/usr/share/GeoIP";  // Debian's geoip-database
  std::chrono::milliseconds resolve_timeout{10000};
};

// Resolves the target's host and locates each address; a DNS answer the egress policy refuses is
// an error, like every other check's.
GeoReport locate(const std::string& target, const GeoOptions& options, const net::EgressPolicy& policy);

// A configured MaxMind DB must open: checked at start (dozor-fcgi's master), so a wrong path is a
// clear configuration error rather than a failed check later. Nothing to check when unset.
void check_database(const std::string& mmdb_path);

// One address against the configured database (the lookup locate() does per address).
GeoAddress locate_address(const std::string& address, const GeoOptions& options, std::optional<Database>* db);

boost::json::object to_json(const GeoReport& report);

// Info finding for 152-FZ art. 18 part 5 when a public address is located outside Russia.
std::vector<Finding> findings_of(const GeoReport& report);

Step geo_step(const GeoOptions& options);

}  // namespace dozor::audit::geo
