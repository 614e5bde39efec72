#pragma once
// The TLS check of a target (issue 8 §2; docs/audit.md "TLS"): protocols TLS 1.0 … 1.3 probed one
// by one, weak cipher groups, the certificate chain (expiry, key, signature, names), the hostname
// match, the chain's verification against scanner.ca_file or the system's anchors, and HSTS.
#include <boost/json/object.hpp>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "engines/audit/finding.hpp"
#include "engines/audit/observer.hpp"
#include "engines/audit/tls/cert.hpp"
#include "engines/net/scan_client.hpp"

namespace dozor::audit::tls {

struct ProtocolProbe {
  std::string name;             // TLSv1.0 … TLSv1.3
  std::optional<bool> offered;  // null: could not be told (timeout, connect failure, not testable here)
  std::string cipher;           // what the server chose when offered
  std::string error;            // what the server (or OpenSSL) said when not
};

struct CipherProbe {
  std::string group;            // null | anonymous | export | rc4 | 3des | cbc-sha1
  std::string openssl_list;     // the OpenSSL cipher string offered
  std::optional<bool> offered;  // null: not testable (this OpenSSL has none of them) or undecided
  std::string cipher;           // the suite the server accepted
  std::string note;
};

struct Hsts {
  bool present = false;
  std::string value;
  std::optional<std::int64_t> max_age;
  bool include_subdomains = false;
  bool preload = false;
  std::string error;  // why it could not be read (the fetch failed)
  std::optional<net::Exchange> exchange;
};

struct TlsReport {
  std::string target;
  std::string scheme;
  std::string host;
  int port = 0;
  bool https = true;  // false: an http:// target, nothing probed (docs/audit.md)
  std::optional<std::string> error;
  std::vector<std::string> addresses;
  std::string protocol;  // negotiated by a client offering everything
  std::string cipher;
  std::vector<ProtocolProbe> protocols;
  std::vector<CipherProbe> ciphers;
  std::vector<CertInfo> chain;  // as sent, leaf first
  std::optional<bool> verified;
  std::string verify_error;
  std::optional<bool> hostname_match;
  Hsts hsts;
  std::string grade;  // empty when not graded
  std::int64_t duration_ms = 0;
};

struct TlsOptions {
  net::ScanOptions scan;  // ca_file, user agent; request_timeout bounds each probe
  // The caller's deadline; the check never runs past limits::kTlsCheckBudgetMs either.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};

TlsReport check_tls(const std::string& target, const net::EgressPolicy& policy, const TlsOptions& options);

// HSTS directives of one Strict-Transport-Security value (RFC 6797 §6.1).
Hsts parse_hsts(const std::string& value);

// The findings (docs/audit.md "TLS"); HSTS findings only with `with_hsts` (the full audit
// leaves HSTS to the header grade, which scores it).
std::vector<Finding> findings_of(const TlsReport& report, bool with_hsts);

// A–F grade of docs/audit.md, from the report.
std::string grade_of(const TlsReport& report);

boost::json::object to_json(const TlsReport& report);

// The full audit's step: part "tls" and its findings.
Step tls_step();

}  // namespace dozor::audit::tls
