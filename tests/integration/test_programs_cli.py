"""The programs' command lines (issue 12 §5): --help, --version, --check-config and its exit
status 78 (the units' ExecReload= and RestartPreventExitStatus= rely on it), and
database.password_file. No stack needed: only the binaries."""

import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

import dozor_client as dc

EX_CONFIG = 78
DAEMONS = ("dozor-fcgi", "dozord")


def run(prog: str, *args: str) -> subprocess.CompletedProcess:
    # A clean environment: DOZOR_* variables of the test stack must not leak in.
    return subprocess.run([str(dc.BIN_DIR / prog), *args], capture_output=True, text=True, timeout=30,
                          env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")})


class ProgramsCliTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        for prog in (*DAEMONS, "dozorctl"):
            if not (dc.BIN_DIR / prog).exists():
                raise unittest.SkipTest("no %s in %s" % (prog, dc.BIN_DIR))

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="dozor-cli-"))
        self.addCleanup(subprocess.run, ["rm", "-rf", str(self.tmp)])
        (self.tmp / "jwt.key").write_text("ab" * 32)
        (self.tmp / "database.password").write_text("secret-pw\n")
        (self.tmp / "nginx-fcgi.key").write_text("cd" * 32 + "\n")

    def config(self, extra_database: str = "", extra: str = "", name: str = "dozor.toml") -> str:
        path = self.tmp / name
        path.write_text(
            "[server]\nnginx_key_file = \"%s\"\n"
            "[database]\npassword_file = \"%s\"\n%s\n[auth]\njwt_secret_file = \"%s\"\n"
            "[paths]\nmigrations = \"%s\"\ncommon_passwords = \"%s\"\n%s%s" % (
                self.tmp / "nginx-fcgi.key", self.tmp / "database.password", extra_database, self.tmp / "jwt.key",
                dc.REPO / "db" / "migrations", dc.REPO / "share" / "passwords" / "common-passwords.txt",
                "" if "audit_data" in extra else "audit_data = \"%s\"\n" % (dc.REPO / "share" / "audit"), extra))
        return str(path)

    def test_help_and_version(self):
        for prog in (*DAEMONS, "dozorctl"):
            r = run(prog, "--help")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("usage: %s" % prog, r.stdout)
            r = run(prog, "--version")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertRegex(r.stdout, r"^%s \d+\.\d+\.\d+\n$" % prog)
        for prog in DAEMONS:
            self.assertIn("--check-config", run(prog, "--help").stdout)

    def test_check_config_accepts_a_valid_config(self):
        cfg = self.config()
        for prog in DAEMONS:
            r = run(prog, "--config", cfg, "--check-config")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("is valid", r.stdout)
        r = run("dozorctl", "--config", cfg, "config", "check")
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_check_config_exits_78_with_the_reason(self):
        cases = {
            "unknown key": (self.config(extra="bogus_key = 1\n", name="a.toml"), "unknown key 'paths.bogus_key'"),
            "two passwords": (self.config(extra_database="password = \"x\"", name="b.toml"), "both set"),
        }
        for name, (cfg, reason) in cases.items():
            for prog in DAEMONS:
                with self.subTest(name, prog=prog):
                    r = run(prog, "--config", cfg, "--check-config")
                    self.assertEqual(r.returncode, EX_CONFIG, r.stdout + r.stderr)
                    self.assertIn(reason, r.stderr)
        # dozor-fcgi also checks what its workers read at start: the audit's data files (compiled
        # once in the master) and a configured MaxMind DB.
        broken = self.tmp / "audit"
        shutil.copytree(dc.REPO / "share" / "audit", broken)
        (broken / "passive" / "rules.json").write_text("{not json")
        r = run("dozor-fcgi", "--config", self.config(extra='audit_data = "%s"\n' % broken, name="c.toml"),
                "--check-config")
        self.assertEqual(r.returncode, EX_CONFIG, r.stdout + r.stderr)
        self.assertIn("not JSON", r.stderr)
        r = run("dozor-fcgi", "--config", self.config(extra='[scanner]\ngeoip_db = "/nonexistent/City.mmdb"\n',
                                                      name="d.toml"), "--check-config")
        self.assertEqual(r.returncode, EX_CONFIG, r.stdout + r.stderr)
        self.assertIn("scanner.geoip_db", r.stderr)
        cfg = self.config()
        (self.tmp / "jwt.key").unlink()
        r = run("dozor-fcgi", "--config", cfg, "--check-config")
        self.assertEqual(r.returncode, EX_CONFIG, r.stderr)
        self.assertIn("jwt.key", r.stderr)
        # And the key nginx proves itself with (docs/install.md "The FastCGI sockets"): missing or
        # too short, the start fails; dozord does not read it.
        (self.tmp / "jwt.key").write_text("ab" * 32)
        for text in (None, "x" * 31):
            with self.subTest(nginx_key=text):
                if text is None:
                    (self.tmp / "nginx-fcgi.key").unlink(missing_ok=True)
                else:
                    (self.tmp / "nginx-fcgi.key").write_text(text)
                r = run("dozor-fcgi", "--config", cfg, "--check-config")
                self.assertEqual(r.returncode, EX_CONFIG, r.stderr)
                self.assertIn("server.nginx_key_file", r.stderr)
                self.assertNotIn("x" * 31, r.stderr)  # the key itself is never printed
                self.assertEqual(run("dozord", "--config", cfg, "--check-config").returncode, 0)

    def test_an_unreadable_password_file_is_a_config_error(self):
        cfg = self.config()
        (self.tmp / "database.password").unlink()
        for prog in DAEMONS:
            r = run(prog, "--config", cfg, "--check-config")
            self.assertEqual(r.returncode, EX_CONFIG, r.stderr)
            self.assertIn("cannot read database.password_file", r.stderr)

    def test_a_rejected_config_stops_the_start_at_once(self):
        # Not a worker crash loop: the master exits 78 before forking anything.
        cfg = self.config(extra="bogus_key = 1\n")
        for prog in DAEMONS:
            r = run(prog, "--config", cfg)
            self.assertEqual(r.returncode, EX_CONFIG, r.stderr)
            self.assertIn("%s: config: unknown key" % prog, r.stderr)

    def test_nginx_config_writes_the_sites_config_lines_from_the_config(self):
        # What production's nginx site includes from /etc/dozor/nginx (the dev stack too).
        out = self.tmp / "nginx"
        cfg = self.config(extra="[analyzer]\nlisten = \"[::1]:9181\"\nnetworks = \"10.1.0.0/16, 192.0.2.7\"\n"
                                "max_document = 2097152\n[vault]\nmax_upload = 4096\n"
                                "docserver_networks = \"198.51.100.0/24 2001:db8::/32\"\n"
                                "[nginx]\ninternal_networks = \"172.16.0.0/12\"\n"
                                "[scanner]\noast_listen = \"0.0.0.0:8880, [::]:8880\"\n")
        r = run("dozorctl", "--config", cfg, "nginx-config", "--out", str(out))
        self.assertEqual(r.returncode, 0, r.stderr)
        files = {p.name: p.read_text() for p in out.iterdir()}
        self.assertEqual(sorted(files), ["analyzer-body.conf", "analyzer-listen.conf",
                                         "analyzer-networks-from-config.conf", "docserver-networks-from-config.conf",
                                         "internal-networks-from-config.conf", "oast-listen.conf", "vault-body.conf"])
        lines = {name: [x for x in text.splitlines() if not x.startswith("#")] for name, text in files.items()}
        self.assertEqual(lines["analyzer-networks-from-config.conf"], ["allow 10.1.0.0/16;", "allow 192.0.2.7;"])
        self.assertEqual(lines["analyzer-listen.conf"], ["listen [::1]:9181;"])
        self.assertEqual(lines["analyzer-body.conf"], ["client_max_body_size %d;" % (2097152 + 1048576)])
        self.assertEqual(lines["vault-body.conf"], ["client_max_body_size %d;" % (4096 + 1048576)])
        self.assertEqual(lines["docserver-networks-from-config.conf"],
                         ["allow 198.51.100.0/24;", "allow 2001:db8::/32;"])
        self.assertEqual(lines["internal-networks-from-config.conf"], ["allow 172.16.0.0/12;"])
        # The out-of-band listener of its own (docs/scan.md "XXE and SSRF").
        self.assertEqual(lines["oast-listen.conf"], ["listen 0.0.0.0:8880;", "listen [::]:8880;"])
        for p in out.iterdir():
            self.assertEqual(p.stat().st_mode & 0o777, 0o644, p.name)

        # A network nginx would refuse is refused with the key, and nothing is rewritten.
        before = files
        bad = self.config(extra="[analyzer]\nnetworks = \"10.0.0.0/33\"\n", name="bad.toml")
        r = run("dozorctl", "--config", bad, "nginx-config", "--out", str(out))
        self.assertEqual(r.returncode, 1)
        self.assertIn("analyzer.networks: '10.0.0.0/33' is not a network", r.stderr)
        self.assertEqual({p.name: p.read_text() for p in out.iterdir()}, before)
        for prog in DAEMONS:
            self.assertEqual(run(prog, "--config", bad, "--check-config").returncode, EX_CONFIG)

        # --defaults needs no config: loopback only.
        r = run("dozorctl", "--config", str(self.tmp / "missing.toml"), "nginx-config", "--defaults", "--out", str(out))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("allow 127.0.0.1/32;\nallow ::1/128;\n", (out / "analyzer-networks-from-config.conf").read_text())
        self.assertNotIn("allow", (out / "internal-networks-from-config.conf").read_text())
        # No out-of-band listener by default: a loopback port answering 404.
        self.assertIn("listen 127.0.0.1:8182;\nreturn 404;\n", (out / "oast-listen.conf").read_text())


if __name__ == "__main__":
    unittest.main()
