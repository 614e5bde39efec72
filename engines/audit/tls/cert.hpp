#pragma once
// What a certificate of the chain says (docs/audit.md "TLS"), read with OpenSSL.
#include <boost/json/object.hpp>
#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

typedef struct x509_st X509;

namespace dozor::audit::tls {

struct CertInfo {
  std::string subject;  // RFC 2253 text
  std::string issuer;
  std::string serial;      // hex
  std::string not_before;  // ISO 8601 UTC
  std::string not_after;
  std::time_t not_after_time = 0;
  // Whole days from now to not_after (negative once expired); null when notAfter cannot be read, so
  // an unreadable date is never reported as an expiry.
  std::optional<std::int64_t> days_left;
  std::string key_type;  // RSA | EC | Ed25519 | DSA …
  int key_bits = 0;
  std::string curve;                // EC: the named curve
  std::string signature_algorithm;  // "sha256WithRSAEncryption"
  std::vector<std::string> sans;    // "DNS:a.example", "IP:127.0.0.1"
  bool self_signed = false;         // issuer == subject and its own key verifies the signature
  std::string sha256;               // fingerprint of the DER, hex
};

// Reads `cert`; `now` decides days_left. Throws std::runtime_error when OpenSSL cannot.
CertInfo read_cert(X509* cert, std::time_t now);

boost::json::object to_json(const CertInfo& c);

}  // namespace dozor::audit::tls
