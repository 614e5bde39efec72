"""Issue 8 §3: full audits stored per user (POST /audit/{target} under /api/v1, /api and
/api/security; POST /api/audit/full/{target}), the evidence route, retention and the batch audit,
against a local fixture site with known problems."""

import time
import unittest

import dozor_client as dc



KEEP_PER_TARGET = 10  # limits::kAuditsKeptPerTarget
EVIDENCE_MAX = 100  # limits::kEvidenceListMax


class Site:
    """An HTTPS fixture site with insecure cookies, mixed content, a CDN jQuery without SRI, an HTML
    comment with a password, and forms posting to plain HTTP without CSRF tokens."""

    def __init__(self):
        self.plain = dc.FixtureServer({"/send": (200, {"Content-Type": "text/html"}, "ok")})
        holder = {}

        def home(handler):
            return 200, {"Content-Type": "text/html; charset=utf-8",
                         "Set-Cookie": "sessionid=abcdef123456; Path=/"}, (
                "<!doctype html><html><head><title>Shop</title>"
                "<script src='http://cdn.example.invalid/jquery-1.12.4.min.js'></script></head><body>"
                "<!-- TODO: admin password is hunter2 -->"
                "<img src='http://img.example.invalid/logo.png'>"
                "<a href='/contact'>Contact</a></body></html>")

        def contact(handler):
            action = holder["plain"].url("/send")
            return 200, {"Content-Type": "text/html; charset=utf-8"}, (
                "<html><body><form method=post action='%s'><input name=message><input name=email></form>"
                "<form method=post action='%s'><input name=login><input type=password name=pass></form>"
                "</body></html>" % (action, action))

        self.tls = dc.TlsFixtureServer({"/": home, "/contact": contact})
        holder["plain"] = self.plain

    def url(self, path="/"):
        return self.tls.url(path)

    def __enter__(self):
        self.plain.__enter__()
        self.tls.__enter__()
        return self

    def __exit__(self, *exc):
        self.tls.__exit__(*exc)
        self.plain.__exit__(*exc)


def audit(user, target, prefix="/api", encoded=True, query="", full=False):
    t = dc.enc(target) if encoded else target
    path = ("/api/audit/full/%s" if full else prefix + "/audit/%s") % t
    return dc.post(path + query, token=user.token, timeout=120)


