"""Issue 8 §2 exposures in the full audit (docs/audit.md "Exposures"): a local site that exposes
/.git/HEAD and /.env is reported with evidence and masked secrets; a site that answers 200 to every
path gives no exposure finding but the missing security.txt. Issue 26 §2: probing paths the site does
not link is active work — without the scan permission for the target nothing is probed and the audit
says what it skipped and why; every excerpt is redacted (a laravel.log's DB_PASSWORD included)."""

import unittest

import dozor_client as dc
import test_full_audit as fa

HTML = "<!doctype html><html><head><title>Shop</title></head><body>Welcome</body></html>"
SECRET = "s3cr3t-database-password"
LOG_SECRET = "Laravel-Log-Secret-77"
LARAVEL_LOG = ("[2026-01-01 10:00:00] production.ERROR: SQLSTATE[HY000] [1045] Access denied for user 'shop'"
               " (DB_PASSWORD=%s)\n#0 /var/www/vendor/laravel/framework/src/Connector.php(70)\n" % LOG_SECRET)
PROBED = ("/.git/", "/.env", "/dozor-not-found-", "/storage/", "/readme.html", "/administrator/", "/bitrix/")


def audit(user, target, prefix="/api/v1", encoded=True):
    r = fa.audit(user, target, prefix, encoded, query="?depth=0")
    assert r.status == 200, r.text
    return r.json


