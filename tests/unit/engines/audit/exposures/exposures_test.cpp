// Exposure probes judged on fake answers, and run against loopback sites (docs/audit.md "Exposures").
#include "engines/audit/exposures/exposures.hpp"

#include <boost/test/unit_test.hpp>

#include "dozor_source_dir.hpp"
#include "tests/unit/support/local_http.hpp"

using namespace dozor;
using namespace dozor::audit;
using namespace dozor::audit::exposures;
using dozor::test::LocalHttp;

namespace dozor::audit::exposures {
std::ostream& operator<<(std::ostream& os, Verdict v) {
  return os << (v == Verdict::Found ? "Found" : v == Verdict::Inconclusive ? "Inconclusive" : "NotFound");
}
}  // namespace dozor::audit::exposures

namespace {

const Data& data() {
  static const Data d = Data::load(std::string(DOZOR_SOURCE_DIR) + "/share/audit");
  return d;
}

const Probe& probe(const std::string& id) {
  for (const auto& p : data().probes)
    if (p.id == id) return p;
  throw std::runtime_error("no probe " + id);
}

Answer answer(const std::string& path, int status, std::string body, std::string content_type = "text/plain") {
  Answer a;
  a.responded = true;
  a.status = status;
  a.final_url = "https://site.test" + path;
  a.body = std::move(body);
  a.content_type = std::move(content_type);
  net::Exchange x;
  x.url = a.final_url;
  x.request_line = "GET " + path + " HTTP/1.1";
  x.status = status;
  x.status_line = "HTTP/1.1 " + std::to_string(status) + " X";
  x.response_headers = {{"content-type", a.content_type}};
  x.body_excerpt = a.body;
  a.exchange = x;
  return a;
}

const std::string kHtml = "<!doctype html><html><head><title>Shop</title></head><body>Welcome</body></html>";

Verdict verdict(const std::string& id, const Answer& a, const Answer* guard = nullptr) {
  return judge(probe(id), a, guard).verdict;
}

const Finding* find(const std::vector<Finding>& fs, const std::string& check) {
  for (const auto& f : fs)
    if (f.check == check) return &f;
  return nullptr;
}

net::ScanOptions quick() {
  net::ScanOptions o;
  o.request_timeout = std::chrono::seconds(5);
  o.per_host_interval = std::chrono::milliseconds(0);
  return o;
}

const net::EgressPolicy allow_loopback(true);

}  // namespace

BOOST_AUTO_TEST_SUITE(exposures)

BOOST_AUTO_TEST_CASE(a_git_head_is_found_by_its_content_not_by_its_status) {
  BOOST_TEST(verdict("git-head", answer("/.git/HEAD", 200, "ref: refs/heads/main\n")) == Verdict::Found);
  BOOST_TEST(verdict("git-head", answer("/.git/HEAD", 200, "0123456789abcdef0123456789abcdef01234567\n")) ==
             Verdict::Found);
  BOOST_TEST(verdict("git-head", answer("/.git/HEAD", 200, kHtml, "text/html")) == Verdict::NotFound);
  BOOST_TEST(verdict("git-head", answer("/.git/HEAD", 403, "ref: refs/heads/main\n")) == Verdict::NotFound);
  BOOST_TEST(verdict("git-head", answer("/.git/HEAD", 404, "")) == Verdict::NotFound);
  BOOST_TEST(verdict("git-head", Answer{}) == Verdict::NotFound);  // no answer
  // Redirected to the home page: not the file, whatever the page says.
  auto moved = answer("/.git/HEAD", 200, "ref: refs/heads/main\n");
  moved.final_url = "https://site.test/";
  BOOST_TEST(verdict("git-head", moved) == Verdict::NotFound);
  // An http → https redirect on the same path is the file.
  moved.final_url = "https://site.test:8443/.git/HEAD";
  BOOST_TEST(verdict("git-head", moved) == Verdict::Found);
}

