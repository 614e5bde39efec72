"""The dozor-fcgi master (fcgi/supervisor.cpp, docs/supervisor.md), tested on private instances.

Each test starts its own dozor-fcgi from the test build with a config of its own in a temporary
directory (its own socket, JWT key and log; the database section of the stack's config, so the
health route answers 200, or 503 without a stack) and talks FastCGI to its socket directly. The
stack's own dozor-fcgi and nginx are not touched.

Failure injection uses the hooks compiled in by -DDOZOR_TEST_HOOKS=ON (scripts/test):
DOZOR_TEST_FORK_FAILURES=N and DOZOR_TEST_WORKER_IGNORES_SIGTERM=1 (fcgi/test_hooks.hpp).
"""

from __future__ import annotations

import json
import os
import re
import resource
import secrets
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import time
import unittest
from pathlib import Path

import dozor_client as dc

BINARY = dc.BIN_DIR / "dozor-fcgi"

# --------------------------------------------------------------------------- a FastCGI client

FCGI_BEGIN_REQUEST, FCGI_END_REQUEST, FCGI_PARAMS, FCGI_STDIN, FCGI_STDOUT = 1, 3, 4, 5, 6


def _record(rtype: int, content: bytes, request_id: int = 1) -> bytes:
    return struct.pack(">BBHHBx", 1, rtype, request_id, len(content), 0) + content


def _pair(name: str, value: str) -> bytes:
    def length(n: int) -> bytes:
        return bytes([n]) if n < 128 else struct.pack(">I", n | 0x80000000)

    n, v = name.encode(), value.encode()
    return length(len(n)) + length(len(v)) + n + v


def fcgi_status(sock_path: Path, uri: str = "/health", timeout: float = 15.0) -> int:
    """HTTP status of a GET through the FastCGI socket (what nginx would do)."""
    return fcgi_get(sock_path, uri, timeout)[0]


def fcgi_get(sock_path: Path, uri: str = "/health", timeout: float = 15.0) -> tuple[int, bytes]:
    """HTTP status and body of a GET through the FastCGI socket."""
    params = {"REQUEST_METHOD": "GET", "REQUEST_URI": uri, "SCRIPT_NAME": uri, "QUERY_STRING": "",
              "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1", "CONTENT_LENGTH": "0"}
    body = b"".join(_pair(k, v) for k, v in params.items())
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        s.connect(str(sock_path))
        s.sendall(_record(FCGI_BEGIN_REQUEST, struct.pack(">HB5x", 1, 0)) + _record(FCGI_PARAMS, body)
                  + _record(FCGI_PARAMS, b"") + _record(FCGI_STDIN, b""))
        data, out = b"", b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                raise ConnectionError("connection closed before FCGI_END_REQUEST")
            data += chunk
            while len(data) >= 8:
                _, rtype, _, clen, plen = struct.unpack(">BBHHBx", data[:8])
                if len(data) < 8 + clen + plen:
                    break
                if rtype == FCGI_STDOUT:
                    out += data[8:8 + clen]
                elif rtype == FCGI_END_REQUEST:
                    m = re.match(rb"Status: (\d{3})", out)
                    return (int(m.group(1)) if m else 200), out.partition(b"\r\n\r\n")[2]
                data = data[8 + clen + plen:]


def answers(sock_path: Path) -> bool:
    try:
        return fcgi_status(sock_path, timeout=5) in (200, 503)  # 503: no database behind it
    except OSError:
        return False


# --------------------------------------------------------------------------- a private instance


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)
    return '"%s"' % str(v).replace("\\", "\\\\").replace('"', '\\"')


