"""dozord: scheduled checks with debounce, incidents, one outbox event per transition, checks
that never touch the owner's rows, and several dozords sharing the work through leases.

Service intervals are the minimum the API allows (10 s), so each test takes tens of seconds."""

import os
import signal
import subprocess
import threading
import time
import unittest

import dozor_client as dc

INTERVAL = 10


def rows(sql):
    return dc.db_query(sql)


def hit_times(fx):
    return [h["t"] for h in fx.hits()]


class Flip:
    """A fixture route answering `code`, recording when each request came."""

    def __init__(self):
        self.code = 200
        self.times = []
        self.lock = threading.Lock()

    def __call__(self, handler):
        with self.lock:
            self.times.append(time.monotonic())
        return self.code, {}, "state %d" % self.code


class MonitorTest(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        if not os.environ.get("DOZOR_TEST_STATE"):
            raise unittest.SkipTest("needs a private test stack (DOZOR_TEST_STATE)")
        cls.bin = os.environ.get("DOZOR_TEST_BIN_DIR", "")
        if not os.path.exists(os.path.join(cls.bin, "dozord")):
            raise unittest.SkipTest("no dozord binary in DOZOR_TEST_BIN_DIR")

    def state(self, service_id):
        r = rows("SELECT state, failures, successes, IFNULL(open_incident_id, 0), IFNULL(lease_owner, '')"
                 " FROM service_state WHERE service_id = %d" % service_id)
        return r[0] if r else None

    def wait_state(self, service_id, want, timeout):
        ok = dc.wait_until(lambda: (self.state(service_id) or [None])[0] == want, timeout, 0.5)
        self.assertTrue(ok, "service %d never became %s: %r" % (service_id, want, self.state(service_id)))

    def add_channel(self, user):
        rows("INSERT INTO channels (user_id, type, enabled, params, name, config, is_active)"
             " VALUES (%d, 'email', 1, '{}', 'test', '{}', 1)" % user.id)

    def outbox(self, user):
        return rows("SELECT kind, event_key FROM notification_outbox WHERE user_id = %d ORDER BY id" % user.id)

    def test_down_after_two_failures_up_after_one_success_with_one_event_each(self):
        user = self.new_user("mon")
        self.add_channel(user)
        flip = Flip()
        with dc.FixtureServer({"/flip": flip}) as fx:
            svc = self.new_service(user, url=fx.url("/flip"), check_interval=INTERVAL)
            rev = rows("SELECT services_rev FROM users WHERE id = %d" % user.id)[0][0]
            self.wait_state(svc["id"], "up", 3 * INTERVAL)
            flip.code = 500
            failed_at = time.monotonic()
            dc.wait_until(lambda: (self.state(svc["id"]) or [0, "0"])[1] == "1", 2 * INTERVAL, 0.3)
            self.assertEqual(self.state(svc["id"])[0], "up", "one failure must not make it down")
            # ... but the list does not call it a plain Up either: Pending, with the error.
            listed = [s for s in dc.get("/api/v1/services", token=user.token).json if s["id"] == svc["id"]][0]
            if listed["state"] == "up":  # the re-check may already have made it down
                self.assertTrue(listed["pending"], listed)
                self.assertEqual(listed["last_status"], "down", listed)
                self.assertIn("500", listed["last_error"] or "", listed)
            self.wait_state(svc["id"], "down", 3 * INTERVAL)
            # The second failure came by the re-check (≤ 10 s after the first), not a full interval.
            fails = [t for t in flip.times if t >= failed_at]
            self.assertGreaterEqual(len(fails), 2)
            self.assertLess(fails[1] - fails[0], INTERVAL + 3)

            listed = [s for s in dc.get("/api/v1/services", token=user.token).json if s["id"] == svc["id"]][0]
            self.assertEqual(listed["last_status"], "down", listed)
            self.assertFalse(listed["pending"], "a confirmed outage is Down, not Pending: %r" % listed)
            incident = rows("SELECT id, ended_at IS NULL, cause FROM incidents WHERE service_id = %d" % svc["id"])
            self.assertEqual(len(incident), 1, incident)
            self.assertEqual(incident[0][1], "1")
            self.assertIn("500", incident[0][2])

            flip.code = 200
            self.wait_state(svc["id"], "up", 3 * INTERVAL)
            incident = rows("SELECT ended_at IS NOT NULL FROM incidents WHERE service_id = %d" % svc["id"])
            self.assertEqual(incident, [["1"]])
            kinds = [k for k, _ in self.outbox(user)]
            self.assertEqual(len(kinds), 2, self.outbox(user))  # one down, one up: exactly once each
            self.assertEqual(len({e for _, e in self.outbox(user)}), 2)
            # Checks never wrote the owner's row.
            self.assertEqual(rows("SELECT services_rev FROM users WHERE id = %d" % user.id)[0][0], rev)
            self.assertRollupsMatchHistory(svc["id"])
            self.assertOneUptime(user, svc["id"])
            phases = rows("SELECT COUNT(*) FROM checks WHERE service_id = %d AND location = 'default'"
                          " AND connect_ms IS NOT NULL" % svc["id"])
            self.assertGreater(int(phases[0][0]), 0)

    def assertOneUptime(self, user, sid):
        """Uptime is one figure wherever it is shown (docs/monitoring.md "Uptime"): the summary
        (dashboard, kiosk), the history's bars and the rollups' watched time not down. dozord
        goes on checking meanwhile, so the reads are repeated until one round agrees."""
        seen = []

        def agree():
            row = [r for r in dc.get("/api/v1/analytics/summary", token=user.token).json["services"]
                   if r["id"] == sid][0]
            h24 = dc.get("/api/v1/services/%d/history?window=24h" % sid, token=user.token).json
            h30 = dc.get("/api/v1/services/%d/history?window=30d" % sid, token=user.token).json
            observed, down = (int(v) for v in rows(
                "SELECT SUM(observed_ms), SUM(down_ms) FROM rollup_hourly WHERE service_id = %d" % sid)[0])
            want = int((observed - down) * 100000 // observed) / 1000
            seen.append((want, row["uptime_24h"], h24["uptime"], row["uptime_30d"], h30["uptime"]))
            return want < 100.0 and row["uptime_24h"] == want == h24["uptime"] and h30["uptime"] == row["uptime_30d"]

        self.assertTrue(dc.wait_until(agree, 20, 0.1), seen[-5:])

    def assertRollupsMatchHistory(self, sid):
        """The hourly and daily rollups hold exactly what the raw history says: the counts and
        response times of the checks, the incident's duration as time down, and the time from
        the first check to the last accounted one as time observed. One statement, one snapshot."""
        for table in ("rollup_hourly", "rollup_daily"):
            got = rows(
                "SELECT (SELECT CONCAT_WS(' ', SUM(checks), SUM(failures), SUM(rt_count), SUM(rt_sum_ms), MAX(rt_max_ms),"
                "   SUM(down_ms), SUM(observed_ms), MIN(rt_p95_ms) IS NOT NULL) FROM {t} WHERE service_id = {s}),"
                " (SELECT CONCAT_WS(' ', COUNT(*), SUM(NOT is_available), COUNT(response_time_ms), SUM(response_time_ms),"
                "   MAX(response_time_ms)) FROM checks WHERE service_id = {s}),"
                " (SELECT SUM(TIMESTAMPDIFF(MICROSECOND, started_at, ended_at)) DIV 1000 FROM incidents"
                "   WHERE service_id = {s}),"
                " (SELECT TIMESTAMPDIFF(MICROSECOND, (SELECT MIN(checked_at) FROM checks WHERE service_id = {s}),"
                "   accounted_until) DIV 1000 FROM service_state WHERE service_id = {s})".format(t=table, s=sid))[0]
            roll = got[0].split(" ")
            raw = got[1].split(" ")
            with self.subTest(table=table):
                self.assertEqual(roll[:5], raw, got)  # checks, failures, timed, sum, max
                self.assertEqual(roll[5], got[2], "time down must be the incident's duration: %r" % got)
                self.assertEqual(roll[6], got[3], "time observed must run from the first check: %r" % got)
                self.assertEqual(roll[7], "1", got)
                self.assertGreater(int(roll[5]), 0, got)

    def test_a_result_whose_lease_was_lost_is_history_only(self):
        """A check that outlives its lease (another dozord claimed the service meanwhile) is
        stored as a check row, but only the lease holder may move the service's state."""
        user = self.new_user("lease")
        arrived, release = threading.Event(), threading.Event()
        mode = {"hold": False}

        def route(handler):
            if mode["hold"]:
                arrived.set()
                release.wait(30)
                return 500, {}, "failing after the lease was lost"
            return 200, {}, "ok"

        with dc.FixtureServer({"/held": route}) as fx:
            svc = self.new_service(user, url=fx.url("/held"), check_interval=INTERVAL)
            sid = svc["id"]
            self.wait_state(sid, "up", 3 * INTERVAL)
            mode["hold"] = True
            self.assertTrue(arrived.wait(3 * INTERVAL), "the next check never came")
            before = self.state(sid)
            # While the check is in flight, another dozord "claims" the service.
            rows("UPDATE service_state SET lease_owner = 'thief', lease_until = NOW(3) + INTERVAL 120 SECOND"
                 " WHERE service_id = %d" % sid)
            release.set()
            stored = dc.wait_until(lambda: int(rows("SELECT COUNT(*) FROM checks WHERE service_id = %d"
                                                    " AND NOT is_available" % sid)[0][0]) == 1, INTERVAL, 0.2)
            self.assertTrue(stored, "the late result must still be kept as history")
            time.sleep(1)
            self.assertEqual(before[0], "up", before)
            self.assertEqual(self.state(sid), before[:4] + ["thief"], "a result without the lease moved the state")
            rows("UPDATE service_state SET lease_owner = NULL, lease_until = NULL WHERE service_id = %d" % sid)
            self.assertEqual(dc.delete("/api/v1/services/%d" % sid, token=user.token).status, 200)

    def start_dozord(self, location, confirm):
        env = {"DOZOR_MONITOR_LOCATION": location, "DOZOR_MONITOR_CONFIRM_LOCATIONS": str(confirm)}
        return dc.start_dozord(self, location, env)

    def test_two_locations_must_agree_before_a_service_is_down(self):
        """monitor.confirm_locations = 2: failures seen from one location leave the service up
        (its re-checks are left to another location), a failure seen from a second makes it
        down, once; every check row keeps its location."""
        dc.stackctl("stop-dozord")
        self.addCleanup(lambda: dc.stackctl("start-dozord"))
        rows("DELETE FROM daemon_heartbeats")
        # A second location that is alive but has not checked anything yet.
        rows("INSERT INTO daemon_heartbeats (owner, location, pid, started_at, beat_at)"
             " VALUES ('test-spb', 'spb', 1, NOW(3), NOW(3) + INTERVAL 1 HOUR)")
        self.addCleanup(lambda: rows("DELETE FROM daemon_heartbeats WHERE owner = 'test-spb'"))
        self.start_dozord("msk", 2)
        user = self.new_user("loc")
        self.add_channel(user)
        flip = Flip()
        with dc.FixtureServer({"/loc": flip}) as fx:
            svc = self.new_service(user, url=fx.url("/loc"), check_interval=INTERVAL)
            sid = svc["id"]
            self.wait_state(sid, "up", 3 * INTERVAL)
            flip.code = 500
            two = dc.wait_until(lambda: int(self.state(sid)[1]) >= 2, 6 * INTERVAL, 0.5)
            self.assertTrue(two, "msk never re-checked the failing service: %r" % self.state(sid))
            self.assertEqual(self.state(sid)[0], "up", "one location alone made it down")
            got = rows("SELECT failed_locations, awaiting_location FROM service_state WHERE service_id = %d" % sid)
            self.assertEqual(got, [["msk", "1"]])
            self.assertEqual(rows("SELECT COUNT(*) FROM incidents WHERE service_id = %d" % sid), [["0"]])
            failed = [float(r[0]) for r in rows("SELECT UNIX_TIMESTAMP(checked_at) FROM checks WHERE service_id = %d"
                                                " AND NOT is_available ORDER BY checked_at" % sid)]
            # msk waited for another location before re-checking on its own.
            self.assertGreaterEqual(failed[1] - failed[0], INTERVAL + 15, failed)

            self.start_dozord("spb", 2)
            self.wait_state(sid, "down", 3 * INTERVAL)
            got = rows("SELECT failed_locations, awaiting_location FROM service_state WHERE service_id = %d" % sid)
            self.assertEqual(got, [["msk,spb", "0"]])
            self.assertEqual(rows("SELECT COUNT(*) FROM incidents WHERE service_id = %d" % sid), [["1"]])
            self.assertEqual([k for k, _ in self.outbox(user)], ["service_down"])
            locations = {r[0] for r in rows("SELECT DISTINCT location FROM checks WHERE service_id = %d" % sid)}
            self.assertEqual(locations, {"msk", "spb"})

    def test_sighup_reloads_without_exiting(self):
        pid = int((dc.STATE_DIR / "run" / "dozord.pid").read_text())
        log = dc.STATE_DIR / "log" / "dozord.log"
        before = log.read_text().count("configuration reloaded")
        os.kill(pid, signal.SIGHUP)
        self.assertTrue(dc.wait_until(lambda: log.read_text().count("configuration reloaded") > before, 20, 0.3),
                        log.read_text()[-2000:])
        self.assertTrue(dc.pid_alive(pid), "SIGHUP must not stop dozord")

    def test_two_dozords_never_check_one_service_twice_and_take_over_after_a_kill(self):
        user = self.new_user("mon2")
        flip = Flip()
        conf = str(dc.STATE_DIR / "dozor.toml")
        log = open(dc.STATE_DIR / "log" / "dozord-second.log", "ab")
        second = subprocess.Popen([os.path.join(self.bin, "dozord"), "--config", conf], stdout=log, stderr=log,
                                  start_new_session=True)
        self.addCleanup(lambda: (second.poll() is None and second.kill(), second.wait(), log.close()))
        self.addCleanup(lambda: dc.stackctl("start-dozord"))
        with dc.FixtureServer({"/a": flip}) as fx:
            services = [self.new_service(user, url=fx.url("/a"), check_interval=INTERVAL) for _ in range(4)]
            ids = ",".join(str(s["id"]) for s in services)
            dc.wait_until(lambda: len(flip.times) >= 8, 4 * INTERVAL, 0.5)
            owners = {r[0] for r in rows("SELECT DISTINCT lease_owner FROM service_state WHERE service_id IN (%s)"
                                         " AND lease_owner IS NOT NULL" % ids)}
            time.sleep(2 * INTERVAL)
            per_service = rows("SELECT service_id, COUNT(*), TIMESTAMPDIFF(MICROSECOND, MIN(checked_at),"
                               " MAX(checked_at)) / 1000000 FROM checks WHERE service_id IN (%s)"
                               " GROUP BY service_id" % ids)
            for sid, count, span in per_service:
                # A service checked by both would show about twice the checks its interval allows.
                self.assertLessEqual(int(count), float(span) / INTERVAL + 1.5, (sid, count, span, owners))

            # SIGKILL the stack's dozord: the second takes its services over within a lease.
            main_pid = int((dc.STATE_DIR / "run" / "dozord.pid").read_text())
            os.kill(main_pid, signal.SIGKILL)
            killed_at = time.monotonic()
            lease = int(dc.config_value("monitor", "lease_seconds", 30))
            before = len(flip.times)
            time.sleep(lease + INTERVAL + 3)
            after = [t for t in flip.times[before:] if t > killed_at]
            # Every service keeps being checked: at least one check each after the takeover.
            checked = rows("SELECT COUNT(DISTINCT service_id) FROM checks WHERE service_id IN (%s)"
                           " AND checked_at > NOW(3) - INTERVAL %d SECOND" % (ids, INTERVAL + 3))
            self.assertEqual(int(checked[0][0]), len(services), (after, owners))
            self.assertIsNone(second.poll(), "the second dozord died")


class MetricsTest(dc.DozorTestCase):
    def test_metrics_report_services_and_the_running_dozord(self):
        user = self.new_user("metrics")
        svc = self.new_service(user, is_active=False)
        dc.post("/api/v1/services/%d/check" % svc["id"], token=user.token)  # a closed port: one failure
        # dozord beats every 10 s: its row may not exist yet right after the stack started.
        r = dc.wait_until(lambda: (lambda x: x if "dozord_up{" in x.text else None)(dc.get("/metrics")), 15, 1)
        self.assertTrue(r, "no dozord in /metrics")
        self.assertEqual(r.status, 200, r)
        self.assertTrue((r.header("Content-Type") or "").startswith("text/plain; version=0.0.4"), r)
        lines = r.text.splitlines()
        labels = '{service_id="%d",user_id="%d"}' % (svc["id"], user.id)
        self.assertIn("dozor_service_checks_total%s 1" % labels, lines)
        self.assertIn("dozor_service_failures_total%s 1" % labels, lines)
        self.assertTrue(any(l.startswith("dozord_up{") and l.endswith(" 1") for l in lines), r.text[-2000:])
        self.assertTrue(any(l.startswith("dozord_resident_memory_bytes{") for l in lines))
        self.assertIn("# TYPE dozor_service_up gauge", lines)


class OnDemandCheckTest(dc.DozorTestCase):
    """The on-demand check route runs the same engine as dozord and writes the same history."""

    @classmethod
    def setUpClass(cls):
        cls.user = dc.create_user("ondemand")

    @classmethod
    def tearDownClass(cls):
        dc.delete_user(cls.user.id)

    def check(self, url, **fields):
        svc = self.new_service(self.user, url=url, is_active=False, **fields)  # dozord leaves it alone
        r = dc.post("/api/v1/services/%d/check" % svc["id"], token=self.user.token)
        self.assertEqual(r.status, 200, r)
        return svc, r.json

    def test_an_on_demand_check_counts_in_the_rollups_but_accounts_no_time(self):
        with dc.FixtureServer({"/ok": (200, {}, "ok"), "/fail": (500, {}, "no")}) as fx:
            svc, first = self.check(fx.url("/ok"))
            r = dc.post("/api/v1/services/%d/check" % svc["id"], token=self.user.token)
            self.assertEqual(r.status, 200, r)
        for table in ("rollup_hourly", "rollup_daily"):
            got = rows("SELECT SUM(checks), SUM(failures), SUM(rt_count), SUM(observed_ms), SUM(down_ms)"
                       " FROM %s WHERE service_id = %d" % (table, svc["id"]))
            self.assertEqual(got, [["2", "0", "2", "0", "0"]], table)

    def test_a_redirect_drops_credentials_and_each_hop_has_its_own_host(self):
        with dc.FixtureServer({"/ok": (200, {}, "ok")}) as target:
            location = "http://user:secret@127.0.0.1:%d/ok" % target.port
            with dc.FixtureServer({"/go": (302, {"Location": location}, "")}) as first:
                _, res = self.check(first.url("/go"))
                self.assertIs(res["is_available"], True, res)
                self.assertEqual(len(target.hits()), 1, target.hits())
                headers = {k.lower(): v for k, v in target.hits()[0]["headers"].items()}
                self.assertNotIn("authorization", headers, headers)
                self.assertEqual(headers.get("host"), "127.0.0.1:%d" % target.port, headers)
                first_host = {k.lower(): v for k, v in first.hits()[0]["headers"].items()}.get("host")
                self.assertEqual(first_host, "127.0.0.1:%d" % first.port)

    def test_an_unknown_name_and_a_refused_address_give_the_same_error(self):
        _, unknown = self.check("http://no-such-host.invalid/")
        _, refused = self.check("http://169.254.169.254/latest/meta-data")
        self.assertIs(unknown["is_available"], False, unknown)
        self.assertIs(refused["is_available"], False, refused)
        self.assertTrue(unknown["error"], unknown)
        self.assertEqual(unknown["error"], refused["error"])
        self.assertNotIn("no-such-host", unknown["error"])


if __name__ == "__main__":
    unittest.main()
