#include "engines/scan/verify.hpp"

#include <sodium.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "engines/auth/jwt.hpp"
#include "engines/errors.hpp"
#include "engines/limits.hpp"
#include "engines/net/multi_fetch.hpp"
#include "engines/net/scan_client.hpp"
#include "engines/net/url_check.hpp"
#include "engines/scan/access.hpp"
#include "engines/scan/dns_txt.hpp"
#include "engines/text/utf8.hpp"

namespace dozor::scan::verify {
namespace {

constexpr std::string_view kPrefix = "dozor-verification=";
constexpr std::string_view kWellKnown = "/.well-known/dozor-verification/";

std::string_view trimmed(std::string_view s) {
  auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  auto last = s.find_last_not_of(" \t\r\n");
  return s.substr(first, last - first + 1);
}

bool is_ip_literal(const std::string& host) {
  if (!host.empty() && host.front() == '[') return true;
  return !host.empty() && host.find_first_not_of("0123456789.") == std::string::npos;
}

std::optional<std::string> http_proof(const net::EgressPolicy& egress, const config::ScannerConfig& c,
                                      const db::scan_verify::Verification& v) {
  net::CheckRequest r;
  r.url = file_url(v.origin, v.token);
  r.timeout = std::chrono::seconds(c.request_timeout);
  r.keep_body = true;
  r.max_body = limits::scope::kTokenBodyBytes;
  r.max_redirects = 0;  // the file is on this origin, or it is not there
  r.ca_file = c.ca_file;
  r.headers = {"Accept: text/plain"};
  auto o = net::check_once(std::move(r), egress);
  std::string where = "GET " + file_url(v.origin, v.token);
  if (o.kind != net::CheckError::None) return where + " failed: " + o.error;
  if (o.status != 200) return where + " answered " + std::to_string(o.status) + ", not 200";
  if (o.truncated || !body_proves(o.body, v.token))
    return where + " answered 200 without exactly " + proof_value(v.token);
  return std::nullopt;
}

std::optional<std::string> dns_proof(const config::ScannerConfig& c, const db::scan_verify::Verification& v) {
  if (is_ip_literal(v.host)) return "an IP address has no DNS name to hold a TXT record: use the token file";
  std::optional<dns::Resolver> resolver;
  if (!c.dns_resolver.empty()) {
    resolver = dns::parse_resolver(c.dns_resolver);
    if (!resolver) return "scanner.dns_resolver is not an address";
  } else {
    std::ifstream in("/etc/resolv.conf");
    std::stringstream text;
    text << in.rdbuf();
    resolver = dns::resolver_from_resolv_conf(text.str());
    if (!resolver) return "no nameserver in /etc/resolv.conf";
  }
  auto a = dns::lookup_txt(v.host, *resolver, std::chrono::milliseconds(limits::scope::kDnsTimeoutMs));
  if (!a.ok) return "TXT " + v.host + ": " + a.error;
  if (!txt_proves(a.records, v.token)) return "TXT " + v.host + ": no record " + proof_value(v.token);
  return std::nullopt;
}

}  // namespace

std::optional<Site> site_of(std::string_view url) {
  if (net::check_http_url(url)) return std::nullopt;
  auto host = target_host(url);
  if (host.empty()) return std::nullopt;
  return Site{host, net::origin_of(net::normalize_http_url(url))};
}

std::string new_token() {
  if (sodium_init() < 0) throw std::runtime_error("libsodium cannot be initialised");
  unsigned char raw[16];
  randombytes_buf(raw, sizeof raw);
  return auth::base64url_encode(std::string_view(reinterpret_cast<const char*>(raw), sizeof raw));
}

std::string proof_value(const std::string& token) { return std::string(kPrefix) + token; }

std::string file_name(const std::string& token) {
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(token.data()), token.size());
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < 16; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 0xf];
  }
  return out;
}

std::string file_url(const std::string& origin, const std::string& token) {
  return origin + std::string(kWellKnown) + file_name(token);
}

bool body_proves(std::string_view body, const std::string& token) {
  return !token.empty() && trimmed(body) == proof_value(token);
}

bool txt_proves(const std::vector<std::string>& records, const std::string& token) {
  for (const auto& r : records)
    if (!token.empty() && trimmed(r) == proof_value(token)) return true;
  return false;
}

