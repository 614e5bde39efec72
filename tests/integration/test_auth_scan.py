"""Issue 9 §2 auth scan (docs/scan.md "Auth scan"): POST /api/security/auth-scan/{target} with an
optional JSON body of credentials, and the auth-scan task, against the login pages of the
deliberately vulnerable fixture (tests/fixtures/owasp/auth_pages.py): every planted flaw found with
its OWASP category and CWE, nothing on the fixed twin (served over HTTPS), the pages only a logged-in
user reaches listed, the passive flaws of the logged-in pages reported (and not on the anonymous
scan), user enumeration by timing found at /admin/login (not on the fixed twin, which spends the same
time for every user), and the password never in an answer, a task's status or its result."""

import json
import os
import ssl
import sys
import urllib.parse
import urllib.request

import dozor_client as dc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "owasp"))
from auth_pages import BACKUP_HOST, HASH_DELAY, USERS  # noqa: E402
from vulnerable_app import VulnerableApp  # noqa: E402

PASSWORD = USERS["alice"]
CREDENTIALS = {"username": "alice", "password": PASSWORD}
USER_ONLY = ["/account", "/account/orders", "/account/settings"]

# check → (OWASP 2021 category, CWE, the places: login pages or cookie names; None for one finding)
EXPECTED = {
    "auth-login-over-http": ("A02:2021", 319, ["/admin/login", "/login", "/wp-login.php"]),
    "auth-password-autocomplete": ("A07:2021", 525, ["/login", "/wp-login.php"]),
    "auth-user-enumeration": ("A07:2021", 204, None),
    "auth-user-enumeration-timing": ("A07:2021", 208, None),
    "auth-no-lockout": ("A07:2021", 307, None),
    "auth-session-cookie-no-httponly": ("A05:2021", 1004, ["SESSIONID", "wordpress_logged_in_5f2a"]),
    "auth-session-cookie-no-samesite": ("A05:2021", 1275, ["SESSIONID", "wordpress_logged_in_5f2a"]),
    "auth-default-credentials": ("A07:2021", 1392, None),
    "auth-session-fixation": ("A07:2021", 384, None),
}


class TlsVulnerableApp(VulnerableApp):
    """The app over HTTPS with the stack's certificate (scanner.ca_file trusts it)."""

    def __init__(self, fixed):
        super().__init__(fixed=fixed)
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(dc.STATE_DIR / "tls" / "cert.pem", dc.STATE_DIR / "tls" / "key.pem")
        self.httpd.socket = ctx.wrap_socket(self.httpd.socket, server_side=True)

    def url(self, path="/"):
        return "https://127.0.0.1:%d%s" % (self.port, path)


def auth_scan(user, url, body=dc._UNSET, encoded=True):
    target = dc.enc(url) if encoded else url
    return dc.post("/api/security/auth-scan/" + target, body, token=user.token, timeout=150)


def own(body):
    """The auth scan's own findings (not the passive ones of logged-in pages)."""
    return [f for f in body["findings"] if not f["logged_in"]]


def logged_in(body):
    return [f for f in body["findings"] if f["logged_in"]]


def by_check(findings):
    got = {}
    for f in findings:
        got.setdefault(f["check"], []).append(f)
    return got


def logged_in_cookie(app):
    """A logged-in SESSIONID of alice, from a login made here."""
    jar = urllib.request.HTTPCookieProcessor()
    opener = urllib.request.build_opener(jar)
    opener.open(app.url("/login")).read()
    opener.open(app.url("/login"), urllib.parse.urlencode(CREDENTIALS).encode()).read()
    return "; ".join("%s=%s" % (c.name, c.value) for c in jar.cookiejar)