class Instance:
    """One dozor-fcgi with its own config under a temporary directory.

    root/run/ holds the sockets (and whatever a test puts beside them); root/ the config,
    the JWT key and the log.
    """

    def __init__(self, tc: unittest.TestCase, *, workers: int = 2, shutdown_timeout: int = 1,
                 env: dict | None = None, jwt_key: bool = True, database: bool = True):
        self.tc = tc
        # /tmp, not the build tree: unix socket paths are limited to 107 bytes.
        self.root = Path(tempfile.mkdtemp(prefix="dz-sv-", dir="/tmp"))
        self.run_dir = self.root / "run"
        self.run_dir.mkdir()
        self.config = self.root / "dozor.toml"
        self.log = self.root / "dozor-fcgi.log"
        self.key = self.root / "jwt.key"
        if jwt_key:
            self.key.write_text(secrets.token_hex(32))
        # nginx_key_file "": these requests come from the test itself on a 0600 socket, not through
        # nginx (test_fcgi_direct.py tests the key).
        self.server = {"socket": str(self.run_dir / "a.sock"), "socket_mode": "0600", "workers": workers,
                       "threads": 2, "shutdown_timeout": shutdown_timeout, "state_dir": str(self.root),
                       "nginx_key_file": ""}
        self.env = env or {}
        self.database = database  # False: a socket where no server listens, whatever the stack
        self.proc: subprocess.Popen | None = None
        self.write_config()
        tc.addCleanup(self.cleanup)

    @property
    def socket(self) -> Path:
        return Path(self.server["socket"])

    def write_config(self, **server) -> None:
        self.server.update(server)
        stack = dc.stack_config()
        no_database = {"socket": str(self.root / "no-database.sock")}
        sections = {"server": self.server,
                    "database": stack.get("database", no_database) if self.database else no_database,
                    "auth": {"jwt_secret_file": str(self.key)},
                    "scanner": {"allow_private_targets": True},
                    # The workers load the common-password list and the audit's data at start.
                    "paths": {"common_passwords": stack.get("paths", {}).get(
                                  "common_passwords", str(dc.REPO / "share" / "passwords" / "common-passwords.txt")),
                              "audit_data": stack.get("paths", {}).get("audit_data", str(dc.REPO / "share" / "audit"))}}
        lines = []
        for name, values in sections.items():
            lines.append("[%s]" % name)
            lines += ["%s = %s" % (k, _toml_value(v)) for k, v in values.items() if not isinstance(v, dict)]
            lines.append("")
        tmp = self.config.with_suffix(".tmp")
        tmp.write_text("\n".join(lines))
        os.chmod(tmp, 0o600)
        tmp.replace(self.config)  # atomic: a SIGHUP never reads half a file

    def start(self, wait_ready: bool = True) -> None:
        if not BINARY.exists():
            raise AssertionError("%s not found: build first" % BINARY)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DOZOR_SERVER_", "DOZOR_TEST_FORK",
                                                                        "DOZOR_TEST_WORKER"))}
        env.update(self.env)
        if self.proc:
            self.log_file.close()
        self.log_file = open(self.log, "ab")
        self.started_at = time.monotonic()
        self.proc = subprocess.Popen(
            [str(BINARY), "--config", str(self.config)], stdin=subprocess.DEVNULL, stdout=self.log_file,
            stderr=subprocess.STDOUT, env=env, start_new_session=True,
            # the crash test aborts a worker: no core files
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_CORE, (0, 0)))
        if wait_ready:
            ok = dc.wait_until(lambda: self.proc.poll() is None and len(self.workers()) == self.server["workers"]
                               and answers(self.socket), 60, 0.1)
            self.tc.assertTrue(ok, "dozor-fcgi did not start:\n" + self.log_text())

    @property
    def pid(self) -> int:
        return self.proc.pid

    def workers(self) -> set[int]:
        return dc.child_pids(self.pid)

    def log_text(self) -> str:
        try:
            return self.log.read_text(errors="replace")
        except OSError:
            return ""

    def signal(self, sig: int) -> None:
        os.kill(self.pid, sig)

    def stop(self, bound: float = 30.0) -> float:
        """SIGTERM; asserts a clean exit within `bound` seconds; returns the time it took."""
        t0 = time.monotonic()
        self.signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(timeout=bound)
        except subprocess.TimeoutExpired:
            self.tc.fail("dozor-fcgi did not stop within %.0f s:\n%s" % (bound, self.log_text()[-3000:]))
        self.tc.assertEqual(rc, 0, self.log_text()[-3000:])
        return time.monotonic() - t0

    def exit_code(self, timeout: float) -> int | None:
        """The exit code once the master ended within `timeout` seconds, else None."""
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def assert_no_sanitizer_report(self) -> None:
        text = self.log_text()
        self.tc.assertNotRegex(text, r"ERROR: (Address|Leak)Sanitizer|runtime error:", text[-3000:])

    def cleanup(self) -> None:
        if self.proc and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)  # the session this test started
            except ProcessLookupError:
                pass
            self.proc.wait(timeout=30)
        if self.proc:
            self.log_file.close()
        shutil.rmtree(self.root, ignore_errors=True)


