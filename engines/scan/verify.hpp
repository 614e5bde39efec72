#pragma once
// Proof of control of a site for active scans (issue 26 §2; docs/scan.md "Proof of control"),
// as ACME and search consoles do it. A user asks a token for a site; its proof value
// `dozor-verification=<token>` is published either
// - as the whole body of http(s)://<site>/.well-known/dozor-verification/<name>, where <name> is
//   the first 32 hex digits of SHA-256(token) (the URL never holds the value, so a site that
//   echoes its request path proves nothing), fetched once through the egress policy, no
//   redirect followed; it proves the whole host when the site is on its scheme's default port
//   (80, 443), else only that origin (another port of a shared host is not the host); or
// - as a DNS TXT record of the host name itself, asked to scanner.dns_resolver (or the system's
//   first nameserver): it proves the whole host.
// A proof lasts limits::scope::kValidDays; verifying again renews it.
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "db/database.hpp"
#include "db/scan_verify_repo.hpp"
#include "engines/config/config.hpp"
#include "engines/net/egress_policy.hpp"

namespace dozor::scan::verify {

// What is asked for: the host (lower case) and the origin ("scheme://host:port") of an http(s) URL.
struct Site {
  std::string host;
  std::string origin;
};
std::optional<Site> site_of(std::string_view url);

std::string new_token();                            // 128 random bits, base64url
std::string proof_value(const std::string& token);  // "dozor-verification=<token>"
std::string file_name(const std::string& token);    // 32 hex digits of SHA-256(token)
std::string file_url(const std::string& origin, const std::string& token);
// The token file's answer proves control when, without surrounding white space, it is the proof value.
bool body_proves(std::string_view body, const std::string& token);
// One of the TXT records is the proof value.
bool txt_proves(const std::vector<std::string>& records, const std::string& token);
// What an HTTP proof from `origin` covers: "host" on the scheme's default port, else "origin".
std::string http_scope(const std::string& origin);

boost::json::object to_json(const db::scan_verify::Verification& v);

// The caller's token for the site of `url` (the same one when asked again); Conflict past
// limits::scope::kVerificationsPerUser.
boost::json::object request(db::Database& db, std::int64_t user_id, const Site& site);
boost::json::array list(db::Database& db, std::int64_t user_id);
// Runs the proof (`method` http or dns) and records its outcome; NotFound for another user's.
boost::json::object check(db::Database& db, const net::EgressPolicy& egress, const config::ScannerConfig& c,
                          std::int64_t user_id, std::int64_t id, const std::string& method);
void revoke(db::Database& db, std::int64_t user_id, std::int64_t id);

}  // namespace dozor::scan::verify
