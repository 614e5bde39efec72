"""Health routes, security headers on every kind of answer, HTTP -> HTTPS redirect."""

import re
import unittest
import urllib.parse

import dozor_client as dc

HEALTH_PATHS = ("/health", "/api/health", "/api/v1/health")


class HealthTest(dc.DozorTestCase):
    def test_all_three_health_paths_report_ok_with_version_and_database(self):
        for path in HEALTH_PATHS:
            with self.subTest(path=path):
                r = dc.get(path)
                self.assertEqual(r.status, 200, r)
                self.assertJsonContentType(r)
                # "version" is the interface the spec declares (§9.1), "build" the software.
                self.assertEqual(
                    r.json, {"status": "ok", "version": "2.0.0", "build": dc.VERSION, "database": "ok"}, r
                )

    def test_health_needs_no_token_and_ignores_a_bad_one(self):
        r = dc.get("/api/health", token="garbage.token.value")
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json["status"], "ok", r)

    def test_health_with_query_string_is_still_health(self):
        r = dc.get("/api/v1/health?probe=1")
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json["version"], "2.0.0", r)

    def test_head_on_health_has_no_body(self):
        got = dc.get("/health")
        for path in ("/health", "/api/health", "/api/v1/health"):
            r = dc.request("HEAD", path)
            self.assertEqual(r.status, 200, r)
            self.assertEqual(r.body, b"", r)
            self.assertEqual(r.header("Content-Type"), "application/json", r)
        self.assertGreater(len(got.body), 0)

    def test_head_on_every_get_route_answers_like_get(self):
        token = dc.admin_token()
        for path in ("/api/v1/services", "/api/services", "/api/auth/verify", "/api/admin/users", "/api/admin/me"):
            g = dc.get(path, token=token)
            h = dc.request("HEAD", path, token=token)
            self.assertEqual(h.status, g.status, path)
            self.assertEqual(h.body, b"", path)
        self.assertEqual(dc.request("HEAD", "/api/v1/services").status, 401)
        r = dc.request("PATCH", "/api/v1/services", token=token)
        self.assertEqual(r.status, 405, r)
        self.assertEqual(r.header("Allow"), "GET, HEAD, POST", r)


class SecurityHeadersTest(dc.DozorTestCase):
    """nginx must add the headers to every answer, errors included (``add_header ... always``)."""

    def _responses(self):
        return {
            "GET /health": dc.get("/health"),
            "GET /api/health": dc.get("/api/health"),
            "GET /api/v1/health": dc.get("/api/v1/health"),
            "GET /api/no-such-route (404 from the app)": dc.get("/api/no-such-route"),
            "GET /no-such-page.html (404 from nginx)": dc.get("/no-such-page-%s.html" % dc.unique_name("p")),
            "GET /api/auth/verify without token (401)": dc.get("/api/auth/verify"),
            "PUT /api/v1/services (405)": dc.put("/api/v1/services", {}),
            "POST /api/auth/login bad body (422)": dc.post("/api/auth/login", {}),
        }

    def test_security_headers_on_api_answers_and_errors(self):
        for label, r in self._responses().items():
            with self.subTest(response=label):
                self.assertLess(r.status, 500, r)
                csp = r.header_all("Content-Security-Policy")
                self.assertEqual(len(csp), 1, "exactly one CSP header expected: %r / %r" % (csp, r))
                self.assertRegex(csp[0], r"frame-ancestors\s+('none'|'self')", r)
                self.assertNotIn("unsafe-inline", csp[0], r)
                self.assertNotIn("unsafe-eval", csp[0], r)
                self.assertRegex(csp[0], r"default-src\s", r)

                hsts = r.header_all("Strict-Transport-Security")
                self.assertEqual(len(hsts), 1, r)
                m = re.search(r"max-age=(\d+)", hsts[0])
                self.assertTrue(m and int(m.group(1)) > 0, "HSTS %r" % hsts)

                nosniff = r.header_all("X-Content-Type-Options")
                self.assertEqual([v.strip().lower() for v in nosniff], ["nosniff"], r)

                rp = r.header_all("Referrer-Policy")
                self.assertEqual(len(rp), 1, r)
                self.assertIn(
                    rp[0].strip().lower(),
                    {"no-referrer", "same-origin", "strict-origin", "strict-origin-when-cross-origin"},
                    r,
                )

                corp = r.header_all("Cross-Origin-Resource-Policy")
                self.assertEqual(len(corp), 1, r)
                self.assertIn(corp[0].strip().lower(), {"same-origin", "same-site"}, r)

    def test_api_answers_are_never_cached(self):
        # Answers carry tokens and per-user data: one Cache-Control, decided by the backend.
        for label, r in self._responses().items():
            if "from nginx" in label:
                continue
            with self.subTest(response=label):
                self.assertEqual(r.header_all("Cache-Control"), ["no-store"], r)

    def test_api_errors_are_json(self):
        r = dc.get("/api/no-such-route")
        self.assertDetail(r, 404)
        r = dc.get("/api/auth/verify")
        self.assertUnauthenticated(r)

    def test_errors_nginx_makes_itself_are_json_on_api_paths(self):
        # Issue 26 §7: a malformed percent-encoding is refused by nginx before any location: JSON
        # {"detail"} on the backend's paths (as every other error there), nginx's page elsewhere.
        for path in ("/api/%ZZ", "/api/v1/services/%00", "/health%00", "/api/audit/%zz/report", "/vault/browse%ZZ"):
            with self.subTest(path=path):
                r = dc.get(path)
                self.assertDetail(r, 400)
                self.assertJsonContentType(r)
                self.assertIn("malformed", r.json["detail"])
                self.assertEqual(r.header("X-Content-Type-Options"), "nosniff", r)
        r = dc.get("/api/health", headers={"X-Big": "b" * 20000})  # past large_client_header_buffers
        self.assertDetail(r, 400)
        self.assertIn("too large", r.json["detail"])
        r = dc.get("/api/" + "a" * 9000)  # a request line past large_client_header_buffers
        self.assertDetail(r, 414)
        # Pages keep nginx's HTML page.
        r = dc.get("/dashboard%ZZ", headers={"Accept": "text/html"})
        self.assertEqual(r.status, 400, r)
        self.assertTrue((r.header("Content-Type") or "").startswith("text/html"), r)


class HttpRedirectTest(dc.DozorTestCase):
    def test_http_port_redirects_to_https_keeping_path_and_query(self):
        https = urllib.parse.urlsplit(dc.BASE_URL)
        for path in ("/health", "/api/v1/services?a=1&b=2", "/"):
            with self.subTest(path=path):
                r = dc.get(path, base=dc.HTTP_URL)
                self.assertIn(r.status, (301, 302, 307, 308), r)
                loc = urllib.parse.urlsplit(r.header("Location") or "")
                self.assertEqual(loc.scheme, "https", r.header("Location"))
                self.assertEqual(loc.port or 443, https.port or 443, r.header("Location"))
                target = loc.path + ("?" + loc.query if loc.query else "")
                self.assertEqual(target, path, r.header("Location"))

    def test_http_port_never_answers_api_requests_itself(self):
        for method in ("GET", "POST"):
            with self.subTest(method=method):
                r = dc.request(method, "/api/auth/login", base=dc.HTTP_URL,
                               data=b'{"username":"it_nobody_redirect","password":"x"}')
                self.assertIn(r.status, (301, 302, 307, 308), r)
                self.assertNotIn("access_token", r.text, r)

if __name__ == "__main__":
    unittest.main()
