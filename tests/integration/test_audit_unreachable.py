"""Issue 28 §3 (docs/audit.md "A target that cannot be reached"): an audit, full audit, OWASP scan,
DOCX report or task of a target whose first page gives no HTTP answer — refused, silent, TLS
failure — is an error naming the reason (502 {"detail": "could not reach host:port: reason"}, a
failed task), never a stored result with nothing found. A site that answered at all, even with an
error status, is audited as before. Only 127.0.0.1 is contacted."""

import os
import re
import socket
import unittest

import dozor_client as dc

AUDIT_ROUTES = ("/api/v1/audit/%s", "/api/audit/%s", "/api/security/audit/%s", "/api/audit/full/%s")
REPORT_ROUTES = ("/api/v1/audit/%s/report?lang=en", "/api/security/audit/download/%s")
OWASP_ROUTES = ("/api/v1/owasp/scan/%s", "/api/security/owasp/scan/%s")


def stored(user, target=None) -> int:
    sql = "SELECT COUNT(*) FROM audits WHERE user_id = %d" % user.id
    if target is not None:
        sql += " AND target = '%s'" % target.replace("'", "''")
    return int(dc.db_query(sql)[0][0])


class Silent:
    """A loopback listener that never accepts: the kernel completes the handshake, nobody answers."""

    def __enter__(self):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        return self

    def __exit__(self, *exc):
        self.sock.close()

    def url(self, path="/"):
        return "http://127.0.0.1:%d%s" % (self.port, path)


class Unreachable(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = dc.create_user("unr", scan_grant=True)
        cls.port = dc.closed_port()
        cls.target = "http://127.0.0.1:%d/" % cls.port
        cls.refused = "could not reach 127.0.0.1:%d: connection refused" % cls.port

    @classmethod
    def tearDownClass(cls):
        dc.delete_user(cls.user.id)

    def assertUnreachable(self, r, detail):
        self.assertEqual(r.status, 502, r.text[:400])
        self.assertIn("application/json", r.header("Content-Type") or "")
        if isinstance(detail, re.Pattern):
            self.assertRegex(r.json["detail"], detail)
        else:
            self.assertEqual(r.json["detail"], detail)

    def test_every_audit_route_answers_502_with_the_reason_and_stores_nothing(self):
        for route in AUDIT_ROUTES:
            for target in (dc.enc(self.target), self.target):
                with self.subTest(route=route, target=target):
                    r = dc.post(route % target, token=self.user.token, timeout=120)
                    self.assertUnreachable(r, self.refused)
        self.assertEqual(stored(self.user, self.target), 0)

    def test_the_docx_report_is_an_error_not_a_report_of_no_problems(self):
        for route in REPORT_ROUTES:
            with self.subTest(route=route):
                r = dc.get(route % dc.enc(self.target), token=self.user.token, timeout=120)
                self.assertUnreachable(r, self.refused)
                self.assertNotIn(b"No security problems", r.body)
        self.assertEqual(stored(self.user, self.target), 0)

    def test_the_owasp_scan_answers_502_and_stores_nothing(self):
        for route in OWASP_ROUTES:
            with self.subTest(route=route):
                r = dc.post(route % dc.enc(self.target), token=self.user.token, timeout=150)
                self.assertUnreachable(r, self.refused)
        self.assertEqual(stored(self.user, self.target), 0)

    def test_a_tls_failure_is_named(self):
        # A plain-HTTP server asked over https: the handshake fails.
        site = dc.FixtureServer({"/": (200, {"Content-Type": "text/html"}, "<html>plain</html>")})
        with site:
            target = "https://127.0.0.1:%d/" % site.port
            r = dc.post("/api/v1/audit/%s" % dc.enc(target), token=self.user.token, timeout=120)
        self.assertUnreachable(r, re.compile(r"^could not reach 127\.0\.0\.1:%d: TLS handshake failed: \S" % site.port))
        self.assertEqual(stored(self.user, target), 0)

    def test_a_target_that_never_answers_is_a_time_out(self):
        with Silent() as silent:
            r = dc.post("/api/v1/owasp/scan/%s" % dc.enc(silent.url()), token=self.user.token, timeout=150)
        self.assertUnreachable(r, re.compile(r"^could not reach 127\.0\.0\.1:%d: timed out( after \d+ ms)?$" % silent.port))
        self.assertEqual(stored(self.user, silent.url()), 0)

    def test_a_batch_row_says_why_and_has_no_audit(self):
        user = self.new_user("unb")
        svc = self.new_service(user, url=self.target)
        r = dc.post("/api/audit/batch", token=user.token, timeout=120)
        self.assertEqual(r.status, 200, r.text)
        row = next(x for x in r.json if x["service_id"] == svc["id"])
        self.assertEqual((row["audit_id"], row["grade"], row["error"]), (None, None, self.refused))
        self.assertEqual(stored(user), 0)

    def test_a_site_that_answers_with_an_error_status_is_still_audited(self):
        site = dc.FixtureServer(dc.AnyPath((500, {"Content-Type": "text/html"}, "<html>oops</html>")))
        with site:
            r = dc.post("/api/v1/audit/%s" % dc.enc(site.url("/")), token=self.user.token, timeout=120)
        self.assertEqual(r.status, 200, r.text[:400])
        self.assertEqual(r.json["crawl"]["pages"], 1)


class UnreachableTasks(dc.DozorTestCase):
    """dozord runs the same engines: the task fails with the reason and stores nothing."""

    @classmethod
    def setUpClass(cls):
        if not os.environ.get("DOZOR_TEST_STATE"):
            raise unittest.SkipTest("needs a private test stack (DOZOR_TEST_STATE)")

    def test_audit_and_owasp_tasks_fail_with_the_reason(self):
        user = self.new_user("unt")
        dc.put("/api/admin/users/%d/scan-grant" % user.id, token=dc.admin_token())
        port = dc.closed_port()
        target = "http://127.0.0.1:%d/" % port
        for kind in ("audit", "owasp"):
            with self.subTest(kind=kind):
                r = dc.post("/api/security/queue/%s?task_type=%s" % (dc.enc(target), kind), token=user.token)
                self.assertEqual(r.status, 200, r.text)
                task_id = r.json["task_id"]
                done = dc.wait_until(
                    lambda: dc.get("/api/task/%s/status" % task_id).json["status"] in ("succeeded", "failed"), 120, 0.3)
                self.assertTrue(done, "task %s did not finish" % task_id)
                body = dc.get("/api/security/queue/" + task_id, token=user.token).json
                self.assertEqual(body["status"], "failed", body)
                self.assertEqual(body["error"], "could not reach 127.0.0.1:%d: connection refused" % port)
                self.assertIsNone(body.get("result"))
        self.assertEqual(stored(user), 0)


if __name__ == "__main__":
    unittest.main()
