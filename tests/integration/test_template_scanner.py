"""Issue 9 §2 template scanner (docs/audit.md "Template scanner"): POST /api/security/scanner/{target}
runs the shipped Nuclei-format templates. A local site with planted exposures is reported with
evidence and replay commands; its catch-all twin (every path 200, one page) gives nothing; the
severity filter selects templates, an unknown severity is a 422; both target encodings work."""

import unittest

import dozor_client as dc

HTML = "<!doctype html><html><head><title>Shop</title></head><body>Welcome to the shop. Admin login, index, debug, install</body></html>"
SECRET = "s3cr3t-database-password"
SWAGGER = ("<!DOCTYPE html><html><head><title>Swagger UI</title><link rel='stylesheet' href='./swagger-ui.css'>"
           "</head><body><div id='swagger-ui'></div><script>SwaggerUIBundle({url: '/v3/api-docs'})</script></body></html>")
PMA = ("<!DOCTYPE HTML><html><head><title>phpMyAdmin</title><script>var CommonParams={PMA_VERSION:\"5.2.1\"};</script>"
       "</head><body><form><input id='input_username' name='pma_username'></form></body></html>")

PLANTED = {
    "/": (200, {"Content-Type": "text/html"}, HTML),
    "/swagger-ui.html": (200, {"Content-Type": "text/html"}, SWAGGER),
    "/actuator": (200, {"Content-Type": "application/vnd.spring-boot.actuator.v3+json"},
                  '{"_links":{"self":{"href":"http://h/actuator","templated":false},'
                  '"health":{"href":"http://h/actuator/health","templated":false}}}'),
    "/.env.production": (200, {"Content-Type": "text/plain"}, "APP_ENV=production\nDB_PASSWORD=%s\n" % SECRET),
    "/phpMyAdmin/": (200, {"Content-Type": "text/html"}, PMA),
    "/CHANGELOG.txt": (200, {"Content-Type": "text/plain"}, "Drupal 7.50, 2016-07-07\n-----------------------\n"),
}
EXPECTED = {"swagger-ui", "spring-actuator-index", "env-file-variants", "phpmyadmin-panel", "drupal-changelog",
            "drupal-cve-2018-7600"}
INFO = {"swagger-ui", "phpmyadmin-panel"}  # the planted templates of severity info
ALL_SEVERITIES = "info,low,medium,high,critical"


def scan(user, target, query="", encoded=True):
    t = dc.enc(target) if encoded else target
    return dc.post("/api/security/scanner/%s%s" % (t, query), token=user.token, timeout=120)


