// The TLS check's findings, its grade and the HSTS parser (docs/audit.md "TLS").
#include <algorithm>
#include <cctype>

#include "engines/audit/tls/check.hpp"

namespace dozor::audit::tls {
namespace {

constexpr std::int64_t kHstsMinMaxAge = 15552000;  // 180 days: Observatory's and SSL Labs' bar
constexpr std::int64_t kExpiryHighDays = 7;
constexpr std::int64_t kExpiryMediumDays = 30;

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

Finding make(std::string check, std::string title, Severity sev, std::string owasp, int cwe, std::string description,
             std::string recommendation) {
  Finding f;
  f.check = std::move(check);
  f.title = std::move(title);
  f.severity = sev;
  f.confidence = "certain";
  f.owasp = std::move(owasp);
  f.cwe = cwe;
  f.description = std::move(description);
  f.recommendation = std::move(recommendation);
  return f;
}

std::string endpoint(const TlsReport& r) { return "https://" + r.host + ":" + std::to_string(r.port); }

bool weak_key(const CertInfo& c) {
  if (c.key_type == "RSA" || c.key_type == "DSA" || c.key_type == "RSA-PSS") return c.key_bits < 2048;
  if (c.key_type == "EC") return c.key_bits < 224;
  return false;
}

bool weak_signature(const CertInfo& c) {
  auto s = lower(c.signature_algorithm);
  return s.find("sha1") != std::string::npos || s.find("md5") != std::string::npos ||
         s.find("md2") != std::string::npos;
}

void protocol_findings(const TlsReport& r, std::vector<Finding>& out) {
  Finding f = make("tls-legacy-protocol", "TLS 1.0/1.1 offered", Severity::Medium, "A02:2021", 327,
                   "The server completes handshakes with TLS 1.0 or 1.1, deprecated by RFC 8996 (no AEAD "
                   "suites, SHA-1/MD5 in the handshake, BEAST/POODLE-class attacks).",
                   "Offer TLS 1.2 and 1.3 only (nginx: ssl_protocols TLSv1.2 TLSv1.3;).");
  f.references = {"RFC 8996", "CWE-326"};
  for (const auto& p : r.protocols)
    if ((p.name == "TLSv1.0" || p.name == "TLSv1.1") && p.offered.value_or(false))
      f.evidence.push_back({endpoint(r), p.name + " handshake accepted, cipher " + p.cipher,
                            "probed with a client offering only " + p.name, std::nullopt});
  if (!f.evidence.empty()) out.push_back(std::move(f));
  // Only an explicit refusal of both counts: a probe that timed out or could not connect proves
  // nothing, and the first handshake having negotiated 1.2 or 1.3 proves the opposite.
  auto modern = [](const std::string& name) { return name == "TLSv1.2" || name == "TLSv1.3"; };
  int refused = 0;
  for (const auto& p : r.protocols)
    if (modern(p.name) && p.offered == false) ++refused;
  if (refused == 2 && !modern(r.protocol)) {
    Finding m = make("tls-no-modern-protocol", "Neither TLS 1.2 nor TLS 1.3 offered", Severity::High, "A02:2021", 327,
                     "Current browsers refuse servers without TLS 1.2 or 1.3.", "Enable TLS 1.2 and TLS 1.3.");
    m.evidence.push_back({endpoint(r), "TLSv1.2 and TLSv1.3 handshakes refused", "", std::nullopt});
    out.push_back(std::move(m));
  }
}

void cipher_findings(const TlsReport& r, std::vector<Finding>& out) {
  for (const auto& c : r.ciphers) {
    if (!c.offered.value_or(false)) continue;
    Severity sev = c.group == "3des" ? Severity::Medium : c.group == "cbc-sha1" ? Severity::Info : Severity::High;
    std::string what = c.group == "null"        ? "NULL (unencrypted) cipher suites"
                       : c.group == "anonymous" ? "anonymous (unauthenticated) cipher suites"
                       : c.group == "export"    ? "EXPORT cipher suites"
                       : c.group == "rc4"       ? "RC4 cipher suites"
                       : c.group == "3des"      ? "3DES cipher suites (Sweet32)"
                                                : "CBC cipher suites with SHA-1 MACs";
    Finding f = make("tls-weak-cipher-" + c.group, "Weak ciphers offered: " + what, sev, "A02:2021",
                     c.group == "cbc-sha1" ? 327 : 326,
                     "The server accepts " + what + " when a client offers only those (over TLS 1.0-1.2).",
                     c.group == "cbc-sha1"
                         ? "Prefer AEAD suites (AES-GCM, ChaCha20-Poly1305); keep CBC-SHA1 only for old clients."
                         : "Remove them from the server's cipher list (e.g. Mozilla's intermediate configuration).");
    f.references = {"https://wiki.mozilla.org/Security/Server_Side_TLS"};
    f.evidence.push_back({endpoint(r), "accepted " + c.cipher, "offered only: " + c.openssl_list, std::nullopt});
    out.push_back(std::move(f));
  }
}

void cert_findings(const TlsReport& r, std::vector<Finding>& out) {
  if (r.chain.empty()) return;
  const CertInfo& leaf = r.chain.front();
  auto leaf_text =
      "subject " + leaf.subject + ", issuer " + leaf.issuer + ", valid " + leaf.not_before + " to " + leaf.not_after;
  auto evidence = [&](std::string excerpt, std::string note) {
    return Evidence{endpoint(r), std::move(excerpt), std::move(note), std::nullopt};
  };
  // An unreadable notAfter (no days_left) says nothing about expiry.
  const std::int64_t days = leaf.days_left.value_or(kExpiryMediumDays);
  if (days < 0) {
    Finding f = make(
        "tls-cert-expired", "Certificate expired", Severity::High, "A02:2021", 298,
        "The server's certificate expired " + std::to_string(-days) + " day(s) ago; browsers refuse the connection.",
        "Renew the certificate (automate it, e.g. with ACME).");
    f.evidence.push_back(evidence(leaf_text, "not_after " + leaf.not_after));
    out.push_back(std::move(f));
  } else if (days < kExpiryMediumDays) {
    Severity sev = days < kExpiryHighDays ? Severity::High : Severity::Medium;
    Finding f = make("tls-cert-expiring", "Certificate expires in " + std::to_string(days) + " day(s)", sev, "A02:2021",
                     298, "The certificate expires soon; after that browsers refuse the connection.",
                     "Renew the certificate now and automate renewal.");
    f.evidence.push_back(evidence(leaf_text, "days_left " + std::to_string(days)));
    out.push_back(std::move(f));
  }
  if (r.hostname_match && !*r.hostname_match) {
    std::string names;
    for (const auto& s : leaf.sans) names += (names.empty() ? "" : ", ") + s;
    Finding f = make("tls-hostname-mismatch", "Certificate does not match the host name", Severity::High, "A07:2021",
                     297, "The certificate names neither " + r.host + " nor a wildcard covering it.",
                     "Serve a certificate whose subjectAltName lists " + r.host + ".");
    f.evidence.push_back(evidence("subject " + leaf.subject + "; SANs: " + (names.empty() ? "none" : names),
                                  "checked " + r.host + " (RFC 6125)"));
    out.push_back(std::move(f));
  }
  // An expired but otherwise trusted chain is reported as expired only.
  if (r.verified && !*r.verified && r.verify_error != "certificate has expired") {
    bool self = leaf.self_signed;
    Finding f = make("tls-untrusted-certificate", self ? "Self-signed certificate" : "Certificate chain not trusted",
                     Severity::High, "A07:2021", 295,
                     "The chain does not verify against the trust anchors: " + r.verify_error + ".",
                     "Serve a certificate from a public CA with its intermediates (the full chain).");
    f.evidence.push_back(evidence(leaf_text, "verification: " + r.verify_error));
    out.push_back(std::move(f));
  }
  Finding key =
      make("tls-weak-key", "Small certificate key", Severity::Medium, "A02:2021", 326,
           "A key below 2048 bits (RSA, DSA) or 224 bits (EC) can be factored or broken with feasible effort.",
           "Issue the certificate for an RSA 2048+ or an ECDSA P-256+ key.");
  Finding sig = make("tls-weak-signature", "Certificate signed with SHA-1 or MD5", Severity::Medium, "A02:2021", 327,
                     "Signatures over SHA-1 or MD5 can be forged by chosen-prefix collisions.",
                     "Reissue the certificates with SHA-256 signatures.");
  for (std::size_t i = 0; i < r.chain.size(); ++i) {
    const auto& c = r.chain[i];
    std::string where = i == 0 ? "leaf" : "chain[" + std::to_string(i) + "]";
    if (weak_key(c))
      key.evidence.push_back(
          evidence(where + " " + c.subject + ": " + c.key_type + " " + std::to_string(c.key_bits) + " bits", ""));
    // A self-signed root's own signature is not checked by anyone.
    if (weak_signature(c) && !(i > 0 && c.self_signed))
      sig.evidence.push_back(evidence(where + " " + c.subject + ": " + c.signature_algorithm, ""));
  }
  if (!key.evidence.empty()) out.push_back(std::move(key));
  if (!sig.evidence.empty()) out.push_back(std::move(sig));
}

void hsts_findings(const TlsReport& r, std::vector<Finding>& out) {
  const Hsts& h = r.hsts;
  if (!h.error.empty() || !h.exchange) return;
  if (!h.present || !h.max_age) {
    Finding f = make("tls-hsts-missing", "No HTTP Strict Transport Security", Severity::Low, "A05:2021", 319,
                     "Without HSTS a first visit by http:// can be downgraded and intercepted.",
                     "Send Strict-Transport-Security: max-age=63072000; includeSubDomains.");
    f.evidence.push_back({r.target, h.present ? "Strict-Transport-Security: " + h.value : "",
                          h.present ? "no valid max-age" : "no Strict-Transport-Security header", h.exchange});
    out.push_back(std::move(f));
  } else if (*h.max_age < kHstsMinMaxAge) {
    Finding f = make("tls-hsts-short", "HSTS max-age under 180 days", Severity::Low, "A05:2021", 319,
                     "A short max-age lets the protection lapse between visits.",
                     "Use max-age of at least 15552000 (180 days); 63072000 (2 years) is usual.");
    f.evidence.push_back({r.target, "Strict-Transport-Security: " + h.value, "", h.exchange});
    out.push_back(std::move(f));
  }
}

}  // namespace

Hsts parse_hsts(const std::string& value) {
  Hsts h;
  h.present = true;
  h.value = value;
  std::size_t start = 0;
  while (start <= value.size()) {
    auto semi = value.find(';', start);
    std::string part = trim(value.substr(start, semi == std::string::npos ? std::string::npos : semi - start));
    auto eq = part.find('=');
    std::string name = lower(trim(part.substr(0, eq)));
    std::string v = eq == std::string::npos ? "" : trim(part.substr(eq + 1));
    if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
    if (name == "max-age" && !h.max_age && !v.empty() && v.size() <= 12 &&
        std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; }))
      h.max_age = std::stoll(v);
    else if (name == "includesubdomains")
      h.include_subdomains = true;
    else if (name == "preload")
      h.preload = true;
    if (semi == std::string::npos) break;
    start = semi + 1;
  }
  return h;
}

std::vector<Finding> findings_of(const TlsReport& r, bool with_hsts) {
  std::vector<Finding> out;
  if (!r.https || r.error) return out;
  protocol_findings(r, out);
  cipher_findings(r, out);
  cert_findings(r, out);
  if (with_hsts) hsts_findings(r, out);
  return out;
}

std::string grade_of(const TlsReport& r) {
  if (!r.https || r.error || r.protocols.empty()) return {};
  std::string grade = "A";
  auto cap = [&](const char* g) {
    if (std::string(g) > grade) grade = g;  // letters: later is worse
  };
  for (const auto& f : findings_of(r, false)) {
    if (f.check == "tls-legacy-protocol" || f.check == "tls-weak-cipher-3des" || f.check == "tls-weak-key" ||
        f.check == "tls-weak-signature" || f.check == "tls-cert-expiring")
      cap("B");
    else if (f.severity >= Severity::High)
      cap("F");
  }
  if (grade == "A" && r.hsts.max_age && *r.hsts.max_age >= kHstsMinMaxAge) return "A+";
  return grade;
}

}  // namespace dozor::audit::tls