class AuthScan(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = dc.create_user("as", scan_grant=True)
        cls.vulnerable = VulnerableApp().__enter__()
        cls.fixed = TlsVulnerableApp(fixed=True).__enter__()
        r = auth_scan(cls.user, cls.vulnerable.url("/"))
        assert r.status == 200, r.text
        cls.anonymous = r.json
        r = auth_scan(cls.user, cls.vulnerable.url("/"), CREDENTIALS, encoded=False)
        assert r.status == 200, r.text
        cls.credentialed, cls.credentialed_text = r.json, r.text
        r = auth_scan(cls.user, cls.fixed.url("/"), CREDENTIALS)
        assert r.status == 200, r.text
        cls.clean, cls.clean_text = r.json, r.text

    @classmethod
    def tearDownClass(cls):
        cls.vulnerable.__exit__(None, None, None)
        cls.fixed.__exit__(None, None, None)
        dc.delete_user(cls.user.id)

    def assert_planted(self, body, app, checks):
        got = by_check(own(body))
        self.assertEqual(sorted(got), sorted(checks), [f["title"] for f in body["findings"]])
        for check in checks:
            owasp, cwe, places = EXPECTED[check]
            for f in got[check]:
                self.assertEqual((f["owasp"], f["cwe"]), (owasp, cwe), f)
                self.assertIn(f["severity"], ("low", "medium", "high", "critical"))
                self.assertIn(f["confidence"], ("firm", "certain"))
                self.assertTrue(f["recommendation"] and f["description"])
                for e in f["evidence"]:
                    self.assertTrue(e["replay"].startswith("curl -i -s "), e)
                    self.assertTrue(e["excerpt"], f)
                    self.assertIsNotNone(e["exchange"], f)
            if places is None:
                self.assertEqual(len(got[check]), 1, got[check])
            elif check.startswith("auth-session-cookie"):
                self.assertEqual(sorted(f["title"].split()[2] for f in got[check]), places)
            else:
                self.assertEqual(sorted(f["title"].split(": ", 1)[1] for f in got[check]),
                                 [app.url(p) for p in places])

    def test_a_credentialed_scan_finds_every_planted_flaw_with_its_category(self):
        body = self.credentialed
        self.assertEqual(body["stopped"], "complete")
        self.assert_planted(body, self.vulnerable, EXPECTED)
        # A01: the private address of the logged-in settings page (private-ip-disclosure).
        self.assertEqual(body["by_category"], {"A01:2021": 1, "A02:2021": 3, "A05:2021": 4, "A07:2021": 7})
        got = by_check(own(body))
        self.assertIn("Wrong password", json.dumps(got["auth-user-enumeration"][0]["evidence"]))
        self.assertIn("admin/admin", got["auth-default-credentials"][0]["title"])
        self.assertEqual(got["auth-default-credentials"][0]["severity"], "critical")
        self.assertIn("wordpress", body["technologies"])

    def test_an_anonymous_scan_finds_all_but_what_needs_a_login(self):
        body = self.anonymous
        self.assertEqual((body["mode"], body["logged_in"], body["user_only"]), ("anonymous", False, []))
        self.assert_planted(body, self.vulnerable, [c for c in EXPECTED if c != "auth-session-fixation"])
        self.assertEqual({f["page"] for f in body["login_forms"]},
                         {self.vulnerable.url(p) for p in ("/login", "/admin/login", "/wp-login.php")})
        self.assertEqual(logged_in(body), [])
        self.assertNotIn(BACKUP_HOST, json.dumps(body))

    def test_user_enumeration_by_timing_is_found_where_only_the_time_differs(self):
        for body in (self.anonymous, self.credentialed):
            found = by_check(own(body))["auth-user-enumeration-timing"]
            self.assertEqual(len(found), 1, found)
            f = found[0]
            self.assertTrue(f["title"].endswith(self.vulnerable.url("/admin/login")), f["title"])
            self.assertEqual((f["owasp"], f["cwe"], f["severity"]), ("A07:2021", 208, "medium"))
            self.assertIn("always slower", f["description"])
            likely, unknown = f["evidence"]
            self.assertIn("likely user 'admin'", likely["note"])
            self.assertIn("unknown user:", unknown["note"])
            # The same message on both sides: only the time tells.
            self.assertEqual(likely["excerpt"].split("→")[1], unknown["excerpt"].split("→")[1])
            times = [[int(t) for t in e["note"].split("answered in ")[1][:-3].split(", ")] for e in (likely, unknown)]
            self.assertEqual([len(t) for t in times], [5, 5])
            self.assertGreaterEqual(min(times[0]), HASH_DELAY * 1000 - 5)
            self.assertGreaterEqual(min(times[0]), max(times[1]) + 100)
            self.assertIn("username=admin", likely["replay"])
        # /login tells by its message already: no second finding there.
        self.assertEqual(len(by_check(own(self.credentialed))["auth-user-enumeration"]), 1)

    def test_passive_flaws_of_logged_in_pages_are_reported_once(self):
        body = self.credentialed
        found = logged_in(body)
        # The version banner every page shows is the anonymous view's too: not repeated.
        self.assertEqual([f["check"] for f in found], ["private-ip-disclosure"], [f["title"] for f in found])
        f = found[0]
        self.assertEqual((f["owasp"], f["cwe"]), ("A01:2021", 200))
        self.assertTrue(f["title"].endswith("(logged-in pages)"), f["title"])
        (e,) = f["evidence"]
        self.assertEqual(e["url"], self.vulnerable.url("/account/settings"))
        self.assertIn(BACKUP_HOST, e["excerpt"])
        self.assertTrue(e["note"].startswith("logged-in page"), e)
        self.assertTrue(e["replay"].startswith("curl -i -s "), e)
        self.assertIn("Cookie: ****", e["replay"])
        self.assertEqual(body["passive_errors"], [])
        self.assertEqual(logged_in(self.clean), [])

    def test_a_credentialed_scan_lists_the_pages_only_the_user_reaches(self):
        for body, app in ((self.credentialed, self.vulnerable), (self.clean, self.fixed)):
            self.assertEqual((body["mode"], body["username"], body["logged_in"]), ("form", "alice", True), body)
            self.assertIn("login form gone", body["login_proof"])
            self.assertIn("logout link", body["login_proof"])
            self.assertEqual(sorted(body["user_only"]), [app.url(p) for p in USER_ONLY])
            self.assertGreaterEqual(body["pages_user"], 3)

    def test_the_fixed_twin_has_no_finding(self):
        body = self.clean
        self.assertEqual(body["findings"], [], [f["title"] for f in body["findings"]])
        self.assertEqual(body["stopped"], "complete")
        self.assertEqual(len(body["login_forms"]), 3)
        self.assertIn("wordpress", body["technologies"])  # the panel was tried, its default refused

    def test_requests_are_paced_and_name_dozor(self):
        hits = self.fixed.hits()
        self.assertTrue(all("Dozor" in h["headers"].get("User-Agent", "") for h in hits))
        # At most 5 paced request starts in any one second (one more for the window's edges); a
        # redirect is followed at once, so the request right after a 3xx answer is its hop, counted
        # apart (told by the answer, not by a time gap that a loaded machine stretches).
        ordered = sorted(hits, key=lambda h: h["t"])
        hops = [h["t"] for prev, h in zip(ordered, ordered[1:])
                if 300 <= (prev.get("status") or 0) < 400 and h["t"] - prev["t"] < 1.0]
        paced = [h["t"] for h in ordered if h["t"] not in hops]
        close = [t for prev, t in zip(paced, paced[1:]) if t - prev < 0.02]
        self.assertLessEqual(len(close), 2, "requests start closer than 20 ms: pacing is broken")
        worst = max(sum(1 for t in paced[i:] if t - paced[i] < 1.0) for i in range(len(paced)))
        self.assertLessEqual(worst, 6, worst)

    def test_the_password_and_the_session_never_reach_the_answer(self):
        for text in (self.credentialed_text, self.clean_text):
            self.assertNotIn(PASSWORD, text)
            self.assertNotIn(urllib.parse.quote(PASSWORD), text)
        fixation = by_check(self.credentialed["findings"])["auth-session-fixation"][0]
        self.assertIn("password=****", fixation["evidence"][0]["replay"])
        for f in self.credentialed["findings"]:
            for e in f["evidence"]:
                if e["exchange"] is None:  # a passive finding's HTML excerpt
                    self.assertTrue(f["logged_in"], f)
                    continue
                for name, value in e["exchange"]["request_headers"]:
                    if name in ("cookie", "authorization"):
                        self.assertEqual(value, "****")
                for name, value in e["exchange"]["response_headers"]:
                    if name == "set-cookie":
                        self.assertRegex(value, r"^[^=]+=\*\*\*\*(;|$)")

    def test_a_session_cookie_logs_in_without_a_password(self):
        cookie = logged_in_cookie(self.vulnerable)
        r = auth_scan(self.user, self.vulnerable.url("/account"), {"cookie": cookie})
        self.assertEqual(r.status, 200, r.text)
        self.assertNotIn(cookie.split("=", 1)[1], r.text)
        body = r.json
        self.assertEqual((body["mode"], body["logged_in"]), ("cookie", True), body)
        self.assertEqual(sorted(body["user_only"]), [self.vulnerable.url(p) for p in USER_ONLY])
        self.assertEqual([f["check"] for f in logged_in(body)], ["private-ip-disclosure"])

    def test_a_bearer_token_never_follows_a_redirect_to_another_origin(self):
        page = (200, {"Content-Type": "text/html"}, "<html><body>elsewhere</body></html>")
        with dc.FixtureServer(dc.AnyPath(page)) as other:
            with dc.FixtureServer({"/": (302, {"Location": other.url("/landing")}, "")}) as site:
                r = auth_scan(self.user, site.url("/"), {"bearer": "tok-Sekr3t-xyz"})
                self.assertEqual(r.status, 200, r.text)
                self.assertNotIn("tok-Sekr3t-xyz", r.text)
                sent = [h for h in site.hits() if "tok-Sekr3t-xyz" in h["headers"].get("Authorization", "")]
                self.assertTrue(sent, "the token was never sent to the target")
            self.assertTrue(other.hits(), "the redirect was not followed")
            leaked = [h for h in other.hits() if "Authorization" in h["headers"]]
            self.assertEqual(leaked, [], "the bearer token crossed origins")
        self.assertEqual((r.json["mode"], r.json["logged_in"]), ("bearer", False))
        self.assertTrue(r.json["login_error"])

    def test_the_task_runs_through_the_queue_without_revealing_the_password(self):
        with VulnerableApp() as app:
            r = dc.post("/api/security/queue/%s?task_type=auth-scan" % dc.enc(app.url("/")), CREDENTIALS,
                        token=self.user.token)
            self.assertEqual(r.status, 200, r.text)
            self.assertNotIn(PASSWORD, r.text)
            self.assertEqual(r.json["options"], {"username": "alice", "password": "****"})
            task_id = r.json["task_id"]
            ok = dc.wait_until(lambda: dc.get("/api/task/%s/status" % task_id).json["status"]
                               in ("succeeded", "failed"), 150, 0.5)
            status = dc.get("/api/task/%s/status" % task_id)
            self.assertTrue(ok, status.text)
            self.assertEqual(status.json["status"], "succeeded", status.text)
            self.assertNotIn(PASSWORD, status.text)
        full = dc.get("/api/security/queue/" + task_id, token=self.user.token)
        self.assertNotIn(PASSWORD, full.text)
        self.assertEqual(full.json["options"]["password"], "****")
        result = full.json["result"]
        self.assertTrue(result["logged_in"], result)
        self.assertEqual(sorted(result["user_only"]), [app.url(p) for p in USER_ONLY])
        self.assertIn("auth-session-fixation", {f["check"] for f in result["findings"]})
        listed = dc.get("/api/security/tasks", token=self.user.token)
        self.assertNotIn(PASSWORD, listed.text)

    def test_unknown_keys_and_unusable_credentials_are_422_without_echoing_secrets(self):
        url = self.vulnerable.url("/")
        cases = [
            ({"username": "a", "password": "Sekr3t-x", "depth": 2}, ["body", "depth"]),
            ({"username": "a"}, ["body", "password"]),
            ({"password": "Sekr3t-x"}, ["body", "username"]),
            ({"username": "a", "password": "Sekr3t-x", "cookie": "s=1"}, ["body", "cookie"]),
            ({"cookie": "s=1\r\nX-Evil: 1"}, ["body", "cookie"]),
            ({"username": "a", "password": "Sekr3t-x", "login_url": "http://elsewhere.invalid/login"},
             ["body", "login_url"]),
            ({"username": 5, "password": "Sekr3t-x"}, ["body", "username"]),
        ]
        before = len(self.vulnerable.hits())
        for body, loc in cases:
            r = auth_scan(self.user, url, body)
            self.assertEqual(r.status, 422, (body, r.text))
            self.assertIn(loc, [d["loc"] for d in r.json["detail"]], r.text)
            self.assertNotIn("Sekr3t-x", r.text)
            q = dc.post("/api/security/queue/%s?task_type=auth-scan" % dc.enc(url), body, token=self.user.token)
            self.assertEqual(q.status, 422, (body, q.text))
            self.assertNotIn("Sekr3t-x", q.text)
        self.assertEqual(len(self.vulnerable.hits()), before, "a refused scan sent traffic")

    def test_a_user_without_a_grant_cannot_scan_a_foreign_target(self):
        stranger = self.new_user("as")
        before = len(self.vulnerable.hits())
        r = auth_scan(stranger, self.vulnerable.url("/"), CREDENTIALS)
        self.assertEqual(r.status, 403, r.text)
        self.assertIn("own services", r.json["detail"])
        q = dc.post("/api/security/queue/%s?task_type=auth-scan" % dc.enc(self.vulnerable.url("/")), CREDENTIALS,
                    token=stranger.token)
        self.assertEqual(q.status, 403, q.text)
        self.assertEqual(len(self.vulnerable.hits()), before, "a refused scan sent traffic")
        log = dc.get("/api/security/scan-log", token=stranger.token).json["items"]
        self.assertEqual([(e["kind"], e["via"], e["allowed"]) for e in log],
                         [("auth-scan", "task", False), ("auth-scan", "inline", False)])
        self.assertEqual(auth_scan(stranger, self.vulnerable.url("/"), {}).status, 403)
