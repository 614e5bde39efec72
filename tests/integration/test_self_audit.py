"""Issue 8 §3: Dozor audits itself. Its own nginx site — the test stack runs the production nginx
configuration (nginx/) — must get A+ from its own header check on every kind of page it serves,
and its own full audit must report no high or critical finding."""

import sys

import dozor_client as dc

# The pages a visitor meets: the app shell, the login page, a public status page, the vault's login.
PAGES = ("/", "/login", "/dashboard", "/security", "/status/any-slug", "/vault/login")



class SelfAudit(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = dc.create_user("self")
        cls.base = dc.BASE_URL.rstrip("/")

    @classmethod
    def tearDownClass(cls):
        dc.delete_user(cls.user.id)

    def test_every_page_of_its_own_site_gets_a_plus(self):
        for page in PAGES:
            with self.subTest(page=page):
                r = dc.get("/api/v1/audit/headers/%s" % dc.enc(self.base + page), token=self.user.token, timeout=60)
                self.assertEqual(r.status, 200, r.text)
                body = r.json
                failed = {name: t["result"] for name, t in body["tests"].items() if not t["pass"]}
                self.assertEqual(failed, {}, page)
                self.assertEqual(body["grade"], "A+", (page, body["score"]))
                print("\n[self-audit] %s: %s (%d)" % (page, body["grade"], body["score"]), file=sys.stderr)

    def test_its_own_full_audit_has_no_high_or_critical_finding(self):
        r = dc.post("/api/audit/full/%s" % dc.enc(self.base + "/"), token=self.user.token, timeout=180)
        self.assertEqual(r.status, 200, r.text)
        body = r.json
        serious = [(f["check"], f["title"]) for f in body["findings"] if f["severity"] in ("high", "critical")]
        self.assertEqual(serious, [])
        self.assertEqual(body["counts"]["high"] + body["counts"]["critical"], 0)
        self.assertEqual(body["errors"], [], "every check ran")
        print("\n[self-audit] full audit: %s (%s), counts %s, %d pages, %d ms"
              % (body["grade"], body["score"], body["counts"], body["crawl"]["pages"], body["duration_ms"]),
              file=sys.stderr)
