"""Issue 9 §2 stored OWASP reports (docs/scan.md "Stored OWASP reports"): every OWASP scan is stored
per user as a report of kind "owasp"; GET /api{,/v1}/owasp/report/{service_id} answers the newest,
GET /api{,/v1}/owasp/summary/{service_id} counts it per category and severity with the trend against
the scan before; GET /api/security/owasp/report/{target} is its DOCX (ru/en). A scheduled scan that
finds new high or critical findings tells the owner's channels once."""

import io
import os
import unittest
import zipfile
from urllib.parse import unquote_plus

import dozor_client as dc


class EchoSite:
    """A home page linking to /q?x=hello, which reflects x unescaped while `vulnerable` is set."""

    def __init__(self):
        self.vulnerable = True

        def echo(handler):
            q = unquote_plus(handler.path.split("x=", 1)[1]) if "x=" in handler.path else ""
            if not self.vulnerable:
                q = q.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
            return 200, {"Content-Type": "text/html; charset=utf-8"}, "<html><body>%s</body></html>" % q

        home = (200, {"Content-Type": "text/html"}, "<html><body><a href='/q?x=hello'>q</a></body></html>")
        self.server = dc.FixtureServer({"/": home, "/q": echo})

    def __enter__(self):
        self.server.__enter__()
        return self

    def __exit__(self, *exc):
        self.server.__exit__(*exc)

    def url(self, path="/"):
        return self.server.url(path)


def scan(user, url, prefix="/api"):
    return dc.post("%s/owasp/scan/%s?depth=1&max_pages=3" % (prefix, dc.enc(url)), token=user.token, timeout=150)