class FullAudit(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = dc.create_user("fa", scan_grant=True)  # exposures and unlinked probes are active work
        cls.other = dc.create_user("fb")
        cls.site = Site().__enter__()
        started = time.monotonic()
        r = audit(cls.user, cls.site.url("/"))
        cls.wall_ms = (time.monotonic() - started) * 1000
        assert r.status == 200, r.text
        cls.body = r.json
        # The figure the issue asks for (< 3 s for a local fixture site); measured, not asserted.
        print("\nfull audit of the fixture site: %.0f ms wall, duration_ms %s, %d pages, %d requests"
              % (cls.wall_ms, cls.body["duration_ms"], cls.body["crawl"]["pages"], cls.body["crawl"]["requests"]))

    @classmethod
    def tearDownClass(cls):
        cls.site.__exit__(None, None, None)
        dc.delete_user(cls.user.id)
        dc.delete_user(cls.other.id)

    def findings(self, body=None):
        return {f["check"]: f for f in (body or self.body)["findings"]}

    def test_the_audit_reports_the_sites_problems_with_evidence(self):
        body = self.body
        self.assertIsInstance(body["id"], int)
        self.assertEqual(body["target"], self.site.url("/"))
        self.assertEqual(body["kind"], "audit")
        for key in ("started_at", "finished_at", "duration_ms", "score", "grade", "counts", "headers",
                    "technologies", "tls", "compliance", "geo", "crawl", "findings", "errors", "lang"):
            self.assertIn(key, body)
        self.assertGreaterEqual(body["crawl"]["pages"], 2)
        self.assertIsNotNone(body["headers"]["grade"])
        f = self.findings()
        for check in ("cookie-without-secure", "cookie-without-httponly", "cookie-without-samesite",
                      "mixed-content-active", "mixed-content-passive", "sri-missing", "comment-credentials",
                      "form-posted-over-http", "form-password-over-http", "csrf-token-missing"):
            self.assertIn(check, f, sorted(f))
            self.assertIsInstance(f[check]["id"], int)
            self.assertTrue(f[check]["evidence"], check)
            self.assertTrue(f[check]["owasp"].endswith(":2021"), check)
            self.assertTrue(f[check]["recommendation"], check)
        cookie = f["cookie-without-secure"]["evidence"][0]
        self.assertEqual(cookie["url"], self.site.url("/"))
        self.assertIn("sessionid=", cookie["excerpt"])
        self.assertNotIn("abcdef123456", cookie["excerpt"])
        self.assertIsNotNone(cookie["exchange"], "header-based evidence carries its exchange")
        self.assertIn("jquery-1.12.4.min.js", f["sri-missing"]["evidence"][0]["excerpt"])
        # The comment is the evidence; the password in it is not shown (issue 26 §2: every excerpt redacted).
        self.assertIn("admin password is ****", f["comment-credentials"]["evidence"][0]["excerpt"])
        self.assertNotIn("hunter2", str(f["comment-credentials"]))
        self.assertEqual(f["form-password-over-http"]["severity"], "high")
        self.assertEqual(f["form-password-over-http"]["evidence"][0]["url"], self.site.url("/contact"))
        # counts agree with the findings; the score follows docs/audit.md's rule.
        counts = {s: 0 for s in ("info", "low", "medium", "high", "critical")}
        for x in body["findings"]:
            counts[x["severity"]] += 1
        self.assertEqual(body["counts"], counts)
        penalty = {"info": 0, "low": 2, "medium": 8, "high": 20, "critical": 40}
        expected = max(0, min(100, body["headers"]["score"] - sum(penalty[x["severity"]] for x in body["findings"])))
        self.assertEqual(body["score"], expected)

    def test_the_stored_evidence_is_the_callers_and_filtered(self):
        base = "/api/security/evidence/%s" % dc.enc(self.site.url("/"))
        r = dc.get(base, token=self.user.token)
        self.assertEqual(r.status, 200, r.text)
        rows = r.json
        self.assertTrue(rows)
        self.assertLessEqual(len(rows), 20)  # the default limit
        row = rows[0]
        self.assertEqual(set(row), {"id", "audit_id", "finding_id", "check", "title", "severity", "confidence",
                                    "owasp", "cwe", "url", "excerpt", "note", "exchange", "created_at"})
        self.assertEqual([x["id"] for x in rows], sorted((x["id"] for x in rows), reverse=True))

        r = dc.get(base + "?severity=high,critical&limit=100", token=self.user.token)
        self.assertEqual(r.status, 200, r.text)
        self.assertTrue(r.json)
        self.assertLessEqual({x["severity"] for x in r.json}, {"high", "critical"})
        # The passive rule's and the compliance engine's (the contact form has no consent) alike.
        password = [x for x in r.json if x["check"] == "form-password-over-http"]
        self.assertTrue(password, {x["check"] for x in r.json})
        self.assertTrue(any(x["check"].startswith("compliance-") for x in r.json), {x["check"] for x in r.json})
        # Only the crawl that reached /contact found it (other tests audit with depth=0).
        self.assertIn(self.body["id"], {x["audit_id"] for x in password})
        self.assertEqual(password[0]["url"], self.site.url("/contact"))
        r = dc.get(base + "?limit=2", token=self.user.token)
        self.assertEqual(len(r.json), 2)
        r = dc.get(base + "?limit=1", token=self.user.token)
        self.assertEqual(len(r.json), 1)

        self.assertValidation(dc.get(base + "?limit=%d" % (EVIDENCE_MAX + 1), token=self.user.token),
                              [("less_than_equal", ["query", "limit"])])
        self.assertValidation(dc.get(base + "?limit=0", token=self.user.token),
                              [("greater_than_equal", ["query", "limit"])])
        self.assertValidation(dc.get(base + "?severity=high,severe&limit=x", token=self.user.token),
                              [("enum", ["query", "severity"]), ("int_parsing", ["query", "limit"])])
        self.assertValidation(dc.get(base + "?severity=", token=self.user.token), [("enum", ["query", "severity"])])

        # Another user sees nothing of it, by either target encoding.
        for path in (base, "/api/security/evidence/%s" % self.site.url("/")):
            r = dc.get(path, token=self.other.token)
            self.assertEqual(r.status, 200, r.text)
            self.assertEqual(r.json, [])
        self.assertUnauthenticated(dc.get(base))

    def test_every_route_and_both_target_encodings_store_an_audit(self):
        target = self.site.url("/")
        seen = set()
        # 6 here, 2 full ones below and setUpClass's: within KEEP_PER_TARGET, so that one is kept.
        routes = [(prefix, encoded) for prefix in ("/api/v1", "/api", "/api/security") for encoded in (True, False)]
        for prefix, encoded in routes:
            with self.subTest(prefix=prefix, encoded=encoded):
                r = audit(self.user, target, prefix, encoded, query="?depth=0&max_pages=1")
                self.assertEqual(r.status, 200, r.text)
                self.assertEqual(r.json["target"], target)
                self.assertEqual(r.json["crawl"]["pages"], 1)
                seen.add(r.json["id"])
        self.assertEqual(len(seen), len(routes))
        r = audit(self.user, target, full=True, query="?depth=0")
        self.assertEqual(r.status, 200, r.text)
        self.assertEqual(r.json["kind"], "full")
        self.assertEqual(r.json["geo"]["host"], "127.0.0.1")  # geolocation: the full kind only
        # Every engine of the audit took part: compliance read the crawl, TLS and exposures probed.
        self.assertIsNotNone(r.json["compliance"])
        self.assertIsNotNone(r.json["tls"])
        self.assertIsNotNone(r.json["exposures"])
        r = audit(self.user, target, full=True, encoded=False, query="?depth=0")
        self.assertEqual(r.status, 200, r.text)

    def test_validation_and_auth(self):
        self.assertUnauthenticated(dc.post("/api/audit/example.com"))
        self.assertUnauthenticated(dc.post("/api/audit/batch"))
        r = dc.post("/api/v1/audit/" + dc.enc("ftp://example.com/"), token=self.user.token)
        self.assertValidation(r, [("url_scheme", ["path", "target_url"])])
        r = dc.post("/api/audit/example.com?depth=abc&max_pages=0", token=self.user.token)
        self.assertValidation(r, [("int_parsing", ["query", "depth"]), ("greater_than_equal", ["query", "max_pages"])])


class Retention(dc.DozorTestCase):
    def test_only_the_newest_audits_of_a_target_are_kept(self):
        user = self.new_user("fr")
        with dc.FixtureServer({"/": (200, {"Content-Type": "text/html"}, "<p>hi</p>")}) as fx:
            ids = []
            for i in range(KEEP_PER_TARGET + 1):
                r = audit(user, fx.url("/"), query="?depth=0&max_pages=1")
                self.assertEqual(r.status, 200, r.text)
                ids.append(r.json["id"])
                kept = dc.db_query("SELECT COUNT(*) FROM audits WHERE user_id = %d" % user.id)[0][0]
                self.assertEqual(int(kept), min(i + 1, KEEP_PER_TARGET))
        oldest = dc.db_query("SELECT MIN(id) FROM audits WHERE user_id = %d" % user.id)[0][0]
        self.assertEqual(int(oldest), ids[1])


class Batch(dc.DozorTestCase):
    def test_batch_audits_every_service_of_the_caller(self):
        user = self.new_user("fbatch")
        other = self.new_user("fbatch2")
        with Site() as site, dc.FixtureServer({"/": (200, {"Content-Type": "text/html"}, "<p>plain</p>")}) as fx:
            a = self.new_service(user, name="shop", url=site.url("/"))
            b = self.new_service(user, name="plain", url=fx.url("/"))
            self.new_service(other, name="not-mine", url=fx.url("/"))
            r = dc.post("/api/audit/batch", token=user.token, timeout=120)
            self.assertEqual(r.status, 200, r.text)
            rows = {x["service_id"]: x for x in r.json}
            self.assertEqual(set(rows), {a["id"], b["id"]})
            for row in rows.values():
                self.assertEqual(set(row), {"service_id", "name", "url", "audit_id", "grade", "score", "counts", "error"})
                self.assertIsNone(row["error"], row)
                self.assertIsInstance(row["audit_id"], int)
                self.assertIsNotNone(row["grade"])
            self.assertGreater(rows[a["id"]]["counts"]["high"], rows[b["id"]]["counts"]["high"])
            self.assertEqual(rows[a["id"]]["name"], "shop")
            # The batch's audits are stored: the evidence route reads them.
            r = dc.get("/api/security/evidence/%s?severity=high" % dc.enc(site.url("/")), token=user.token)
            self.assertEqual({x["audit_id"] for x in r.json}, {rows[a["id"]]["audit_id"]})
            r = dc.get("/api/security/evidence/%s" % dc.enc(site.url("/")), token=other.token)
            self.assertEqual(r.json, [])

    def test_batch_under_api_v1_is_a_422_not_an_audit_of_a_host_named_batch(self):
        # Batch is /api only (spec §4.3): /api/v1/audit/batch is the audit route with the bare
        # word "batch" as its target, which must not become https://batch/ and a DNS look-up.
        user = self.new_user("fbatch4")
        for path in ("/api/v1/audit/batch", "/api/v1/audit/services-of-mine", "/api/security/audit/batch"):
            with self.subTest(path=path):
                r = dc.post(path, token=user.token)
                self.assertEqual(r.status, 422, r.text)
                d = r.json["detail"][0]
                self.assertEqual((d["type"], d["loc"]), ("url_parsing", ["path", "target_url"]), d)
                self.assertIn("bare word", d["msg"])
        self.assertEqual(dc.db_query("SELECT COUNT(*) FROM audits WHERE user_id = %d" % user.id), [["0"]])

    def test_a_user_without_services_gets_an_empty_list(self):
        user = self.new_user("fbatch3")
        r = dc.post("/api/audit/batch", token=user.token)
        self.assertEqual(r.status, 200, r.text)
        self.assertEqual(r.json, [])


if __name__ == "__main__":
    unittest.main()
