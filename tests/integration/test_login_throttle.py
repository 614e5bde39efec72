"""Login hardening (issue 12 §2, docs/login.md): throttling per client and per (account,
client), never per account alone; device cookies; one canonical username; a bounded hashing
queue; the password policy; and migration 0003 on an existing database.

Clients are made distinct by connecting from other loopback addresses (127.77.x.y, through
nginx) or by talking to dozor-fcgi's socket with any REMOTE_ADDR (IPv6 /64s, many clients).
"""

import concurrent.futures
import os
import random
import secrets
import shutil
import subprocess
import tempfile
import time
import unittest

import dozor_client as dc

INCORRECT = "Incorrect username or password"
THROTTLED = "Too many failed login attempts; try again later"
BUSY = "Too many logins in progress; try again in a moment"
MAX_FAILURES = dc.config_value("auth", "max_failures", 5)
CLIENT_MAX = dc.config_value("auth", "client_max_failures", 20)
ACCOUNT_MAX = dc.config_value("auth", "account_max_failures", 100)
LOGIN = "/api/auth/login"


def random_ipv4() -> str:
    # TEST-NET and benchmarking ranges are never real clients; random so reruns on one
    # database never meet an older test's counters.
    return "198.18.%d.%d" % (random.randrange(256), random.randrange(1, 255))


def random_prefix64() -> str:
    return "2001:db8:%x:%x" % (random.randrange(1 << 16), random.randrange(1 << 16))


def fcgi_login(username: str, password: str, remote_addr: str, device: str | None = None) -> dc.Response:
    headers = {"Cookie": "%s=%s" % (dc.DEVICE_COOKIE, device)} if device else None
    return dc.fcgi_request("POST", LOGIN, json_body={"username": username, "password": password},
                           remote_addr=remote_addr, headers=headers)


def throttle_rows(where: str = "1") -> int:
    return int(dc.db_query("SELECT COUNT(*) FROM login_throttle WHERE " + where)[0][0])


class LoginThrottleCase(dc.DozorTestCase):
    def assertThrottled(self, r: dc.Response, detail: str = THROTTLED):
        self.assertDetail(r, 429, detail)
        self.assertNotIn("access_token", r.text)
        self.assertRegex(r.header("Retry-After") or "", r"^[1-9]\d*$", r)

    def owner_with_cookie(self, user: dc.User, source: str) -> str:
        r = dc.login(user.username, user.password, source=source)
        self.assertEqual(r.status, 200, r)
        cookie = dc.device_cookie_of(r)
        self.assertIsNotNone(cookie, r)
        return cookie


