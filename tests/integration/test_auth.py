"""POST /api/auth/login, GET /api/auth/verify, GET /api/auth/login-page; tokens and throttling."""

import concurrent.futures
import time
import unittest

import dozor_client as dc

INCORRECT = "Incorrect username or password"


class LoginTest(dc.DozorTestCase):
    def test_login_returns_bearer_token_and_user_without_password(self):
        u = self.new_user("login")
        r = dc.login(u.username, u.password)
        self.assertEqual(r.status, 200, r)
        self.assertJsonContentType(r)
        body = r.json
        self.assertIsInstance(body.get("access_token"), str, r)
        self.assertEqual(body["access_token"].count("."), 2, r)
        self.assertEqual(body.get("token_type"), "bearer", r)
        self.assertEqual(body.get("expires_in"), dc.config_value("auth", "token_lifetime", 43200), r)
        self.assertUserResponse(body["user"])
        self.assertEqual(body["user"]["id"], u.id)
        self.assertEqual(body["user"]["username"], u.username)
        self.assertEqual(body["user"]["email"], u.email)
        self.assertIs(body["user"]["is_active"], True)
        self.assertIs(body["user"]["is_admin"], False)
        self.assertNoSecrets(r, u.password)

        header, claims, _ = dc.jwt_parts(body["access_token"])
        self.assertEqual(header.get("alg"), "HS256", header)
        for claim in ("sub", "name", "adm", "iat", "exp", "ver"):
            self.assertIn(claim, claims, claims)
        self.assertEqual(str(claims["sub"]), str(u.id), claims)
        self.assertEqual(claims["name"], u.username, claims)
        self.assertIs(claims["adm"], False, claims)
        self.assertAlmostEqual(claims["exp"] - claims["iat"], body["expires_in"], delta=2)
        self.assertLessEqual(abs(claims["iat"] - time.time()), 300, claims)

    def test_admin_login_reports_admin(self):
        r = dc.login(dc.ADMIN_USER, dc.ADMIN_PASSWORD)
        self.assertEqual(r.status, 200, r)
        self.assertIs(r.json["user"]["is_admin"], True, r)
        self.assertEqual(r.json["user"]["username"], dc.ADMIN_USER, r)
        self.assertNoSecrets(r, dc.ADMIN_PASSWORD)

    def test_wrong_password_and_unknown_user_get_the_identical_401(self):
        u = self.new_user("wrongpw")
        wrong = dc.login(u.username, u.password + "x")
        unknown = dc.login(dc.unique_name("ghost"), u.password)
        for r in (wrong, unknown):
            self.assertDetail(r, 401, INCORRECT)
            self.assertNotIn("access_token", r.text)
        self.assertEqual(wrong.status, unknown.status)
        self.assertEqual(wrong.body, unknown.body)
        self.assertEqual(wrong.header("WWW-Authenticate"), unknown.header("WWW-Authenticate"))

    def test_oversized_login_body_is_refused_before_the_backend(self):
        # nginx allows 4 KiB on the login route (a credential pair is far smaller)
        r = dc.post("/api/auth/login", {"username": "admin", "password": "x" * 5000})
        self.assertEqual(r.status, 413, r)
        self.assertIsInstance(r.json, dict, r)
        self.assertIn("detail", r.json)

    def test_the_root_is_a_landing_page_that_links_to_login(self):
        # Spec §4.8: GET / answers 200 text/html (not a redirect) and leads to the login page.
        r = dc.get("/", headers={"Accept": "text/html"})
        self.assertEqual(r.status, 200, r)
        self.assertIsNone(r.header("Location"), r)
        self.assertTrue((r.header("Content-Type") or "").lower().startswith("text/html"), r)
        self.assertIn('href="/login"', r.text, r)
        self.assertIn("script-src 'self'", r.header("Content-Security-Policy") or "")

    def test_login_page_is_html(self):
        r = dc.get("/api/auth/login-page", headers={"Accept": "text/html"})
        self.assertEqual(r.status, 200, r)
        self.assertTrue((r.header("Content-Type") or "").lower().startswith("text/html"), r)
        self.assertIn("<form", r.text.lower(), r)
        self.assertIn("password", r.text.lower(), r)


