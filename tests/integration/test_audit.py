"""Issue 8: the security-header grade (GET /audit/headers/{target_url}, both prefixes) and the
crawl (POST /api/crawl and /api/security/crawl) against local fixture sites."""

import gzip
import os
import ssl
import subprocess
import tempfile
import unittest

import dozor_client as dc

BEST = {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'; form-action 'self'",
    "Strict-Transport-Security": "max-age=63072000; includeSubDomains",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Set-Cookie": "__Host-sid=1; Path=/; Secure; HttpOnly; SameSite=Strict",
}



class HeadersGrade(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = dc.create_user("audit")

    @classmethod
    def tearDownClass(cls):
        dc.delete_user(cls.user.id)

    def grade(self, target: str, prefix: str = "/api/v1", encoded: bool = True):
        path = "%s/audit/headers/%s" % (prefix, dc.enc(target) if encoded else target)
        r = dc.get(path, token=self.user.token, timeout=60)
        self.assertEqual(r.status, 200, r.text)
        self.assertJsonContentType(r)
        return r.json

    def test_a_well_configured_https_site_gets_a_plus_with_observatorys_score(self):
        with dc.TlsFixtureServer({"/": (200, BEST, "<html><body>hi</body></html>")}) as fx:
            body = self.grade(fx.url("/"))
        self.assertEqual(body["target"], fx.url("/"))
        self.assertIsNone(body["error"], body)
        tests = body["tests"]
        self.assertEqual(len(tests), 10)
        self.assertEqual(tests["content-security-policy"]["result"], "csp-implemented-with-no-unsafe-default-src-none")
        self.assertEqual(tests["strict-transport-security"]["result"], "hsts-implemented-max-age-at-least-six-months")
        self.assertEqual(tests["cookies"]["result"], "cookies-secure-with-httponly-sessions-and-samesite")
        self.assertEqual(tests["x-frame-options"]["result"], "x-frame-options-implemented-via-csp")
        for name, t in tests.items():
            self.assertEqual(set(t) >= {"pass", "result", "score_modifier", "recommendation"}, True, name)
            self.assertTrue(t["pass"], (name, t))
        # 100 + csp 10 + cookies 5 + referrer 5 + xfo 5 + corp 10 (no http on port 80: redirection passes)
        self.assertEqual(body["score"], 135)
        self.assertEqual(body["grade"], "A+")
        self.assertTrue(body["exchanges"], "every request is kept as evidence")
        ex = body["exchanges"][-1]
        self.assertEqual(set(ex), {"url", "request_line", "request_headers", "status", "status_line",
                                   "response_headers", "body_excerpt"})

    def test_http_redirecting_to_https_and_both_prefixes_and_encodings(self):
        with dc.TlsFixtureServer({"/": (200, BEST, "<html></html>")}) as tls:
            with dc.FixtureServer({"/": (301, {"Location": tls.url("/")}, "")}) as plain:
                for prefix in ("/api/v1", "/api"):
                    for encoded in (True, False):
                        with self.subTest(prefix=prefix, encoded=encoded):
                            body = self.grade(plain.url("/"), prefix, encoded)
                            self.assertEqual(body["tests"]["redirection"]["result"], "redirection-to-https")
                            self.assertEqual(body["graded_url"], tls.url("/"))
                            self.assertEqual(body["grade"], "A+")

    def test_a_careless_site_fails_every_way_observatory_counts(self):
        def page(handler):
            origin = handler.headers.get("Origin")
            headers = {"Content-Type": "text/html", "Server": "Apache/2.4.41 (Ubuntu)", "X-Powered-By": "PHP/7.4.3",
                       "Set-Cookie": "PHPSESSID=abc; path=/"}
            if origin:  # reflects any origin with credentials: universal access
                headers.update({"Access-Control-Allow-Origin": origin, "Access-Control-Allow-Credentials": "true"})
            return 200, headers, "<html><script src='http://cdn.example.org/jquery.js'></script></html>"

        with dc.FixtureServer({"/": page}) as fx:
            body = self.grade(fx.url("/"))
        t = body["tests"]
        self.assertEqual(t["content-security-policy"]["result"], "csp-not-implemented")
        self.assertEqual(t["cookies"]["result"], "cookies-session-without-secure-flag")
        self.assertEqual(t["cross-origin-resource-sharing"]["result"],
                         "cross-origin-resource-sharing-implemented-with-universal-access")
        self.assertEqual(t["redirection"]["result"], "redirection-missing")
        self.assertEqual(t["subresource-integrity"]["result"],
                         "sri-not-implemented-and-external-scripts-not-loaded-securely")
        self.assertEqual(t["x-frame-options"]["score_modifier"], -20)
        self.assertEqual(body["score"], 0)
        self.assertEqual(body["grade"], "F")
        advisories = {a["name"]: a["status"] for a in body["advisories"]}
        self.assertEqual(advisories["server"], "disclosed")
        self.assertEqual(advisories["x-powered-by"], "disclosed")
        self.assertEqual(advisories["permissions-policy"], "missing")

    def test_an_untrusted_certificate_costs_hsts(self):
        with tempfile.TemporaryDirectory() as tmp:
            key, cert = os.path.join(tmp, "k.pem"), os.path.join(tmp, "c.pem")
            subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                            "-nodes", "-days", "2", "-subj", "/CN=localhost", "-addext",
                            "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert],
                           check=True, capture_output=True)
            fx = dc.FixtureServer({"/": (200, BEST, "<html></html>")})
            ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            ctx.load_cert_chain(cert, key)
            fx.httpd.socket = ctx.wrap_socket(fx.httpd.socket, server_side=True)
            with fx:
                body = self.grade("https://127.0.0.1:%d/" % fx.port)
        # The headers are still graded (fetched again without verification), but HSTS cannot count.
        self.assertEqual(body["tests"]["strict-transport-security"]["result"], "hsts-invalid-cert")
        self.assertEqual(body["tests"]["content-security-policy"]["result"],
                         "csp-implemented-with-no-unsafe-default-src-none")
        self.assertEqual(body["score"], 80)  # 100 - 20; the bonuses do not count under 90

    def test_an_unreachable_target_says_so(self):
        body = self.grade("http://127.0.0.1:%d/" % dc.closed_port())
        self.assertIsNone(body["score"])
        self.assertIsNone(body["grade"])
        self.assertIn("cannot be reached", body["error"])

    def test_target_validation_and_auth(self):
        r = dc.get("/api/v1/audit/headers/" + dc.enc("ftp://example.com/"), token=self.user.token)
        self.assertValidation(r, [("url_scheme", ["path", "target_url"])])
        r = dc.get("/api/audit/headers/example.com")
        self.assertUnauthenticated(r)


