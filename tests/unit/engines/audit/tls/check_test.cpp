#include "engines/audit/tls/check.hpp"

#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <memory>

using namespace dozor::audit;
using namespace dozor::audit::tls;

namespace {

struct X509Free {
  void operator()(X509* x) const { X509_free(x); }
};
struct KeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};

// A self-signed certificate made here: `days_from`..`days_to` around now, RSA of `bits`, `md`.
std::unique_ptr<X509, X509Free> make_cert(int bits, const EVP_MD* md, long days_from, long days_to, const char* san) {
  std::unique_ptr<EVP_PKEY, KeyFree> key(EVP_RSA_gen(static_cast<unsigned>(bits)));
  BOOST_REQUIRE(key);
  std::unique_ptr<X509, X509Free> x(X509_new());
  BOOST_REQUIRE(x);
  BOOST_REQUIRE(X509_set_version(x.get(), 2) == 1);
  BOOST_REQUIRE(ASN1_INTEGER_set(X509_get_serialNumber(x.get()), 4660) == 1);
  BOOST_REQUIRE(X509_gmtime_adj(X509_getm_notBefore(x.get()), days_from * 86400));
  BOOST_REQUIRE(X509_gmtime_adj(X509_getm_notAfter(x.get()), days_to * 86400 + 3600));
  X509_NAME* name = X509_get_subject_name(x.get());
  BOOST_REQUIRE(X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                                           reinterpret_cast<const unsigned char*>("test.example"), -1, -1, 0) == 1);
  BOOST_REQUIRE(X509_set_issuer_name(x.get(), name) == 1);
  BOOST_REQUIRE(X509_set_pubkey(x.get(), key.get()) == 1);
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, x.get(), x.get(), nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, NID_subject_alt_name, san);
  BOOST_REQUIRE(ext);
  BOOST_REQUIRE(X509_add_ext(x.get(), ext, -1) == 1);
  X509_EXTENSION_free(ext);
  BOOST_REQUIRE(X509_sign(x.get(), key.get(), md) > 0);
  return x;
}

TlsReport good_report() {
  TlsReport r;
  r.target = "https://good.example/";
  r.scheme = "https";
  r.host = "good.example";
  r.port = 443;
  r.protocol = "TLSv1.3";
  r.protocols = {{"TLSv1.0", false, "", "alert"},
                 {"TLSv1.1", false, "", "alert"},
                 {"TLSv1.2", true, "ECDHE-ECDSA-AES128-GCM-SHA256", ""},
                 {"TLSv1.3", true, "TLS_AES_256_GCM_SHA384", ""}};
  r.ciphers = {{"null", "eNULL", false, "", ""}, {"3des", "3DES", std::nullopt, "", "not testable"}};
  CertInfo leaf;
  leaf.subject = "CN=good.example";
  leaf.issuer = "CN=Test CA";
  leaf.days_left = 200;
  leaf.key_type = "EC";
  leaf.key_bits = 256;
  leaf.signature_algorithm = "ecdsa-with-SHA256";
  r.chain = {leaf};
  r.verified = true;
  r.hostname_match = true;
  r.hsts = parse_hsts("max-age=63072000; includeSubDomains; preload");
  r.hsts.exchange = dozor::net::Exchange{};
  return r;
}

std::vector<std::string> checks(const std::vector<Finding>& fs) {
  std::vector<std::string> out;
  for (const auto& f : fs) out.push_back(f.check);
  return out;
}

bool has(const std::vector<Finding>& fs, const std::string& check) {
  auto c = checks(fs);
  return std::find(c.begin(), c.end(), check) != c.end();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tls_check)

BOOST_AUTO_TEST_CASE(hsts_directives_are_parsed) {
  auto h = parse_hsts("Max-Age=\"31536000\" ; includeSubdomains;PRELOAD");
  BOOST_TEST(h.present);
  BOOST_REQUIRE(h.max_age);
  BOOST_TEST(*h.max_age == 31536000);
  BOOST_TEST(h.include_subdomains);
  BOOST_TEST(h.preload);
  auto bad = parse_hsts("max-age=abc");
  BOOST_TEST(!bad.max_age);
  auto first = parse_hsts("max-age=10; max-age=20");
  BOOST_TEST(*first.max_age == 10);
  BOOST_TEST(!parse_hsts("max-age=99999999999999999999").max_age);  // no overflow
}

