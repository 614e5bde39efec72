"""Services under both prefixes (/api/v1 and /api): list, create + validation, delete, one-shot
check against local fixture servers, egress policy, isolation between users; plus the router's
404/405, the body limit (413) and deeply nested JSON."""

import re
import threading
import time
import unittest
import datetime as dt

import dozor_client as dc

EGRESS_RE = re.compile(r"egress|polic", re.I)
METADATA_URL = "http://169.254.169.254/latest/meta-data"


def ok_routes():
    return {
        "/ok": (200, {"Content-Type": "text/plain"}, "fine"),
        "/fail": (500, {"Content-Type": "text/plain"}, "boom"),
        "/to-ok": (302, {"Location": "/ok"}, ""),
        "/to-metadata": (302, {"Location": METADATA_URL}, ""),
        "/missing": (404, {}, "nope"),
    }


class _ServicesContract:
    """Run once per prefix (subclasses below)."""

    prefix = None  # "/api/v1" or "/api"
    other_prefix = None

    def p(self, suffix):
        return self.prefix + suffix

    @classmethod
    def setUpClass(cls):
        cls.alice = dc.create_user("alice")
        cls.bob = dc.create_user("bob")

    @classmethod
    def tearDownClass(cls):
        dc.delete_user(cls.alice.id)
        dc.delete_user(cls.bob.id)

    def create(self, user=None, **fields):
        return self.new_service(user or self.alice, prefix=self.prefix, **fields)

    def listing(self, user=None, prefix=None):
        r = dc.get((prefix or self.prefix) + "/services", token=(user or self.alice).token)
        self.assertEqual(r.status, 200, r)
        self.assertIsInstance(r.json, list, r)
        for item in r.json:
            self.assertServiceResponse(item)
        return r.json

    def by_id(self, service_id, user=None):
        for s in self.listing(user):
            if s["id"] == service_id:
                return s
        return None

    def check(self, service_id, user=None):
        return dc.post(self.p("/services/%s/check" % service_id), token=(user or self.alice).token)

    def assertOneShot(self, r, service_id):
        self.assertEqual(r.status, 200, r)
        self.assertJsonContentType(r)
        res = r.json
        self.assertEqual(set(res), dc.ONESHOT_FIELDS, r)
        self.assertEqual(res["service_id"], service_id, r)
        self.assertIsInstance(res["is_available"], bool, r)
        checked = dc.parse_datetime(res["checked_at"])
        self.assertIsNotNone(checked.tzinfo, "checked_at without zone: %r" % r)
        self.assertLess(abs((checked - dt.datetime.now(dt.timezone.utc)).total_seconds()), 300, r)
        if res["status_code"] is not None:
            self.assertIsInstance(res["status_code"], int, r)
        if res["response_time_ms"] is not None:
            self.assertIsInstance(res["response_time_ms"], int, r)
            self.assertGreaterEqual(res["response_time_ms"], 0, r)
        return res

    # ------------------------------------------------------------------ list / create

    def test_create_with_defaults_and_list(self):
        name = dc.unique_name("svc")
        r = dc.post(self.p("/services"), {"name": name, "url": "http://127.0.0.1:9/health"},
                    token=self.alice.token)
        self.assertEqual(r.status, 200, r)
        self.assertJsonContentType(r)
        svc = r.json
        self.addCleanup(dc.delete, self.p("/services/%d" % svc.get("id", 0)), token=self.alice.token)
        self.assertServiceResponse(svc)
        self.assertEqual(svc["name"], name)
        self.assertEqual(svc["url"], "http://127.0.0.1:9/health")
        self.assertEqual(svc["check_interval"], 60)
        self.assertIs(svc["is_active"], True)
        self.assertIsNone(svc["last_status"])
        self.assertIsNone(svc["last_response_time"])
        self.assertIsNone(svc["last_checked_at"])

        for prefix in (self.prefix, self.other_prefix):
            with self.subTest(list_prefix=prefix):
                listed = [s for s in self.listing(prefix=prefix) if s["id"] == svc["id"]]
                self.assertEqual(listed, [svc])
        ids = [s["id"] for s in self.listing()]
        self.assertEqual(ids, sorted(ids), "services not listed by id")

    def test_create_with_all_fields(self):
        svc = self.create(name="Ünïcode ✓ name", url="https://127.0.0.1:9/a?b=1",
                          check_interval=3600, is_active=False)
        self.assertEqual(svc["name"], "Ünïcode ✓ name")
        self.assertEqual(svc["url"], "https://127.0.0.1:9/a?b=1")
        self.assertEqual(svc["check_interval"], 3600)
        self.assertIs(svc["is_active"], False)
        self.assertEqual(self.by_id(svc["id"]), svc)

    def test_url_of_exactly_2083_chars_is_accepted(self):
        head = "http://127.0.0.1:9/"
        url = head + "a" * (2083 - len(head))
        self.assertEqual(len(url), 2083)
        svc = self.create(url=url)
        self.assertEqual(svc["url"], url)

    def test_list_requires_token(self):
        self.assertUnauthenticated(dc.get(self.p("/services")))
        self.assertUnauthenticated(dc.post(self.p("/services"), {"name": "x", "url": "http://a.example/"}))
        self.assertUnauthenticated(dc.delete(self.p("/services/1")))
        self.assertUnauthenticated(dc.post(self.p("/services/1/check")))

    # ------------------------------------------------------------------ validation

    def post_service(self, body):
        return dc.post(self.p("/services"), body, token=self.alice.token)

    def test_missing_name_and_url_both_reported(self):
        r = self.post_service({})
        detail = self.assertValidation(r, [("missing", ["body", "name"]), ("missing", ["body", "url"])])
        self.assertEqual(len(detail), 2, r)

    def test_url_errors(self):
        cases = {
            "ftp://example.com/file": "url_scheme",
            "javascript:alert(1)": "url_scheme",
            "file:///etc/passwd": "url_scheme",
            "not a url": "url_parsing",
            "http//missing-colon.example": "url_parsing",
            "http://": "url_parsing",
            "http://" + "a" * 2100 + ".example/": "url_too_long",
            "https://example.com/" + "x" * 2064: "url_too_long",  # 2084 chars
        }
        for url, typ in cases.items():
            with self.subTest(url=url[:40], expected=typ):
                r = self.post_service({"name": "n", "url": url})
                self.assertValidation(r, [(typ, ["body", "url"])])

    def test_odd_urls_are_422_not_500(self):
        # The limit holds for the stored (normalised) form: normalisation adds the "/" of an
        # empty path, so 2083 characters without a path are one too many.
        no_path = "https://example.com?" + "q" * (2083 - len("https://example.com?"))
        self.assertEqual(len(no_path), 2083)
        cases = {
            no_path: "url_too_long",
            "http://%ff.example/": "url_parsing",  # host bytes that are not UTF-8
            "http://%c3%28.example/": "url_parsing",
            "http://ex%00ample.com/": "url_parsing",
        }
        for url, typ in cases.items():
            with self.subTest(url=url[:40], expected=typ):
                r = self.post_service({"name": "n", "url": url})
                self.assertValidation(r, [(typ, ["body", "url"])])

    def test_url_with_utf8_host_is_accepted(self):
        svc = self.create(url="http://%D0%BF%D1%80%D0%B8%D0%BC%D0%B5%D1%80.example/")
        self.assertTrue(svc["url"].startswith("http://"), svc)

    def test_empty_url_is_422(self):
        r = self.post_service({"name": "n", "url": ""})
        self.assertValidationLoc(r, ["body", "url"])

    def test_field_types(self):
        cases = [
            ({"name": "n", "url": "http://a.example/", "check_interval": "abc"}, "int_parsing", "check_interval"),
            ({"name": "n", "url": "http://a.example/", "check_interval": 1.5}, "int_from_float", "check_interval"),
            ({"name": "n", "url": "http://a.example/", "is_active": "maybe"}, "bool_parsing", "is_active"),
            ({"name": 12, "url": "http://a.example/"}, "string_type", "name"),
            ({"name": "n", "url": 12}, None, "url"),
            ({"name": "n", "url": "http://a.example/", "check_interval": 5}, "greater_than_equal",
             "check_interval"),
        ]
        for body, typ, field in cases:
            with self.subTest(body=body):
                r = self.post_service(body)
                if typ is None or typ == "int_from_float":
                    self.assertValidationLoc(r, ["body", field])
                else:
                    self.assertValidation(r, [(typ, ["body", field])])
                    err = self.assertValidationLoc(r, ["body", field])
                    self.assertEqual(err["input"], body[field], r)

    def test_name_length(self):
        self.assertValidationLoc(self.post_service({"name": "", "url": "http://a.example/"}), ["body", "name"])
        self.assertValidationLoc(self.post_service({"name": "x" * 256, "url": "http://a.example/"}),
                                 ["body", "name"])

    def test_several_errors_are_all_reported(self):
        r = self.post_service({"name": 5, "url": "ftp://x.example/", "check_interval": "often",
                               "is_active": "maybe"})
        detail = self.assertValidation(r, [
            ("string_type", ["body", "name"]),
            ("url_scheme", ["body", "url"]),
            ("int_parsing", ["body", "check_interval"]),
            ("bool_parsing", ["body", "is_active"]),
        ])
        self.assertEqual(len(detail), 4, r)
        r = self.post_service({"check_interval": "often"})
        self.assertValidation(r, [("missing", ["body", "name"]), ("missing", ["body", "url"]),
                                  ("int_parsing", ["body", "check_interval"])])

    def test_body_shape_errors(self):
        self.assertValidation(self.post_service([{"name": "n"}]), [("model_attributes_type", ["body"])])
        self.assertValidation(self.post_service("name"), [("model_attributes_type", ["body"])])
        r = dc.request("POST", self.p("/services"), data=b'{"name": "n", "url": ', token=self.alice.token)
        self.assertEqual(r.status, 422, r)
        self.assertIn("json_invalid", [d["type"] for d in r.json["detail"]], r)

    def test_rejected_creates_store_nothing(self):
        before = [s["id"] for s in self.listing()]
        self.post_service({"name": "bad", "url": "ftp://x.example/"})
        self.post_service({"name": "bad", "url": "http://a.example/", "is_active": "maybe"})
        self.assertEqual([s["id"] for s in self.listing()], before)

    # ------------------------------------------------------------------ delete

    def test_delete(self):
        svc = self.create()
        r = dc.delete(self.p("/services/%d" % svc["id"]), token=self.alice.token)
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json, {"id": svc["id"], "deleted": True}, r)
        self.assertIsNone(self.by_id(svc["id"]))
        self.assertDetail(dc.delete(self.p("/services/%d" % svc["id"]), token=self.alice.token), 404)
        self.assertDetail(self.check(svc["id"]), 404)

    def test_delete_unknown_and_invalid_ids(self):
        self.assertDetail(dc.delete(self.p("/services/999999999"), token=self.alice.token), 404)
        r = dc.delete(self.p("/services/abc"), token=self.alice.token)
        self.assertValidation(r, [("int_parsing", ["path", "service_id"])])

    # ------------------------------------------------------------------ check: path validation

    def test_check_path_validation(self):
        for sid in ("0", "-1"):
            with self.subTest(service_id=sid):
                r = self.check(sid)
                detail = self.assertValidation(r, [("greater_than_equal", ["path", "service_id"])])
                self.assertEqual(detail[0].get("ctx", {}).get("ge", 1), 1, r)
        for sid in ("abc", "1.0", "1e3"):
            with self.subTest(service_id=sid):
                self.assertValidation(self.check(sid), [("int_parsing", ["path", "service_id"])])
        self.assertDetail(self.check(999999999), 404)

    # ------------------------------------------------------------------ check: real targets

    def test_check_up(self):
        with dc.FixtureServer(ok_routes()) as fx:
            svc = self.create(url=fx.url("/ok"))
            t0 = time.monotonic()
            r = self.check(svc["id"])
            elapsed_ms = (time.monotonic() - t0) * 1000
            res = self.assertOneShot(r, svc["id"])
            self.assertIs(res["is_available"], True, r)
            self.assertEqual(res["status_code"], 200, r)
            self.assertIsNotNone(res["response_time_ms"], r)
            self.assertLessEqual(res["response_time_ms"], elapsed_ms + 50, r)
            self.assertIsNone(res["error"], r)
            hits = fx.hits()
            self.assertEqual(len(hits), 1, hits)
            self.assertEqual(hits[0]["method"], "GET", hits)
            self.assertEqual(hits[0]["path"], "/ok", hits)
            ua = {k.lower(): v for k, v in hits[0]["headers"].items()}.get("user-agent", "")
            self.assertTrue(ua.startswith("Dozor/2.0"), "User-Agent %r" % ua)
        listed = self.by_id(svc["id"])
        self.assertEqual(listed["last_status"], "up", listed)
        self.assertEqual(listed["last_response_time"], res["response_time_ms"], listed)
        self.assertIsNotNone(listed["last_checked_at"], listed)
        dc.parse_datetime(listed["last_checked_at"])

    def test_check_down_on_500(self):
        with dc.FixtureServer(ok_routes()) as fx:
            svc = self.create(url=fx.url("/fail"))
            res = self.assertOneShot(self.check(svc["id"]), svc["id"])
            self.assertIs(res["is_available"], False, res)
            self.assertEqual(res["status_code"], 500, res)
            self.assertEqual(len(fx.hits()), 1)
        self.assertEqual(self.by_id(svc["id"])["last_status"], "down")

    def test_check_down_on_404(self):
        with dc.FixtureServer(ok_routes()) as fx:
            svc = self.create(url=fx.url("/missing"))
            res = self.assertOneShot(self.check(svc["id"]), svc["id"])
            self.assertIs(res["is_available"], False, res)
            self.assertEqual(res["status_code"], 404, res)

    def test_status_goes_up_then_down(self):
        state = {"code": 200}
        with dc.FixtureServer({"/flip": lambda h: (state["code"], {}, "x")}) as fx:
            svc = self.create(url=fx.url("/flip"))
            self.assertIs(self.assertOneShot(self.check(svc["id"]), svc["id"])["is_available"], True)
            self.assertEqual(self.by_id(svc["id"])["last_status"], "up")
            state["code"] = 503
            self.assertIs(self.assertOneShot(self.check(svc["id"]), svc["id"])["is_available"], False)
            self.assertEqual(self.by_id(svc["id"])["last_status"], "down")

    def test_check_follows_a_redirect(self):
        with dc.FixtureServer(ok_routes()) as fx:
            svc = self.create(url=fx.url("/to-ok"))
            res = self.assertOneShot(self.check(svc["id"]), svc["id"])
            self.assertIs(res["is_available"], True, res)
            self.assertEqual(res["status_code"], 200, res)
            self.assertEqual([h["path"] for h in fx.hits()], ["/to-ok", "/ok"])

    def test_redirect_to_a_location_that_is_not_utf8_is_a_recorded_error(self):
        def bad_location(handler):
            # http.server encodes header values as latin-1: "\xff" goes out as the raw byte 0xff.
            return 302, {"Location": "http://\xff\xfe.example/x"}, ""

        with dc.FixtureServer({"/bad": bad_location}) as fx:
            svc = self.create(url=fx.url("/bad"))
            res = self.assertOneShot(self.check(svc["id"]), svc["id"])
            self.assertIs(res["is_available"], False, res)
            self.assertIsInstance(res["error"], str, res)
            listed = self.by_id(svc["id"])
            self.assertEqual(listed["last_status"], "down", listed)

    def test_service_deleted_while_its_check_runs(self):
        started = threading.Event()
        release = threading.Event()

        def slow(handler):
            started.set()
            release.wait(10)
            return 200, {}, "ok"

        with dc.FixtureServer({"/slow": slow}) as fx:
            svc = self.create(url=fx.url("/slow"))
            out = {}
            t = threading.Thread(target=lambda: out.setdefault("r", self.check(svc["id"])))
            t.start()
            self.assertTrue(started.wait(10))
            self.assertEqual(dc.delete(self.p("/services/%d" % svc["id"]), token=self.alice.token).status, 200)
            release.set()
            t.join(15)
        r = out["r"]
        self.assertEqual(r.status, 404, r)
        self.assertDetail(r, 404)

    def test_check_closed_port(self):
        svc = self.create(url="http://127.0.0.1:%d/" % dc.closed_port())
        res = self.assertOneShot(self.check(svc["id"]), svc["id"])
        self.assertIs(res["is_available"], False, res)
        self.assertIsNone(res["status_code"], res)
        self.assertIsInstance(res["error"], str, res)
        self.assertTrue(res["error"].strip(), res)
        self.assertEqual(self.by_id(svc["id"])["last_status"], "down")

    def test_redirect_to_cloud_metadata_is_refused(self):
        with dc.FixtureServer(ok_routes()) as fx:
            svc = self.create(url=fx.url("/to-metadata"))
            r = self.check(svc["id"])
            res = self.assertOneShot(r, svc["id"])
            self.assertIs(res["is_available"], False, r)
            self.assertIsInstance(res["error"], str, r)
            self.assertRegex(res["error"], EGRESS_RE, r)
            self.assertEqual(len(fx.hits()), 1, fx.hits())
        self.assertEqual(self.by_id(svc["id"])["last_status"], "down")

    def test_cloud_metadata_target_is_refused(self):
        # refused even though private targets are allowed in the test stack; also in disguise
        for url in (METADATA_URL, "http://[::ffff:169.254.169.254]/latest/meta-data",
                    "http://2852039166/latest/meta-data", "http://169.254.169.254:8080/"):
            with self.subTest(url=url):
                r = dc.post(self.p("/services"), {"name": "meta", "url": url}, token=self.alice.token)
                if r.status == 422 and url not in (METADATA_URL, "http://169.254.169.254:8080/"):
                    continue  # refusing an odd spelling at creation is fine too
                self.assertEqual(r.status, 200, r)
                t0 = time.monotonic()
                res = self.assertOneShot(self.check(r.json["id"]), r.json["id"])
                self.assertIs(res["is_available"], False, res)
                self.assertIsInstance(res["error"], str, res)
                self.assertRegex(res["error"], EGRESS_RE, res)
                self.assertLess(time.monotonic() - t0, 5, "refusal should not wait for a connect")

    # ------------------------------------------------------------------ limits

    def test_service_limit_per_user_at_n_and_n_plus_1(self):
        user = self.new_user("cap")
        limit = int(dc.config_value("limits", "services_per_user", 1000))
        # Seed all but one directly (paused, so nothing checks them), then cross the bound via the API.
        dc.db_query(
            "INSERT INTO services (user_id, name, url, check_interval, is_active)"
            " SELECT %d, CONCAT('seed', seq), 'http://127.0.0.1:9/', 3600, 0 FROM seq_1_to_%d"
            % (user.id, limit - 1)
        )
        r = dc.post(self.p("/services"), {"name": "last", "url": "http://127.0.0.1:9/"}, token=user.token)
        self.assertEqual(r.status, 200, r)  # the N-th
        r = dc.post(self.p("/services"), {"name": "over", "url": "http://127.0.0.1:9/"}, token=user.token)
        self.assertDetail(r, 409)  # the N+1-th
        self.assertIn(str(limit), r.json["detail"])
        self.assertEqual(len(self.listing(user)), limit)

    def test_one_user_holds_at_most_two_check_slots_across_workers(self):
        started = threading.Semaphore(0)
        release = threading.Event()

        def slow(handler):
            started.release()
            release.wait(10)
            return 200, {}, "ok"

        user = self.new_user("slots")
        with dc.FixtureServer({"/slow": slow}) as fx:
            ids = [self.create(user, url=fx.url("/slow"))["id"] for _ in range(5)]
            results = {}
            threads = [threading.Thread(target=lambda i=i: results.__setitem__(i, self.check(i, user)))
                       for i in ids]
            for t in threads:
                t.start()
            # Two checks reach the target; the rest are refused at once, whichever worker took them.
            self.assertTrue(started.acquire(timeout=10))
            self.assertTrue(started.acquire(timeout=10))
            dc.wait_until(lambda: len(results) >= 3, 10)
            refused = [r for r in results.values() if r.status == 429]
            self.assertEqual(len(refused), 3, results)
            for r in refused:
                self.assertEqual(r.header("Retry-After"), "2", r)
            other = self.new_user("other")
            svc = self.create(other, url=fx.url("/slow"))
            t_other = threading.Thread(target=lambda: results.__setitem__("other", self.check(svc["id"], other)))
            t_other.start()
            self.assertTrue(started.acquire(timeout=10), "another user must still get a slot")
            release.set()
            for t in threads + [t_other]:
                t.join(15)
        self.assertEqual(sorted(r.status for r in results.values()), [200, 200, 200, 429, 429, 429])

    # ------------------------------------------------------------------ isolation

    def test_users_cannot_see_delete_or_check_each_others_services(self):
        with dc.FixtureServer(ok_routes()) as fx:
            a = self.create(self.alice, url=fx.url("/ok"))
            b = self.create(self.bob, url=fx.url("/ok"))
            for prefix in (self.prefix, self.other_prefix):
                with self.subTest(prefix=prefix):
                    self.assertNotIn(a["id"], [s["id"] for s in self.listing(self.bob, prefix)])
                    self.assertNotIn(b["id"], [s["id"] for s in self.listing(self.alice, prefix)])
                    self.assertIn(a["id"], [s["id"] for s in self.listing(self.alice, prefix)])
                    r = dc.delete(prefix + "/services/%d" % a["id"], token=self.bob.token)
                    self.assertDetail(r, 404)
                    r = dc.post(prefix + "/services/%d/check" % a["id"], token=self.bob.token)
                    self.assertDetail(r, 404)
            self.assertEqual(fx.hits(), [], "another user's check reached the target")
            # the 404 for a foreign id looks exactly like the one for a missing id
            foreign = dc.delete(self.p("/services/%d" % a["id"]), token=self.bob.token)
            missing = dc.delete(self.p("/services/999999999"), token=self.bob.token)
            self.assertEqual(foreign.body, missing.body)
            # alice's service is untouched and unchecked
            still = self.by_id(a["id"], self.alice)
            self.assertIsNotNone(still)
            self.assertIsNone(still["last_status"])


