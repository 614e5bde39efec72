"""Issue 26 §2 the scope of active scanning (docs/scan.md "Who may scan what", "Proof of control"):
owning a service is no proof of owning a site — an ordinary account scans what it proved it controls
(a token file under /.well-known/dozor-verification/, or a DNS TXT record); every origin a scan would
touch gets the same decision, so a target that redirects elsewhere does not carry the payloads there,
and the scan log records each origin, allowed or refused; background runs decide again when they run."""

import json

import dozor_client as dc

PAGE = (200, {"Content-Type": "text/html"},
        "<html><body><a href='/item?id=1'>item</a><form action='/search'><input name='q'></form></body></html>")
LIMIT = 50  # engines/limits.hpp limits::scope::kVerificationsPerUser


def owasp(user, url):
    return dc.post("/api/owasp/scan/%s?depth=1&max_pages=5" % dc.enc(url), token=user.token, timeout=150)


def api_check(user, url):
    return dc.post("/api/security/api-check/%s?max_operations=5" % dc.enc(url), token=user.token, timeout=150)


def request_token(user, url, prefix="/api/v1"):
    return dc.post(prefix + "/scan-verifications", {"url": url}, token=user.token)


def verify(user, vid, method=None, prefix="/api/v1"):
    body = {"method": method} if method else dc._UNSET
    return dc.post("%s/scan-verifications/%d/verify" % (prefix, vid), body, token=user.token)


def publish(site, verification):
    """Serves the proof value at the token file's path on `site` (a FixtureServer)."""
    path = "/" + verification["http"]["url"].split("/", 3)[3]
    site.routes[path] = (200, {"Content-Type": "text/plain"}, verification["http"]["body"] + "\n")


def log_of(user):
    return dc.get("/api/security/scan-log?limit=100", token=user.token).json["items"]