BOOST_AUTO_TEST_CASE(a_good_server_has_no_findings_and_grade_a_plus) {
  auto r = good_report();
  BOOST_TEST(findings_of(r, true).empty());
  BOOST_TEST(grade_of(r) == "A+");
  r.hsts = parse_hsts("max-age=300");
  r.hsts.exchange = dozor::net::Exchange{};
  BOOST_TEST(grade_of(r) == "A");
  BOOST_TEST(checks(findings_of(r, true)) == std::vector<std::string>{"tls-hsts-short"});
  BOOST_TEST(findings_of(r, false).empty());  // the full audit leaves HSTS to the header grade
}

BOOST_AUTO_TEST_CASE(legacy_protocols_are_medium_and_cap_at_b) {
  auto r = good_report();
  r.protocols[0].offered = true;
  r.protocols[0].cipher = "ECDHE-RSA-AES128-SHA";
  auto fs = findings_of(r, false);
  BOOST_REQUIRE_EQUAL(fs.size(), 1u);
  BOOST_TEST(fs[0].check == "tls-legacy-protocol");
  BOOST_TEST((fs[0].severity == Severity::Medium));
  BOOST_TEST(fs[0].owasp == "A02:2021");
  BOOST_TEST(fs[0].cwe == 327);
  BOOST_TEST(fs[0].evidence.at(0).excerpt.find("TLSv1.0") != std::string::npos);
  BOOST_TEST(grade_of(r) == "B");
}

BOOST_AUTO_TEST_CASE(weak_cipher_groups_have_their_severity) {
  auto r = good_report();
  r.ciphers = {{"null", "eNULL", true, "NULL-SHA256", ""},
               {"3des", "3DES", true, "DES-CBC3-SHA", ""},
               {"cbc-sha1", "SHA1", true, "AES128-SHA", ""}};
  auto fs = findings_of(r, false);
  BOOST_REQUIRE_EQUAL(fs.size(), 3u);
  BOOST_TEST((fs[0].severity == Severity::High));
  BOOST_TEST((fs[1].severity == Severity::Medium));
  BOOST_TEST((fs[2].severity == Severity::Info));
  BOOST_TEST(grade_of(r) == "F");
}

BOOST_AUTO_TEST_CASE(only_refused_modern_protocols_are_a_finding) {
  // Probes of 1.2 and 1.3 that timed out prove nothing, and the first handshake negotiated 1.3.
  auto r = good_report();
  r.protocols[2].offered = std::nullopt;
  r.protocols[3].offered = std::nullopt;
  BOOST_TEST(findings_of(r, false).empty());
  BOOST_TEST(grade_of(r) == "A+");
  // Both refused and the server negotiated 1.0: that is the finding.
  r.protocol = "TLSv1.0";
  r.protocols = {{"TLSv1.0", true, "AES128-SHA", ""},
                 {"TLSv1.1", false, "", "alert"},
                 {"TLSv1.2", false, "", "alert"},
                 {"TLSv1.3", false, "", "alert"}};
  auto names = checks(findings_of(r, false));
  BOOST_TEST((std::find(names.begin(), names.end(), "tls-no-modern-protocol") != names.end()));
}

BOOST_AUTO_TEST_CASE(an_unreadable_expiry_date_is_not_an_expired_certificate) {
  auto r = good_report();
  r.chain[0].days_left = std::nullopt;
  BOOST_TEST(findings_of(r, false).empty());
}