BOOST_AUTO_TEST_CASE(an_env_file_is_found_and_its_secrets_are_masked) {
  auto a =
      answer("/.env", 200, "APP_NAME=shop\nDB_PASSWORD=hunter2hunter2\nAPI_KEY=sk_live_abcdefghijklmnopqrstuvwxyz\n");
  auto j = judge(probe("env-file"), a, nullptr);
  BOOST_REQUIRE(j.verdict == Verdict::Found);
  BOOST_TEST(j.excerpt.find("APP_NAME=") != std::string::npos);
  BOOST_TEST(j.excerpt.find("shop") == std::string::npos);
  // An HTML page with KEY=value text is not an .env file.
  BOOST_TEST(verdict("env-file", answer("/.env", 200, "<html><body>\nFOO=bar\n</body></html>", "text/html")) ==
             Verdict::NotFound);

  Result r = evaluate(data(), "https://site.test/nope", answer("/nope", 404, ""), {{"env-file", a}});
  const auto* f = find(r.findings, "exposure-env-file");
  BOOST_REQUIRE(f);
  BOOST_TEST((f->severity == Severity::Critical));
  BOOST_REQUIRE(f->evidence.size() == 1u);
  BOOST_REQUIRE(f->evidence[0].exchange.has_value());
  const auto& body = f->evidence[0].exchange->body_excerpt;
  BOOST_TEST(body.find("hunter2") == std::string::npos);
  BOOST_TEST(body.find("sk_live_abcdefghijkl") == std::string::npos);
  BOOST_TEST(body.find("DB_PASSWORD=") != std::string::npos);
  BOOST_TEST(f->evidence[0].exchange->request_line == "GET /.env HTTP/1.1");
}

BOOST_AUTO_TEST_CASE(redaction_keeps_keys_and_cuts_values_and_long_tokens) {
  BOOST_TEST(redact("DB_PASSWORD=hunter2") == "DB_PASSWORD=hun****");
  BOOST_TEST(redact("a=b") == "a=b");  // nothing to hide
  BOOST_TEST(redact("\"password\": \"x\"") == "\"password\": \"x****");
  BOOST_TEST(redact("\"password\": \"hunter2\"") == "\"password\": \"h****");
  BOOST_TEST(redact("AWS_SECRET_ACCESS_KEY = wJalrXUtnFEMI") == "AWS_SECRET_ACCESS_KEY = wJ****");
  BOOST_TEST(redact("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx3Yq") ==
             "-----BEGIN RSA PRIVATE KEY-----\nMIIE****");
  BOOST_TEST(redact("ключ=значение") == "ключ=зна****");  // never cuts a UTF-8 sequence
}