class LoginValidationTest(dc.DozorTestCase):
    def test_missing_fields_are_all_reported(self):
        r = dc.post("/api/auth/login", {})
        detail = self.assertValidation(
            r, [("missing", ["body", "username"]), ("missing", ["body", "password"])]
        )
        for d in detail:
            if d["type"] == "missing":
                self.assertEqual(d["msg"], "Field required", d)

    def test_one_missing_field(self):
        r = dc.post("/api/auth/login", {"username": "someone"})
        detail = self.assertValidation(r, [("missing", ["body", "password"])])
        self.assertEqual(len(detail), 1, r)

    def test_wrong_types_are_all_reported(self):
        r = dc.post("/api/auth/login", {"username": 123, "password": ["x"]})
        detail = self.assertValidation(
            r, [("string_type", ["body", "username"]), ("string_type", ["body", "password"])]
        )
        by_loc = {tuple(d["loc"]): d for d in detail}
        self.assertEqual(by_loc[("body", "username")]["input"], 123)
        # A secret-named field is never echoed back, whatever its type.
        self.assertEqual(by_loc[("body", "password")]["input"], "****")

    def test_non_object_bodies(self):
        for body in ([], ["admin", "pw"], "admin", 42, True):
            with self.subTest(body=body):
                r = dc.post("/api/auth/login", body)
                self.assertValidation(r, [("model_attributes_type", ["body"])])

    def test_invalid_json(self):
        for raw in (b'{"username": "a", "password": ', b"{bad json}", b'{"a":1}}', b"\xff\xfe"):
            with self.subTest(raw=raw):
                r = dc.request("POST", "/api/auth/login", data=raw)
                self.assertEqual(r.status, 422, r)
                types = [d["type"] for d in r.json["detail"]]
                self.assertIn("json_invalid", types, r)
                for d in r.json["detail"]:
                    self.assertEqual(d["loc"][0], "body", r)

    def test_empty_body(self):
        r = dc.request("POST", "/api/auth/login", data=b"")
        self.assertEqual(r.status, 422, r)
        self.assertIsInstance(r.json.get("detail"), list, r)
        self.assertEqual(r.json["detail"][0]["loc"][0], "body", r)