class StoredOwaspReports(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = dc.create_user("or")  # no grant: the site is a service of theirs, its host verified
        cls.stranger = dc.create_user("os")
        cls.site = EchoSite().__enter__()
        dc.mark_verified(cls.user.id, cls.site.url("/"))
        r = dc.post("/api/v1/services", {"name": "echo", "url": cls.site.url("/")}, token=cls.user.token)
        assert r.status == 200, r.text
        cls.service = r.json
        cls.before_any = dc.get("/api/owasp/report/%d" % cls.service["id"], token=cls.user.token)
        cls.first = scan(cls.user, cls.site.url("/"))
        cls.site.vulnerable = False
        cls.second = scan(cls.user, cls.site.url("/"), "/api/v1")

    @classmethod
    def tearDownClass(cls):
        cls.site.__exit__(None, None, None)
        dc.delete_user(cls.user.id)
        dc.delete_user(cls.stranger.id)

    def test_a_scan_answers_with_its_stored_id_score_and_grade(self):
        self.assertEqual(self.first.status, 200, self.first.text)
        body = self.first.json
        self.assertIsInstance(body["scan_id"], int)
        self.assertIn("owasp-xss-reflected", {f["check"] for f in body["findings"]})
        self.assertLess(body["score"], 100)
        self.assertEqual(body["counts"]["high"], sum(f["severity"] == "high" for f in body["findings"]))
        self.assertNotEqual(self.second.json["scan_id"], body["scan_id"])

    def test_the_report_is_the_newest_stored_scan_on_both_prefixes(self):
        self.assertEqual(self.before_any.status, 404)
        self.assertIn("No OWASP scan", self.before_any.json["detail"])
        for prefix in ("/api", "/api/v1"):
            r = dc.get("%s/owasp/report/%d" % (prefix, self.service["id"]), token=self.user.token)
            self.assertEqual(r.status, 200, r.text)
            self.assertEqual(r.json["id"], self.second.json["scan_id"])
            self.assertEqual(r.json["kind"], "owasp")
            self.assertEqual(r.json["target"], self.site.url("/"))
            self.assertEqual(r.json["owasp"]["stopped"], "complete")
            self.assertGreaterEqual(r.json["owasp"]["points"], 1)
        self.assertEqual(dc.get("/api/owasp/report/%d" % self.service["id"], token=self.stranger.token).status, 404)
        self.assertEqual(dc.get("/api/owasp/report/%d" % self.service["id"]).status, 401)
        self.assertEqual(dc.get("/api/owasp/report/0", token=self.user.token).status, 422)

    def test_the_summary_counts_categories_and_shows_the_fix_as_an_improvement(self):
        r = dc.get("/api/owasp/summary/%d" % self.service["id"], token=self.user.token)
        self.assertEqual(r.status, 200, r.text)
        s = r.json
        self.assertEqual(s["service_id"], self.service["id"])
        self.assertEqual(s["scan_id"], self.second.json["scan_id"])
        self.assertEqual([c["id"] for c in s["categories"]], ["A%02d:2021" % i for i in range(1, 11)])
        a03 = s["categories"][2]
        self.assertEqual(a03["total"], 0, "the fixed page still counted as injectable")
        trend = s["trend"]
        self.assertEqual(trend["previous_scan_id"], self.first.json["scan_id"])
        self.assertGreaterEqual(trend["resolved_findings"], 1)
        self.assertEqual(trend["new_findings"], 0)
        self.assertGreater(trend["score_change"], 0)
        self.assertEqual(trend["direction"], "improved")
        self.assertEqual(dc.get("/api/v1/owasp/summary/%d" % self.service["id"], token=self.stranger.token).status,
                         404)

    def test_the_docx_report_is_the_stored_scan_in_either_language(self):
        path = "/api/security/owasp/report/" + dc.enc(self.site.url("/"))
        r = dc.get(path + "?lang=en", token=self.user.token, timeout=150)
        self.assertEqual(r.status, 200, r.text[:200])
        self.assertTrue(r.header("Content-Type").startswith("application/vnd.openxmlformats"))
        self.assertIn('filename="dozor-owasp-127.0.0.1-', r.header("Content-Disposition"))
        with zipfile.ZipFile(io.BytesIO(r.body)) as z:
            xml = z.read("word/document.xml").decode()
        self.assertIn("OWASP Top 10 scan report", xml)
        self.assertIn("Server-Side Request Forgery", xml)  # the category table lists all ten
        ru = dc.get(path, token=self.user.token, timeout=150)
        with zipfile.ZipFile(io.BytesIO(ru.body)) as z:
            self.assertIn("Отчёт о сканировании OWASP Top 10", z.read("word/document.xml").decode())
        self.assertEqual(dc.get(path + "?lang=de", token=self.user.token).status, 422)

    def test_scans_are_no_audits_the_grades_and_audit_history_ignore_them(self):
        grades = dc.get("/api/audit/services", token=self.user.token).json
        mine = [g for g in grades if g["service_id"] == self.service["id"]]
        self.assertEqual(mine[0]["audit"], None, "an OWASP scan was shown as the service's audit grade")
        counts = dc.db_query("SELECT kind, COUNT(*) FROM audits WHERE user_id = %d GROUP BY kind" % self.user.id)
        self.assertEqual(counts, [["owasp", "2"]])


class ScheduledScanAlerts(dc.DozorTestCase):
    """A scheduled OWASP scan with new high findings writes one outbox row per channel, once."""

    @classmethod
    def setUpClass(cls):
        if not os.environ.get("DOZOR_TEST_STATE"):
            raise unittest.SkipTest("needs a private test stack (DOZOR_TEST_STATE)")

    def outbox(self, user_id):
        return dc.db_query("SELECT kind, event_key, JSON_EXTRACT(payload, '$.total') FROM notification_outbox"
                           " WHERE user_id = %d AND kind = 'owasp_findings' ORDER BY id" % user_id)

    def wait_run(self, schedule_id, after_task):
        def done():
            rows = dc.db_query("SELECT s.last_task_id, t.state FROM schedules s JOIN tasks t ON t.id = s.last_task_id"
                               " WHERE s.id = %d" % schedule_id)
            return rows and rows[0][0] != after_task and rows[0][1] in ("succeeded", "failed") and rows[0]
        got = dc.wait_until(done, 180, 0.5)
        self.assertTrue(got, "the scheduled scan did not finish")
        self.assertEqual(got[1], "succeeded")
        return got[0]

    def test_new_serious_findings_are_told_once_per_scan_and_not_again_when_unchanged(self):
        user = dc.create_user("oa")
        self.addCleanup(dc.delete_user, user.id)
        channel = dc.post("/api/v1/channels", {"type": "messenger", "params": {"token": "123456:AAbbCCddEEffGGhhIIjj", "chat_id": "1"}},
                          token=user.token)
        self.assertEqual(channel.status, 200, channel.text)
        dc.stackctl("stop-dozord")
        self.addCleanup(lambda: dc.stackctl("start-dozord"))
        with EchoSite() as site:
            dc.mark_verified(user.id, site.url("/"))
            svc = dc.post("/api/v1/services", {"name": "echo", "url": site.url("/")}, token=user.token).json
            sched = dc.post("/api/owasp/schedule/%d" % svc["id"], token=user.token)
            self.assertEqual(sched.status, 200, sched.text)
            dc.start_dozord(self, "owasp-alert")
            first = self.wait_run(sched.json["id"], None)
            rows = self.outbox(user.id)
            self.assertEqual(len(rows), 1, rows)
            self.assertTrue(rows[0][1].startswith("owasp:"))
            self.assertGreaterEqual(int(rows[0][2]), 1)
            # The next run finds the same flaw: nothing new to tell.
            dc.db_query("UPDATE schedules SET next_run_at = NOW(3) WHERE id = %d" % sched.json["id"])
            self.wait_run(sched.json["id"], first)
            self.assertEqual(len(self.outbox(user.id)), 1, "an unchanged finding was told again")
        log = dc.db_query("SELECT via, allowed, reason FROM scan_log WHERE user_id = %d" % user.id)
        # Each run decides its owner's permission when it starts (docs/scan.md "Who may scan what").
        self.assertEqual(log, [["schedule", "1", "verified"]] * 2)
