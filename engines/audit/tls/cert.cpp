#include "engines/audit/tls/cert.hpp"

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <boost/json/array.hpp>
#include <memory>
#include <stdexcept>

namespace dozor::audit::tls {
namespace {

struct BioFree {
  void operator()(BIO* b) const { BIO_free(b); }
};

std::string name_text(const X509_NAME* name) {
  if (!name) return {};
  std::unique_ptr<BIO, BioFree> bio(BIO_new(BIO_s_mem()));
  if (!bio) throw std::runtime_error("BIO_new failed");
  if (X509_NAME_print_ex(bio.get(), name, 0, XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB) < 0) return {};
  char* data = nullptr;
  long n = BIO_get_mem_data(bio.get(), &data);
  return n > 0 && data ? std::string(data, static_cast<std::size_t>(n)) : std::string();
}

// ASN1_TIME → (ISO 8601 UTC, time_t); {"", 0} when it cannot be read.
std::pair<std::string, std::time_t> time_of(const ASN1_TIME* t) {
  std::tm tm{};
  if (!t || ASN1_TIME_to_tm(t, &tm) != 1) return {"", 0};
  char buf[96];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec);
  return {buf, timegm(&tm)};
}

std::string hex(const unsigned char* p, std::size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  out.reserve(n * 2);
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back(digits[p[i] >> 4]);
    out.push_back(digits[p[i] & 15]);
  }
  return out;
}

void read_key(X509* cert, CertInfo& c) {
  EVP_PKEY* key = X509_get0_pubkey(cert);
  if (!key) return;
  c.key_bits = EVP_PKEY_get_bits(key);
  const char* type = EVP_PKEY_get0_type_name(key);
  c.key_type = type ? type : "unknown";
  if (c.key_type == "id-ecPublicKey") c.key_type = "EC";
  if (EVP_PKEY_is_a(key, "EC")) {
    c.key_type = "EC";
    char curve[80];
    size_t len = 0;
    if (EVP_PKEY_get_utf8_string_param(key, "group", curve, sizeof curve, &len) == 1) c.curve.assign(curve, len);
  }
}

void read_sans(X509* cert, CertInfo& c) {
  auto* names = static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(cert, NID_subject_alt_name, nullptr, nullptr));
  if (!names) return;
  for (int i = 0; i < sk_GENERAL_NAME_num(names) && i < 500; ++i) {
    const GENERAL_NAME* n = sk_GENERAL_NAME_value(names, i);
    if (n->type == GEN_DNS) {
      const ASN1_IA5STRING* s = n->d.dNSName;
      c.sans.push_back("DNS:" + std::string(reinterpret_cast<const char*>(ASN1_STRING_get0_data(s)),
                                            static_cast<std::size_t>(ASN1_STRING_length(s))));
    } else if (n->type == GEN_IPADD) {
      const ASN1_OCTET_STRING* s = n->d.iPAddress;
      int len = ASN1_STRING_length(s);
      const unsigned char* p = ASN1_STRING_get0_data(s);
      std::string ip;
      if (len == 4) {
        ip =
            std::to_string(p[0]) + "." + std::to_string(p[1]) + "." + std::to_string(p[2]) + "." + std::to_string(p[3]);
      } else if (len == 16) {
        for (int k = 0; k < 16; k += 2) {
          if (k) ip += ":";
          char part[8];
          std::snprintf(part, sizeof part, "%x", (p[k] << 8) | p[k + 1]);
          ip += part;
        }
      }
      if (!ip.empty()) c.sans.push_back("IP:" + ip);
    }
  }
  GENERAL_NAMES_free(names);
}

}  // namespace

CertInfo read_cert(X509* cert, std::time_t now) {
  if (!cert) throw std::runtime_error("no certificate");
  CertInfo c;
  c.subject = name_text(X509_get_subject_name(cert));
  c.issuer = name_text(X509_get_issuer_name(cert));
  if (const ASN1_INTEGER* serial = X509_get0_serialNumber(cert)) {
    BIGNUM* bn = ASN1_INTEGER_to_BN(serial, nullptr);
    if (bn) {
      char* text = BN_bn2hex(bn);
      if (text) c.serial = text;
      OPENSSL_free(text);
      BN_free(bn);
    }
  }
  c.not_before = time_of(X509_get0_notBefore(cert)).first;
  auto [after, after_time] = time_of(X509_get0_notAfter(cert));
  c.not_after = after;
  c.not_after_time = after_time;
  if (!after.empty()) {
    // Floor division: an hour past expiry is day -1, not day 0.
    auto diff = static_cast<std::int64_t>(after_time - now);
    c.days_left = diff >= 0 ? diff / 86400 : -((-diff + 86399) / 86400);
  }
  read_key(cert, c);
  int sig_nid = X509_get_signature_nid(cert);
  const char* sig = sig_nid != NID_undef ? OBJ_nid2ln(sig_nid) : nullptr;
  c.signature_algorithm = sig ? sig : "unknown";
  read_sans(cert, c);
  // Self-signed: the issuer is the subject and the certificate's own key verifies it.
  if (X509_NAME_cmp(X509_get_subject_name(cert), X509_get_issuer_name(cert)) == 0) {
    EVP_PKEY* key = X509_get0_pubkey(cert);
    c.self_signed = key && X509_verify(cert, key) == 1;
  }
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int md_len = 0;
  if (X509_digest(cert, EVP_sha256(), md, &md_len) == 1) c.sha256 = hex(md, md_len);
  return c;
}

boost::json::object to_json(const CertInfo& c) {
  boost::json::array sans;
  for (const auto& s : c.sans) sans.push_back(boost::json::value(s));
  boost::json::object o{{"subject", c.subject},
                        {"issuer", c.issuer},
                        {"serial", c.serial},
                        {"not_before", c.not_before},
                        {"not_after", c.not_after},
                        {"days_left", c.days_left ? boost::json::value(*c.days_left) : boost::json::value(nullptr)},
                        {"key_type", c.key_type},
                        {"key_bits", c.key_bits},
                        {"signature_algorithm", c.signature_algorithm},
                        {"sans", std::move(sans)},
                        {"self_signed", c.self_signed},
                        {"sha256", c.sha256}};
  if (!c.curve.empty()) o["curve"] = c.curve;
  return o;
}

}  // namespace dozor::audit::tls