def listening_socket(path: Path) -> socket.socket:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(str(path))
    s.listen(8)
    return s


def accepts(path: Path) -> bool:
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as c:
            c.settimeout(5)
            c.connect(str(path))
        return True
    except OSError:
        return False


# --------------------------------------------------------------------------- tests


class SupervisorTest(unittest.TestCase):
    def test_reload_with_a_changed_socket_path_moves_the_socket_and_removes_only_the_old_one(self):
        inst = Instance(self)
        keep = inst.run_dir / "keep.txt"
        keep.write_text("not dozor's")
        other = listening_socket(inst.run_dir / "other.sock")
        self.addCleanup(other.close)
        inst.start()
        old_socket = inst.socket
        before = inst.workers()
        self.assertEqual(len(before), 2)

        inst.write_config(socket=str(inst.run_dir / "b.sock"))
        inst.signal(signal.SIGHUP)
        self.assertTrue(dc.wait_until(lambda: answers(inst.socket), 30, 0.1),
                        "the new socket does not answer after SIGHUP:\n" + inst.log_text())
        self.assertTrue(dc.wait_until(lambda: not (inst.workers() & before) and len(inst.workers()) == 2, 30),
                        "the workers were not replaced: %s -> %s" % (before, inst.workers()))
        self.assertFalse(old_socket.exists(), "the old socket is still there")
        self.assertEqual(sorted(p.name for p in inst.run_dir.iterdir()), ["b.sock", "keep.txt", "other.sock"])
        self.assertTrue(accepts(inst.run_dir / "other.sock"))
        self.assertIn("socket moved to %s; %s removed" % (inst.socket, old_socket), inst.log_text())
        for _ in range(10):
            self.assertIn(fcgi_status(inst.socket), (200, 503))

        inst.stop()
        self.assertEqual(sorted(p.name for p in inst.run_dir.iterdir()), ["keep.txt", "other.sock"],
                         "stopping must remove our socket and nothing else")
        self.assertEqual(keep.read_text(), "not dozor's")
        inst.assert_no_sanitizer_report()

    def test_reload_onto_a_path_another_server_listens_on_is_refused(self):
        inst = Instance(self)
        taken = inst.run_dir / "taken.sock"
        other = listening_socket(taken)
        self.addCleanup(other.close)
        ino = taken.stat().st_ino
        inst.start()
        before = inst.workers()

        inst.write_config(socket=str(taken))
        inst.signal(signal.SIGHUP)
        self.assertTrue(dc.wait_until(lambda: "reload refused" in inst.log_text(), 15),
                        "a reload onto a live socket was not refused:\n" + inst.log_text())
        self.assertEqual(taken.stat().st_ino, ino, "the other server's socket was replaced")
        self.assertTrue(answers(inst.run_dir / "a.sock"), "the running socket stopped answering")
        self.assertEqual(inst.workers(), before, "a refused reload must not replace the workers")

        inst.stop()
        self.assertTrue(taken.exists(), "stopping removed another server's socket")
        self.assertEqual(taken.stat().st_ino, ino)
        self.assertTrue(accepts(taken))
        self.assertFalse((inst.run_dir / "a.sock").exists())

    def test_start_refuses_a_live_socket_or_a_file_at_its_path_and_leaves_them(self):
        inst = Instance(self)
        other = listening_socket(inst.socket)
        ino = inst.socket.stat().st_ino
        inst.start(wait_ready=False)
        rc = inst.exit_code(20)
        other.close()
        self.assertTrue(inst.socket.exists(), "another server's socket was removed")
        self.assertEqual(inst.socket.stat().st_ino, ino, "another server's socket was replaced")
        self.assertIsNotNone(rc, "dozor-fcgi started on a socket another server listens on")
        self.assertNotEqual(rc, 0)
        self.assertIn("in use by another server", inst.log_text())

        inst.socket.unlink()
        inst.socket.write_text("a regular file")
        inst.start(wait_ready=False)
        rc = inst.exit_code(20)
        self.assertTrue(inst.socket.exists() and not inst.socket.is_socket(), "the regular file was replaced")
        self.assertEqual(inst.socket.read_text(), "a regular file")
        self.assertIsNotNone(rc, "dozor-fcgi started on a path that holds a regular file")
        self.assertNotEqual(rc, 0)
        self.assertIn("is not a socket", inst.log_text())

        # a stale socket (nobody listens) is what a crashed master leaves: replaced
        inst.socket.unlink()
        stale = listening_socket(inst.socket)
        stale.close()
        inst.start()
        self.assertIn("removed the stale socket", inst.log_text())
        inst.stop()

    def test_a_file_put_at_the_socket_path_while_running_is_not_removed_at_exit(self):
        inst = Instance(self)
        inst.start()
        inst.socket.rename(inst.run_dir / "moved.sock")
        inst.socket.write_text("someone else's")
        inst.stop()
        self.assertTrue(inst.socket.exists(), "stopping removed a file that is not its socket")
        self.assertEqual(inst.socket.read_text(), "someone else's")

    def test_fork_failure_is_retried_with_backoff_and_the_pool_fills(self):
        inst = Instance(self, workers=2, env={"DOZOR_TEST_FORK_FAILURES": "4"})
        inst.start()
        elapsed = time.monotonic() - inst.started_at
        log = inst.log_text()
        self.assertEqual(log.count("fork failed: "), 4, log)
        waits = [int(ms) for ms in re.findall(r"fork failed \d+ times in a row: next attempt in (\d+) ms", log)]
        self.assertEqual(waits, [100, 200, 400, 800], log)
        self.assertGreaterEqual(elapsed, 1.4, "the retries did not wait")
        self.assertTrue(dc.pid_alive(inst.pid))
        self.assertEqual(len(inst.workers()), 2)
        self.assertIn("running with 2 workers", log)
        inst.stop()
        inst.assert_no_sanitizer_report()

    def test_worker_ignoring_sigterm_is_killed_after_the_grace_period(self):
        # shutdown_timeout 1 s: SIGKILL 3 s after SIGTERM (the drain budget plus 2 s)
        inst = Instance(self, workers=1, shutdown_timeout=1, env={"DOZOR_TEST_WORKER_IGNORES_SIGTERM": "1"})
        inst.start()
        (old,) = inst.workers()

        # on reload, the old generation is terminated once the new one runs
        t0 = time.monotonic()
        inst.signal(signal.SIGHUP)
        self.assertTrue(dc.wait_until(lambda: "ignoring signal 15" in inst.log_text(), 15), inst.log_text())
        self.assertTrue(dc.wait_until(lambda: not dc.pid_alive(old), 15),
                        "the old worker that ignores SIGTERM is still alive:\n" + inst.log_text())
        took = time.monotonic() - t0
        self.assertGreaterEqual(took, 2.5, "the old worker was killed before its grace period")
        self.assertIn("worker %d ignored SIGTERM for 3000 ms: sending SIGKILL" % old, inst.log_text())
        self.assertTrue(dc.wait_until(lambda: "reload complete" in inst.log_text(), 10), inst.log_text())
        self.assertTrue(answers(inst.socket))

        # on stop, shutdown completes within the grace period and a bound
        (current,) = inst.workers()
        took = inst.stop(bound=15)
        self.assertGreaterEqual(took, 2.5, "SIGKILL came before the grace period ended")
        self.assertLess(took, 8, "shutdown took %.1f s" % took)
        self.assertIn("worker %d ignored SIGTERM" % current, inst.log_text())
        self.assertFalse(dc.pid_alive(current))

    def test_crashed_worker_is_replaced_at_once_and_repeated_crashes_with_backoff(self):
        inst = Instance(self, workers=2)
        inst.start()
        latencies = []
        for _ in range(3):
            before = inst.workers()
            victim = min(before)
            os.kill(victim, signal.SIGABRT)
            t0 = time.monotonic()

            def replaced():
                w = inst.workers()
                return w if len(w) == 2 and victim not in w else None

            now = dc.wait_until(replaced, 10, 0.01)
            latencies.append(time.monotonic() - t0)
            self.assertTrue(now, "the crashed worker %d was not replaced: %s" % (victim, inst.workers()))
            self.assertIn("worker %d killed by signal 6" % victim, inst.log_text())
            for _ in range(5):
                self.assertIn(fcgi_status(inst.socket), (200, 503))
        # The first crash is replaced at once; crashes of young workers in a row wait 100, 200 ms…
        self.assertLess(latencies[0], 2.0, latencies)
        self.assertGreaterEqual(latencies[2], 0.18, "repeated crashes replaced without backoff: %s" % latencies)
        self.assertIn("replacing it in 200 ms", inst.log_text())
        inst.stop()

    def test_stuck_old_worker_is_killed_after_the_reload_grace_period(self):
        # A worker that cannot act on SIGTERM (stopped here; deadlocked in life) must not
        # linger forever after a reload.
        inst = Instance(self, workers=1, shutdown_timeout=1)
        inst.start()
        (old,) = inst.workers()
        os.kill(old, signal.SIGSTOP)
        inst.signal(signal.SIGHUP)
        gone = dc.wait_until(lambda: not dc.pid_alive(old), 15, 0.1)
        if not gone:
            os.kill(old, signal.SIGKILL)
        self.assertTrue(gone, "the stuck old worker was never killed:\n" + inst.log_text())
        # The master logs the reap after the process is gone: wait for the line, not just the pid.
        line = "worker %d killed by signal 9" % old
        self.assertTrue(dc.wait_until(lambda: line in inst.log_text(), 5, 0.05), inst.log_text())
        self.assertTrue(answers(inst.socket))
        inst.stop()

    def test_a_config_the_workers_cannot_use_stops_the_start_at_once(self):
        # No JWT key: the master refuses before forking (exit 78, EX_CONFIG) instead of a crash
        # loop that never reports ready (systemd then waited for its start timeout).
        inst = Instance(self, workers=2, jwt_key=False)
        inst.start(wait_ready=False)
        self.assertEqual(inst.exit_code(5), 78, inst.log_text())
        self.assertIn("cannot read the JWT key file", inst.log_text())
        self.assertNotIn("worker", inst.log_text())

    def test_crash_loop_backs_off_and_stop_stays_prompt(self):
        # The JWT key goes away under a running master (the master checks it before its first
        # fork, and refuses to start without it): every new worker then fails right after its
        # start, as after a bad deployment. The workers are retired with SIGTERM, a clean exit
        # that is replaced at once and does not count as a crash.
        inst = Instance(self, workers=2)
        inst.start()
        inst.key.unlink()
        for pid in inst.workers():
            os.kill(pid, signal.SIGTERM)
        time.sleep(3)
        log = inst.log_text()
        starts = log.count("cannot read the JWT key file")
        self.assertGreaterEqual(starts, 3, log)
        # Both slots share one streak: replacements wait 0, 100, 200, 400, 800, 1600, 3200 ms, so
        # even with instant deaths at most 8 workers start in 3 s (the old master started 15:
        # ten at once, then one a second).
        self.assertLessEqual(starts, 8, "workers failing at start are respawned without backoff")
        waits = [int(ms) for ms in re.findall(r"soon after its start: replacing it in (\d+) ms", log)]
        self.assertEqual(waits, sorted(waits), log)
        self.assertGreaterEqual(len(waits), 2, log)
        self.assertEqual(waits[:2], [100, 200], log)
        took = inst.stop(bound=10)
        self.assertLess(took, 2, "stop during a crash loop took %.1f s" % took)
        self.assertFalse(inst.socket.exists())
        inst.assert_no_sanitizer_report()