class DeviceCookieTest(LoginThrottleCase):
    def test_a_successful_login_sets_a_hardened_device_cookie(self):
        u = self.new_user("cookie")
        r = dc.login(u.username, u.password, source=dc.fresh_source())
        self.assertEqual(r.status, 200, r)
        lines = [line for line in r.header_all("Set-Cookie") if line.startswith(dc.DEVICE_COOKIE + "=")]
        self.assertEqual(len(lines), 1, r.header_all("Set-Cookie"))
        attrs = {a.strip().split("=")[0].lower() for a in lines[0].split(";")[1:]}
        self.assertTrue({"httponly", "secure", "samesite", "path", "max-age"} <= attrs, lines[0])
        self.assertIn("SameSite=Strict", lines[0])
        self.assertIn("Path=/;", lines[0] + ";")
        self.assertNotIn("domain", attrs)
        # A failed login sets none.
        r = dc.login(u.username, "Wrong-password-1", source=dc.fresh_source())
        self.assertEqual(r.status, 401, r)
        self.assertIsNone(dc.device_cookie_of(r))

    def test_a_flood_from_one_address_never_stops_the_device_cookie_holder(self):
        u = self.new_user("victim")
        home = dc.fresh_source()
        cookie = self.owner_with_cookie(u, home)
        attacker = dc.fresh_source()
        for i in range(MAX_FAILURES + 10):
            r = dc.login(u.username, "Wrong-guess-%d" % i, source=attacker)
            self.assertIn(r.status, (401, 429), r)
        # The flood did block something: the right password without the cookie, from there.
        self.assertThrottled(dc.login(u.username, u.password, source=attacker))
        # The owner, from home and even from the attacker's own address, is not stopped.
        r = dc.login(u.username, u.password, device=cookie, source=home)
        self.assertEqual(r.status, 200, r)
        r = dc.login(u.username, u.password, device=cookie, source=attacker)
        self.assertEqual(r.status, 200, r)
        # Another client that never logged in is not stopped either (its own pair).
        self.assertEqual(dc.login(u.username, u.password, source=dc.fresh_source()).status, 200)

    def test_a_flood_from_many_addresses_never_stops_the_device_cookie_holder(self):
        u = self.new_user("manyvictim")
        cookie = self.owner_with_cookie(u, dc.fresh_source())
        clients = ["198.19.%d.%d" % (random.randrange(256), n) for n in range(1, ACCOUNT_MAX // MAX_FAILURES + 6)]

        def flood(addr):
            return [fcgi_login(u.username, "Wrong-guess-%s" % secrets.token_hex(3), addr).status
                    for _ in range(MAX_FAILURES)]

        with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
            statuses = [s for batch in pool.map(flood, clients) for s in batch]
        self.assertEqual(set(statuses) - {401, 429}, set(), statuses)
        self.assertGreaterEqual(statuses.count(401), ACCOUNT_MAX, "the flood never reached the backstop")
        # The account-wide backstop now stops clients without the cookie ...
        self.assertThrottled(fcgi_login(u.username, u.password, random_ipv4()))
        # ... but not the device that logged in before.
        r = fcgi_login(u.username, u.password, random_ipv4(), device=cookie)
        self.assertEqual(r.status, 200, r)

    def test_the_cookie_holder_gets_short_delays_not_a_lock(self):
        u = self.new_user("delay")
        addr = random_ipv4()
        r = fcgi_login(u.username, u.password, addr)
        self.assertEqual(r.status, 200, r)
        cookie = dc.device_cookie_of(r)
        waits = []
        failures = 0
        while failures < MAX_FAILURES + 3:
            r = fcgi_login(u.username, "Wrong-%d-pass" % failures, addr, device=cookie)
            if r.status == 429:
                self.assertThrottled(r)
                waits.append(int(r.header("Retry-After")))
                time.sleep(waits[-1])
                continue
            self.assertDetail(r, 401, INCORRECT)
            failures += 1
        self.assertTrue(all(w <= 30 for w in waits), "a delay, not a lock: %s" % waits)
        # After the short wait the right password works from that device.
        for _ in range(3):
            r = fcgi_login(u.username, u.password, addr, device=cookie)
            if r.status != 429:
                break
            self.assertLessEqual(int(r.header("Retry-After")), 30, r)
            time.sleep(int(r.header("Retry-After")))
        self.assertEqual(r.status, 200, r)

    def test_a_cookie_for_another_account_or_a_forged_one_counts_as_none(self):
        a = self.new_user("owner")
        b = self.new_user("other")
        a_cookie = self.owner_with_cookie(a, dc.fresh_source())
        addr = random_ipv4()
        forged = a_cookie[:-4] + ("AAAA" if not a_cookie.endswith("AAAA") else "BBBB")
        for cookie in (a_cookie, forged):
            for i in range(MAX_FAILURES):
                self.assertEqual(fcgi_login(b.username, "Wrong-%d-pass" % i, addr, device=cookie).status, 401)
            self.assertThrottled(fcgi_login(b.username, b.password, addr, device=cookie))
            addr = random_ipv4()


class ClientAggregationTest(LoginThrottleCase):
    def test_ipv6_addresses_of_one_slash_64_are_one_client(self):
        u = self.new_user("v6")
        prefix = random_prefix64()
        for i in range(MAX_FAILURES):
            r = fcgi_login(u.username, "Wrong-%d-pass" % i, "%s::%x" % (prefix, random.randrange(1, 1 << 16)))
            self.assertDetail(r, 401, INCORRECT)
        # Any other address of that /64 is the same client ...
        self.assertThrottled(fcgi_login(u.username, u.password, "%s:1:2:3:4" % prefix))
        # ... and the next /64 is another one.
        other = prefix.rsplit(":", 1)[0] + ":%x" % ((int(prefix.rsplit(":", 1)[1], 16) + 1) % (1 << 16))
        r = fcgi_login(u.username, u.password, other + "::1")
        self.assertEqual(r.status, 200, r)

    def test_the_client_counter_stops_guessing_over_many_names(self):
        addr = random_ipv4()

        def guess():
            # "Busy" (every hashing slot taken, e.g. by an earlier test's abandoned requests) is
            # a capacity refusal before any counting, not the throttle under test: try again.
            # So is a name whose slot already has its pair's failures: unknown names share 64
            # slots per client, so six of 60 random names land on one now and then (one run in
            # forty, simulated); that refusal counts nothing, and another name takes another slot.
            # A client counter that stopped too early refuses every retry, and still fails here.
            for _ in range(50):
                r = fcgi_login(dc.unique_name("spray"), "Spray-pass-1", addr)
                body = r.body or b""
                if not (r.status == 429 and (b"in progress" in body or b"failed login attempts" in body)):
                    return r.status
                time.sleep(0.1)
            return r.status

        statuses = [guess() for _ in range(CLIENT_MAX)]
        self.assertEqual(statuses, [401] * CLIENT_MAX)
        self.assertThrottled(fcgi_login(dc.unique_name("spray"), "Spray-pass-1", addr))
        # An existing account from that client waits too (without its cookie) ...
        u = self.new_user("sprayed")
        self.assertThrottled(fcgi_login(u.username, u.password, addr))
        # ... and from elsewhere it does not.
        self.assertEqual(fcgi_login(u.username, u.password, random_ipv4()).status, 200)


class ExactCountTest(LoginThrottleCase):
    def test_a_concurrent_burst_gets_exactly_max_failures_checked_attempts(self):
        u = self.new_user("burst")
        addr = random_ipv4()
        n = 2 * MAX_FAILURES
        with concurrent.futures.ThreadPoolExecutor(max_workers=n) as pool:
            answers = list(pool.map(lambda i: fcgi_login(u.username, "Wrong-burst-%d" % i, addr), range(n)))
        statuses = sorted(r.status for r in answers)
        self.assertEqual(statuses, [401] * MAX_FAILURES + [429] * (n - MAX_FAILURES), answers)
        for r in answers:
            if r.status == 429:
                self.assertThrottled(r)
        rows = dc.db_query("SELECT failures FROM login_throttle WHERE bucket = 'p|%d|%s'" % (u.id, addr))
        self.assertEqual(rows, [[str(MAX_FAILURES)]])


class BoundedTableTest(LoginThrottleCase):
    def test_unknown_names_add_no_row_per_name(self):
        addr = random_ipv4()
        before = throttle_rows()
        for _ in range(CLIENT_MAX - 2):
            self.assertEqual(fcgi_login(dc.unique_name("ghost"), "Ghost-pass-1", addr).status, 401)
        self.assertLessEqual(throttle_rows() - before, 1)
        self.assertEqual(throttle_rows("bucket = 'c|%s'" % addr), 1)

    def test_an_unknown_name_is_throttled_like_an_account(self):
        addr = random_ipv4()
        ghost = dc.unique_name("ghost")
        for _ in range(MAX_FAILURES):
            self.assertDetail(fcgi_login(ghost, "Ghost-pass-1", addr), 401, INCORRECT)
        self.assertThrottled(fcgi_login(ghost, "Ghost-pass-1", addr))

    def test_expired_rows_are_purged_on_write(self):
        key = "c|198.51.100.%d" % random.randrange(1, 255)
        dc.db_query("INSERT INTO login_throttle (bucket, failures, last_ms, expires_ms) VALUES ('%s', 3, 1, 2)"
                    " ON DUPLICATE KEY UPDATE expires_ms = 2" % key)
        self.assertEqual(throttle_rows("bucket = '%s'" % key), 1)
        fcgi_login(dc.unique_name("purge"), "Purge-pass-1", random_ipv4())
        self.assertTrue(dc.wait_until(lambda: throttle_rows("bucket = '%s'" % key) == 0, 5), "expired row kept")

    def test_a_success_leaves_no_row_for_its_pair(self):
        u = self.new_user("clean")
        addr = random_ipv4()
        self.assertEqual(fcgi_login(u.username, "Wrong-once-1", addr).status, 401)
        self.assertEqual(fcgi_login(u.username, u.password, addr).status, 200)
        self.assertEqual(throttle_rows("bucket = 'p|%d|%s'" % (u.id, addr)), 0)


class CanonicalNameTest(LoginThrottleCase):
    def _create(self, username: str, password: str = "Long-enough-pw-7q") -> dc.Response:
        email = "v-%s@example.com" % secrets.token_hex(6)
        r = dc.post("/api/admin/users", {"username": username, "email": email, "password": password},
                    token=dc.admin_token())
        if r.status == 200:
            self.addCleanup(dc.delete_user, r.json["id"])
        return r

    def test_variants_of_an_existing_name_cannot_be_registered(self):
        u = self.new_user("canon")
        for v in (u.username.upper(), u.username.capitalize()):
            with self.subTest(variant=v):
                self.assertDetail(self._create(v), 409)
        for v in ("\uff41" + u.username[1:],            # fullwidth first letter
                  u.username[:3] + "\u200b" + u.username[3:],  # zero-width space
                  u.username + "\u00a0",                # NBSP
                  "\u202e" + u.username):               # RTL override
            with self.subTest(variant=repr(v)):
                r = self._create(v)
                self.assertEqual(r.status, 422, r)

    def test_dozorctl_refuses_a_variant_of_an_existing_name(self):
        u = self.new_user("ctlcanon")
        # Mathematical bold letters: distinct under the old collation, one name canonically.
        variant = chr(0x1D41A + ord(u.username[0]) - ord("a")) + u.username[1:]
        r = subprocess.run([str(dc.BIN_DIR / "dozorctl"), "--config", str(dc.STATE_DIR / "dozor.toml"), "user", "add",
                            "--username", variant, "--email", "x-%s@example.com" % secrets.token_hex(4),
                            "--password-stdin"], input="Long-enough-pw-7q\n", capture_output=True, text=True,
                           timeout=60)
        self.assertNotEqual(r.returncode, 0, r.stdout)
        self.assertIn("already exists", r.stderr)

    def test_any_spelling_is_the_same_account(self):
        u = self.new_user("spell")
        for v in (u.username.upper(), u.username + " ", "".join(chr(ord(c) + 0xFEE0) if c.isalnum() else c
                                                             for c in u.username), "\u200b" + u.username):
            with self.subTest(variant=repr(v)):
                r = dc.login(v, u.password, source=dc.fresh_source())
                self.assertEqual(r.status, 200, r)
                self.assertEqual(r.json["user"]["id"], u.id)
                self.assertEqual(r.json["user"]["username"], u.username)

    def test_variants_share_one_counter_and_do_not_lock_the_account(self):
        u = self.new_user("varlock")
        attacker = dc.fresh_source()
        variants = [u.username.upper(), u.username + "\u00a0", "\u200d" + u.username,
                    "".join(chr(ord(c) + 0xFEE0) if c.isalnum() else c for c in u.username), u.username]
        for i in range(MAX_FAILURES):  # spellings share one counter, so the next is throttled
            self.assertEqual(dc.login(variants[i % len(variants)], "Wrong-variant-1", source=attacker).status, 401)
        self.assertThrottled(dc.login(u.username.capitalize(), u.password, source=attacker))
        r = dc.login(u.username, u.password, source=dc.fresh_source())
        self.assertEqual(r.status, 200, r)


class HashQueueTest(LoginThrottleCase):
    def test_a_full_hashing_queue_answers_429_with_retry_after(self):
        n = 80
        with concurrent.futures.ThreadPoolExecutor(max_workers=n) as pool:
            answers = list(pool.map(lambda i: fcgi_login(dc.unique_name("q"), "Queue-pass-1", random_ipv4()),
                                    range(n)))
        statuses = [r.status for r in answers]
        self.assertEqual(set(statuses) - {401, 429}, set(), statuses)
        busy = [r for r in answers if r.status == 429]
        self.assertTrue(busy, "80 concurrent logins never met a full queue: %s" % statuses)
        for r in busy:
            self.assertThrottled(r, BUSY)
        # And afterwards the queue is open again.
        self.assertEqual(fcgi_login(dc.unique_name("q"), "Queue-pass-1", random_ipv4()).status, 401)


class PasswordPolicyTest(LoginThrottleCase):
    def _create(self, password: str, username: str | None = None) -> dc.Response:
        username = username or dc.unique_name("pol")
        r = dc.post("/api/admin/users", {"username": username, "email": "p-%s@example.com" % secrets.token_hex(6),
                                         "password": password}, token=dc.admin_token())
        if r.status == 200:
            self.addCleanup(dc.delete_user, r.json["id"])
        return r

    def assertPolicy(self, r: dc.Response, text: str):
        item = self.assertValidationLoc(r, ["body", "password"])
        self.assertIn(text, item["msg"], r)
        self.assertNotIn("Password1", r.text)

    def test_common_passwords_are_refused_at_creation_and_change(self):
        for pw in ("iloveyou1", "PASSWORD1", "Password1", "qwertyuiop", "\uff50assword1"):
            with self.subTest(password=pw):
                self.assertPolicy(self._create(pw), "too common")
        u = self.new_user("polchg")
        r = dc.put("/api/admin/users/%d" % u.id, {"password": "Sunshine1"}, token=dc.admin_token())
        self.assertPolicy(r, "too common")
        self.assertEqual(dc.login(u.username, u.password, source=dc.fresh_source()).status, 200)

    def test_guessable_passwords_are_refused_at_creation_and_change(self):
        # Not in the common list, yet a word with digits or a year, l33t, or a keyboard walk
        # (docs/login.md "Password strength").
        for pw in ("admin12345", "Summer2024!", "p4ssw0rd!", "zxcvbnm,./"):
            with self.subTest(password=pw):
                self.assertPolicy(self._create(pw), "too easy to guess")
        u = self.new_user("polweak")
        r = dc.put("/api/admin/users/%d" % u.id, {"password": "Dragon2000!"}, token=dc.admin_token())
        self.assertPolicy(r, "too easy to guess")
        self.assertNotIn("Dragon2000", r.text)
        self.assertEqual(dc.login(u.username, u.password, source=dc.fresh_source()).status, 200)
        # Eight random characters are the threshold (10^8 guesses) and pass.
        self.assertEqual(self._create("k7Qx2mZp").status, 200)

    def test_the_username_is_refused_inside_the_password(self):
        name = dc.unique_name("polname")
        self.assertPolicy(self._create("xx" + name.upper() + "!", name), "username")
        u = self.new_user("polname2")
        r = dc.put("/api/admin/users/%d" % u.id, {"password": "Zq-" + u.username + "-1"}, token=dc.admin_token())
        self.assertPolicy(r, "username")

    def test_dozorctl_applies_the_same_policy(self):
        ctl = [str(dc.BIN_DIR / "dozorctl"), "--config", str(dc.STATE_DIR / "dozor.toml")]
        name = dc.unique_name("ctlpol")
        r = subprocess.run(ctl + ["user", "add", "--username", name, "--email", "c-%s@example.com" % secrets.token_hex(4),
                                  "--password-stdin"], input="baseball1\n", capture_output=True, text=True, timeout=60)
        self.assertNotEqual(r.returncode, 0, r.stdout)
        self.assertIn("too common", r.stderr)
        u = self.new_user("ctlpol2")
        r = subprocess.run(ctl + ["user", "passwd", "--username", u.username.upper(), "--password-stdin"],
                           input="Zq-%s-9\n" % u.username, capture_output=True, text=True, timeout=60)
        self.assertNotEqual(r.returncode, 0, r.stdout)
        self.assertIn("username", r.stderr)


class MigrationTest(dc.DozorTestCase):
    """0003 on a database that already has later migrations (0005 and up) and users."""

    def setUp(self):
        self.db = "dozor_mig_%s" % secrets.token_hex(4)
        cfg = dc.stack_config().get("database", {})
        dc.db_query("CREATE DATABASE `%s`" % self.db)
        self.addCleanup(dc.db_query, "DROP DATABASE IF EXISTS `%s`" % self.db)
        dc.db_query("GRANT ALL PRIVILEGES ON `%s`.* TO '%s'@'localhost'" % (self.db, cfg.get("user", "dozor")))
        repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        self.src = os.path.join(repo, "db", "migrations")
        self.dir = tempfile.mkdtemp(prefix="dozor-mig3-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        for name in os.listdir(self.src):
            if not name.startswith("0003_"):
                shutil.copy(os.path.join(self.src, name), self.dir)

    def migrate(self) -> subprocess.CompletedProcess:
        return subprocess.run([str(dc.BIN_DIR / "dozorctl"), "--config", str(dc.STATE_DIR / "dozor.toml"), "migrate"],
                              capture_output=True, text=True, timeout=120,
                              env={**os.environ, "DOZOR_DATABASE_NAME": self.db, "DOZOR_PATHS_MIGRATIONS": self.dir})

    def sql(self, q: str):
        return dc.db_query("SET NAMES utf8mb4; USE `%s`; %s" % (self.db, q))

    def test_colliding_names_refuse_0003_naming_the_rows_then_it_completes(self):
        r = self.migrate()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.sql("INSERT INTO users (username, email, password_hash) VALUES ('alice', 'a@example.com', 'x'),"
                 " ('\U0001d41alice', 'b@example.com', 'x'), ('Bob', 'c@example.com', 'x')")
        shutil.copy(os.path.join(self.src, "0003_login_hardening.sql"), self.dir)
        r = self.migrate()
        self.assertNotEqual(r.returncode, 0, r.stdout)
        self.assertIn("#1 'alice'", r.stderr)
        self.assertIn("#2 '\U0001d41alice'", r.stderr)
        self.assertIn("0003_login_hardening.sql", r.stderr)
        self.assertNotIn("Bob", r.stderr)
        self.assertEqual(self.sql("SELECT COUNT(*) FROM schema_migrations WHERE version = 3"), [["0"]])
        # The operator renames one; the next run finishes 0003.
        self.sql("UPDATE users SET username = 'alice2' WHERE id = 2")
        r = self.migrate()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("applied 3", r.stdout)
        rows = self.sql("SELECT id, username_canonical FROM users ORDER BY id")
        self.assertEqual(rows, [["1", "alice"], ["2", "alice2"], ["3", "bob"]])
        col = self.sql("SELECT IS_NULLABLE, COLLATION_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA ="
                       " DATABASE() AND TABLE_NAME = 'users' AND COLUMN_NAME = 'username_canonical'")
        self.assertEqual(col, [["NO", "utf8mb4_bin"]])
        self.assertIn("up to date", self.migrate().stdout)

    def test_a_fresh_database_gets_every_migration_in_order(self):
        shutil.copy(os.path.join(self.src, "0003_login_hardening.sql"), self.dir)
        r = self.migrate()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("applied 3", r.stdout)
        files = sorted(int(n[:4]) for n in os.listdir(self.dir) if n.endswith(".sql"))
        applied = [int(v[0]) for v in self.sql("SELECT version FROM schema_migrations ORDER BY version")]
        self.assertEqual(applied, files)


if __name__ == "__main__":
    unittest.main()
