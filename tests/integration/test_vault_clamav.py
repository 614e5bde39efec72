"""The vault's malware check (issue 10, docs/vault.md "Malware check") over HTTPS through nginx:
dozor-analyzer loads ClamAV with the repository's test signatures (tests/fixtures/clamav: EICAR
by its MD5, a Dozor marker by its bytes), every uploaded file is checked before it takes its
name, and an infected one is refused with its signature, leaving nothing behind."""

from __future__ import annotations

import io
import os
import secrets
import subprocess
import tempfile
import unittest
import zipfile

import dozor_client as dc
from test_analyzer import ANALYZER
from test_vault import Session, q, vault_files

EICAR = rb"X5O!P%@AP[4\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*"
MARKER = b"DOZOR-CLAMAV-TEST-MARKER-6b1f"


def zipped(name: str, content: bytes) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(name, content)
    return buf.getvalue()


def scan(body: bytes, token: str | None = "admin") -> dc.Response:
    return dc.request("POST", "/api/v1/malware_scan", data=body, base=ANALYZER,
                      token=dc.admin_token() if token == "admin" else token,
                      headers={"Content-Type": "application/octet-stream"})


class VaultMalwareCheckTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = dc.create_user("vclam")
        cls.admin = Session(dc.ADMIN_USER, dc.ADMIN_PASSWORD)
        cls.s = Session(cls.user.username, cls.user.password)
        cls.home = "/home/" + cls.user.username
        for folder in ("/home", cls.home):
            r = cls.admin.mkdir(folder)
            assert r.status in (200, 409), r

    @classmethod
    def tearDownClass(cls):
        dc.delete_user(cls.user.id)

    def disk(self):
        return vault_files() / self.home.lstrip("/")

    def upload(self, files, overwrite=False):
        return self.s.upload(self.home, files, overwrite=overwrite)

    def assertRefused(self, r, name, signature):
        self.assertEqual(r.status, 422, r)
        detail = r.json["detail"][0]
        self.assertEqual(detail["loc"], ["body", "file"])
        self.assertIn(name, detail["msg"])
        self.assertIn(signature, detail["msg"])

    def assertNoTemporaryFile(self):
        self.assertEqual([p.name for p in self.disk().iterdir() if p.name.startswith(".vault-")], [])

    def test_the_analyzer_reports_the_loaded_engine(self):
        h = dc.get("/health", base=ANALYZER).json["malware_check"]
        self.assertTrue(h["enabled"])
        self.assertTrue(h["engine"].startswith("ClamAV "), h)
        self.assertEqual(h["signatures"], 2)

    def test_the_scan_route_answers_a_verdict_to_a_signed_caller_only(self):
        r = scan(EICAR)
        self.assertEqual(r.status, 200, r)
        self.assertTrue(r.json["infected"])
        self.assertTrue(r.json["signature"].startswith("Eicar-Test-Signature"), r.json)
        self.assertEqual(r.json["bytes"], len(EICAR))
        r = scan(b"plain words " * 100)
        self.assertEqual((r.status, r.json["infected"], r.json["signature"]), (200, False, None), r)
        self.assertEqual(scan(EICAR, token=None).status, 401)
        self.assertEqual(scan(EICAR, token="not.a.token").status, 401)
        r = scan(b"")
        self.assertEqual(r.status, 422, r)
        self.assertEqual(r.json["detail"][0]["loc"], ["body"])
        self.assertEqual(dc.get("/api/v1/malware_scan", base=ANALYZER).status, 405)

    def test_an_infected_upload_is_refused_and_leaves_nothing(self):
        name = "eicar-%s.com" % secrets.token_hex(3)
        before = dc.get("/health", base=ANALYZER).json["malware_check"]["files_infected"]
        r = self.upload([(name, EICAR)])
        self.assertRefused(r, name, "Eicar-Test-Signature")
        self.assertFalse((self.disk() / name).exists())
        self.assertNoTemporaryFile()
        self.assertEqual(self.s.get("download", self.home + "/" + name).status, 404)
        self.assertGreater(dc.get("/health", base=ANALYZER).json["malware_check"]["files_infected"], before)
        rows = dc.get("/api/admin/vault/audit?limit=200", token=dc.admin_token()).json
        hits = [a for a in rows if a["path"] == self.home + "/" + name]
        self.assertEqual([(a["action"], a["outcome"]) for a in hits], [("upload", "infected")], hits)
        self.assertTrue(hits[0]["target"].startswith("Eicar-Test-Signature"), hits)

    def test_a_clean_upload_says_it_was_checked(self):
        name = "clean-%s.txt" % secrets.token_hex(3)
        r = self.upload([(name, b"nothing to see " * 1000)])
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json["files"][0]["malware_check"], "clean")
        self.assertEqual((self.disk() / name).read_bytes(), b"nothing to see " * 1000)

    def test_a_signature_inside_an_archive_is_found(self):
        name = "bundle-%s.zip" % secrets.token_hex(3)
        body = zipped("docs/readme.txt", b"intro\n" * 500 + MARKER + b"\n")
        r = self.upload([(name, body)])
        self.assertRefused(r, name, "Dozor.Test.Marker-1")
        self.assertFalse((self.disk() / name).exists())

    def test_a_marker_past_the_first_megabytes_is_found(self):
        # The file crosses the wire in many reads (curl's buffer is 64 KiB): each at its offset.
        name = "late-%s.txt" % secrets.token_hex(3)
        body = b"x" * (3 << 20) + MARKER + b"y" * 1000
        self.assertRefused(self.upload([(name, body)]), name, "Dozor.Test.Marker-1")

    def test_an_archive_member_larger_than_the_upload_limit_is_read_whole(self):
        # ClamAV trims a member over its file limit without a word; that limit is far above the
        # analyzer's, so a marker past 60 MiB of zeros (a 60 KiB zip) is still found.
        name = "deep-%s.zip" % secrets.token_hex(3)
        body = zipped("zeros.bin", b"\0" * (60 << 20) + MARKER)
        self.assertLess(len(body), 1 << 20)
        self.assertRefused(self.upload([(name, body)]), name, "Dozor.Test.Marker-1")
        self.assertFalse((self.disk() / name).exists())

    def test_an_archive_clamav_cannot_read_through_is_refused(self):
        # Past a limit ClamAV would answer "clean" unread; here it is a finding instead.
        name = "many-%s.zip" % secrets.token_hex(3)
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
            for i in range(10050):
                z.writestr("f%d.txt" % i, b"x")
        self.assertRefused(self.upload([(name, buf.getvalue())]), name, "Heuristics.Limits.Exceeded.MaxFiles")
        self.assertFalse((self.disk() / name).exists())

    def test_an_empty_file_needs_no_scan(self):
        name = "empty-%s.txt" % secrets.token_hex(3)
        r = self.upload([(name, b"")])
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json["files"][0]["malware_check"], "clean")
        self.assertEqual((self.disk() / name).read_bytes(), b"")

    def test_saved_text_is_checked_too(self):
        path = self.home + "/typed-%s.txt" % secrets.token_hex(3)
        r = self.s.save(path, EICAR.decode())
        self.assertRefused(r, path.rsplit("/", 1)[1], "Eicar-Test-Signature")
        self.assertFalse((vault_files() / path.lstrip("/")).exists())
        rows = dc.get("/api/admin/vault/audit?limit=200", token=dc.admin_token()).json
        self.assertIn(("save_file", "infected"), [(a["action"], a["outcome"]) for a in rows if a["path"] == path])
        r = self.s.save(path, "harmless text")
        self.assertEqual(r.status, 200, r)

    def test_an_infected_replacement_keeps_the_old_file(self):
        path = self.home + "/report-%s.txt" % secrets.token_hex(3)
        self.assertEqual(self.s.save(path, "the old report").status, 200)
        r = self.upload([(path.rsplit("/", 1)[1], b"new report " + MARKER)], overwrite=True)
        self.assertRefused(r, path.rsplit("/", 1)[1], "Dozor.Test.Marker-1")
        self.assertEqual((vault_files() / path.lstrip("/")).read_text(), "the old report")
        self.assertNoTemporaryFile()

    def test_files_before_an_infected_one_in_the_same_upload_stay(self):
        first, second = "first-%s.txt" % secrets.token_hex(3), "second-%s.txt" % secrets.token_hex(3)
        r = self.upload([(first, b"fine"), (second, EICAR)])
        self.assertRefused(r, second, "Eicar-Test-Signature")
        self.assertEqual((self.disk() / first).read_bytes(), b"fine")
        self.assertFalse((self.disk() / second).exists())

    def test_a_file_over_the_analyzers_limit_is_stored_as_not_scanned(self):
        limit = int(dc.stack_config().get("analyzer", {}).get("max_document", 50 << 20))
        name = "big-%s.bin" % secrets.token_hex(3)
        r = self.upload([(name, EICAR + b"\0" * (limit + 1 - len(EICAR)))])
        self.assertEqual(r.status, 200, r)
        said = "not scanned: larger than %d bytes (analyzer.max_document)" % limit
        self.assertEqual(r.json["files"][0]["malware_check"], said)
        self.assertEqual((self.disk() / name).stat().st_size, limit + 1)
        # The audit log says so, so that an admin can find what was stored unchecked.
        rows = dc.get("/api/admin/vault/audit?limit=200", token=dc.admin_token()).json
        hits = [a for a in rows if a["path"] == self.home + "/" + name]
        self.assertEqual([(a["outcome"], a["target"]) for a in hits], [("ok", "%d bytes, %s" % (limit + 1, said))])

    def test_check_config_looks_for_the_database_without_loading_it(self):
        def check(database: str) -> subprocess.CompletedProcess:
            env = dict(os.environ, DOZOR_VAULT_CLAMAV_DATABASE=database)
            return subprocess.run([str(dc.BIN_DIR / "dozor-analyzer"), "--config", str(dc.STATE_DIR / "dozor.toml"),
                                   "--check-config"], env=env, capture_output=True, text=True, timeout=120)

        r = check(str(dc.REPO / "tests" / "fixtures" / "clamav"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("ClamAV database: 2 files in", r.stdout)
        with tempfile.TemporaryDirectory() as empty:
            r = check(empty)
            self.assertEqual(r.returncode, 78, r.stdout + r.stderr)
            self.assertIn("holds no ClamAV database file", r.stderr)


if __name__ == "__main__":
    unittest.main()