class VerifyTest(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = dc.create_user("verify")

    @classmethod
    def tearDownClass(cls):
        dc.delete_user(cls.user.id)

    def test_good_token(self):
        r = dc.get("/api/auth/verify", token=self.user.token)
        self.assertEqual(r.status, 200, r)
        self.assertIs(r.json.get("valid"), True, r)
        self.assertUserResponse(r.json["user"])
        self.assertEqual(r.json["user"]["id"], self.user.id, r)
        self.assertEqual(r.json["user"]["username"], self.user.username, r)
        self.assertNoSecrets(r, self.user.password)

    def test_missing_or_malformed_authorization(self):
        cases = {
            "no header": None,
            "empty bearer": "Bearer ",
            "bearer word only": "Bearer",
            "garbage": "Bearer garbage",
            "three garbage parts": "Bearer aaa.bbb.ccc",
            "basic scheme": "Basic YWRtaW46YWRtaW4=",
            "token without scheme": self.user.token,
        }
        for label, value in cases.items():
            with self.subTest(case=label):
                r = dc.get("/api/auth/verify", headers={"Authorization": value})
                self.assertUnauthenticated(r)

    def test_bearer_scheme_is_case_insensitive(self):
        r = dc.get("/api/auth/verify", headers={"Authorization": "bearer " + self.user.token})
        self.assertEqual(r.status, 200, r)

    def test_tampered_payload_is_rejected(self):
        header, claims, sig = dc.jwt_parts(self.user.token)
        for change in ({"adm": True}, {"sub": dc.admin_user_id()}, {"exp": claims["exp"] + 86400},
                       {"ver": claims["ver"] + 1}, {"name": dc.ADMIN_USER}):
            with self.subTest(change=change):
                forged = dc.jwt_encode(header, {**claims, **change}, None, signature=sig)
                self.assertUnauthenticated(dc.get("/api/auth/verify", token=forged))
                self.assertUnauthenticated(dc.get("/api/v1/services", token=forged))
                self.assertEqual(dc.get("/api/admin/users", token=forged).status, 401)

    def test_tampered_signature_is_rejected(self):
        h, p, s = self.user.token.split(".")
        mid = len(s) // 2
        flipped = s[:mid] + ("A" if s[mid] != "A" else "B") + s[mid + 1:]
        self.assertUnauthenticated(dc.get("/api/auth/verify", token="%s.%s.%s" % (h, p, flipped)))
        self.assertUnauthenticated(dc.get("/api/auth/verify", token="%s.%s." % (h, p)))
        self.assertUnauthenticated(dc.get("/api/auth/verify", token="%s.%s" % (h, p)))

    def test_wrong_key_is_rejected(self):
        header, claims, _ = dc.jwt_parts(self.user.token)
        forged = dc.jwt_encode(header, claims, b"not-the-server-key")
        self.assertUnauthenticated(dc.get("/api/auth/verify", token=forged))

    def test_alg_none_is_rejected(self):
        _, claims, sig = dc.jwt_parts(self.user.token)
        for alg in ("none", "None", "NONE"):
            with self.subTest(alg=alg):
                hdr = {"alg": alg, "typ": "JWT"}
                self.assertUnauthenticated(
                    dc.get("/api/auth/verify", token=dc.jwt_encode(hdr, claims, None)))
                self.assertUnauthenticated(
                    dc.get("/api/auth/verify", token=dc.jwt_encode(hdr, claims, None, signature=sig)))

    def test_other_algorithms_are_rejected(self):
        _, claims, sig = dc.jwt_parts(self.user.token)
        for alg in ("HS512", "RS256"):
            with self.subTest(alg=alg):
                forged = dc.jwt_encode({"alg": alg, "typ": "JWT"}, claims, None, signature=sig)
                self.assertUnauthenticated(dc.get("/api/auth/verify", token=forged))

    def test_expired_token_is_rejected_while_a_fresh_one_made_the_same_way_works(self):
        header, claims, _ = dc.jwt_parts(self.user.token)
        key = dc.jwt_signing_key(self.user.token)
        now = int(time.time())
        # Control: our own signing, valid times -> accepted (so the 401 below is about expiry).
        fresh = dc.jwt_encode(header, {**claims, "iat": now - 10, "exp": now + 600}, key)
        r = dc.get("/api/auth/verify", token=fresh)
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json["user"]["id"], self.user.id, r)
        expired = dc.jwt_encode(header, {**claims, "iat": now - 7200, "exp": now - 3600}, key)
        self.assertUnauthenticated(dc.get("/api/auth/verify", token=expired))
        self.assertUnauthenticated(dc.get("/api/v1/services", token=expired))
        just_expired = dc.jwt_encode(header, {**claims, "iat": now - 700, "exp": now - 100}, key)
        self.assertUnauthenticated(dc.get("/api/auth/verify", token=just_expired))

    def test_token_without_exp_or_with_bad_claims_is_rejected(self):
        header, claims, _ = dc.jwt_parts(self.user.token)
        key = dc.jwt_signing_key(self.user.token)
        no_exp = {k: v for k, v in claims.items() if k != "exp"}
        self.assertUnauthenticated(dc.get("/api/auth/verify", token=dc.jwt_encode(header, no_exp, key)))
        unknown_sub = {**claims, "sub": "999999999" if isinstance(claims["sub"], str) else 999999999}
        self.assertUnauthenticated(
            dc.get("/api/auth/verify", token=dc.jwt_encode(header, unknown_sub, key)))

    def test_token_of_deleted_user_is_rejected(self):
        u = dc.create_user("gone")
        token = u.token
        self.assertEqual(dc.get("/api/auth/verify", token=token).status, 200)
        dc.delete_user(u.id)
        self.assertUnauthenticated(dc.get("/api/auth/verify", token=token))