class Exposures(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = dc.create_user("ex", scan_grant=True)  # probing is active work (docs/audit.md)
        cls.stranger = dc.create_user("exno")
        cls.exposed = dc.FixtureServer({
            "/": (200, {"Content-Type": "text/html"}, HTML),
            "/.git/HEAD": (200, {"Content-Type": "text/plain"}, "ref: refs/heads/main\n"),
            "/.env": (200, {"Content-Type": "text/plain"}, "APP_ENV=production\nDB_PASSWORD=%s\n" % SECRET),
            "/storage/logs/laravel.log": (200, {"Content-Type": "text/plain"}, LARAVEL_LOG),
        }).__enter__()
        cls.catch_all = dc.FixtureServer(dc.AnyPath((200, {"Content-Type": "text/html"}, HTML))).__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.exposed.__exit__(None, None, None)
        cls.catch_all.__exit__(None, None, None)
        dc.delete_user(cls.user.id)
        dc.delete_user(cls.stranger.id)

    def test_exposed_git_and_env_are_findings_with_evidence(self):
        before = len(self.exposed.hits())  # other tests audit the same site
        body = audit(self.user, self.exposed.url("/"))
        found = {f["check"]: f for f in body["findings"]}
        self.assertIn("exposure-vcs", found, sorted(found))
        self.assertIn("exposure-env-file", found, sorted(found))
        env = found["exposure-env-file"]
        self.assertEqual(env["severity"], "critical")
        self.assertEqual(env["owasp"], "A05:2021")
        self.assertTrue(env["recommendation"])
        ev = env["evidence"][0]
        self.assertEqual(ev["url"], self.exposed.url("/.env"))
        self.assertEqual(ev["exchange"]["request_line"], "GET /.env HTTP/1.1")
        self.assertEqual(ev["exchange"]["status"], 200)
        self.assertIn("DB_PASSWORD=", ev["exchange"]["body_excerpt"])
        # Evidence shows that the secret is there, not the secret.
        self.assertNotIn(SECRET, str(body))
        git = found["exposure-vcs"]["evidence"][0]
        self.assertIn("ref: refs/heads/main", git["excerpt"])
        self.assertEqual(git["exchange"]["request_line"], "GET /.git/HEAD HTTP/1.1")
        part = body["exposures"]
        self.assertFalse(part["guard"]["catch_all"])
        self.assertEqual(part["guard"]["status"], 404)
        self.assertGreaterEqual(part["probes"], 40)
        self.assertEqual(part["answered"], part["probes"])
        self.assertEqual({x["id"] for x in part["found"]},
                         {"git-head", "env-file", "laravel-log", "security-txt-missing"})
        self.assertEqual(body["skipped"], [])
        self.assertFalse([e for e in body["errors"] if e["check"] == "exposures"], body["errors"])
        # Stored: the evidence route returns it, filtered by severity.
        r = dc.get("/api/security/evidence/%s?severity=critical" % dc.enc(self.exposed.url("/")),
                   token=self.user.token)
        self.assertEqual(r.status, 200, r.text)
        self.assertEqual({x["check"] for x in r.json}, {"exposure-env-file"})
        self.assertNotIn(SECRET, r.text)
        # Every probe is one GET at the origin, plus the guard; nothing is posted.
        probes = [h for h in self.exposed.hits()[before:]
                  if h["path"].startswith(("/.git/", "/.env", "/dozor-not-found-"))]
        paths = [h["path"] for h in probes]
        self.assertEqual(sorted(set(paths)), sorted(paths))
        self.assertEqual({h["method"] for h in probes}, {"GET"})

    def test_a_log_files_excerpt_is_redacted_wherever_it_is_shown(self):
        body = audit(self.user, self.exposed.url("/"))
        log = [f for f in body["findings"] if f["check"] == "exposure-log-file"]
        self.assertEqual(len(log), 1, sorted(f["check"] for f in body["findings"]))
        ev = log[0]["evidence"][0]
        self.assertIn("production.ERROR", ev["excerpt"] + ev["exchange"]["body_excerpt"])
        self.assertIn("DB_PASSWORD=****", ev["exchange"]["body_excerpt"])
        self.assertNotIn(LOG_SECRET, str(body))
        r = dc.get("/api/security/evidence/%s" % dc.enc(self.exposed.url("/")), token=self.user.token)
        self.assertEqual(r.status, 200, r.text)
        self.assertTrue([x for x in r.json if x["check"] == "exposure-log-file"])
        self.assertNotIn(LOG_SECRET, r.text)
        stored = dc.db_query("SELECT COUNT(*) FROM audits WHERE user_id = %d AND result LIKE '%%%s%%'"
                             % (self.user.id, LOG_SECRET))
        self.assertEqual(stored, [["0"]], "the secret was stored")

    def test_without_the_scan_permission_nothing_unlinked_is_probed_and_the_audit_says_so(self):
        before = len(self.exposed.hits())
        body = audit(self.stranger, self.exposed.url("/"))
        self.assertIsNone(body["exposures"])
        self.assertFalse([f for f in body["findings"] if f["check"].startswith("exposure-")])
        skipped = {s["check"]: s for s in body["skipped"]}
        self.assertEqual(sorted(skipped), ["exposures", "technology-probes"])
        self.assertEqual(skipped["exposures"]["reason"], "not_owned")
        self.assertIn("scan-verifications", skipped["exposures"]["detail"])
        asked = [h["path"] for h in self.exposed.hits()[before:]]
        self.assertTrue(asked, "the passive audit asked nothing at all")
        self.assertEqual([p for p in asked if p.startswith(PROBED)], [], "unlinked paths were probed")
        log = dc.get("/api/security/scan-log", token=self.stranger.token).json["items"]
        self.assertEqual([(e["kind"], e["allowed"], e["reason"]) for e in log], [("audit-probes", False, "not_owned")])
        # The CMS route asks only what a browser asks without the permission, and says so too.
        r = dc.get("/api/v1/cms/%s" % dc.enc(self.exposed.url("/")), token=self.stranger.token)
        self.assertEqual(r.status, 200, r.text)
        self.assertEqual([s["check"] for s in r.json["skipped"]], ["technology-probes"])

    def test_a_site_that_answers_200_to_everything_has_no_false_positives(self):
        body = audit(self.user, self.catch_all.url("/"), prefix="/api", encoded=False)
        exposures = sorted(f["check"] for f in body["findings"] if f["check"].startswith("exposure-"))
        self.assertEqual(exposures, ["exposure-security-txt-missing"])
        part = body["exposures"]
        self.assertTrue(part["guard"]["catch_all"])
        self.assertEqual(part["guard"]["status"], 200)
        self.assertEqual([x["id"] for x in part["found"]], ["security-txt-missing"])


if __name__ == "__main__":
    unittest.main()