BOOST_AUTO_TEST_CASE(archives_are_found_by_their_magic_bytes) {
  std::string zip("PK\x03\x04\x14\x00\x00\x00\x08\x00", 10);
  zip += std::string(100, 'x');
  BOOST_TEST(verdict("archive-backup-zip", answer("/backup.zip", 200, zip, "application/zip")) == Verdict::Found);
  BOOST_TEST(verdict("archive-backup-zip", answer("/backup.zip", 200, kHtml, "text/html")) == Verdict::NotFound);
  std::string gz("\x1f\x8b\x08\x00", 4);
  gz += std::string(100, '\0');
  BOOST_TEST(verdict("archive-site-tar-gz", answer("/site.tar.gz", 200, gz, "application/gzip")) == Verdict::Found);
  std::string ds(
      "\x00\x00\x00\x01"
      "Bud1",
      8);
  ds += std::string(64, '\0');
  BOOST_TEST(verdict("ds-store", answer("/.DS_Store", 200, ds, "application/octet-stream")) == Verdict::Found);
  // The evidence shows binary bodies as bytes, not as mojibake.
  Result r = evaluate(data(), "https://site.test/nope", answer("/nope", 404, ""),
                      {{"archive-backup-zip", answer("/backup.zip", 200, zip + "\xff\xfe", "application/zip")}});
  BOOST_REQUIRE(r.findings.size() == 1u);
  BOOST_TEST(r.findings[0].evidence[0].exchange->body_excerpt.find("50 4b 03 04") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(panels_diagnostics_and_listings_need_their_page) {
  BOOST_TEST(
      verdict("phpinfo", answer("/phpinfo.php", 200, "<html><head><title>PHP 8.2.7 - phpinfo()</title></head></html>",
                                "text/html")) == Verdict::Found);
  BOOST_TEST(verdict("apache-server-status",
                     answer("/server-status", 200, "<html><h1>Apache Server Status for site.test</h1>", "text/html")) ==
             Verdict::Found);
  BOOST_TEST(
      verdict("listing-uploads", answer("/uploads/", 200, "<html><head><title>Index of /uploads/</title></head></html>",
                                        "text/html")) == Verdict::Found);
  BOOST_TEST(verdict("phpmyadmin", answer("/phpmyadmin/", 200, "<title>phpMyAdmin</title>", "text/html")) ==
             Verdict::Found);
  BOOST_TEST(verdict("crossdomain-wildcard",
                     answer("/crossdomain.xml", 200,
                            "<cross-domain-policy><allow-access-from domain=\"*\"/></cross-domain-policy>",
                            "text/xml")) == Verdict::Found);
  BOOST_TEST(verdict("crossdomain-wildcard",
                     answer("/crossdomain.xml", 200,
                            "<cross-domain-policy><allow-access-from domain=\"*.site.test\"/></cross-domain-policy>",
                            "text/xml")) == Verdict::NotFound);
  for (const char* id :
       {"phpinfo", "apache-server-status", "listing-uploads", "phpmyadmin", "wp-login", "bitrix-admin"})
    BOOST_TEST(verdict(id, answer("/", 200, kHtml, "text/html")) == Verdict::NotFound, id);
}

BOOST_AUTO_TEST_CASE(a_catch_all_site_proves_nothing_by_a_page_it_gives_to_any_path) {
  // The site answers 200 and the same text to every path: the content check alone cannot tell.
  auto guard = answer("/dozor-not-found-x", 200, "ref: refs/heads/main\n");
  BOOST_TEST(verdict("git-head", answer("/.git/HEAD", 200, "ref: refs/heads/main\n"), &guard) == Verdict::Inconclusive);
  // A catch-all page that echoes the path is the same page.
  auto echo_guard = answer("/dozor-not-found-x", 200, "Index of /dozor-not-found-x<title>Index of /</title>");
  BOOST_TEST(verdict("listing-uploads", answer("/uploads/", 200, "Index of /uploads/<title>Index of /</title>"),
                     &echo_guard) == Verdict::Inconclusive);
  // A real file on a catch-all site is still found: its content differs from the catch-all page.
  auto html_guard = answer("/dozor-not-found-x", 200, kHtml, "text/html");
  BOOST_TEST(verdict("git-head", answer("/.git/HEAD", 200, "ref: refs/heads/main\n"), &html_guard) == Verdict::Found);
}

BOOST_AUTO_TEST_CASE(a_missing_security_txt_is_an_info_finding) {
  auto j = judge(probe("security-txt-missing"), answer("/.well-known/security.txt", 404, "no"), nullptr);
  BOOST_TEST(j.verdict == Verdict::Found);
  BOOST_TEST((probe("security-txt-missing").severity == Severity::Info));
  BOOST_TEST(
      verdict("security-txt-missing", answer("/.well-known/security.txt", 200,
                                             "Contact: mailto:security@site.test\nExpires: 2030-01-01T00:00:00Z\n")) ==
      Verdict::NotFound);
  // A catch-all's home page is not a security.txt.
  BOOST_TEST(verdict("security-txt-missing", answer("/.well-known/security.txt", 200, kHtml, "text/html")) ==
             Verdict::Found);
  BOOST_TEST(verdict("security-txt-missing", Answer{}) == Verdict::NotFound);  // down is not missing
}

BOOST_AUTO_TEST_CASE(probes_of_a_group_are_one_finding_with_evidence_per_path) {
  Result r = evaluate(data(), "https://site.test/nope", answer("/nope", 404, ""),
                      {{"git-head", answer("/.git/HEAD", 200, "ref: refs/heads/main\n")},
                       {"git-config", answer("/.git/config", 200, "[core]\n\trepositoryformatversion = 0\n")}});
  const auto* f = find(r.findings, "exposure-vcs");
  BOOST_REQUIRE(f);
  BOOST_TEST(r.findings.size() == 1u);
  BOOST_TEST(f->evidence.size() == 2u);
  BOOST_TEST(f->title.find("(+1 more)") != std::string::npos);
  BOOST_TEST(f->owasp == "A01:2021");
  BOOST_TEST(r.part.at("found").as_array().size() == 2u);
  BOOST_TEST(r.part.at("guard").at("catch_all").as_bool() == false);
  // Probes without an answer (the budget ran out) are counted as an error.
  BOOST_REQUIRE(r.errors.size() == 1u);
  BOOST_TEST(r.errors[0].find("not answered") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_site_with_exposed_files_is_reported) {
  LocalHttp site({{"/.git/HEAD", LocalHttp::fixed(LocalHttp::answer(200, "", "ref: refs/heads/master\n"))},
                  {"/.env", LocalHttp::fixed(LocalHttp::answer(200, "Content-Type: text/plain\r\n",
                                                               "DB_HOST=localhost\nDB_PASSWORD=s3cr3t-value\n"))},
                  {"/", LocalHttp::fixed(LocalHttp::answer(200, "Content-Type: text/html\r\n", kHtml))}});
  auto r =
      run(site.url("/"), data(), allow_loopback, quick(), std::chrono::steady_clock::now() + std::chrono::seconds(20));
  std::set<std::string> checks;
  for (const auto& f : r.findings) checks.insert(f.check);
  BOOST_TEST(checks == (std::set<std::string>{"exposure-vcs", "exposure-env-file", "exposure-security-txt-missing"}));
  BOOST_TEST(r.errors.empty());
  BOOST_TEST(r.part.at("answered").to_number<std::int64_t>() == static_cast<std::int64_t>(data().probes.size()));
  BOOST_TEST(r.part.at("guard").at("status").to_number<std::int64_t>() == 404);
  const auto* env = find(r.findings, "exposure-env-file");
  BOOST_REQUIRE(env);
  BOOST_TEST(env->evidence[0].url == site.url("/.env"));
  BOOST_TEST(env->evidence[0].exchange->status == 200);
  BOOST_TEST(env->evidence[0].exchange->body_excerpt.find("s3cr3t") == std::string::npos);
  // One GET per probe and one for the guard, nothing more.
  BOOST_TEST(site.heads().size() == data().probes.size() + 1);
}

BOOST_AUTO_TEST_CASE(a_catch_all_site_gives_no_false_positives) {
  // 200 and the same shop page for every path, and a plain-text variant that says the same to every path.
  LocalHttp html({}, LocalHttp::fixed(LocalHttp::answer(200, "Content-Type: text/html\r\n", kHtml)));
  auto r =
      run(html.url("/"), data(), allow_loopback, quick(), std::chrono::steady_clock::now() + std::chrono::seconds(20));
  BOOST_TEST(r.part.at("guard").at("catch_all").as_bool());
  BOOST_REQUIRE(r.findings.size() == 1u);
  BOOST_TEST(r.findings[0].check == "exposure-security-txt-missing");

  LocalHttp text({}, LocalHttp::fixed(LocalHttp::answer(200, "Content-Type: text/plain\r\n",
                                                        "ref: refs/heads/main\n[core]\nA_KEY=value\nContact: x\n")));
  r = run(text.url("/"), data(), allow_loopback, quick(), std::chrono::steady_clock::now() + std::chrono::seconds(20));
  BOOST_TEST(r.findings.empty());
  BOOST_TEST(!r.part.at("inconclusive").as_array().empty());
}

BOOST_AUTO_TEST_CASE(a_site_that_does_not_answer_is_an_error) {
  net::EgressPolicy public_only(false);  // refuses loopback: nothing answers
  BOOST_CHECK_THROW(run("http://127.0.0.1:9/", data(), public_only, quick(),
                        std::chrono::steady_clock::now() + std::chrono::seconds(5)),
                    std::runtime_error);
}

BOOST_AUTO_TEST_CASE(probe_urls_keep_the_origin_and_drop_the_rest) {
  BOOST_TEST(probe_url("https://user:pw@site.test:8443/app/x?q=1#f", "/.env") == "https://site.test:8443/.env");
  BOOST_TEST(probe_url("http://site.test", "/.git/HEAD") == "http://site.test/.git/HEAD");
}

BOOST_AUTO_TEST_SUITE_END()