if __name__ == "__main__":
    unittest.main()


class PoolFiguresTest(unittest.TestCase):
    """/monitoring/health's web part: the scoreboard the master shares with its workers
    (engines/health/scoreboard.hpp) seen through a private instance's socket."""

    def web(self, inst: Instance) -> dict:
        status, body = fcgi_get(inst.socket, "/monitoring/health")
        self.assertIn(status, (200, 503), body[:500])
        return json.loads(body)["web"]

    def reload(self, inst: Instance, generation: int) -> dict:
        """SIGHUP, then the board once `generation` alone serves."""
        inst.signal(signal.SIGHUP)
        web = dc.wait_until(lambda: (lambda w: w if w["pool_state"] == "running" and w["generation"] == generation
                                     and len(w["workers"]) == 2
                                     and all(x["generation"] == generation for x in w["workers"]) else None)(
            self.web(inst)), 20, 0.05)
        self.assertTrue(web, self.web(inst))
        return web

    def test_the_pool_s_workers_requests_restarts_and_recycles_are_reported(self):
        inst = Instance(self, workers=2)
        inst.start()
        web = self.web(inst)
        self.assertEqual(web["master_pid"], inst.pid)
        self.assertEqual(web["pool_state"], "running")
        self.assertEqual(web["workers_configured"], 2)
        self.assertEqual(web["workers_alive"], 2, web)
        self.assertEqual({w["pid"] for w in web["workers"]}, inst.workers())
        self.assertEqual(web["threads"]["total"], 4)
        self.assertGreaterEqual(web["threads"]["busy"], 1, "the asking request itself is busy")
        self.assertEqual(web["threads"]["idle"], web["threads"]["total"] - web["threads"]["busy"])
        self.assertEqual(web["status"], "ok", web)
        served = web["requests_served"]
        for _ in range(3):
            fcgi_status(inst.socket)
        self.assertGreaterEqual(self.web(inst)["requests_served"], served + 4)

        # A killed worker is a restart; the pool fills again.
        victim = min(inst.workers())
        os.kill(victim, signal.SIGKILL)
        after = dc.wait_until(lambda: (lambda w: w if w["restarts"] == 1 and w["workers_alive"] == 2
                                       and victim not in {x["pid"] for x in w["workers"]} else None)(self.web(inst)),
                              10, 0.05)
        self.assertTrue(after, self.web(inst))
        self.assertEqual(after["recycled"], 0)

        # A reload replaces every worker with clean exits: neither restarts nor recycles.
        web = self.reload(inst, after["generation"] + 1)
        self.assertEqual((web["restarts"], web["recycled"]), (1, 0), web)

        # Workers that served server.max_requests end and are replaced: recycled, not restarts.
        inst.write_config(max_requests=6)
        self.reload(inst, web["generation"] + 1)
        for _ in range(30):
            fcgi_status(inst.socket)
        web = dc.wait_until(lambda: (lambda w: w if w["recycled"] >= 2 and w["workers_alive"] == 2 else None)(
            self.web(inst)), 10, 0.05)
        self.assertTrue(web, self.web(inst))
        self.assertEqual(web["restarts"], 1, web)
        self.assertTrue(all(w["requests"] <= 6 for w in web["workers"]), web)
        inst.stop()
        inst.assert_no_sanitizer_report()