class ScanScope(dc.DozorTestCase):
    def setUp(self):
        self.user = dc.create_user("scope")
        self.addCleanup(dc.delete_user, self.user.id)
        self.b = dc.FixtureServer({"/": PAGE, "/item": PAGE, "/search": PAGE}).__enter__()
        self.addCleanup(self.b.__exit__, None, None, None)
        # A answers with a redirect to B (another port: another origin).
        self.a = dc.FixtureServer({
            "/": (302, {"Location": self.b.url("/")}, ""),
            "/openapi.json": (302, {"Location": self.b.url("/openapi.json")}, ""),
        }).__enter__()
        self.addCleanup(self.a.__exit__, None, None, None)
        r = dc.post("/api/v1/services", {"name": "a", "url": self.a.url("/")}, token=self.user.token)
        self.assertEqual(r.status, 200, r.text)

    def verify_a(self):
        v = request_token(self.user, self.a.url("/")).json
        publish(self.a, v)
        r = verify(self.user, v["id"])
        self.assertTrue(r.json["verified"], r.json)
        return r.json

    def test_a_service_alone_is_no_proof_and_the_refusal_says_how_to_verify(self):
        r = owasp(self.user, self.a.url("/"))
        self.assertEqual(r.status, 403, r.text)
        self.assertIn("/api/v1/scan-verifications", r.json["detail"])
        self.assertEqual(self.a.hits(), [], "a refused scan sent traffic")
        self.assertEqual([(e["kind"], e["allowed"], e["reason"]) for e in log_of(self.user)],
                         [("owasp", False, "not_verified")])
        self.verify_a()
        r = owasp(self.user, self.a.url("/"))
        self.assertEqual(r.status, 200, r.text)
        self.assertEqual([e["reason"] for e in log_of(self.user) if e["target"] == self.a.url("/")],
                         ["verified", "not_verified"])
        # The proof came from a port that is not the scheme's default: it covers that origin only.
        r = owasp(self.user, self.b.url("/"))
        self.assertEqual(r.status, 403, r.text)

    def test_the_owasp_scan_does_not_follow_a_redirect_to_an_origin_it_may_not_scan(self):
        self.verify_a()
        r = owasp(self.user, self.a.url("/"))
        self.assertEqual(r.status, 200, r.text)
        self.assertEqual(self.b.hits(), [], "the scan sent requests to the redirect's origin")
        b_origin = "http://127.0.0.1:%d" % self.b.port
        self.assertIn({"origin": b_origin, "allowed": False, "reason": "not_verified"}, r.json["scope"])
        # The scan log records every origin touched or refused.
        got = [(e["kind"], e["target"], e["allowed"], e["reason"]) for e in log_of(self.user)[:2]]
        self.assertEqual(got, [("owasp", b_origin, False, "not_verified"),
                               ("owasp", self.a.url("/"), True, "verified")])

    def test_with_the_right_the_redirect_is_followed_so_the_refusal_above_is_the_scope(self):
        granted = dc.create_user("scopeg", scan_grant=True)
        self.addCleanup(dc.delete_user, granted.id)
        r = owasp(granted, self.a.url("/"))
        self.assertEqual(r.status, 200, r.text)
        self.assertTrue(self.b.hits(), "B was never asked although the grant covers it")
        self.assertIn({"origin": "http://127.0.0.1:%d" % self.b.port, "allowed": True, "reason": "grant"},
                      r.json["scope"])

    def test_the_api_check_does_not_follow_the_api_documents_redirect_elsewhere(self):
        self.b.routes["/openapi.json"] = (200, {"Content-Type": "application/json"}, json.dumps({
            "openapi": "3.0.0", "info": {"title": "b", "version": "1"},
            "paths": {"/api/users/{id}": {"get": {"parameters": [{"name": "id", "in": "path"}]}}}}))
        self.verify_a()
        r = api_check(self.user, self.a.url("/"))
        self.assertEqual(r.status, 200, r.text)
        self.assertEqual(self.b.hits(), [], "the API check sent requests to the document's final origin")
        self.assertEqual(r.json["documents"], [])
        entry = [e for e in log_of(self.user) if e["kind"] == "api-check"][0]
        self.assertEqual((entry["target"], entry["allowed"], entry["reason"]),
                         ("http://127.0.0.1:%d" % self.b.port, False, "not_verified"))

    def test_a_task_decides_again_when_it_runs(self):
        v = self.verify_a()
        dc.stackctl("stop-dozord")
        self.addCleanup(lambda: dc.stackctl("start-dozord"))
        r = dc.post("/api/security/queue/%s?task_type=owasp" % dc.enc(self.a.url("/")), {"depth": 0, "max_pages": 1},
                    token=self.user.token)
        self.assertEqual(r.status, 200, r.text)
        task_id = r.json["task_id"]
        # The proof is withdrawn while the task waits: the run is refused, with the reason.
        self.assertEqual(dc.delete("/api/v1/scan-verifications/%d" % v["id"], token=self.user.token).status, 200)
        dc.start_dozord(self, "scope")
        done = dc.wait_until(lambda: dc.get("/api/task/%s/status" % task_id).json["status"] in ("succeeded", "failed"),
                             60, 0.5)
        self.assertTrue(done)
        body = dc.get("/api/security/queue/" + task_id, token=self.user.token).json
        self.assertEqual(body["status"], "failed", body)
        self.assertIn("scan-verifications", body["error"])
        self.assertEqual([h for h in self.a.hits() if "/.well-known/" not in h["path"]], [], "the refused run sent traffic")
        got = [(e["via"], e["allowed"], e["reason"]) for e in log_of(self.user)[:2]]
        self.assertEqual(got, [("task", False, "not_verified"), ("task", True, "verified")])

    def test_the_ownership_grace_keeps_a_service_that_predates_the_proof_scannable(self):
        svc = dc.get("/api/v1/services", token=self.user.token).json[0]
        dc.db_query("INSERT INTO scan_ownership_grace (service_id, url, until) VALUES (%d, '%s', NOW(3) + INTERVAL 1 DAY)"
                    % (svc["id"], svc["url"]))
        r = owasp(self.user, "http://127.0.0.1:%d/" % self.b.port)  # the host of the service, any port (as before)
        self.assertEqual(r.status, 200, r.text)
        self.assertEqual(log_of(self.user)[0]["reason"], "own_service_grace")
        dc.db_query("UPDATE scan_ownership_grace SET until = NOW(3) - INTERVAL 1 SECOND WHERE service_id = %d"
                    % svc["id"])
        self.assertEqual(owasp(self.user, self.b.url("/")).status, 403)
        self.assertEqual(log_of(self.user)[0]["reason"], "not_verified")