class TemplateScanner(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = dc.create_user("ts", scan_grant=True)
        cls.site = dc.FixtureServer(PLANTED).__enter__()
        cls.catch_all = dc.FixtureServer(dc.AnyPath((200, {"Content-Type": "text/html"}, HTML))).__enter__()
        r = scan(cls.user, cls.site.url("/"), "?severity=" + ALL_SEVERITIES)
        assert r.status == 200, r.text
        cls.body = r.json

    @classmethod
    def tearDownClass(cls):
        cls.site.__exit__(None, None, None)
        cls.catch_all.__exit__(None, None, None)
        dc.delete_user(cls.user.id)

    def test_planted_exposures_are_found_with_evidence_and_replay(self):
        body = self.body
        self.assertEqual(body["target"], self.site.url("/"))
        self.assertTrue(body["complete"], body["errors"])
        self.assertGreaterEqual(body["templates"]["loaded"], 80)
        self.assertEqual(body["templates"]["skipped"], 0, body["skipped"])
        self.assertEqual(body["templates"]["run"], body["templates"]["loaded"])
        self.assertEqual(body["failed_requests"], 0)
        found = {f["template_id"]: f for f in body["findings"]}
        self.assertEqual(set(found), EXPECTED)
        cve = found["drupal-cve-2018-7600"]
        self.assertEqual(cve["check"], "template:drupal-cve-2018-7600")
        self.assertEqual(cve["severity"], "critical")
        self.assertEqual(cve["owasp"], "A06:2021")
        self.assertEqual(cve["cwe"], 20)
        self.assertIn("https://nvd.nist.gov/vuln/detail/CVE-2018-7600", cve["references"])
        self.assertEqual(cve["extracted"], ["version=7.50"])
        ev = cve["evidence"][0]
        self.assertEqual(ev["url"], self.site.url("/CHANGELOG.txt"))
        self.assertEqual(ev["exchange"]["request_line"], "GET /CHANGELOG.txt HTTP/1.1")
        self.assertEqual(ev["exchange"]["status"], 200)
        self.assertIn("Drupal 7.50", ev["exchange"]["body_excerpt"])
        self.assertEqual(cve["curl"], "curl -i -s -k '%s'" % self.site.url("/CHANGELOG.txt"))
        self.assertEqual(found["phpmyadmin-panel"]["extracted"], ["version=5.2.1"])
        self.assertEqual(found["phpmyadmin-panel"]["evidence"][0]["url"], self.site.url("/phpMyAdmin/"))
        env = found["env-file-variants"]
        self.assertEqual(env["severity"], "high")
        self.assertIn("DB_PASSWORD=", env["evidence"][0]["exchange"]["body_excerpt"])
        self.assertNotIn(SECRET, str(body))  # the secret is shown to be there, not shown
        # Only the scanner's own GETs (and the one benign POST of the PHPUnit check) reached the site.
        methods = {h["method"] for h in self.site.hits()}
        self.assertLessEqual(methods, {"GET", "POST"})
        posts = [h["path"] for h in self.site.hits() if h["method"] == "POST"]
        self.assertEqual(posts, ["/vendor/phpunit/phpunit/src/Util/PHP/eval-stdin.php"])

    def test_the_catch_all_twin_gives_nothing(self):
        r = scan(self.user, self.catch_all.url("/"))
        self.assertEqual(r.status, 200, r.text)
        self.assertTrue(r.json["complete"])
        self.assertGreater(r.json["requests"], 60)
        self.assertEqual(r.json["findings"], [])

    def test_severity_filter_selects_templates(self):
        r = scan(self.user, self.site.url("/"), "?severity=critical")
        self.assertEqual(r.status, 200, r.text)
        self.assertEqual(r.json["severity"], ["critical"])
        self.assertLess(r.json["templates"]["selected"], r.json["templates"]["loaded"])
        self.assertEqual({f["template_id"] for f in r.json["findings"]}, {"drupal-cve-2018-7600"})
        r = scan(self.user, self.site.url("/"), "?severity=high,medium")
        self.assertEqual(r.status, 200, r.text)
        self.assertEqual({f["template_id"] for f in r.json["findings"]}, {"env-file-variants"})

    def test_without_a_severity_the_spec_default_runs_and_info_templates_do_not(self):
        # Spec §4.6: severity defaults to critical,high,medium,low; an empty list means the same.
        for query in ("", "?severity="):
            with self.subTest(query=query):
                r = scan(self.user, self.site.url("/"), query)
                self.assertEqual(r.status, 200, r.text)
                self.assertEqual(r.json["severity"], ["low", "medium", "high", "critical"])
                self.assertLess(r.json["templates"]["selected"], r.json["templates"]["loaded"])
                self.assertEqual({f["template_id"] for f in r.json["findings"]}, EXPECTED - INFO)

    def test_an_unknown_severity_is_a_422(self):
        r = scan(self.user, self.site.url("/"), "?severity=critical,urgent,bad")
        self.assertEqual(r.status, 422, r.text)
        detail = r.json["detail"]
        self.assertEqual([d["input"] for d in detail], ["urgent", "bad"])
        for d in detail:
            self.assertEqual(d["type"], "enum")
            self.assertEqual(d["loc"], ["query", "severity"])

    def test_the_unencoded_target_reaches_the_same_scan(self):
        r = scan(self.user, self.site.url("/"), "?severity=critical", encoded=False)
        self.assertEqual(r.status, 200, r.text)
        self.assertEqual(r.json["target"], self.site.url("/"))
        self.assertEqual({f["template_id"] for f in r.json["findings"]}, {"drupal-cve-2018-7600"})

    def test_a_bad_target_is_a_422_and_no_token_is_a_401(self):
        r = dc.post("/api/security/scanner/%s" % dc.enc("ftp://example.com/"), token=self.user.token)
        self.assertEqual(r.status, 422, r.text)
        self.assertEqual(r.json["detail"][0]["loc"], ["path", "target_url"])
        r = dc.post("/api/security/scanner/%s" % dc.enc(self.site.url("/")))
        self.assertEqual(r.status, 401, r.text)


if __name__ == "__main__":
    unittest.main()
