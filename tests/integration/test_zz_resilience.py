"""Resilience (runs last: it stops MariaDB and kills a worker).

1. MariaDB stopped with ``stackctl stop-mariadb``: health answers 503 "database":"unavailable",
   authenticated routes answer 503 JSON (not a crash, not a hang); after ``start-mariadb`` the
   same dozor-fcgi (same master pid, same workers) answers 200 again on its own.
2. A worker killed with SIGKILL under load: the master respawns it; only requests that worker
   had in flight may fail; everything after the respawn succeeds.
"""

import os
import signal
import subprocess
import threading
import time
import unittest

import dozor_client as dc

HEALTH_PATHS = ("/health", "/api/health", "/api/v1/health")
DEGRADED = {"status": "degraded", "version": "2.0.0", "build": dc.VERSION, "database": "unavailable"}
OK = {"status": "ok", "version": "2.0.0", "build": dc.VERSION, "database": "ok"}


def _health_status():
    try:
        return dc.get("/health", timeout=15).status
    except OSError:
        return None


class ResilienceTest(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        if not os.environ.get("DOZOR_TEST_STATE"):
            # Never stop the database of (or kill workers in) a stack nobody named for it.
            raise unittest.SkipTest("set DOZOR_TEST_STATE (and DOZOR_TEST_*) to a private test stack")
        if not (dc.STATE_DIR / "run" / "dozor-fcgi.pid").exists():
            raise AssertionError("no %s/run/dozor-fcgi.pid: set DOZOR_TEST_STATE" % dc.STATE_DIR)
        cls.user = dc.create_user("resil")
        cls.user.token  # log in while the database is up

    @classmethod
    def tearDownClass(cls):
        dc.delete_user(cls.user.id)

    def _ensure_database_up(self):
        if _health_status() != 200:
            dc.stackctl("start-mariadb")
            dc.wait_until(lambda: _health_status() == 200, 90, 0.5)

    # ------------------------------------------------------------------ database outage

    def test_1_database_outage_gives_503_and_recovers_without_restart(self):
        master = dc.master_pid()
        self.assertTrue(dc.pid_alive(master))
        workers = dc.worker_pids()
        self.assertTrue(workers, "no workers under master %d" % master)
        recycling = dc.config_value("server", "max_requests", 0)
        token = self.user.token
        self.assertEqual(dc.get("/api/v1/services", token=token).status, 200)

        self.addCleanup(self._ensure_database_up)
        dc.stackctl("stop-mariadb")

        self.assertTrue(dc.wait_until(lambda: _health_status() == 503, 30, 0.3),
                        "health never reported 503 after MariaDB stopped")
        for path in HEALTH_PATHS:
            with self.subTest(path=path):
                t0 = time.monotonic()
                r = dc.get(path)
                self.assertLess(time.monotonic() - t0, 10, "health hangs while the database is down")
                self.assertEqual(r.status, 503, r)
                self.assertJsonContentType(r)
                self.assertEqual(r.json, DEGRADED, r)

        for label, call in (
            ("list services", lambda: dc.get("/api/v1/services", token=token)),
            ("create service", lambda: dc.post("/api/services", {"name": "n", "url": "http://a.example/"},
                                               token=token)),
            ("verify", lambda: dc.get("/api/auth/verify", token=token)),
            ("login", lambda: dc.login(self.user.username, self.user.password)),
        ):
            with self.subTest(during_outage=label):
                t0 = time.monotonic()
                r = call()
                self.assertLess(time.monotonic() - t0, 15, "%s hangs while the database is down" % label)
                self.assertDetail(r, 503)
                self.assertNotIn("access_token", r.text)
        # routing and validation need no database
        self.assertDetail(dc.get("/api/no-such-route"), 404)
        self.assertUnauthenticated(dc.get("/api/v1/services"))

        self.assertEqual(dc.master_pid(), master)
        self.assertTrue(dc.pid_alive(master))

        dc.stackctl("start-mariadb")
        self.assertTrue(dc.wait_until(lambda: _health_status() == 200, 60, 0.5),
                        "health did not return to 200 within 60 s of MariaDB's restart")
        for path in HEALTH_PATHS:
            with self.subTest(path=path, after="recovery"):
                r = dc.get(path)
                self.assertEqual(r.status, 200, r)
                self.assertEqual(r.json, OK, r)
        # every worker thread's connection recovers, not just the one that served health
        for i in range(40):
            r = dc.get("/api/v1/services", token=token)
            self.assertEqual(r.status, 200, "request %d after recovery: %r" % (i, r))
        r = dc.login(self.user.username, self.user.password)
        self.assertEqual(r.status, 200, r)

        self.assertEqual(dc.master_pid(), master, "dozor-fcgi was restarted")
        self.assertTrue(dc.pid_alive(master))
        if not recycling:
            self.assertEqual(dc.worker_pids(), workers, "workers died during the outage")

    def test_1b_frozen_database_gives_503_with_retry_after_within_a_bound(self):
        # A frozen server (SIGSTOP) accepts nothing and answers nothing: only the statement
        # timeout, the connection read timeout and the pool's wait deadline bound a request.
        pid = int((dc.STATE_DIR / "run" / "mariadb.pid").read_text().strip())
        token = self.user.token
        self.assertEqual(dc.get("/api/v1/services", token=token).status, 200)
        timeout = int(dc.config_value("database", "statement_timeout", 10))
        bound = timeout + 2 + 4  # read timeout (statement timeout + 2) and some slack
        results = []
        lock = threading.Lock()

        def call():
            t0 = time.monotonic()
            try:
                r = dc.get("/api/v1/services", token=token, timeout=60)
            except OSError as e:
                r = e
            with lock:
                results.append((time.monotonic() - t0, r))

        os.kill(pid, signal.SIGSTOP)
        try:
            threads = [threading.Thread(target=call) for _ in range(12)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(90)
        finally:
            os.kill(pid, signal.SIGCONT)
        self.assertEqual(len(results), 12)
        for elapsed, r in results:
            self.assertNotIsInstance(r, OSError, r)
            self.assertLess(elapsed, bound, "a request hung %.1f s on a frozen database" % elapsed)
            self.assertDetail(r, 503)
            self.assertTrue(r.header("Retry-After"), r)
        self.assertTrue(dc.wait_until(lambda: _health_status() == 200, 60, 0.5))
        for i in range(20):
            self.assertEqual(dc.get("/api/v1/services", token=token).status, 200, "request %d after thaw" % i)

    # ------------------------------------------------------------------ worker killed under load

    def test_2_worker_killed_under_load_is_respawned(self):
        self._ensure_database_up()
        master = dc.master_pid()
        workers = dc.worker_pids()
        n_workers = len(workers)
        self.assertGreaterEqual(n_workers, 1, "no workers under master %d" % master)
        threads_per_worker = dc.config_value("server", "threads", 16)
        victim = min(workers)

        n_clients, total = 8, 300
        results = []  # (start, end, status or exception text)
        lock = threading.Lock()
        issued = [0]
        done = [0]
        some_done = threading.Event()

        def client():
            while True:
                with lock:
                    if issued[0] >= total:
                        return
                    issued[0] += 1
                start = time.monotonic()
                try:
                    status = dc.get("/api/health", timeout=20).status
                except Exception as e:  # noqa: BLE001 - record and go on
                    status = "%s: %s" % (type(e).__name__, e)
                end = time.monotonic()
                with lock:
                    results.append((start, end, status))
                    done[0] += 1
                    if done[0] >= total // 3:
                        some_done.set()

        pool = [threading.Thread(target=client, daemon=True) for _ in range(n_clients)]
        for t in pool:
            t.start()
        self.assertTrue(some_done.wait(120), "the load did not get going")

        killed_at = time.monotonic()
        os.kill(victim, signal.SIGKILL)

        def respawned():
            now = dc.worker_pids()
            return now if (len(now) == n_workers and victim not in now) else None

        now = dc.wait_until(respawned, 10, 0.05)
        respawned_at = time.monotonic()
        self.assertTrue(now, "the master did not respawn the worker within 10 s "
                             "(workers now: %s, before: %s)" % (dc.worker_pids(), workers))
        new = now - workers
        self.assertEqual(len(new), 1, "expected exactly one new worker: %s -> %s" % (workers, now))

        for t in pool:
            t.join(timeout=180)
        self.assertFalse(any(t.is_alive() for t in pool), "load threads hang")
        self.assertEqual(len(results), total)

        failures = [r for r in results if r[2] != 200]
        after_kill = [r for r in results if r[0] >= killed_at]
        after_respawn = [r for r in results if r[0] >= respawned_at]
        print("\n  load: %d requests, %d failed, %d started after the kill, %d after the respawn "
              "(%.0f ms after the kill)" % (len(results), len(failures), len(after_kill),
                                             len(after_respawn), (respawned_at - killed_at) * 1000))
        self.assertTrue(after_kill, "the load was over before the kill")
        self.assertLessEqual(
            len(failures), threads_per_worker,
            "%d failures (more than the killed worker's %d threads): %s"
            % (len(failures), threads_per_worker, failures[:10]))
        late_failures = [r for r in failures if r[0] >= respawned_at]
        self.assertEqual(late_failures, [], "requests started after the respawn failed")
        early_failures = [r for r in failures if r[1] < killed_at]
        self.assertEqual(early_failures, [], "requests failed before the kill")

        # afterwards: the pool is whole and every request succeeds
        for i in range(60):
            r = dc.get("/api/v1/health")
            self.assertEqual(r.status, 200, "request %d after respawn: %r" % (i, r))
        r = dc.get("/api/v1/services", token=self.user.token)
        self.assertEqual(r.status, 200, r)
        self.assertEqual(dc.master_pid(), master)
        self.assertTrue(dc.pid_alive(master))
        self.assertEqual(dc.worker_pids(), now)
        # the new worker serves with its whole thread pool once it has started (the child
        # builds its application before it spawns the serving threads, so give it a moment)
        want = min(threads_per_worker, 2)
        for pid in new:
            self.assertTrue(dc.wait_until(lambda: dc.thread_count(pid) >= want, 10, 0.05),
                            "worker %d has %d threads" % (pid, dc.thread_count(pid)))

    # ------------------------------------------------------------------ graceful reload

    def test_3_sighup_replaces_every_worker_without_failing_a_request(self):
        master = dc.master_pid()
        before = dc.worker_pids()
        stop = threading.Event()
        results = []
        lock = threading.Lock()

        def client():
            while not stop.is_set():
                try:
                    status = dc.get("/api/health", timeout=20).status
                except Exception as e:  # noqa: BLE001 - a failed request is what we look for
                    status = "%s: %s" % (type(e).__name__, e)
                with lock:
                    results.append(status)

        pool = [threading.Thread(target=client, daemon=True) for _ in range(4)]
        for t in pool:
            t.start()
        time.sleep(0.5)
        os.kill(master, signal.SIGHUP)

        def replaced():
            now = dc.worker_pids()
            return now if (now and not (now & before) and len(now) == len(before)) else None

        now = dc.wait_until(replaced, 30, 0.1)
        time.sleep(0.5)
        stop.set()
        for t in pool:
            t.join(timeout=60)
        self.assertTrue(now, "workers were not replaced after SIGHUP: %s -> %s" % (before, dc.worker_pids()))
        self.assertEqual(dc.master_pid(), master, "SIGHUP must not restart the master")
        self.assertGreater(len(results), 20, "the load did not run")
        failures = [r for r in results if r != 200]
        self.assertEqual(failures, [], "requests failed during the reload")

    # ------------------------------------------------------------------ recycling under writes

    def test_4_recycled_workers_lose_no_post(self):
        # server.max_requests recycles workers under load; kept nginx connections must be closed
        # only while idle, or nginx meets a closed connection with a POST it will not retry.
        env = dict(os.environ, DOZOR_SERVER_MAX_REQUESTS="40")
        dc.stackctl("stop-fcgi")
        try:
            r = subprocess.run([dc.STACKCTL, str(dc.STATE_DIR), "start-fcgi"], env=env,
                               capture_output=True, text=True, timeout=120)
            self.assertEqual(r.returncode, 0, r.stderr)
            before = dc.worker_pids()
            token = self.user.token
            statuses = []
            lock = threading.Lock()

            def writer(n):
                for i in range(n):
                    try:
                        st = dc.post("/api/v1/services", {"name": "recycle", "url": "https://example.com/r"},
                                     token=token, timeout=30).status
                    except Exception as e:  # noqa: BLE001 - a lost request is the failure we count
                        st = "%s: %s" % (type(e).__name__, e)
                    with lock:
                        statuses.append(st)

            pool = [threading.Thread(target=writer, args=(60,), daemon=True) for _ in range(6)]
            for t in pool:
                t.start()
            for t in pool:
                t.join(timeout=300)
            self.assertEqual(len(statuses), 360)
            failures = [st for st in statuses if st != 200]
            self.assertEqual(failures, [], "POSTs lost while workers recycled")
            # a recycled worker drains its kept connections (up to half the shutdown budget)
            # before it exits and the master replaces it
            self.assertTrue(dc.wait_until(lambda: before - dc.worker_pids(), 30, 0.2), "no worker was recycled")
        finally:
            dc.stackctl("stop-fcgi")
            dc.stackctl("start-fcgi")
            self.assertTrue(dc.wait_until(lambda: _health_status() == 200, 60, 0.3))


if __name__ == "__main__":
    unittest.main()