class Verifications(dc.DozorTestCase):
    def setUp(self):
        self.user = dc.create_user("verif")
        self.addCleanup(dc.delete_user, self.user.id)
        self.site = dc.FixtureServer({"/": PAGE}).__enter__()
        self.addCleanup(self.site.__exit__, None, None, None)

    def test_request_publish_verify_list_and_delete(self):
        r = request_token(self.user, self.site.url("/shop?x=1"))
        self.assertEqual(r.status, 200, r.text)
        v = r.json
        origin = "http://127.0.0.1:%d" % self.site.port
        self.assertEqual((v["host"], v["origin"], v["verified"], v["method"]), ("127.0.0.1", origin, False, None))
        self.assertRegex(v["token"], r"^[A-Za-z0-9_-]{22}$")
        self.assertRegex(v["http"]["url"], r"^%s/\.well-known/dozor-verification/[0-9a-f]{32}$" % origin)
        self.assertNotIn(v["token"], v["http"]["url"], "the URL must not hold the value it asks for")
        self.assertEqual(v["http"]["body"], "dozor-verification=" + v["token"])
        self.assertEqual(v["http"]["covers"], "origin")
        self.assertEqual(v["dns"], {"name": "127.0.0.1", "type": "TXT", "value": v["http"]["body"], "covers": "host"})
        again = request_token(self.user, self.site.url("/other"), prefix="/api")
        self.assertEqual((again.json["id"], again.json["token"]), (v["id"], v["token"]))

        failed = verify(self.user, v["id"])
        self.assertEqual(failed.status, 200, failed.text)
        self.assertFalse(failed.json["verified"])
        self.assertIn("404", failed.json["last_error"])
        # A page that echoes its path, or holds the value among other text, proves nothing.
        path = "/" + v["http"]["url"].split("/", 3)[3]
        self.site.routes[path] = (200, {"Content-Type": "text/plain"}, "<p>%s</p>" % v["http"]["body"])
        self.assertFalse(verify(self.user, v["id"]).json["verified"])
        dns = verify(self.user, v["id"], "dns")
        self.assertFalse(dns.json["verified"])
        self.assertIn("IP address", dns.json["last_error"])

        publish(self.site, v)
        ok = verify(self.user, v["id"], "http", prefix="/api")
        self.assertEqual(ok.status, 200, ok.text)
        self.assertEqual((ok.json["verified"], ok.json["method"], ok.json["scope"], ok.json["last_error"]),
                         (True, "http", "origin", None))
        self.assertIsNotNone(ok.json["expires_at"])
        self.assertEqual([x["id"] for x in dc.get("/api/v1/scan-verifications", token=self.user.token).json],
                         [v["id"]])
        hits = [h for h in self.site.hits() if h["path"] == path]
        self.assertEqual({h["method"] for h in hits}, {"GET"})

        stranger = dc.create_user("verifx")
        self.addCleanup(dc.delete_user, stranger.id)
        self.assertEqual(verify(stranger, v["id"]).status, 404)
        self.assertEqual(dc.delete("/api/v1/scan-verifications/%d" % v["id"], token=stranger.token).status, 404)
        self.assertEqual(dc.get("/api/v1/scan-verifications", token=stranger.token).json, [])

        gone = dc.delete("/api/v1/scan-verifications/%d" % v["id"], token=self.user.token)
        self.assertEqual(gone.json, {"id": v["id"], "deleted": True})
        self.assertEqual(verify(self.user, v["id"]).status, 404)

    def test_validation_and_authentication(self):
        self.assertUnauthenticated(dc.get("/api/v1/scan-verifications"))
        self.assertUnauthenticated(dc.post("/api/scan-verifications", {"url": "https://example.com/"}))
        r = dc.post("/api/v1/scan-verifications", {}, token=self.user.token)
        self.assertValidation(r, [("missing", ["body", "url"])])
        r = request_token(self.user, "ftp://example.com/")
        self.assertEqual(r.status, 422, r.text)
        self.assertEqual(r.json["detail"][0]["loc"], ["body", "url"])
        v = request_token(self.user, self.site.url("/")).json
        r = verify(self.user, v["id"], "smtp")
        self.assertValidation(r, [("enum", ["body", "method"])])
        self.assertEqual(verify(self.user, 0).status, 422)

    def test_a_user_holds_at_most_n_sites(self):
        for i in range(LIMIT - 1):
            dc.db_query("INSERT INTO scan_verifications (user_id, host, origin, token, created_at) VALUES "
                        "(%d, 'h%d.example', 'https://h%d.example:443', 'seed%d', NOW(3))" % (self.user.id, i, i, i))
        nth = request_token(self.user, "https://nth.example/")
        self.assertEqual(nth.status, 200, nth.text)
        over = request_token(self.user, "https://over.example/")
        self.assertEqual(over.status, 409, over.text)
        self.assertIn(str(LIMIT), over.json["detail"])
        # Asking again for a site already held is no new one.
        self.assertEqual(request_token(self.user, "https://nth.example/x").status, 200)