BOOST_AUTO_TEST_CASE(certificate_problems_are_found) {
  auto r = good_report();
  r.chain[0].days_left = -3;
  r.verified = false;
  r.verify_error = "certificate has expired";
  auto fs = findings_of(r, false);
  BOOST_TEST(checks(fs) == std::vector<std::string>{"tls-cert-expired"});  // not also "untrusted"
  BOOST_TEST(grade_of(r) == "F");

  r = good_report();
  r.chain[0].days_left = 20;
  fs = findings_of(r, false);
  BOOST_REQUIRE_EQUAL(fs.size(), 1u);
  BOOST_TEST((fs[0].severity == Severity::Medium));
  r.chain[0].days_left = 3;
  BOOST_TEST((findings_of(r, false).at(0).severity == Severity::High));
  BOOST_TEST(grade_of(r) == "B");

  r = good_report();
  r.hostname_match = false;
  r.verified = false;
  r.verify_error = "self-signed certificate";
  r.chain[0].self_signed = true;
  r.chain[0].key_type = "RSA";
  r.chain[0].key_bits = 1024;
  r.chain[0].signature_algorithm = "sha1WithRSAEncryption";
  fs = findings_of(r, false);
  BOOST_TEST(has(fs, "tls-hostname-mismatch"));
  BOOST_TEST(has(fs, "tls-untrusted-certificate"));
  BOOST_TEST(has(fs, "tls-weak-key"));
  BOOST_TEST(has(fs, "tls-weak-signature"));
  for (const auto& f : fs)
    if (f.check == "tls-hostname-mismatch")
      BOOST_TEST(f.cwe == 297);
    else if (f.check == "tls-untrusted-certificate") {
      BOOST_TEST(f.cwe == 295);
      BOOST_TEST(f.title == "Self-signed certificate");
    }
}

BOOST_AUTO_TEST_CASE(http_targets_and_errors_have_no_findings) {
  TlsReport r;
  r.https = false;
  BOOST_TEST(findings_of(r, true).empty());
  BOOST_TEST(grade_of(r).empty());
  auto j = to_json(r);
  BOOST_TEST(j.at("tls").as_string() == "not offered");
  BOOST_TEST(j.at("https").as_bool() == false);
  auto e = good_report();
  e.error = "no TLS handshake";
  BOOST_TEST(findings_of(e, true).empty());
}

BOOST_AUTO_TEST_CASE(the_json_has_the_report_fields) {
  auto r = good_report();
  r.grade = grade_of(r);
  auto j = to_json(r);
  BOOST_TEST(j.at("protocols").at("TLSv1.0").as_bool() == false);
  BOOST_TEST(j.at("protocols").at("TLSv1.3").as_bool() == true);
  BOOST_TEST(j.at("weak_ciphers").as_array().at(1).at("offered").is_null());
  BOOST_TEST(j.at("certificate").at("hostname_match").as_bool());
  BOOST_TEST(j.at("hsts").at("max_age").as_int64() == 63072000);
  BOOST_TEST(j.at("grade").as_string() == "A+");
}

BOOST_AUTO_TEST_CASE(a_certificate_is_read) {
  auto x = make_cert(1024, EVP_sha1(), -30, -2, "DNS:test.example,IP:127.0.0.1,IP:::1");
  auto c = read_cert(x.get(), std::time(nullptr));
  BOOST_TEST(c.subject == "CN=test.example");
  BOOST_TEST(c.issuer == "CN=test.example");
  BOOST_TEST(c.key_type == "RSA");
  BOOST_TEST(c.key_bits == 1024);
  BOOST_TEST(c.signature_algorithm == "sha1WithRSAEncryption");
  BOOST_TEST(c.days_left.value_or(0) == -2);
  BOOST_TEST(c.self_signed);
  BOOST_TEST(c.serial == "1234");
  BOOST_TEST(c.sha256.size() == 64u);
  BOOST_TEST(c.sans == (std::vector<std::string>{"DNS:test.example", "IP:127.0.0.1", "IP:0:0:0:0:0:0:0:1"}));
  auto good = make_cert(2048, EVP_sha256(), -1, 90, "DNS:a.example");
  auto g = read_cert(good.get(), std::time(nullptr));
  BOOST_TEST(g.days_left.value_or(0) == 90);
  BOOST_TEST(g.signature_algorithm == "sha256WithRSAEncryption");
  BOOST_TEST(g.not_after.size() == 20u);
}

BOOST_AUTO_TEST_SUITE_END()