class Crawl(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = dc.create_user("crawl")

    @classmethod
    def tearDownClass(cls):
        dc.delete_user(cls.user.id)

    def site(self):
        holder = {}

        def robots(handler):
            return 200, {}, "User-agent: *\nDisallow: /admin/\nSitemap: %s\n" % holder["fx"].url("/sitemap.xml")

        def sitemap(handler):
            return 200, {"Content-Type": "application/xml"}, (
                "<urlset><url><loc>%s</loc></url></urlset>" % holder["fx"].url("/about"))

        routes = {
            "/": (200, {"Content-Type": "text/html; charset=utf-8"},
                  "<a href='/contacts'>c</a><a href='/catalog?page=2&sort=price'>p</a>"
                  "<a href='/docs/offer.pdf'>offer</a><script>fetch('/api/cart')</script>"),
            "/contacts": (200, {"Content-Type": "text/html; charset=windows-1251"},
                          "<p>Тел.: 8 (812) 555-12-34, mail: office@example.ru</p>"
                          "<form method=post action=/feedback><input name=name required>"
                          "<input type=email name=email placeholder='E-mail'>"
                          "<input type=checkbox name=consent></form>".encode("cp1251")),
            "/catalog": (200, {"Content-Type": "text/html"}, "<img src='/img/1.jpg'>"),
            "/about": (200, {"Content-Type": "text/html"}, "about"),
            "/admin/": (403, {}, "no"),
            "/robots.txt": robots,
            "/sitemap.xml": sitemap,
        }
        fx = dc.FixtureServer(routes)
        holder["fx"] = fx
        return fx

    def crawl(self, target, prefix="/api", query="", encoded=True):
        t = dc.enc(target) if encoded else target
        return dc.post("%s/crawl/%s%s" % (prefix, t, query), token=self.user.token, timeout=90)

    def test_crawl_collects_the_site_under_both_prefixes_and_encodings(self):
        with self.site() as fx:
            for prefix in ("/api", "/api/security"):
                for encoded in (True, False):
                    with self.subTest(prefix=prefix, encoded=encoded):
                        self.check_crawl(fx, self.crawl(fx.url("/"), prefix, encoded=encoded))

    def check_crawl(self, fx, r):
        self.assertEqual(r.status, 200, r.text)
        body = r.json
        pages = {p["url"]: p for p in body["pages"]}
        self.assertIn(fx.url("/contacts"), pages)
        self.assertEqual(pages[fx.url("/contacts")]["charset"], "windows-1251")
        self.assertEqual(pages[fx.url("/about")]["found_via"], "sitemap")
        self.assertEqual(body["stats"]["stopped"], "complete")
        self.assertEqual(body["phones"][0]["e164"], "+78125551234")
        self.assertEqual(body["emails"][0]["address"], "office@example.ru")
        form = body["forms"][0]
        self.assertEqual(form["method"], "POST")
        self.assertEqual([f["name"] for f in form["fields"]], ["name", "email", "consent"])
        self.assertTrue(form["fields"][0]["required"])
        self.assertEqual(form["fields"][1]["placeholder"], "E-mail")
        endpoints = {(e["method"], e["url"]): e for e in body["endpoints"]}
        self.assertEqual(endpoints[("GET", fx.url("/catalog"))]["params"], ["page", "sort"])
        self.assertIn(("POST", fx.url("/feedback")), endpoints)
        self.assertIn(("GET", fx.url("/api/cart")), endpoints)
        self.assertEqual(body["documents"][0]["url"], fx.url("/docs/offer.pdf"))
        self.assertEqual(body["robots"]["disallow"], ["/admin/"])
        self.assertEqual(body["structure"]["name"], "/")

    def test_depth_and_max_pages_are_honoured_and_validated(self):
        with self.site() as fx:
            r = self.crawl(fx.url("/"), query="?depth=0&max_pages=1")
            self.assertEqual(r.status, 200, r.text)
            self.assertEqual(len(r.json["pages"]), 1)
        r = self.crawl("example.com", query="?depth=abc&max_pages=0")
        self.assertValidation(r, [("int_parsing", ["query", "depth"]), ("greater_than_equal", ["query", "max_pages"])])
        r = self.crawl("example.com", query="?depth=11")
        self.assertValidation(r, [("less_than_equal", ["query", "depth"])])
        r = self.crawl("example.com", query="?max_pages=0")
        self.assertValidation(r, [("greater_than_equal", ["query", "max_pages"])])

    def test_a_gzip_bomb_is_bounded(self):
        bomb = gzip.compress(b"\0" * (64 * 1024 * 1024))
        with dc.FixtureServer({"/": (200, {"Content-Type": "text/html", "Content-Encoding": "gzip"}, bomb)}) as fx:
            r = self.crawl(fx.url("/"))
        self.assertEqual(r.status, 200, r.text)
        page = r.json["pages"][0]
        self.assertEqual(page["error_kind"], "too_large", page)

    def test_crawl_needs_a_token_under_both_prefixes(self):
        for prefix in ("/api", "/api/security"):
            for target in ("example.com", dc.enc("https://example.com/"), "https://example.com/"):
                with self.subTest(prefix=prefix, target=target):
                    self.assertUnauthenticated(dc.post("%s/crawl/%s" % (prefix, target)))


if __name__ == "__main__":
    unittest.main()
