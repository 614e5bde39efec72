"""Issue 9 §2 XXE and SSRF with an out-of-band canary (docs/scan.md "XXE and SSRF"):
GET /api/audit/xxe/{target} and GET /api/audit/ssrf/{target} find the planted flaws of the
vulnerable fixture (tests/fixtures/owasp/vulnerable_app.py) with their OWASP category and CWE, proven
by hits on Dozor's own /oast/{token} that map to exactly the probe that caused them, and nothing on
the fixed twin. /oast needs no token, answers 404 to unknown or expired tokens without storing
anything, and keeps a bounded number of hits per probe. It is served on nginx's listener of its own
(scanner.oast_listen), never on the site's, and a hit keeps no cookie, credentials or Dozor header."""

import os
import secrets
import sys
import unittest

import dozor_client as dc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "owasp"))
from vulnerable_app import VulnerableApp  # noqa: E402

HITS_PER_PROBE = 20  # limits::oast::kHitsPerProbe


def audit(user, kind, url, encoded):
    target = dc.enc(url) if encoded else url
    return dc.get("/api/audit/%s/%s" % (kind, target), token=user.token, timeout=150)


def new_token() -> str:
    return dc.b64url_encode(secrets.token_bytes(16))


def seed_probe(expired=False) -> tuple[str, str]:
    token, marker = new_token(), new_token()
    dc.db_query("INSERT INTO oast_probes (token, marker, kind, url, method, param, payload, created_at, expires_at)"
                " VALUES ('%s', '%s', 'ssrf', 'http://seeded.test/x', 'GET', 'url', 'seeded', NOW(3), NOW(3) + "
                "INTERVAL %d SECOND)" % (token, marker, -60 if expired else 600))
    return token, marker


def stored_hits(token: str) -> list[list[str]]:
    return dc.db_query("SELECT method, path, source, headers, body_excerpt FROM oast_hits WHERE token = '%s' "
                       "ORDER BY id" % token)


