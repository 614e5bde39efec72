"""Issue 9 §1 (docs/tasks.md): background tasks. Queue a crawl, an audit or a scan of a target (or
of a service), read it as its owner, an admin or a stranger, poll the unauthenticated status
route, list, cancel; dozord runs them with one active task per origin, and a task whose dozord
was killed mid-run is taken over once its lease expires and completes once."""

import os
import signal
import time
import unittest

import dozor_client as dc

PUBLIC_KEYS = {"task_id", "status", "progress", "phase", "created_at", "started_at", "finished_at"}


def rows(sql):
    return dc.db_query(sql)


def queue(user, target, task_type=None, body=dc._UNSET):
    path = "/api/security/queue/" + dc.enc(target)
    if task_type:
        path += "?task_type=" + task_type
    return dc.post(path, body, token=user.token)


def status(task_id):
    return dc.get("/api/task/%s/status" % task_id).json


def wait_status(task_id, wanted, timeout):
    got = dc.wait_until(lambda: status(task_id)["status"] in wanted, timeout, 0.3)
    return status(task_id) if got else None


class SlowSite:
    """A site of `pages` pages that link to each other, each answered after `delay` seconds."""

    def __init__(self, pages=30, delay=0.5):
        self.delay = delay
        routes = {}
        for i in range(pages):
            links = "".join("<a href='/p%d'>p%d</a>" % (j, j) for j in range(pages) if j != i)
            routes["/" if i == 0 else "/p%d" % i] = self._page(links)
        self.fx = dc.FixtureServer(routes)

    def _page(self, links):
        def serve(handler):
            time.sleep(self.delay)
            return 200, {"Content-Type": "text/html; charset=utf-8"}, "<html><body>%s</body></html>" % links
        return serve

    def url(self, path="/"):
        return self.fx.url(path)

    def __enter__(self):
        self.fx.__enter__()
        return self

    def __exit__(self, *exc):
        self.fx.__exit__(*exc)


def small_site():
    return dc.FixtureServer({
        "/": (200, {"Content-Type": "text/html; charset=utf-8"},
              "<html><head><title>t</title></head><body><a href='/a'>a</a></body></html>"),
        "/a": (200, {"Content-Type": "text/html; charset=utf-8"}, "<html><body>a</body></html>"),
    })


