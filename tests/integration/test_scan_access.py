"""Issue 9 §3 who may scan what (docs/scan.md "Who may scan what"): an active scan reaches only the
hosts of the caller's own services unless they are an admin or an admin granted them any target;
passive audits stay open; every decision is in the scan log (who, what, when, allowed or not)."""

import dozor_client as dc

HOME = (200, {"Content-Type": "text/html"}, "<html><body>plain</body></html>")


def owasp(user_or_token, url):
    token = user_or_token if isinstance(user_or_token, str) else user_or_token.token
    return dc.post("/api/owasp/scan/%s?depth=0&max_pages=1" % dc.enc(url), token=token, timeout=120)


def queue(user, url, kind):
    return dc.post("/api/security/queue/%s?task_type=%s" % (dc.enc(url), kind), token=user.token)


class ScanAccess(dc.DozorTestCase):
    def setUp(self):
        self.user = dc.create_user("sa")
        self.addCleanup(dc.delete_user, self.user.id)
        self.site = dc.FixtureServer({"/": HOME}).__enter__()
        self.addCleanup(self.site.__exit__, None, None, None)

    def log(self, user_id=None, **query):
        params = "&".join("%s=%s" % kv for kv in query.items())
        if user_id is None:
            return dc.get("/api/security/scan-log?" + params, token=self.user.token).json["items"]
        return dc.get("/api/admin/scan-log?user_id=%d&%s" % (user_id, params), token=dc.admin_token()).json["items"]

    def test_a_stranger_site_is_refused_for_every_active_scan_and_logged(self):
        r = owasp(self.user, self.site.url("/"))
        self.assertEqual(r.status, 403, r.text)
        self.assertIn("own services", r.json["detail"])
        self.assertEqual(dc.post("/api/security/scanner/" + dc.enc(self.site.url("/")), token=self.user.token).status,
                         403)
        self.assertEqual(queue(self.user, self.site.url("/"), "owasp").status, 403)
        self.assertEqual(queue(self.user, self.site.url("/"), "scanner").status, 403)
        self.assertEqual(self.site.requests, [], "a refused scan sent traffic")
        self.assertEqual(queue(self.user, self.site.url("/"), "crawl").status, 200, "passive work stays open")
        got = [(e["kind"], e["via"], e["allowed"], e["reason"]) for e in self.log()]
        self.assertEqual(got, [("scanner", "task", False, "not_owned"), ("owasp", "task", False, "not_owned"),
                               ("scanner", "inline", False, "not_owned"), ("owasp", "inline", False, "not_owned")])
        entry = self.log()[0]
        self.assertEqual(entry["target"], self.site.url("/"))
        self.assertEqual(entry["user_id"], self.user.id)
        self.assertRegex(entry["created_at"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")

    def test_a_service_on_the_same_host_is_no_proof_a_verified_host_is(self):
        r = dc.post("/api/v1/services", {"name": "mine", "url": "http://127.0.0.1:9/"}, token=self.user.token)
        self.assertEqual(r.status, 200, r.text)
        r = owasp(self.user, self.site.url("/"))  # another port of the same host
        self.assertEqual(r.status, 403, r.text)
        self.assertEqual(self.log()[0]["reason"], "not_verified")
        dc.mark_verified(self.user.id, "http://127.0.0.1:80/")  # the whole host (tests/integration/test_scan_scope.py)
        r = owasp(self.user, self.site.url("/"))
        self.assertEqual(r.status, 200, r.text)
        self.assertEqual(self.log()[0]["reason"], "verified")

    def test_an_admin_grant_allows_any_target_until_revoked(self):
        path = "/api/admin/users/%d/scan-grant" % self.user.id
        self.assertEqual(dc.put(path, token=self.user.token).status, 403, "a user granted themselves")
        g = dc.put(path, token=dc.admin_token())
        self.assertEqual(g.json, {"user_id": self.user.id, "scan_any_target": True})
        self.assertEqual(owasp(self.user, self.site.url("/")).status, 200)
        r = dc.delete(path, token=dc.admin_token())
        self.assertEqual(r.json, {"user_id": self.user.id, "scan_any_target": False})
        self.assertEqual(owasp(self.user, self.site.url("/")).status, 403)
        self.assertEqual([e["reason"] for e in self.log()], ["not_owned", "grant"])
        self.assertEqual(dc.put("/api/admin/users/999999999/scan-grant", token=dc.admin_token()).status, 404)

    def test_admins_scan_anything_and_see_everyones_log_others_see_their_own(self):
        self.assertEqual(owasp(dc.admin_token(), self.site.url("/")).status, 200)
        mine = self.log(dc.admin_user_id(), limit=1)
        self.assertEqual((mine[0]["reason"], mine[0]["allowed"]), ("admin", True))
        self.assertEqual(owasp(self.user, self.site.url("/")).status, 403)
        self.assertEqual(len(self.log()), 1, "a user saw another user's log entries")
        self.assertEqual(dc.get("/api/admin/scan-log", token=self.user.token).status, 403)
        everyone = dc.get("/api/admin/scan-log?limit=2", token=dc.admin_token()).json
        self.assertEqual(len(everyone["items"]), 2)
        older = dc.get("/api/admin/scan-log?limit=2&before=%d" % everyone["next_before"], token=dc.admin_token()).json
        self.assertTrue(all(e["id"] < everyone["next_before"] for e in older["items"]))
        self.assertEqual(dc.get("/api/security/scan-log?limit=0", token=self.user.token).status, 422)
