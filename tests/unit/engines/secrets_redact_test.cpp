// The one redaction of excerpts (engines/secrets.hpp redact_text; issue 26 §2), on a corpus of
// what exposed files, logs, pages and API answers hold.
#include <boost/test/unit_test.hpp>
#include <string>
#include <utility>
#include <vector>

#include "engines/secrets.hpp"

using dozor::secrets::redact_text;

namespace {

struct Case {
  const char* name;
  std::string text;
  std::vector<std::string> gone;  // secret values that must not survive
  std::vector<std::string> kept;  // what stays as evidence
};

const std::vector<Case>& corpus() {
  static const std::vector<Case> cases = {
      {"dotenv",
       "APP_ENV=production\nAPP_KEY=base64:Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA==\nDB_HOST=127.0.0.1\nDB_PASSWORD=s3cr3t-db\n"
       "DB_PASS=hunter22\nMAIL_PASSWORD=\"two words\"\n",
       {"Zm9vYmFy", "s3cr3t-db", "hunter22", "two words"},
       {"APP_ENV=production", "DB_HOST=127.0.0.1", "DB_PASSWORD=****", "APP_KEY=****", "MAIL_PASSWORD=\"****\""}},
      {"laravel log",
       "[2026-01-01 10:00:00] production.ERROR: SQLSTATE[HY000] [1045] Access denied (DB_PASSWORD=Laravel-Pw-77 in "
       ".env)\n"
       "#0 /var/www/vendor/laravel/framework/src/Illuminate/Database/Connectors/Connector.php(70)",
       {"Laravel-Pw-77"},
       {"SQLSTATE[HY000]", "Connector.php(70)", "DB_PASSWORD=****"}},
      {"private key",
       "key file:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq9\nabcdefSECRETLINE\n-----END RSA PRIVATE "
       "KEY-----\nafter",
       {"MIIEowIBAAKCAQEA7bq9", "abcdefSECRETLINE"},
       {"-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----", "after"}},
      {"openssh key cut by the excerpt",
       "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAE",
       {"b3BlbnNzaC1rZXkt"},
       {"-----BEGIN OPENSSH PRIVATE KEY-----"}},
      {"pgp block",
       "-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF0secret\n-----END PGP PRIVATE KEY BLOCK-----",
       {"lQOYBF0secret"},
       {"-----END PGP PRIVATE KEY BLOCK-----"}},
      {"dsn",
       "DATABASE_URL is postgres://shop:Pg-Secret-1@db.internal:5432/shop and amqp://guest:guest@mq/",
       {"Pg-Secret-1", "guest:guest"},
       {"postgres://shop:****@db.internal:5432/shop", "amqp://guest:****@mq/"}},
      {"git config",
       "[remote \"origin\"]\n\turl = https://deploy:ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/o/r.git\n",
       {"abcdefghijklmnopqrstuvwxyz0123456789"},
       {"[remote \"origin\"]", "github.com/o/r.git"}},
      {"aws",
       "aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = "
       "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\nregion = eu-west-1",
       {"IOSFODNN7EXAMPLE", "wJalrXUtnFEMI"},
       {"aws_access_key_id = ****", "region = eu-west-1"}},
      {"aws key id alone in text", "found AKIAIOSFODNN7EXAMPLE in bundle.js", {"IOSFODNN7EXAMPLE"}, {"found AKIA****"}},
      {"json",
       R"({"id":1,"name":"alice","password_hash":"$2b$12$abcdefghijklmnopqrstuv","apiKey":"k-123456","role":"admin"})",
       {"$2b$12$abcdefghijklmnopqrstuv", "k-123456"},
       {R"("name":"alice")", R"("password_hash":"****")", R"("apiKey":"****")", R"("role":"admin")"}},
      {"yaml",
       "database:\n  user: app\n  password: my secret phrase\n  port: 5432\n",
       {"my secret phrase", "secret phrase"},
       {"user: app", "password: ****", "port: 5432"}},
      {"php define",
       "define( 'DB_PASSWORD', 'wp-Pass-9' );\ndefine('AUTH_KEY', 'put your unique phrase here');\ndefine('DB_NAME', "
       "'wp');",
       {"wp-Pass-9", "put your unique phrase here"},
       {"define( 'DB_PASSWORD', '****' );", "define('DB_NAME', 'wp');"}},
      {"authorization header",
       "GET / HTTP/1.1\nAuthorization: Bearer abc.def-ghi\nX-Api-Key: 0123456789abcdef\nAccept: */*",
       {"abc.def-ghi", "0123456789abcdef"},
       {"Authorization: Bearer ****", "X-Api-Key: ****", "Accept: */*"}},
      {"query string",
       "<a href=\"/cb?code=1&access_token=tok-987&state=x\">",
       {"tok-987"},
       {"code=1", "access_token=****&state=x"}},
      {"jwt keeps its claims",
       R"({"token":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlLXNpZ25hdHVyZQ"})",
       {"c2lnbmF0dXJlLXNpZ25hdHVyZQ"},
       {"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.****"}},
      {"comment prose", "<!-- TODO: admin password is hunter2 -->", {"hunter2"}, {"admin password is ****"}},
      {"cookies keep their names and attributes",
       "Set-Cookie: sessionid=abcdef123456; Path=/; HttpOnly\nCookie: sid=s1s1s1s1; theme=dark\n",
       {"abcdef123456", "s1s1s1s1", "dark"},
       {"Set-Cookie: sessionid=****; Path=/; HttpOnly", "Cookie: sid=****; theme=****"}},
      {"token formats",
       "slack xoxb-1234567890-abcdefghij google AIzaSyA1234567890abcdefghijklmnopqrstuv stripe sk_live_abcdefghij1234",
       {"1234567890-abcdefghij", "SyA1234567890abcdefghijklmnopqrstuv", "abcdefghij1234"},
       {"xoxb-****", "AIza****", "sk_live_****"}},
  };
  return cases;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(secrets_redact)

BOOST_AUTO_TEST_CASE(the_corpus_loses_its_secrets_and_keeps_its_evidence) {
  for (const auto& c : corpus()) {
    BOOST_TEST_CONTEXT(c.name) {
      auto out = redact_text(c.text);
      for (const auto& g : c.gone) BOOST_TEST(out.find(g) == std::string::npos, g << " survived in: " << out);
      for (const auto& k : c.kept) BOOST_TEST(out.find(k) != std::string::npos, k << " missing in: " << out);
      BOOST_TEST(redact_text(out) == out, "not idempotent: " << out);
    }
  }
}

BOOST_AUTO_TEST_CASE(ordinary_text_and_scan_evidence_pass_unchanged) {
  for (std::string text : {
           std::string("ref: refs/heads/main\n"),
           std::string("root:x:0:0:root:/root:/bin/bash\n"),
           std::string("<input type=\"password\" name=\"password\" autocomplete=\"new-password\">"),
           std::string("You have an error in your SQL syntax; check the manual near ''' at line 1"),
           std::string("<b data-dzr=\"dzr0123456789\">, keyword=shoes, monkey=1, author: Ann, bypass=no"),
           std::string("Access-Control-Allow-Origin: https://x.cors.dozor.invalid"),
           std::string("Access-Control-Allow-Credentials: true\nrequire_auth: false\n{\"token_type\":\"bearer\"}"),
           std::string("DB_PASSWORD=\nDB_PASSWORD=****"),
       })
    BOOST_TEST(redact_text(text) == text);
}

BOOST_AUTO_TEST_SUITE_END()