class TasksTest(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        if not os.environ.get("DOZOR_TEST_STATE"):
            raise unittest.SkipTest("needs a private test stack (DOZOR_TEST_STATE)")

    def new_user(self, tag="tk", **kw):
        user = dc.create_user(tag, **kw)
        self.addCleanup(dc.delete_user, user.id)
        return user

    def start_dozord(self, name, **env_overrides):
        env = {"DOZOR_TASKS_" + key.upper(): str(value) for key, value in env_overrides.items()}
        return dc.start_dozord(self, name, env)

    def own_dozord(self):
        """Replaces the stack's dozord for this test (restored afterwards)."""
        dc.stackctl("stop-dozord")
        self.addCleanup(lambda: dc.stackctl("start-dozord"))

    # ------------------------------------------------------------------ lifecycle

    def test_crawl_task_runs_and_only_its_owner_sees_the_result(self):
        user = self.new_user()
        with small_site() as site:
            r = queue(user, site.url("/"), "crawl", {"depth": 1, "max_pages": 5})
            self.assertEqual(r.status, 200, r.text)
            task = r.json
            self.assertEqual(task["status"], "queued")
            self.assertEqual(task["kind"], "crawl")
            self.assertEqual(task["options"], {"depth": 1, "max_pages": 5})
            self.assertRegex(task["task_id"], r"^[A-Za-z0-9_-]{22}$")
            done = wait_status(task["task_id"], {"succeeded", "failed"}, 60)
            self.assertIsNotNone(done, "the task never finished: %r" % status(task["task_id"]))
            self.assertEqual(done["status"], "succeeded")
            self.assertEqual(done["progress"], 100)
            self.assertEqual(set(done), PUBLIC_KEYS)
            paths = sorted(h["path"] for h in site.hits() if h["path"] in ("/", "/a"))
            self.assertEqual(paths, ["/", "/a"], "dozord did not crawl the site")

        full = dc.get("/api/security/queue/" + task["task_id"], token=user.token)
        self.assertEqual(full.status, 200, full.text)
        body = full.json
        self.assertEqual(body["status"], "succeeded")
        self.assertEqual(body["attempts"], 1)
        self.assertEqual(body["result"]["stats"]["stopped"], "complete")
        self.assertEqual(len(body["result"]["pages"]), 2)

        stranger = self.new_user("st")
        self.assertEqual(dc.get("/api/security/queue/" + task["task_id"], token=stranger.token).status, 404)
        self.assertEqual(dc.delete("/api/security/queue/" + task["task_id"], token=stranger.token).status, 404)
        admin = dc.get("/api/security/queue/" + task["task_id"], token=dc.admin_token())
        self.assertEqual(admin.status, 200)
        self.assertEqual(admin.json["result"], body["result"])

        listed = dc.get("/api/security/tasks?limit=1", token=user.token).json
        self.assertEqual(listed["total"], 1)
        self.assertEqual([t["task_id"] for t in listed["items"]], [task["task_id"]])
        self.assertNotIn("result", listed["items"][0])
        self.assertEqual(dc.get("/api/security/tasks", token=stranger.token).json["total"], 0)

    def test_the_public_status_route_reveals_nothing_but_state_and_progress(self):
        user = self.new_user()
        secret_target = "https://secret-target.invalid/private/path"
        dc.stackctl("stop-dozord")  # keep it queued: nothing is fetched
        self.addCleanup(lambda: dc.stackctl("start-dozord"))
        task = queue(user, secret_target, "audit").json
        r = dc.get("/api/task/%s/status" % task["task_id"])  # no token
        self.assertEqual(r.status, 200, r.text)
        self.assertEqual(set(r.json), PUBLIC_KEYS)
        self.assertEqual(r.json["status"], "queued")
        self.assertNotIn("secret-target", r.text)
        # Nor the owner: no value but the timestamps (whose digits may contain any id) names them.
        untimed = {k: v for k, v in r.json.items() if not k.endswith("_at") and k != "task_id"}
        self.assertNotIn(str(user.id), str(untimed))
        self.assertNotIn(user.id, untimed.values())
        for bad in ("A" * 22, "short", "A" * 21 + "!", "%27%20OR%201=1"):
            got = dc.get("/api/task/%s/status" % bad)
            self.assertEqual(got.status, 404, bad)
            self.assertEqual(got.json, {"detail": "Task not found"})
        self.assertEqual(dc.delete("/api/security/queue/" + task["task_id"], token=user.token).json["status"],
                         "cancelled")

    def test_bad_requests_are_422_with_every_problem(self):
        user = self.new_user()
        r = queue(user, "https://example.invalid/", "bogus")
        self.assertEqual(r.status, 422)
        self.assertEqual(r.json["detail"][0]["loc"], ["query", "task_type"])
        self.assertIn("'scan', 'audit', 'crawl', 'owasp', 'scanner', 'endpoints', 'api-check' or 'auth-scan'", r.json["detail"][0]["msg"])
        r = queue(user, "https://example.invalid/", "crawl", {"depth": 99, "max_pages": 0, "cookies": "x"})
        self.assertEqual(r.status, 422)
        locs = sorted(tuple(d["loc"]) for d in r.json["detail"])
        self.assertEqual(locs, [("body", "cookies"), ("body", "depth"), ("body", "max_pages")])
        self.assertIn("extra_forbidden", [d["type"] for d in r.json["detail"]])
        r = dc.request("POST", "/api/security/queue/" + dc.enc("https://example.invalid/"), token=user.token,
                       data=b"{not json")
        self.assertEqual(r.status, 422)
        self.assertEqual(r.json["detail"][0]["type"], "json_invalid")
        self.assertEqual(queue(user, "ftp://example.invalid/").status, 422)
        self.assertEqual(dc.post("/api/security/queue/" + dc.enc("https://example.invalid/")).status, 401)
        self.assertEqual(dc.get("/api/security/tasks").status, 401)
        self.assertEqual(dc.get("/api/security/tasks?limit=101", token=user.token).status, 422)
        self.assertEqual(dc.get("/api/security/tasks", token=user.token).json["total"], 0, "a bad request queued")

    def test_the_queue_of_one_user_is_bounded(self):
        """tasks.queued_per_user (50 in the test stack as by default): the 50th is queued, the 51st
        is a 429 with Retry-After; cancelling one makes room."""
        limit = int(dc.config_value("tasks", "queued_per_user", 50))
        user = self.new_user()
        dc.stackctl("stop-dozord")
        self.addCleanup(lambda: dc.stackctl("start-dozord"))
        ids = []
        for i in range(limit):
            r = queue(user, "https://q%d.example.invalid/" % i, "crawl")
            self.assertEqual(r.status, 200, "task %d: %s" % (i + 1, r.text))
            ids.append(r.json["task_id"])
        over = queue(user, "https://over.example.invalid/", "crawl")
        self.assertEqual(over.status, 429, over.text)
        self.assertTrue(over.header("Retry-After"))
        self.assertEqual(dc.delete("/api/security/queue/" + ids[0], token=user.token).json["status"], "cancelled")
        self.assertEqual(queue(user, "https://over.example.invalid/", "crawl").status, 200)
        self.assertEqual(dc.get("/api/security/tasks?limit=100", token=user.token).json["total"], limit + 1)

    def test_scan_of_a_service_runs_the_full_audit_and_stores_it(self):
        user = self.new_user()
        other = self.new_user("ot")
        with small_site() as site:
            svc = dc.post("/api/v1/services", {"name": "shop", "url": site.url("/")}, token=user.token).json
            tcp = dc.post("/api/v1/services", {"name": "db", "url": "tcp://127.0.0.1:9"}, token=user.token).json
            self.assertEqual(dc.post("/api/scan/%d/start" % svc["id"], token=other.token).status, 404)
            bad = dc.post("/api/scan/%d/start" % tcp["id"], token=user.token)
            self.assertEqual(bad.status, 422, bad.text)
            r = dc.post("/api/scan/%d/start" % svc["id"], token=user.token)
            self.assertEqual(r.status, 200, r.text)
            task = r.json
            self.assertEqual((task["kind"], task["service_id"]), ("scan", svc["id"]))
            done = wait_status(task["task_id"], {"succeeded", "failed"}, 120)
            self.assertEqual(done and done["status"], "succeeded", status(task["task_id"]))
        body = dc.get("/api/security/queue/" + task["task_id"], token=user.token).json
        self.assertEqual(body["result"]["kind"], "full")
        self.assertIsNotNone(body["audit_id"])
        self.assertEqual(body["result"]["id"], body["audit_id"])
        stored = rows("SELECT kind, user_id FROM audits WHERE id = %d" % body["audit_id"])
        self.assertEqual(stored, [["full", str(user.id)]])

    def test_a_template_scan_task_answers_as_the_inline_route(self):
        user = self.new_user(scan_grant=True)
        with dc.FixtureServer({"/": (200, {"Content-Type": "text/html"}, "<html>home</html>")}) as site:
            r = queue(user, site.url("/"), "scanner")
            self.assertEqual(r.status, 200, r.text)
            self.assertEqual(queue(user, site.url("/"), "scanner", {"depth": 1}).status, 422, "scanner has no depth")
            bad = queue(user, site.url("/"), "scanner", {"severity": "high,severe"})
            self.assertEqual(bad.status, 422, bad.text)
            self.assertEqual(bad.json["detail"][0]["loc"], ["body", "severity"])
            self.assertIn("'severe'", bad.json["detail"][0]["msg"])
            only = queue(user, site.url("/"), "scanner", {"severity": "critical"})
            self.assertEqual(only.status, 200, only.text)
            done = wait_status(r.json["task_id"], {"succeeded", "failed"}, 120)
            self.assertEqual(done and done["status"], "succeeded", status(r.json["task_id"]))
            done = wait_status(only.json["task_id"], {"succeeded", "failed"}, 120)
            self.assertEqual(done and done["status"], "succeeded", status(only.json["task_id"]))
        result = dc.get("/api/security/queue/" + r.json["task_id"], token=user.token).json["result"]
        critical = dc.get("/api/security/queue/" + only.json["task_id"], token=user.token).json["result"]
        self.assertGreater(critical["templates"]["selected"], 0)
        self.assertLess(critical["templates"]["selected"], result["templates"]["selected"], "the severity option filtered nothing")
        self.assertGreaterEqual(result["templates"]["loaded"], 80)
        # No severity option: the spec's default, as the inline route (info templates not run).
        self.assertEqual(result["severity"], ["low", "medium", "high", "critical"])
        self.assertLess(result["templates"]["selected"], result["templates"]["loaded"])
        self.assertEqual(result["templates"]["run"], result["templates"]["selected"])
        self.assertTrue(result["complete"])
        self.assertEqual(result["findings"], [], "a plain page matched a template")
        self.assertGreater(result["requests"], 50)

    def test_an_owasp_task_finds_a_reflected_parameter(self):
        user = self.new_user(scan_grant=True)

        def echo(handler):
            q = handler.path.split("x=", 1)[1] if "x=" in handler.path else ""
            from urllib.parse import unquote_plus
            return 200, {"Content-Type": "text/html; charset=utf-8"}, "<html><body>%s</body></html>" % unquote_plus(q)

        home = (200, {"Content-Type": "text/html"}, "<html><body><a href='/q?x=hello'>q</a></body></html>")
        with dc.FixtureServer({"/": home, "/q": echo}) as site:
            r = queue(user, site.url("/"), "owasp", {"depth": 1, "max_pages": 3})
            self.assertEqual(r.status, 200, r.text)
            done = wait_status(r.json["task_id"], {"succeeded", "failed"}, 180)
            self.assertEqual(done and done["status"], "succeeded", status(r.json["task_id"]))
        result = dc.get("/api/security/queue/" + r.json["task_id"], token=user.token).json["result"]
        checks = {f["check"] for f in result["findings"]}
        self.assertIn("owasp-xss-reflected", checks, result["findings"])

    # ------------------------------------------------------------------ running tasks

    def test_a_running_task_is_cancelled_at_its_next_checkpoint(self):
        user = self.new_user()
        with SlowSite(pages=40, delay=0.5) as site:
            task = queue(user, site.url("/"), "crawl", {"depth": 3, "max_pages": 40}).json
            running = wait_status(task["task_id"], {"running"}, 30)
            self.assertIsNotNone(running, status(task["task_id"]))
            dc.wait_until(lambda: len(site.fx.hits()) >= 2, 20)
            r = dc.delete("/api/security/queue/" + task["task_id"], token=user.token)
            self.assertEqual(r.status, 200)
            self.assertTrue(r.json["cancel_requested"])
            done = wait_status(task["task_id"], {"cancelled", "succeeded", "failed"}, 15)
            self.assertEqual(done and done["status"], "cancelled", status(task["task_id"]))
            hits = len(site.fx.hits())
            time.sleep(2)
            self.assertLessEqual(len(site.fx.hits()), hits + 8, "requests went on after the cancellation")
            self.assertLess(hits, 40, "the crawl finished before it was cancelled")
        body = dc.get("/api/security/queue/" + task["task_id"], token=user.token).json
        self.assertEqual(body["error"], "cancelled by its owner")
        self.assertIsNone(body["result"])
        again = dc.delete("/api/security/queue/" + task["task_id"], token=user.token)
        self.assertEqual(again.json["status"], "cancelled", "cancelling twice changed it")

    def test_one_active_task_per_origin_and_per_user_limit(self):
        """Two crawls of one origin never run together (whatever the runners), and with
        tasks.per_user = 1 a user's task on another origin waits for the first too."""
        self.own_dozord()
        self.start_dozord("peruser", runners=3, per_user=1)
        user = self.new_user()
        other = self.new_user("o2")
        with SlowSite(pages=6, delay=1.0) as a, SlowSite(pages=6, delay=1.0) as b:
            first = queue(user, a.url("/"), "crawl", {"max_pages": 6}).json
            same_origin = queue(other, a.url("/p1"), "crawl", {"max_pages": 6}).json
            second_of_user = queue(user, b.url("/"), "crawl", {"max_pages": 6}).json
            self.assertIsNotNone(wait_status(first["task_id"], {"running"}, 20))
            for t in (first, same_origin, second_of_user):
                done = wait_status(t["task_id"], {"succeeded", "failed"}, 90)
                self.assertEqual(done and done["status"], "succeeded", status(t["task_id"]))
        spans = {r[0]: (float(r[1]), float(r[2])) for r in rows(
            "SELECT id, UNIX_TIMESTAMP(started_at), UNIX_TIMESTAMP(finished_at) FROM tasks WHERE id IN ('%s', '%s', '%s')"
            % (first["task_id"], same_origin["task_id"], second_of_user["task_id"]))}
        (s1, e1) = spans[first["task_id"]]
        for later, why in ((same_origin, "two tasks ran on one origin"), (second_of_user, "tasks.per_user ignored")):
            s2, e2 = spans[later["task_id"]]
            self.assertTrue(e1 <= s2 or e2 <= s1, "%s: %r" % (why, spans))

    def test_a_task_whose_dozord_was_killed_completes_once_after_its_lease(self):
        self.own_dozord()
        victim = self.start_dozord("victim", lease_seconds=3)
        user = self.new_user()
        with SlowSite(pages=12, delay=0.4) as site:
            task = queue(user, site.url("/"), "crawl", {"max_pages": 20}).json
            self.assertIsNotNone(wait_status(task["task_id"], {"running"}, 20), status(task["task_id"]))
            dc.wait_until(lambda: len(site.fx.hits()) >= 2, 20)
            owner1 = rows("SELECT claimed_by FROM tasks WHERE id = '%s'" % task["task_id"])[0][0]
            os.killpg(victim.pid, signal.SIGKILL)
            victim.wait()
            self.assertEqual(status(task["task_id"])["status"], "running", "nobody noticed yet")
            self.start_dozord("heir", lease_seconds=3)
            done = wait_status(task["task_id"], {"succeeded", "failed"}, 90)
            self.assertEqual(done and done["status"], "succeeded", status(task["task_id"]))
        body = dc.get("/api/security/queue/" + task["task_id"], token=user.token).json
        self.assertEqual(body["attempts"], 2)
        self.assertEqual(len([p for p in body["result"]["pages"] if p.get("status") == 200]), 12)
        self.assertEqual(body["result"]["stats"]["stopped"], "complete")
        self.assertNotEqual(owner1, "NULL")
        self.assertEqual(rows("SELECT COUNT(*) FROM task_origins"), [["0"]], "an origin stayed locked")

    def test_an_orderly_stop_puts_the_running_task_back_without_counting_it(self):
        self.own_dozord()
        first = self.start_dozord("first")
        user = self.new_user()
        with SlowSite(pages=12, delay=0.4) as site:
            task = queue(user, site.url("/"), "crawl", {"max_pages": 12}).json
            self.assertIsNotNone(wait_status(task["task_id"], {"running"}, 20))
            os.killpg(first.pid, signal.SIGTERM)
            first.wait(timeout=30)
            back = rows("SELECT state, attempts, claimed_by FROM tasks WHERE id = '%s'" % task["task_id"])
            self.assertEqual(back, [["queued", "0", "NULL"]])
            self.start_dozord("second")
            done = wait_status(task["task_id"], {"succeeded", "failed"}, 60)
            self.assertEqual(done and done["status"], "succeeded")
        self.assertEqual(dc.get("/api/security/queue/" + task["task_id"], token=user.token).json["attempts"], 1)

    def test_a_task_whose_runner_keeps_dying_fails_after_max_attempts(self):
        """A leased task past tasks.max_attempts claims is failed by the reaper, not retried forever."""
        user = self.new_user()
        dc.stackctl("stop-dozord")
        self.addCleanup(lambda: dc.stackctl("start-dozord"))
        task = queue(user, "https://dead.example.invalid/", "crawl").json
        max_attempts = int(dc.config_value("tasks", "max_attempts", 3))
        rows("UPDATE tasks SET state = 'running', attempts = %d, claimed_by = 'ghost',"
             " lease_until = NOW(3) - INTERVAL 1 SECOND WHERE id = '%s'" % (max_attempts, task["task_id"]))
        dc.stackctl("start-dozord")
        done = wait_status(task["task_id"], {"failed", "queued", "succeeded"}, 20)
        self.assertEqual(done and done["status"], "failed")
        body = dc.get("/api/security/queue/" + task["task_id"], token=user.token).json
        self.assertIn("tasks.max_attempts", body["error"])


class SchedulesTest(dc.DozorTestCase):
    """POST /owasp/schedule/{service_id} (both prefixes), GET/DELETE /api/v1/schedules: dozord
    queues each run when due, once, across restarts and with two dozords."""

    @classmethod
    def setUpClass(cls):
        if not os.environ.get("DOZOR_TEST_STATE"):
            raise unittest.SkipTest("needs a private test stack (DOZOR_TEST_STATE)")

    def setUp(self):
        self.user = dc.create_user("sc")
        self.addCleanup(dc.delete_user, self.user.id)
        # A target nothing listens on: the runs fail fast, what is tested is when they are queued.
        self.svc = dc.post("/api/v1/services", {"name": "site", "url": "http://127.0.0.1:9/"},
                           token=self.user.token).json
        dc.stackctl("stop-dozord")
        self.addCleanup(lambda: dc.stackctl("start-dozord"))

    def schedule(self, prefix="/api", hours=None, service_id=None, token=None):
        path = "%s/owasp/schedule/%d" % (prefix, service_id or self.svc["id"])
        if hours is not None:
            path += "?interval_hours=%s" % hours
        return dc.post(path, token=token or self.user.token)

    def tasks_of_service(self):
        return rows("SELECT id, kind FROM tasks WHERE service_id = %d ORDER BY created_at" % self.svc["id"])

    def start_dozord(self, name):
        return dc.start_dozord(self, name)

    def test_interval_bounds_ownership_and_both_prefixes(self):
        for hours in (0, 721, "x", -1):
            r = self.schedule(hours=hours)
            self.assertEqual(r.status, 422, hours)
            self.assertEqual(r.json["detail"][0]["loc"], ["query", "interval_hours"])
        for hours in (1, 720):
            r = self.schedule("/api/v1", hours=hours)
            self.assertEqual(r.status, 200, r.text)
            self.assertEqual(r.json["interval_hours"], hours)
        default = self.schedule()
        self.assertEqual(default.json["interval_hours"], 24)
        self.assertEqual(default.json["kind"], "owasp")
        listed = dc.get("/api/v1/schedules", token=self.user.token).json
        self.assertEqual([s["id"] for s in listed], [default.json["id"]], "one schedule per service and kind")
        stranger = dc.create_user("sx")
        self.addCleanup(dc.delete_user, stranger.id)
        self.assertEqual(self.schedule(token=stranger.token).status, 404)
        self.assertEqual(dc.get("/api/v1/schedules", token=stranger.token).json, [])
        self.assertEqual(dc.delete("/api/v1/schedules/%d" % default.json["id"], token=stranger.token).status, 404)
        tcp = dc.post("/api/v1/services", {"name": "p", "url": "tcp://127.0.0.1:9"}, token=self.user.token).json
        self.assertEqual(self.schedule(service_id=tcp["id"]).status, 422)
        self.assertEqual(dc.post("/api/owasp/schedule/%d" % self.svc["id"]).status, 401)
        r = dc.delete("/api/v1/schedules/%d" % default.json["id"], token=self.user.token)
        self.assertEqual(r.json, {"id": default.json["id"], "deleted": True})
        self.assertEqual(dc.get("/api/v1/schedules", token=self.user.token).json, [])

    def test_the_first_run_is_queued_at_once_and_the_next_one_interval_later(self):
        sched = self.schedule(hours=2).json
        self.assertEqual(self.tasks_of_service(), [], "queued without a dozord")
        self.start_dozord("sched")
        got = dc.wait_until(lambda: self.tasks_of_service(), 15)
        self.assertTrue(got, "dozord never queued the first run")
        self.assertEqual([k for _, k in got], ["owasp"])
        after = dc.get("/api/v1/schedules", token=self.user.token).json[0]
        self.assertEqual(after["last_task_id"], got[0][0])
        gap = rows("SELECT TIMESTAMPDIFF(MINUTE, last_run_at, next_run_at) FROM schedules WHERE id = %d" % sched["id"])
        self.assertIn(gap, ([["119"]], [["120"]]))
        time.sleep(3)
        self.assertEqual(len(self.tasks_of_service()), 1, "a run was queued twice")

    def test_runs_missed_while_no_dozord_ran_are_made_up_once_even_with_two_dozords(self):
        sched = self.schedule(hours=1).json
        rows("UPDATE schedules SET next_run_at = NOW(3) - INTERVAL 5 HOUR WHERE id = %d" % sched["id"])
        self.start_dozord("a")
        self.start_dozord("b")
        self.assertTrue(dc.wait_until(lambda: self.tasks_of_service(), 15), "the missed run was lost")
        time.sleep(4)
        self.assertEqual(len(self.tasks_of_service()), 1, "missed runs stacked up or two dozords both queued")
        ahead = rows("SELECT TIMESTAMPDIFF(MINUTE, NOW(3), next_run_at) FROM schedules WHERE id = %d" % sched["id"])
        self.assertIn(int(ahead[0][0]), (58, 59, 60), "the next run is not one interval from now")

    def test_a_run_whose_previous_task_is_still_open_is_skipped_not_stacked(self):
        sched = self.schedule(hours=1).json
        task = queue(self.user, "http://127.0.0.1:9/", "crawl").json  # stays queued: no dozord claims it...
        rows("UPDATE tasks SET service_id = %d WHERE id = '%s'" % (self.svc["id"], task["task_id"]))
        rows("UPDATE schedules SET last_task_id = '%s', last_run_at = NOW(3) - INTERVAL 2 HOUR,"
             " next_run_at = NOW(3) - INTERVAL 1 SECOND WHERE id = %d" % (task["task_id"], sched["id"]))
        rows("UPDATE tasks SET state = 'running', claimed_by = 'elsewhere', lease_until = NOW(3) + INTERVAL 1 HOUR"
             " WHERE id = '%s'" % task["task_id"])  # ...as if another dozord ran it
        self.addCleanup(lambda: rows("UPDATE tasks SET state = 'cancelled', claimed_by = NULL WHERE id = '%s'"
                                     % task["task_id"]))
        self.start_dozord("skip")
        moved = dc.wait_until(lambda: rows("SELECT next_run_at > NOW(3) FROM schedules WHERE id = %d"
                                           % sched["id"]) == [["1"]], 15)
        self.assertTrue(moved, "the due schedule was never handled")
        self.assertEqual([t for t, _ in self.tasks_of_service()], [task["task_id"]], "a second run was stacked")


if __name__ == "__main__":
    unittest.main()
