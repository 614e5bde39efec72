"""dozorctl against the test stack's database: migrate, user add/list/passwd, config check."""

import os
import subprocess
import tempfile
import unittest

import dozor_client as dc

CONFIG = dc.STATE_DIR / "dozor.toml"


def dozorctl(*args: str, stdin: str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(dc.BIN_DIR / "dozorctl"), "--config", str(CONFIG), *args],
        input=stdin, capture_output=True, text=True, timeout=60, env={**os.environ, **(env or {})},
    )


class DozorctlTest(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        if not CONFIG.exists():
            raise unittest.SkipTest("no %s: run through scripts/test" % CONFIG)

    def test_migrate_twice_is_a_no_op(self):
        r = dozorctl("migrate")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("up to date", r.stdout)

    def test_config_check_accepts_the_stack_config(self):
        r = dozorctl("config", "check")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("is valid", r.stdout)
        self.assertIn("allow_private_targets", r.stdout)  # the dev/test warning is shown

    def test_config_check_rejects_unknown_keys_and_bad_overrides(self):
        with tempfile.NamedTemporaryFile("w", suffix=".toml") as bad:
            bad.write(CONFIG.read_text() + "\n[server2]\nworkers = 1\n")
            bad.flush()
            r = subprocess.run([str(dc.BIN_DIR / "dozorctl"), "--config", bad.name, "config", "check"],
                               capture_output=True, text=True, timeout=60)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("server2", r.stderr)
        r = dozorctl("config", "check", env={"DOZOR_SERVER_WORKERS": "many"})
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("DOZOR_SERVER_WORKERS", r.stderr)

    def test_user_add_list_and_passwd(self):
        name = dc.unique_name("ctl")
        r = dozorctl("user", "add", "--username", name, "--email", name.replace("_", "-") + "@example.com",
                     "--password-stdin", stdin="First-password-1\n")
        self.assertEqual(r.returncode, 0, r.stderr)
        listed = dozorctl("user", "list")
        self.assertEqual(listed.returncode, 0, listed.stderr)
        row = next((line for line in listed.stdout.splitlines() if ("\t%s\t" % name) in line), None)
        self.assertIsNotNone(row, listed.stdout)
        user_id = int(row.split("\t")[0])
        self.addCleanup(dc.delete_user, user_id)
        self.assertIn("\tuser\tactive", row)

        old_token = dc.login_token(name, "First-password-1")
        self.assertEqual(dc.get("/api/auth/verify", token=old_token).status, 200)
        r = dozorctl("user", "passwd", "--username", name, "--password-stdin", stdin="Second-password-2\n")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(dc.get("/api/auth/verify", token=old_token).status, 401, "old token survived passwd")
        self.assertEqual(dc.login(name, "First-password-1").status, 401)
        self.assertEqual(dc.login(name, "Second-password-2").status, 200)

    def test_user_add_refuses_a_duplicate_and_a_short_password(self):
        r = dozorctl("user", "add", "--username", "admin", "--email", "dup@example.com", "--password-stdin",
                     stdin="Long-enough-1\n")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("already exists", r.stderr)
        r = dozorctl("user", "add", "--username", dc.unique_name("short"), "--email", "s@example.com",
                     "--password-stdin", stdin="short\n")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("8 characters", r.stderr)


if __name__ == "__main__":
    unittest.main()
