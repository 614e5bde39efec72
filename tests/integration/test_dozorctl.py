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

    def _migrations_copy(self) -> str:
        """A copy of the stack's migrations directory that a test may edit."""
        import shutil
        src = subprocess.run([str(dc.BIN_DIR / "dozorctl"), "--config", str(CONFIG), "config", "check"],
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(src.returncode, 0, src.stderr)
        repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        tmp = tempfile.mkdtemp(prefix="dozor-mig-")
        self.addCleanup(shutil.rmtree, tmp, True)
        for name in os.listdir(os.path.join(repo, "db", "migrations")):
            shutil.copy(os.path.join(repo, "db", "migrations", name), tmp)
        return tmp

    def test_migrate_refuses_a_changed_applied_migration(self):
        tmp = self._migrations_copy()
        with open(os.path.join(tmp, "0001_init.sql"), "a") as f:
            f.write("\n-- edited after it was applied\n")
        r = dozorctl("migrate", env={"DOZOR_PATHS_MIGRATIONS": tmp})
        self.assertNotEqual(r.returncode, 0, r.stdout)
        self.assertIn("0001_init.sql was changed after it was applied", r.stderr)

    def test_migrate_stops_at_an_unreadable_or_failing_migration_and_records_neither(self):
        tmp = self._migrations_copy()
        os.symlink(os.path.join(tmp, "missing.sql"), os.path.join(tmp, "0900_unreadable.sql"))
        r = dozorctl("migrate", env={"DOZOR_PATHS_MIGRATIONS": tmp})
        self.assertNotEqual(r.returncode, 0, r.stdout)
        self.assertIn("cannot read migration", r.stderr)
        os.unlink(os.path.join(tmp, "0900_unreadable.sql"))
        with open(os.path.join(tmp, "0901_broken.sql"), "w") as f:
            f.write("CREATE TABLE dozor_test_never (x INT);\nTHIS IS NOT SQL;\n")
        self.addCleanup(dc.db_query, "DROP TABLE IF EXISTS dozor_test_never")
        r = dozorctl("migrate", env={"DOZOR_PATHS_MIGRATIONS": tmp})
        self.assertNotEqual(r.returncode, 0, r.stdout)
        self.assertIn("0901_broken.sql failed at statement 2 of 2", r.stderr)
        # Not recorded: the real migrations directory still reports nothing pending and no 0901.
        r = dozorctl("migrate")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotIn("901", r.stdout)
        self.assertEqual(dc.db_query("SELECT COUNT(*) FROM schema_migrations WHERE version >= 900"), [["0"]])
        sums = dc.db_query("SELECT COUNT(*) FROM schema_migrations WHERE checksum IS NULL OR LENGTH(checksum) <> 64")
        self.assertEqual(sums, [["0"]], "every applied migration has its sha256")

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
