// The out-of-band side of a scan: probes stored before they are sent, a hit tied to exactly the
// probe whose token it carries, and the documents and answers the XXE and SSRF checks use.
#include "engines/scan/owasp/oob.hpp"

#include <algorithm>
#include <boost/test/unit_test.hpp>

#include "engines/scan/owasp/checks.hpp"

using namespace dozor::owasp;
using namespace dozor;

namespace {

struct FakeStore : oast::Store {
  std::vector<oast::Probe> probes;
  std::vector<oast::Hit> stored_hits;
  int reads = 0;
  void add(const std::vector<oast::Probe>& p) override { probes.insert(probes.end(), p.begin(), p.end()); }
  std::vector<oast::Hit> hits(const std::vector<std::string>& tokens) override {
    ++reads;
    std::vector<oast::Hit> out;
    for (const auto& h : stored_hits)
      if (std::find(tokens.begin(), tokens.end(), h.token) != tokens.end()) out.push_back(h);
    return out;
  }
};

constexpr FindingText kText{"owasp-ssrf", "SSRF", audit::Severity::High, "A10:2021", 918, "d", "r"};

struct Fixture {
  net::EgressPolicy policy{true};
  Prober prober{policy, net::ScanOptions{}, 100, std::chrono::steady_clock::now() + std::chrono::seconds(30), {}};
  std::vector<audit::Finding> findings;
  SqlErrors sql;
  Scan scan{prober, sql, findings};
};

oast::Hit hit_of(const std::string& token) {
  oast::Hit h;
  h.token = token;
  h.source = "127.0.0.1";
  h.method = "GET";
  h.path = "/oast/" + token;
  h.received_at = "2026-01-01T00:00:00.000Z";
  h.headers = {{"user-agent", "Python-urllib/3.11"}};
  return h;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(owasp_oob)

BOOST_AUTO_TEST_CASE(disabled_without_a_base_url_or_a_store) {
  FakeStore store;
  BOOST_TEST(!Oob({"", &store}).enabled());
  BOOST_TEST(!Oob({"http://d", nullptr}).enabled());
  BOOST_TEST(Oob({"http://d", &store}).enabled());
  oast::Probe p;
  BOOST_TEST(!Oob({"", &store}).add(p));
  BOOST_TEST(store.probes.empty());
}

BOOST_AUTO_TEST_CASE(a_hit_proves_exactly_the_probe_whose_token_it_carries) {
  Fixture fx;
  FakeStore store;
  Oob oob({"http://dozor.test", &store, std::chrono::milliseconds(0), std::chrono::milliseconds(1)});
  std::string url_a, url_b;
  auto a = oob.make("ssrf", url_a);
  auto b = oob.make("ssrf", url_b);
  BOOST_TEST(url_a == "http://dozor.test/oast/" + a.token);
  a.url = "http://t/fetch";
  a.param = "url";
  b.url = "http://t/img";
  b.param = "src";
  BOOST_TEST(oob.add(a));
  BOOST_TEST(oob.add(b));
  BOOST_TEST(store.probes.size() == 2u);  // stored before anything is sent
  net::FetchRequest ra, rb;
  ra.url = "http://t/fetch?url=" + url_a;
  rb.url = "http://t/img?src=" + url_b;
  net::CheckOutcome answer;
  answer.status = 200;
  oob.expect(a, kText, "parameter url of http://t/fetch", ra, answer);
  oob.expect(b, kText, "parameter src of http://t/img", rb, answer);
  store.stored_hits = {hit_of(b.token), hit_of("someone-elses-token-xx"), hit_of(b.token)};
  auto hits = oob.finish(fx.scan);
  BOOST_TEST_REQUIRE(hits.size() == 1u);
  BOOST_TEST(hits[0].probe.token == b.token);
  BOOST_TEST(hits[0].probe.param == "src");
  BOOST_TEST_REQUIRE(fx.findings.size() == 1u);
  const auto& f = fx.findings[0];
  BOOST_TEST(f.title == "SSRF: parameter src of http://t/img");
  BOOST_TEST(f.confidence == "certain");
  BOOST_TEST_REQUIRE(f.evidence.size() == 2u);
  BOOST_TEST(f.evidence[0].url == rb.url);
  BOOST_TEST(f.evidence[1].note.find(b.token) != std::string::npos);
  BOOST_TEST(f.evidence[1].excerpt.find("Python-urllib") != std::string::npos);
  BOOST_TEST(f.evidence[1].replay == f.evidence[0].replay);
  BOOST_TEST(f.evidence[1].exchange->request_line == "GET /oast/" + b.token + " HTTP/1.1");
}

BOOST_AUTO_TEST_CASE(it_waits_for_late_hits_but_no_longer_than_its_wait) {
  Fixture fx;
  FakeStore store;
  Oob oob({"http://dozor.test", &store, std::chrono::milliseconds(60), std::chrono::milliseconds(10)});
  std::string url;
  auto p = oob.make("xxe", url);
  oob.add(p);
  oob.expect(p, kText, "XML body of http://t/x", net::FetchRequest{}, net::CheckOutcome{});
  auto started = std::chrono::steady_clock::now();
  BOOST_TEST(oob.finish(fx.scan).empty());
  auto waited = std::chrono::steady_clock::now() - started;
  BOOST_TEST(waited >= std::chrono::milliseconds(60));
  BOOST_TEST(waited < std::chrono::milliseconds(1000));
  BOOST_TEST(store.reads >= 3);
  BOOST_TEST(fx.findings.empty());
}

BOOST_AUTO_TEST_CASE(an_out_of_band_proof_joins_the_in_band_finding_of_the_same_place) {
  std::vector<audit::Finding> findings;
  constexpr FindingText kMedium{"owasp-xxe", "XXE", audit::Severity::Medium, "A05:2021", 611, "d", "r"};
  constexpr FindingText kHigh{"owasp-xxe", "XXE", audit::Severity::High, "A05:2021", 611, "d", "r"};
  add_or_merge(findings, kMedium, "firm", "XML body of http://t/x", {audit::Evidence{}});
  add_or_merge(findings, kHigh, "certain", "XML body of http://t/x", {audit::Evidence{}, audit::Evidence{}});
  add_or_merge(findings, kHigh, "certain", "XML body of http://t/y", {audit::Evidence{}});
  BOOST_TEST_REQUIRE(findings.size() == 2u);
  BOOST_TEST((findings[0].severity == audit::Severity::High));
  BOOST_TEST(findings[0].confidence == "certain");
  BOOST_TEST(findings[0].evidence.size() == 3u);
}

BOOST_AUTO_TEST_CASE(xxe_documents_declare_flat_entities_only) {
  auto internal = xxe_internal_document("dzrab", "cdef");
  BOOST_TEST(internal.find("<!ENTITY dza \"dzrab\">") != std::string::npos);
  BOOST_TEST(internal.find("<!ENTITY dzb \"cdef\">") != std::string::npos);
  BOOST_TEST(internal.find("dzrabcdef") == std::string::npos);  // joined only by a parser
  BOOST_TEST(internal.find("<dozor>&dza;&dzb;</dozor>") != std::string::npos);
  auto general = xxe_external_document("http://d/oast/T", false);
  BOOST_TEST(general.find("<!ENTITY dze SYSTEM \"http://d/oast/T\">") != std::string::npos);
  BOOST_TEST(general.find("&dze;") != std::string::npos);
  auto parameter = xxe_external_document("http://d/oast/T", true);
  BOOST_TEST(parameter.find("<!ENTITY % dzp SYSTEM \"http://d/oast/T\">") != std::string::npos);
  BOOST_TEST(parameter.find("%dzp;") != std::string::npos);
  for (const auto& doc : {internal, general, parameter}) {
    BOOST_TEST(doc.find("file:") == std::string::npos);
    // No entity value refers to another entity: nothing can expand exponentially.
    BOOST_TEST(doc.find("\"&") == std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(metadata_answers_need_two_index_lines) {
  BOOST_TEST(metadata_answer("ami-id\nami-launch-index\nhostname\ninstance-id\nlocal-ipv4\n"));
  BOOST_TEST(!metadata_answer("<p>ami-id is a field name</p>"));
  BOOST_TEST(!metadata_answer(""));
}

BOOST_AUTO_TEST_SUITE_END()
