#include "engines/audit/geo/geo.hpp"

#include <GeoIP.h>
#include <maxminddb.h>
#include <re2/re2.h>

#include <algorithm>
#include <boost/json/array.hpp>
#include <boost/url/parse.hpp>
#include <cstdlib>
#include <ctime>
#include <memory>

#include "engines/net/connect.hpp"
#include "engines/net/egress_policy.hpp"
#include "engines/text/utc_time.hpp"

namespace dozor::audit::geo {
namespace {

// An open MaxMind DB, closed on destruction.
struct Mmdb {
  MMDB_s db{};
  bool open = false;
  explicit Mmdb(const std::string& path) { open = MMDB_open(path.c_str(), MMDB_MODE_MMAP, &db) == MMDB_SUCCESS; }
  ~Mmdb() {
    if (open) MMDB_close(&db);
  }
  Mmdb(const Mmdb&) = delete;
  Mmdb& operator=(const Mmdb&) = delete;
};

struct GeoIpClose {
  void operator()(GeoIP* g) const { GeoIP_delete(g); }
};

std::optional<std::string> mmdb_string(MMDB_entry_s* entry, const char* const* path) {
  MMDB_entry_data_s data{};
  if (MMDB_aget_value(entry, &data, path) != MMDB_SUCCESS || !data.has_data || data.type != MMDB_DATA_TYPE_UTF8_STRING)
    return std::nullopt;
  return std::string(data.utf8_string, data.data_size);
}

std::optional<std::uint32_t> mmdb_uint(MMDB_entry_s* entry, const char* const* path) {
  MMDB_entry_data_s data{};
  if (MMDB_aget_value(entry, &data, path) != MMDB_SUCCESS || !data.has_data) return std::nullopt;
  if (data.type == MMDB_DATA_TYPE_UINT32) return data.uint32;
  if (data.type == MMDB_DATA_TYPE_UINT16) return data.uint16;
  return std::nullopt;
}

void lookup_mmdb(const std::string& path, GeoAddress& a, std::optional<Database>* db) {
  Mmdb m(path);
  if (!m.open) throw std::runtime_error("cannot open the MaxMind DB " + path);
  if (db && !*db)
    *db = Database{"MaxMind DB",
                   m.db.metadata.database_type ? m.db.metadata.database_type : "",
                   {path},
                   text::utc_format(static_cast<std::time_t>(m.db.metadata.build_epoch), text::kUtcDay)};
  int gai = 0, err = 0;
  MMDB_lookup_result_s res = MMDB_lookup_string(&m.db, a.address.c_str(), &gai, &err);
  if (gai != 0 || err != MMDB_SUCCESS || !res.found_entry) return;
  static const char* const kCode[] = {"country", "iso_code", nullptr};
  static const char* const kCountry[] = {"country", "names", "en", nullptr};
  static const char* const kCity[] = {"city", "names", "en", nullptr};
  static const char* const kAsn[] = {"autonomous_system_number", nullptr};
  static const char* const kOrg[] = {"autonomous_system_organization", nullptr};
  a.country_code = mmdb_string(&res.entry, kCode);
  a.country = mmdb_string(&res.entry, kCountry);
  a.city = mmdb_string(&res.entry, kCity);
  a.asn = mmdb_uint(&res.entry, kAsn);
  a.as_org = mmdb_string(&res.entry, kOrg);
}

// "GEO-106FREE 20191224 Build 1 Copyright …" → type and YYYY-MM-DD.
void legacy_info(GeoIP* g, Database& d) {
  char* info = GeoIP_database_info(g);
  if (!info) return;
  std::string text(info);
  std::free(info);
  static const RE2 kInfo(R"((\S+) (\d{4})(\d{2})(\d{2}))");
  std::string type, y, m, day;
  if (RE2::PartialMatch(text, kInfo, &type, &y, &m, &day)) {
    d.type = type;
    d.build_date = y + "-" + m + "-" + day;
  }
}

void lookup_legacy(const std::string& dir, GeoAddress& a, std::optional<Database>* db) {
  bool v6 = a.address.find(':') != std::string::npos;
  std::string path = dir + (v6 ? "/GeoIPv6.dat" : "/GeoIP.dat");
  std::unique_ptr<GeoIP, GeoIpClose> g(GeoIP_open(path.c_str(), GEOIP_STANDARD | GEOIP_SILENCE));
  if (!g)
    throw std::runtime_error("no geolocation database: scanner.geoip_db is not set and " + path +
                             " cannot be opened (package geoip-database)");
  if (db) {
    if (!*db) *db = Database{"GeoIP legacy (Debian geoip-database)", "", {}, ""};
    if (std::find((*db)->paths.begin(), (*db)->paths.end(), path) == (*db)->paths.end()) {
      (*db)->paths.push_back(path);
      if ((*db)->build_date.empty()) legacy_info(g.get(), **db);
    }
  }
  const char* code = v6 ? GeoIP_country_code_by_addr_v6(g.get(), a.address.c_str())
                        : GeoIP_country_code_by_addr(g.get(), a.address.c_str());
  const char* name = v6 ? GeoIP_country_name_by_addr_v6(g.get(), a.address.c_str())
                        : GeoIP_country_name_by_addr(g.get(), a.address.c_str());
  if (code) a.country_code = code;
  if (name) a.country = name;
}

}  // namespace

void check_database(const std::string& mmdb_path) {
  if (mmdb_path.empty()) return;
  Mmdb m(mmdb_path);
  if (!m.open) throw std::runtime_error("scanner.geoip_db: cannot open the MaxMind DB " + mmdb_path);
}

GeoAddress locate_address(const std::string& address, const GeoOptions& o, std::optional<Database>* db) {
  GeoAddress a;
  auto ip = net::IpAddress::parse(address);
  if (!ip) throw std::runtime_error("not an IP address: " + address);
  a.address = ip->to_string();
  a.kind = net::to_string(net::classify(*ip));
  if (o.mmdb_path.empty())
    lookup_legacy(o.legacy_dir, a, db);
  else
    lookup_mmdb(o.mmdb_path, a, db);
  return a;
}

GeoReport locate(const std::string& target, const GeoOptions& o, const net::EgressPolicy& policy) {
  GeoReport r;
  r.target = target;
  auto url = boost::urls::parse_uri(target);
  if (!url) {
    r.error = "not a URL";
    return r;
  }
  r.host = std::string(url->host_address());
  std::vector<net::IpAddress> addresses;
  try {
    addresses = net::resolve_host(r.host, o.resolve_timeout);
  } catch (const net::ConnectError& e) {
    r.error = e.what();
    return r;
  }
  // The same rule as every check: names that resolve into networks the policy closes are not
  // mapped for the caller (with scanner.allow_private_targets they are, and classified).
  if (auto why = policy.refusal(addresses)) {
    r.error = *why;
    return r;
  }
  try {
    for (const auto& ip : addresses) r.addresses.push_back(locate_address(ip.to_string(), o, &r.database));
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  return r;
}

boost::json::object to_json(const GeoReport& r) {
  using boost::json::value;
  auto opt = [](const std::optional<std::string>& s) { return s ? value(*s) : value(nullptr); };
  boost::json::array addresses;
  for (const auto& a : r.addresses)
    addresses.push_back({{"address", a.address},
                         {"kind", a.kind},
                         {"public", a.kind == "public"},
                         {"country_code", opt(a.country_code)},
                         {"country", opt(a.country)},
                         {"city", opt(a.city)},
                         {"asn", a.asn ? value(*a.asn) : value(nullptr)},
                         {"as_org", opt(a.as_org)}});
  value database = nullptr;
  if (r.database) {
    boost::json::array paths;
    for (const auto& p : r.database->paths) paths.push_back(value(p));
    database = boost::json::object{
        {"name", r.database->name},
        {"type", r.database->type},
        {"paths", std::move(paths)},
        {"build_date", r.database->build_date.empty() ? value(nullptr) : value(r.database->build_date)}};
  }
  return {{"target", r.target},
          {"host", r.host},
          {"addresses", std::move(addresses)},
          {"database", std::move(database)},
          {"error", opt(r.error)}};
}

std::vector<Finding> findings_of(const GeoReport& r) {
  Finding f;
  f.check = "geo-hosted-outside-russia";
  f.title = "Site hosted outside Russia";
  f.severity = Severity::Info;
  f.confidence = "tentative";
  f.description =
      "A public address of the site is located outside Russia. If the site collects personal data of "
      "Russian citizens, 152-FZ art. 18 part 5 requires their recording and storage in databases in Russia "
      "(a front end abroad may be fine; where the database is cannot be seen from outside).";
  f.recommendation = "Confirm that personal data are recorded and stored on servers in Russia.";
  f.references = {"152-FZ art. 18 part 5"};
  for (const auto& a : r.addresses)
    if (a.kind == "public" && a.country_code && *a.country_code != "RU")
      f.evidence.push_back({r.target, a.address + ": " + *a.country_code + (a.country ? " (" + *a.country + ")" : ""),
                            r.database ? "located with " + r.database->name : "", std::nullopt});
  if (f.evidence.empty()) return {};
  return {f};
}

Step geo_step(const GeoOptions& options) {
  return {"geo", [options](const StepInput& in, AuditParts& out) {
            GeoOptions o = options;
            o.resolve_timeout = std::min(o.resolve_timeout, in.scan.request_timeout);
            auto report = locate(in.target, o, in.policy);
            out.parts["geo"] = to_json(report);
            for (auto& f : findings_of(report)) out.findings.push_back(std::move(f));
            if (report.error) out.errors.push_back({"geo", *report.error});
          }};
}

}  // namespace dozor::audit::geo
