"""GET /monitoring/health (handlers/system_health.cpp, docs/health.md) through the stack's nginx:
every part of the system read for real, the judgement, and nginx's allow list."""

from __future__ import annotations

import json
import re
import subprocess
import unittest

import dozor_client as dc
from test_supervisor import Instance, fcgi_get

MIGRATIONS = dc.REPO / "db" / "migrations"


class SystemHealthTest(dc.DozorTestCase):
    def health(self, **kw) -> dict:
        r = dc.get("/monitoring/health", **kw)
        self.assertEqual(r.status, 200, r)
        self.assertJsonContentType(r)
        return r.json

    def test_every_part_is_read_from_the_running_system(self):
        h = self.health()
        self.assertIn(h["status"], ("ok", "degraded"), h)
        self.assertEqual((h["version"], h["build"]), ("1.0.0", dc.VERSION), h)  # spec §9.3 release, the build
        parts = ("web", "database", "monitor", "analyzer", "disk")
        for part in parts:
            self.assertIn(h[part]["status"], ("ok", "degraded", "down"), h[part])
            self.assertIsInstance(h[part]["reasons"], list)
            self.assertEqual(h[part]["status"] == "ok", not h[part]["reasons"], h[part])
        # The whole is the worst part.
        order = ["ok", "degraded", "down"]
        self.assertEqual(h["status"], max((h[p]["status"] for p in parts), key=order.index), h)

        web = h["web"]
        self.assertEqual(web["master_pid"], dc.master_pid())
        self.assertEqual({w["pid"] for w in web["workers"]}, dc.worker_pids())
        self.assertEqual(web["workers_alive"], web["workers_configured"], web)
        self.assertGreaterEqual(web["threads"]["busy"], 1, web)
        self.assertEqual(web["status"], "ok", web)

        db = h["database"]
        newest = max(int(re.match(r"(\d+)_", p.name).group(1)) for p in MIGRATIONS.glob("*.sql"))
        self.assertEqual((db["status"], db["reachable"], db["schema_version"]), ("ok", True, newest), db)
        self.assertEqual(db["migrations_applied"], len(list(MIGRATIONS.glob("*.sql"))), db)
        self.assertGreater(db["latency_ms"], 0)

        mon = h["monitor"]
        live = [d for d in mon["daemons"] if not d["stale"]]
        self.assertTrue(live, "the stack's dozord is not listed: %s" % mon)
        self.assertLess(live[0]["heartbeat_age_seconds"], 30)
        for key in ("queued", "running"):
            self.assertGreaterEqual(mon["task_queue"][key], 0)
        self.assertGreaterEqual(mon["outbox"]["pending"], 0)

        an = h["analyzer"]
        self.assertTrue(an["configured"] and an["reachable"] and an["ready"], an)
        self.assertEqual(an["status"], "ok", an)
        self.assertTrue(an["model"]["name"] and an["model"]["version"], an)

        roles = {d["role"]: d for d in h["disk"]["directories"]}
        self.assertEqual(set(roles), {"state", "vault"})
        for d in roles.values():
            self.assertTrue(d["readable"], d)
            self.assertGreater(d["total_bytes"], 0)
            self.assertLessEqual(d["free_bytes"], d["total_bytes"])

    def test_a_silent_dozord_degrades_the_monitor_and_names_it(self):
        owner = dc.unique_name("ghost")
        dc.db_query("INSERT INTO daemon_heartbeats (owner, location, pid, started_at, beat_at, checks_done)"
                    " VALUES ('%s', 'nowhere', 1, NOW(3) - INTERVAL 1 HOUR, NOW(3) - INTERVAL 45 SECOND, 0)" % owner)
        self.addCleanup(dc.db_query, "DELETE FROM daemon_heartbeats WHERE owner = '%s'" % owner)
        h = self.health()
        self.assertEqual(h["monitor"]["status"], "degraded", h["monitor"])
        self.assertNotEqual(h["status"], "ok")
        self.assertTrue(any(r.startswith("dozord %s (nowhere) silent for 4" % owner) for r in h["monitor"]["reasons"]),
                        h["monitor"]["reasons"])
        ghost = [d for d in h["monitor"]["daemons"] if d["owner"] == owner]
        self.assertTrue(ghost and ghost[0]["stale"], h["monitor"])

    def overdue_and_locked(self, service_id: int) -> subprocess.Popen:
        """Makes the service two minutes overdue and holds its row locked in an open
        transaction, so the stack's dozord (which claims with SKIP LOCKED) leaves it overdue
        while /monitoring/health reads the committed row. The caller ends the session."""
        db = dc.stack_config().get("database", {}).get("name", "dozor")
        p = subprocess.Popen(["mariadb", "--no-defaults", "--socket=%s" % (dc.STATE_DIR / "run" / "mysqld.sock"),
                              "--batch", "--skip-column-names", "--unbuffered", db],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        p.stdin.write("UPDATE service_state SET next_check_at = NOW(3) - INTERVAL 2 MINUTE, lease_owner = NULL,"
                      " lease_until = NULL WHERE service_id = %d;\nBEGIN;\n"
                      "SELECT IFNULL(lease_owner, 'free') FROM service_state WHERE service_id = %d FOR UPDATE;\n"
                      % (service_id, service_id))
        p.stdin.flush()
        self.lease = p.stdout.readline().strip()
        return p

    def test_overdue_checks_degrade_the_monitor_with_the_lag(self):
        user = self.new_user("lag")
        svc = self.new_service(user)
        self.assertTrue(dc.wait_until(
            lambda: dc.db_query("SELECT 1 FROM service_state WHERE service_id = %d" % svc["id"]), 30, 0.2))
        for _ in range(5):
            session = self.overdue_and_locked(svc["id"])
            try:
                if self.lease != "free":
                    continue  # the dozord claimed it in the instant between the update and the lock
                mon = self.health()["monitor"]
            finally:
                session.stdin.write("ROLLBACK;\n")
                session.stdin.close()
                session.wait(timeout=30)
            self.assertGreaterEqual(mon["overdue_services"], 1, mon)
            self.assertGreaterEqual(mon["check_lag_seconds"], 119, mon)
            self.assertTrue(any("overdue, the oldest by" in r for r in mon["reasons"]), mon)
            return
        self.fail("the dozord claimed the service every time")

    def test_a_database_that_cannot_be_reached_is_down_and_the_answer_503(self):
        # A private dozor-fcgi (tests/integration/test_supervisor.py) whose database socket has no
        # server behind it, asked over FastCGI as nginx would: the handler's own status and body.
        inst = Instance(self, workers=1, database=False)
        inst.start()
        status, body = fcgi_get(inst.socket, "/monitoring/health")
        self.assertEqual(status, 503, body[:1000])
        h = json.loads(body)
        self.assertEqual(h["status"], "down", h)
        db = h["database"]
        self.assertEqual((db["status"], db["reachable"]), ("down", False), db)
        self.assertTrue(db["reasons"], db)
        self.assertNotIn("schema_version", db)
        # The rest of the answer is still there: the pool answered for itself.
        self.assertEqual(h["web"]["master_pid"], inst.pid, h["web"])
        for part in ("web", "database", "monitor", "analyzer", "disk"):
            self.assertIn(h[part]["status"], ("ok", "degraded", "down"), h[part])
        # Its plain /health agrees.
        self.assertEqual(fcgi_get(inst.socket, "/health")[0], 503)
        inst.stop()
        inst.assert_no_sanitizer_report()

    def test_only_loopback_and_internal_networks_reach_it_and_nginx_refuses_the_rest(self):
        ok = dc.get("/monitoring/health", source="127.0.0.1")
        self.assertEqual(ok.status, 200, ok)
        self.assertIsNotNone(ok.header("Cache-Control"), "the backend's own answer sets Cache-Control")
        for path in ("/monitoring/health", "/monitoring/anything", "/metrics"):
            r = dc.get(path, source="127.0.0.2")
            self.assertDetail(r, 403, "Forbidden")
            # nginx answered: the backend sets Cache-Control on every answer, nginx's return does not.
            self.assertIsNone(r.header("Cache-Control"), r)

    def test_head_answers_like_get_without_a_body(self):
        r = dc.request("HEAD", "/monitoring/health")
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.body, b"")


if __name__ == "__main__":
    unittest.main()