std::string http_scope(const std::string& origin) {
  return origin.starts_with("http://") && origin.ends_with(":80")     ? "host"
         : origin.starts_with("https://") && origin.ends_with(":443") ? "host"
                                                                      : "origin";
}

boost::json::object to_json(const db::scan_verify::Verification& v) {
  auto opt = [](const std::optional<std::string>& s) {
    return s ? boost::json::value(*s) : boost::json::value(nullptr);
  };
  // The file's URL keeps the scheme's default port implicit, as people type it.
  std::string url = file_url(v.origin, v.token);
  for (std::string_view suffix : {std::string_view(":80/"), std::string_view(":443/")}) {
    auto at = url.find(std::string(suffix) + ".well-known/");
    if (at != std::string::npos && http_scope(v.origin) == "host") url.erase(at, suffix.size() - 1);
  }
  return {{"id", v.id},
          {"host", v.host},
          {"origin", v.origin},
          {"token", v.token},
          {"http", {{"url", url}, {"body", proof_value(v.token)}, {"covers", http_scope(v.origin)}}},
          {"dns", {{"name", v.host}, {"type", "TXT"}, {"value", proof_value(v.token)}, {"covers", "host"}}},
          {"verified", v.valid},
          {"method", opt(v.method)},
          {"scope", opt(v.scope)},
          {"created_at", v.created_at},
          {"checked_at", opt(v.checked_at)},
          {"verified_at", opt(v.verified_at)},
          {"expires_at", opt(v.expires_at)},
          {"last_error", opt(v.last_error)}};
}

boost::json::object request(db::Database& db, std::int64_t user_id, const Site& site) {
  std::optional<db::scan_verify::Verification> v;
  db.run(
      [&](db::Connection& c) {
        v = db::scan_verify::find_by_origin(c, user_id, site.origin);
        if (v) return;
        if (db::scan_verify::count(c, user_id) >= static_cast<std::int64_t>(limits::scope::kVerificationsPerUser))
          throw Conflict("Too many sites to verify: at most " + std::to_string(limits::scope::kVerificationsPerUser) +
                         " per user; delete one first");
        auto id = db::scan_verify::insert(c, user_id, site.host, site.origin, new_token());
        v = db::scan_verify::find(c, user_id, id);
      },
      db::Retry::Never);
  return to_json(*v);
}

boost::json::array list(db::Database& db, std::int64_t user_id) {
  std::vector<db::scan_verify::Verification> rows;
  db.run([&](db::Connection& c) { rows = db::scan_verify::list(c, user_id); }, db::Retry::OnLostConnection);
  boost::json::array out;
  for (const auto& v : rows) out.push_back(to_json(v));
  return out;
}

boost::json::object check(db::Database& db, const net::EgressPolicy& egress, const config::ScannerConfig& c,
                          std::int64_t user_id, std::int64_t id, const std::string& method) {
  std::optional<db::scan_verify::Verification> v;
  db.run([&](db::Connection& conn) { v = db::scan_verify::find(conn, user_id, id); }, db::Retry::OnLostConnection);
  if (!v) throw NotFound("Verification not found");
  auto error = method == "dns" ? dns_proof(c, *v) : http_proof(egress, c, *v);
  std::string scope = method == "dns" ? "host" : http_scope(v->origin);
  db.run(
      [&](db::Connection& conn) {
        if (error)
          db::scan_verify::record_failure(conn, id,
                                          text::utf8_prefix(text::to_valid_utf8(*error), limits::scope::kErrorChars));
        else
          db::scan_verify::record_proof(conn, id, method, scope, limits::scope::kValidDays);
        v = db::scan_verify::find(conn, user_id, id);
      },
      db::Retry::Never);
  if (!v) throw NotFound("Verification not found");  // deleted meanwhile
  return to_json(*v);
}

void revoke(db::Database& db, std::int64_t user_id, std::int64_t id) {
  bool removed = false;
  db.run([&](db::Connection& c) { removed = db::scan_verify::remove(c, user_id, id); }, db::Retry::Never);
  if (!removed) throw NotFound("Verification not found");
}

}  // namespace dozor::scan::verify