class ThrottlingTest(dc.DozorTestCase):
    max_failures = dc.config_value("auth", "max_failures", 5)
    lockout = dc.config_value("auth", "lockout_seconds", 60)

    def _fail_until_locked(self, username: str, password: str, source: str) -> dc.Response:
        """Wrong logins from ``source`` until 429; exactly max_failures plain 401s first."""
        for attempt in range(1, self.max_failures + 2):
            r = dc.login(username, password, source=source)
            if attempt <= self.max_failures:
                self.assertDetail(r, 401, INCORRECT)
            else:
                return r
        self.fail("no 429 after %d failures for %s: %r" % (self.max_failures + 1, username, r))

    def assertThrottled(self, r: dc.Response):
        self.assertDetail(r, 429)
        self.assertNotIn("access_token", r.text)
        ra = r.header("Retry-After")
        self.assertIsNotNone(ra, r)
        self.assertRegex(ra, r"^\d+$", r)
        self.assertGreaterEqual(int(ra), 1, r)
        self.assertLessEqual(int(ra), 3600, r)

    def test_repeated_failures_block_that_client_even_for_the_right_password(self):
        # Per (account, client): the client that failed waits; others do not (docs/login.md;
        # test_login_throttle.py has the floods, device cookies and the /64 rule).
        victim = self.new_user("locked")
        bystander = self.new_user("bystander")
        attacker = dc.fresh_source()
        r = self._fail_until_locked(victim.username, "wrong-password-1", attacker)
        self.assertThrottled(r)
        self.assertLessEqual(int(r.header("Retry-After")), self.lockout + 1, r)

        r = dc.login(victim.username, victim.password, source=attacker)
        self.assertThrottled(r)

        # the account is not locked: the victim from another client logs in
        r = dc.login(victim.username, victim.password, source=dc.fresh_source())
        self.assertEqual(r.status, 200, r)
        # and somebody else from the attacker's client too
        r = dc.login(bystander.username, bystander.password, source=attacker)
        self.assertEqual(r.status, 200, r)

    def test_unknown_names_are_throttled_the_same_way(self):
        ghost = dc.unique_name("ghost")
        src = dc.fresh_source()
        r = self._fail_until_locked(ghost, "whatever-pw", src)
        self.assertThrottled(r)
        r2 = dc.login(ghost, "whatever-pw", source=src)
        self.assertThrottled(r2)
        self.assertEqual(r.json, r2.json)

    def test_spellings_of_one_name_share_the_account_and_its_counter(self):
        # One canonical form (NFKC, case folded, invisible characters removed): a variant
        # spelling is neither a second account nor a way around the throttle.
        u = self.new_user("spell")
        variants = (u.username.upper(), u.username + " ", u.username.capitalize())
        for v in variants:
            with self.subTest(create=v):
                r = dc.post("/api/admin/users", {"username": v, "email": "v-%s@example.com" % dc.unique_name("v")
                                                 .replace("_", "-"), "password": "Long-enough-pw-1"},
                            token=dc.admin_token())
                self.assertIn(r.status, (409, 422), r)
        src = dc.fresh_source()
        self.assertThrottled(self._fail_until_locked(u.username, "wrong-wrong-wrong", src))
        for v in variants:
            with self.subTest(login=v):
                self.assertThrottled(dc.login(v, u.password, source=src))

    def test_any_spelling_of_the_name_logs_into_the_same_account(self):
        u = self.new_user("exact")
        for v in (u.username.upper(), u.username + " "):
            with self.subTest(login=v):
                r = dc.login(v, u.password, source=dc.fresh_source())
                self.assertEqual(r.status, 200, r)
                self.assertEqual(r.json["user"]["id"], u.id)

    def test_valid_token_still_works_during_lockout(self):
        victim = self.new_user("locktok")
        token = victim.token
        self.assertThrottled(self._fail_until_locked(victim.username, "nope-nope-nope", dc.fresh_source()))
        r = dc.get("/api/auth/verify", token=token)
        self.assertEqual(r.status, 200, r)


class NginxLoginRateLimitTest(dc.DozorTestCase):
    """nginx's per-address brake on /api/auth/login (issue §5): a burst far over the limit
    gets JSON 429s with Retry-After, while the requests within the burst reach the app."""

    def test_login_burst_is_rate_limited_by_nginx(self):
        time.sleep(2.5)  # let the bucket refill after the paced logins of other tests
        names = [dc.unique_name("burst") for _ in range(60)]
        src = dc.fresh_source()  # its own address: the app's client counter is not 127.0.0.1's
        with concurrent.futures.ThreadPoolExecutor(max_workers=30) as pool:
            answers = list(pool.map(
                lambda n: dc.request("POST", "/api/auth/login", pace=False, source=src,
                                     json_body={"username": n, "password": "x-x-x-x-x"}), names))
        time.sleep(3)  # refill again for the tests that follow
        statuses = [r.status for r in answers]
        self.assertEqual(set(statuses) - {401, 429}, set(), statuses)
        self.assertGreaterEqual(statuses.count(401), 10, statuses)  # the burst got through
        limited = [r for r in answers if r.status == 429]
        self.assertTrue(limited, "60 rapid logins were never rate-limited: %s" % statuses)
        for r in limited[:3]:
            self.assertDetail(r, 429)
            self.assertIsNotNone(r.header("Retry-After"), r)
            self.assertEqual(r.header("X-Content-Type-Options"), "nosniff", r)


if __name__ == "__main__":
    unittest.main()