class XxeSsrf(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = dc.create_user("oob", scan_grant=True)
        cls.vulnerable = VulnerableApp().__enter__()
        cls.fixed = VulnerableApp(fixed=True).__enter__()
        cls.results = {}
        for kind, app, encoded in (("xxe", cls.vulnerable, True), ("xxe", cls.fixed, False),
                                   ("ssrf", cls.vulnerable, False), ("ssrf", cls.fixed, True)):
            r = audit(cls.user, kind, app.url("/"), encoded)
            assert r.status == 200, r.text
            cls.results[(kind, app.fixed)] = r.json

    @classmethod
    def tearDownClass(cls):
        cls.vulnerable.__exit__(None, None, None)
        cls.fixed.__exit__(None, None, None)
        dc.delete_user(cls.user.id)

    def only_finding(self, body, check, owasp, cwe, where):
        self.assertEqual(body["stopped"], "complete", body)
        self.assertEqual([f["check"] for f in body["findings"]], [check], [f["title"] for f in body["findings"]])
        f = body["findings"][0]
        self.assertEqual(f["owasp"], owasp)
        self.assertEqual(f["cwe"], cwe)
        self.assertEqual(f["severity"], "high")
        self.assertEqual(f["confidence"], "certain")
        self.assertTrue(f["recommendation"])
        self.assertEqual(f["title"].split(": ", 1)[1], where)
        for e in f["evidence"]:
            self.assertTrue(e["replay"].startswith("curl -i -s "), e)
            self.assertIsNotNone(e["exchange"], e)
        return f

    def test_xxe_is_found_in_band_and_out_of_band(self):
        body = self.results[("xxe", False)]
        self.assertTrue(body["oast"]["enabled"])
        f = self.only_finding(body, "owasp-xxe", "A05:2021", 611, "XML body of " + self.vulnerable.url("/xml"))
        notes = " ".join(e["note"] for e in f["evidence"])
        self.assertIn("internal entities", notes)  # in-band: the joined canary
        self.assertIn("interaction endpoint received", notes)  # out of band: a hit
        posted = [e for e in f["evidence"] if e["exchange"]["request_line"].startswith("POST ")]
        self.assertTrue(posted)
        self.assertTrue(all("--data-binary '<?xml" in e["replay"] for e in posted), posted)
        self.assertTrue(all("-H 'Content-Type: application/xml'" in e["replay"] for e in posted))
        # General and parameter external entities: two probes, each hit.
        hits = body["oast"]["hits"]
        self.assertEqual(sorted(h["kind"] for h in hits), ["xxe", "xxe"])
        self.assertEqual({h["url"] for h in hits}, {self.vulnerable.url("/xml")})

    def test_ssrf_is_found_by_its_canary(self):
        body = self.results[("ssrf", False)]
        f = self.only_finding(body, "owasp-ssrf", "A10:2021", 918, "parameter url of " + self.vulnerable.url("/fetch"))
        excerpts = " ".join(e["excerpt"] for e in f["evidence"])
        self.assertIn("Python-urllib", excerpts)  # the hit came from the fixture's HTTP client
        hits = body["oast"]["hits"]
        self.assertEqual([(h["kind"], h["param"], h["url"]) for h in hits], [("ssrf", "url", self.vulnerable.url("/fetch"))])
        self.assertIn(hits[0]["token"], " ".join(e["note"] for e in f["evidence"]))

    def test_every_hit_maps_to_exactly_its_probe(self):
        for kind in ("xxe", "ssrf"):
            for h in self.results[(kind, False)]["oast"]["hits"]:
                rows = dc.db_query("SELECT kind, url, method, param, payload FROM oast_probes WHERE token = '%s'"
                                   % h["token"])
                self.assertEqual(len(rows), 1)
                self.assertEqual(rows[0][:4], [h["kind"], h["url"], h["method"], h["param"]])
                self.assertIn("/oast/" + h["token"], rows[0][4])  # the token was sent in this probe only
                got = stored_hits(h["token"])
                self.assertTrue(got)
                self.assertTrue(all(row[1].startswith("/oast/" + h["token"]) for row in got))
                self.assertEqual(got[0][2], "127.0.0.1")
                self.assertIn("Python-urllib", got[0][3])

    def test_the_fixed_twin_has_no_finding_although_it_was_probed(self):
        for kind, param in (("xxe", "(XML body)"), ("ssrf", "url")):
            body = self.results[(kind, True)]
            self.assertEqual(body["findings"], [], [f["title"] for f in body["findings"]])
            self.assertEqual(body["stopped"], "complete")
            self.assertIn(param, [t["param"] for t in body["tested"]])
            self.assertGreater(body["oast"]["probes"], 0)
            self.assertEqual(body["oast"]["hits"], [])

    def test_unknown_expired_and_malformed_tokens_are_404_and_not_stored(self):
        unknown = new_token()
        expired, _ = seed_probe(expired=True)
        for path in ("/oast/" + unknown, "/oast/" + unknown + "/a/b", "/oast/" + expired, "/oast/short", "/oast/",
                     "/", "/api/health"):
            r = dc.request("GET", path, base=dc.oast_url())
            self.assertEqual(r.status, 404, (path, r.text))
        r = dc.request("POST", "/oast/" + unknown, data="x" * 1000, base=dc.oast_url())
        self.assertEqual(r.status, 404)
        self.assertEqual(dc.db_query("SELECT COUNT(*) FROM oast_hits WHERE token IN ('%s', '%s')"
                                     % (unknown, expired)), [["0"]])

    def test_the_site_listeners_do_not_serve_oast(self):
        # A browser sends the site's cookies to the site's own listeners: /oast/ lives elsewhere.
        token, _ = seed_probe()
        self.assertTrue(dc.oast_url() and dc.oast_url() not in (dc.BASE_URL, dc.HTTP_URL), dc.oast_url())
        r = dc.request("GET", "/oast/" + token, base=dc.BASE_URL, headers={"Cookie": "__Host-x=secret"})
        self.assertEqual(r.status, 404, r.text)
        r = dc.request("GET", "/oast/" + token, base=dc.HTTP_URL)
        self.assertEqual(r.status, 301, r.text)  # the plain-HTTP site only redirects to HTTPS (404 there)
        self.assertEqual(stored_hits(token), [])

    def test_a_hit_keeps_no_cookie_credentials_or_dozor_headers(self):
        token, marker = seed_probe()
        r = dc.request("GET", "/oast/%s" % token, base=dc.oast_url(),
                       headers={"Cookie": "__Host-dozor_vault=victim-session; dozor_device=victim-device",
                                "Authorization": "Bearer victim.token.value", "Proxy-Authorization": "Basic dmljdGlt",
                                "X-Dozor-Caller-Id": "1", "User-Agent": "xml-parser/2.0"})
        self.assertEqual(r.status, 200, r.text)
        self.assertEqual(r.text, marker)
        rows = stored_hits(token)
        self.assertEqual(len(rows), 1, rows)
        stored = rows[0][3].lower()
        self.assertIn("xml-parser/2.0", stored)
        for secret in ("victim", "cookie", "authorization", "x-dozor", "dmljdglt"):
            self.assertNotIn(secret, stored)
        # Nor does the scan's answer show one.
        self.assertNotIn("victim", str(self.results))

    def test_oast_needs_no_token_and_records_any_method_and_sub_path(self):
        token, marker = seed_probe()
        r = dc.request("GET", "/oast/%s" % token, base=dc.oast_url(), headers={"User-Agent": "target-agent/1.0"})
        self.assertEqual(r.status, 200, r.text)
        self.assertEqual(r.text, marker)
        self.assertTrue(r.header("Content-Type").startswith("text/plain"))
        self.assertEqual(r.header("X-Content-Type-Options"), "nosniff")
        r = dc.request("POST", "/oast/%s/deeper/path.dtd?x=1" % token, data="<a>\x01body</a>",
                       headers={"Content-Type": "application/xml"}, base=dc.oast_url())
        self.assertEqual(r.status, 200, r.text)
        self.assertEqual(r.text, marker)
        rows = stored_hits(token)
        self.assertEqual([row[0] for row in rows], ["GET", "POST"])
        self.assertEqual(rows[1][1], "/oast/%s/deeper/path.dtd?x=1" % token)
        self.assertIn("target-agent/1.0", rows[0][3])
        self.assertIn("x01body", rows[1][4])  # stored printable: the control byte escaped
        self.assertNotIn("\x01", rows[1][4])

    def test_hits_per_probe_are_bounded(self):
        token, marker = seed_probe()
        for _ in range(HITS_PER_PROBE + 3):
            r = dc.request("GET", "/oast/" + token, base=dc.oast_url())
            self.assertIn(r.status, (200, 429))
        self.assertEqual(dc.db_query("SELECT COUNT(*), MAX(hits) FROM oast_hits JOIN oast_probes USING (token) "
                                     "WHERE token = '%s'" % token), [[str(HITS_PER_PROBE), str(HITS_PER_PROBE)]])

    def test_validation_and_authentication(self):
        for kind in ("xxe", "ssrf"):
            r = dc.get("/api/audit/%s/%s" % (kind, dc.enc(self.fixed.url("/"))))
            self.assertEqual(r.status, 401, r.text)
            r = dc.get("/api/audit/%s/%s" % (kind, dc.enc("ftp://127.0.0.1/")), token=self.user.token)
            self.assertEqual(r.status, 422, r.text)
            r = dc.get("/api/audit/%s/%s?depth=99" % (kind, dc.enc(self.fixed.url("/"))), token=self.user.token)
            self.assertEqual(r.status, 422, r.text)


if __name__ == "__main__":
    unittest.main()