class ServicesV1Test(_ServicesContract, dc.DozorTestCase):
    prefix = "/api/v1"
    other_prefix = "/api"


class ServicesApiTest(_ServicesContract, dc.DozorTestCase):
    prefix = "/api"
    other_prefix = "/api/v1"


class OutboundCheckTest(dc.DozorTestCase):
    """Limits of the outbound check (issue §4): redirects bounded, http(s) only on every hop,
    TLS verified, the monitor.timeout honoured."""

    @classmethod
    def setUpClass(cls):
        cls.user = dc.create_user("outbound")

    @classmethod
    def tearDownClass(cls):
        dc.delete_user(cls.user.id)

    def check_url(self, url):
        svc = self.new_service(self.user, url=url)
        t0 = time.monotonic()
        r = dc.post("/api/v1/services/%d/check" % svc["id"], token=self.user.token)
        self.assertEqual(r.status, 200, r)
        self.assertEqual(set(r.json), dc.ONESHOT_FIELDS, r)
        return r.json, time.monotonic() - t0

    def test_redirects_are_bounded(self):
        routes = {"/r%d" % i: (302, {"Location": "/r%d" % (i + 1)}, "") for i in range(12)}
        routes["/r12"] = (200, {}, "finally")
        with dc.FixtureServer(routes) as fx:
            res, _ = self.check_url(fx.url("/r0"))
            # the check stops (and says so) instead of chasing the chain, and a redirect loop
            # is not a working site (docs/decisions.md)
            self.assertLessEqual(len(fx.hits()), 6, [h["path"] for h in fx.hits()])
            self.assertNotIn("/r12", [h["path"] for h in fx.hits()])
            self.assertRegex(res["error"] or "", re.compile("redirect", re.I), res)
            self.assertIs(res["is_available"], False, res)
            self.assertEqual(res["status_code"], 302, res)
        # five redirects are still followed
        routes = {"/r%d" % i: (302, {"Location": "/r%d" % (i + 1)}, "") for i in range(5)}
        routes["/r5"] = (200, {}, "ok")
        with dc.FixtureServer(routes) as fx:
            res, _ = self.check_url(fx.url("/r0"))
            self.assertIs(res["is_available"], True, res)
            self.assertEqual(len(fx.hits()), 6)

    def test_redirect_to_another_scheme_is_not_followed(self):
        with dc.TcpListener() as tcp:
            for target in ("ftp://127.0.0.1:%d/" % tcp.port, "gopher://127.0.0.1:%d/_x" % tcp.port,
                           "dict://127.0.0.1:%d/x" % tcp.port, "file:///etc/passwd"):
                with self.subTest(target=target):
                    with dc.FixtureServer({"/go": (302, {"Location": target}, "")}) as fx:
                        res, _ = self.check_url(fx.url("/go"))
                        self.assertIs(res["is_available"], False, res)
                        self.assertNotIn("root:", res["error"] or "", res)
            self.assertEqual(tcp.connections, 0, "a non-http redirect was followed")

    def test_tls_is_verified(self):
        with dc.TlsFixtureServer({"/ok": (200, {}, "ok")}) as fx:
            res, _ = self.check_url(fx.url("/ok"))
            self.assertIs(res["is_available"], False, "an untrusted certificate was accepted: %r" % res)
            self.assertRegex(res["error"] or "", re.compile(r"certif|ssl|tls|verif|issuer", re.I), res)

    def test_timeout_is_honoured(self):
        timeout = dc.config_value("monitor", "timeout", 10)
        if timeout > 15:
            self.skipTest("monitor.timeout %s s is too long for this test" % timeout)
        release = threading.Event()

        def slow(handler):
            release.wait(timeout + 10)
            return 200, {}, "late"

        with dc.FixtureServer({"/slow": slow}) as fx:
            try:
                res, took = self.check_url(fx.url("/slow"))
            finally:
                release.set()
        self.assertIs(res["is_available"], False, res)
        self.assertTrue(res["error"], res)
        self.assertLess(took, timeout + 5, "the check took %.1f s (monitor.timeout %s)" % (took, timeout))
        self.assertGreaterEqual(took, timeout - 1, "gave up after %.1f s, before monitor.timeout" % took)


class RouterAndLimitsTest(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = dc.create_user("router")

    @classmethod
    def tearDownClass(cls):
        dc.delete_user(cls.user.id)

    def test_wrong_method_is_405_with_allow(self):
        cases = [
            ("PUT", "/api/v1/services", {"GET", "POST"}),
            ("DELETE", "/api/services", {"GET", "POST"}),
            ("GET", "/api/v1/services/1/check", {"POST"}),
            ("PATCH", "/api/services/1", {"PUT", "DELETE"}),
            ("POST", "/api/health", {"GET"}),
            ("DELETE", "/health", {"GET"}),
            ("GET", "/api/auth/login", {"POST"}),
            ("PATCH", "/api/admin/users/1", {"PUT", "DELETE"}),
        ]
        for method, path, allowed in cases:
            for token in (None, self.user.token):
                with self.subTest(route="%s %s" % (method, path), token=bool(token)):
                    r = dc.request(method, path, token=token)
                    self.assertDetail(r, 405)
                    allow = {m.strip().upper() for m in (r.header("Allow") or "").split(",") if m.strip()}
                    self.assertTrue(allowed <= allow, "Allow %r for %s %s" % (r.header("Allow"), method, path))
                    self.assertNotIn(method, allow)

    def test_unknown_api_path_is_404_json(self):
        for path in ("/api/no-such-thing", "/api/v1/no-such-thing", "/api/v2/health",
                     "/api/v1/services/1/unknown", "/api/admin/users/1/secrets", "/api/v1/admin/users"):
            for token in (None, self.user.token):
                with self.subTest(path=path, token=bool(token)):
                    self.assertDetail(dc.get(path, token=token), 404)

    def _workers(self):
        try:
            return dc.worker_pids()
        except (OSError, ValueError):
            return None

    def assertServerStillAnswers(self, workers_before):
        r = dc.get("/health")
        self.assertEqual(r.status, 200, r)
        r = dc.get("/api/v1/services", token=self.user.token)
        self.assertEqual(r.status, 200, r)
        if workers_before is not None:
            self.assertEqual(self._workers(), workers_before, "a worker died (and was respawned)")

    def test_body_over_1_mib_is_413(self):
        before = self._workers()
        limit = dc.config_value("server", "max_body", 1048576)
        body = b'{"name": "' + b"a" * limit + b'", "url": "http://a.example/"}'
        r = dc.request("POST", "/api/v1/services", data=body, token=self.user.token)
        self.assertDetail(r, 413)
        r = dc.request("POST", "/api/auth/login", data=body)
        self.assertDetail(r, 413)
        self.assertServerStillAnswers(before)

    def test_deeply_nested_json_is_rejected_without_crash(self):
        before = self._workers()
        depth = 100_000
        bodies = {
            "array": b"[" * depth + b"]" * depth,
            "object": b'{"a":' * depth + b"1" + b"}" * depth,
            "unterminated": b"[" * depth,
            "in a field": b'{"name": "n", "url": "http://a.example/", "is_active": ' + b"[" * depth + b"]" * depth + b"}",
        }
        for label, body in bodies.items():
            with self.subTest(body=label):
                r = dc.request("POST", "/api/v1/services", data=body, token=self.user.token)
                self.assertIn(r.status, (400, 422), r)
                self.assertJsonContentType(r)
                self.assertIn("detail", r.json, r)
            with self.subTest(body=label, path="/api/auth/login"):
                # unauthenticated: nginx admits 4 KiB on login, so a 100,000-deep body is 413 there
                r = dc.request("POST", "/api/auth/login", data=body)
                self.assertDetail(r, 413)
        # the deepest body that fits the login limit still reaches the parser unauthenticated
        r = dc.request("POST", "/api/auth/login", data=b"[" * 1900 + b"]" * 1900)
        self.assertIn(r.status, (400, 422), r)
        self.assertIn("detail", r.json, r)
        self.assertServerStillAnswers(before)


if __name__ == "__main__":
    unittest.main()
