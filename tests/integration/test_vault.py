"""The file vault (issue 10, docs/vault.md) over HTTPS through nginx: sessions and their cookie,
CSRF and origin checks, canonical paths against traversal and symlinks, per-path rights on every
end of every operation, downloads through X-Accel-Redirect, content-sniffed views, atomic
uploads, trash and the audit log. The numbers refer to the tests of research/vault.md."""

from __future__ import annotations

import base64
import hashlib
import http.client
import os
import re
import secrets
import signal
import subprocess
import time
import unicodedata
import unittest
import urllib.parse
from pathlib import Path

import dozor_client as dc

COOKIE = "__Host-dozor_vault"
ORIGIN = dc.BASE_URL


def vault_files() -> Path:
    root = dc.stack_config().get("vault", {}).get("root", str(dc.STATE_DIR / "vault"))
    return Path(root) / "files"


def q(path: str) -> str:
    return urllib.parse.quote(path, safe="")


def cookie_of(r: dc.Response) -> str | None:
    for line in r.header_all("Set-Cookie"):
        name, _, rest = line.partition("=")
        if name.strip() == COOKIE:
            return rest.split(";", 1)[0]
    return None


def multipart(files: list[tuple[str, bytes]], boundary: str = "b0und4ry") -> bytes:
    out = b""
    for name, content in files:
        fn = name.encode("utf-8").replace(b"\\", b"\\\\").replace(b'"', b'\\"')
        out += (b"--" + boundary.encode() + b"\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + fn +
                b"\"\r\nContent-Type: application/octet-stream\r\n\r\n" + content + b"\r\n")
    return out + b"--" + boundary.encode() + b"--\r\n"


class Session:
    """A browser's vault session: cookie, CSRF token and the site's Origin on every change."""

    def __init__(self, username: str, password: str):
        r = login(username, password)
        assert r.status == 200, r
        self.cookie = cookie_of(r)
        self.csrf = r.json["csrf"]
        self.login_response = r

    def headers(self, extra: dict | None = None, csrf: bool = True) -> dict:
        h = {"Cookie": "%s=%s" % (COOKIE, self.cookie), "Origin": ORIGIN}
        if csrf:
            h["X-CSRF-Token"] = self.csrf
        h.update(extra or {})
        return h

    def get(self, route: str, path: str | None = None, headers: dict | None = None) -> dc.Response:
        url = "/vault/%s" % route + ("?path=" + q(path) if path is not None else "")
        return dc.get(url, headers=self.headers(headers, csrf=False))

    def post(self, route: str, body: dict | None = None, headers: dict | None = None) -> dc.Response:
        return dc.post("/vault/" + route, body if body is not None else {}, headers=self.headers(headers))

    def mkdir(self, path: str, **kw) -> dc.Response:
        return self.post("create_folder", {"path": path}, **kw)

    def save(self, path: str, content: str) -> dc.Response:
        return self.post("save_file", {"path": path, "content": content})

    def rename(self, src: str, dst: str) -> dc.Response:
        return self.post("rename", {"from": src, "to": dst})

    def delete(self, path: str) -> dc.Response:
        return dc.delete("/vault/delete?path=" + q(path), headers=self.headers())

    def upload(self, folder: str, files: list[tuple[str, bytes]], overwrite: bool = False,
               raw_query: str | None = None) -> dc.Response:
        query = raw_query if raw_query is not None else "path=" + q(folder) + ("&overwrite=true" if overwrite else "")
        return dc.post("/vault/upload?" + query, data=multipart(files),
                       headers=self.headers({"Content-Type": "multipart/form-data; boundary=b0und4ry"}))

    def download(self, path: str) -> dc.Response:
        return self.get("download", path)


def session_hash(cookie: str) -> str:
    """What vault_sessions.id_hash holds for a cookie: SHA-256 of its base64url text, as hex."""
    return hashlib.sha256(cookie.encode("ascii")).hexdigest()


def login(username: str, password: str, headers: dict | None = None, source: str | None = None) -> dc.Response:
    h = {"Origin": ORIGIN}
    h.update(headers or {})
    if source is None:
        dc._pace_login()
    return dc.post("/vault/login", {"username": username, "password": password}, headers=h, source=source)


def grant(user_id: int, path: str, read=False, write=False, delete=False) -> None:
    r = dc.post("/api/admin/vault/rules", {"user_id": user_id, "path": path, "read": read, "write": write,
                                           "delete": delete}, token=dc.admin_token())
    assert r.status == 200, r


class VaultTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.alice = dc.create_user("valice")
        cls.bob = dc.create_user("vbob")
        cls.admin = Session(dc.ADMIN_USER, dc.ADMIN_PASSWORD)
        cls.a = Session(cls.alice.username, cls.alice.password)
        cls.home = "/home/" + cls.alice.username
        cls.tag = secrets.token_hex(4)
        for folder in ("/home", cls.home, "/home/" + cls.bob.username):
            r = cls.admin.mkdir(folder)
            assert r.status in (200, 409), r

    @classmethod
    def tearDownClass(cls):
        dc.delete_user(cls.alice.id)
        dc.delete_user(cls.bob.id)

    def fresh(self, tag: str) -> str:
        """A folder of the caller's own under /t-<tag> (admin-made)."""
        path = "/t-%s-%s-%s" % (self.tag, tag, secrets.token_hex(3))
        self.assertEqual(self.admin.mkdir(path).status, 200)
        return path

    # ---- sessions (8, 14) -------------------------------------------------------------

    def test_session_cookie_is_host_prefixed_secure_httponly_strict(self):
        lines = [l for l in self.a.login_response.header_all("Set-Cookie") if l.startswith(COOKIE + "=")]
        self.assertEqual(len(lines), 1)
        attrs = [p.strip().lower() for p in lines[0].split(";")[1:]]
        for a in ("secure", "httponly", "samesite=strict", "path=/"):
            self.assertIn(a, attrs)
        self.assertFalse([a for a in attrs if a.startswith("domain")])
        self.assertGreaterEqual(len(self.a.cookie), 22)  # >= 128 bits of base64url
        # A new id at every login.
        self.assertNotEqual(Session(self.alice.username, self.alice.password).cookie, self.a.cookie)

    def test_session_is_stored_hashed(self):
        s = Session(self.alice.username, self.alice.password)
        # The row is found by SHA-256 of the cookie's value (engines/vault/sessions.cpp session_hash).
        rows = dc.db_query("SELECT user_id FROM vault_sessions WHERE id_hash = UNHEX('%s')" % session_hash(s.cookie))
        self.assertEqual(rows, [[str(self.alice.id)]])
        # The raw id is in no column in any form: its text, that text's bytes or the 32 bytes it encodes.
        raw = base64.urlsafe_b64decode(s.cookie + "=" * (-len(s.cookie) % 4))
        self.assertEqual(len(raw), 32)
        forms = {s.cookie.encode().hex().upper(), raw.hex().upper(), raw[:16].hex().upper(), raw[16:].hex().upper()}
        columns = [r[0] for r in dc.db_query(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = DATABASE()"
            " AND table_name = 'vault_sessions' ORDER BY ordinal_position")]
        self.assertIn("id_hash", columns)
        dump = dc.db_query("SELECT %s FROM vault_sessions" % ", ".join("HEX(`%s`)" % c for c in columns))
        self.assertTrue(dump)
        for row in dump:
            for value in row:
                for form in forms:
                    self.assertNotIn(form, value.upper())

    def _backdate_session(self, s: Session, seen_ago: int, created_ago: int | None = None) -> None:
        sets = "last_seen_at = NOW(3) - INTERVAL %d SECOND" % seen_ago
        if created_ago is not None:
            sets += ", created_at = NOW(3) - INTERVAL %d SECOND" % created_ago
        dc.db_query("UPDATE vault_sessions SET %s WHERE id_hash = UNHEX('%s')" % (sets, session_hash(s.cookie)))

    def _session_row(self, s: Session) -> list[list[str]]:
        return dc.db_query("SELECT TIMESTAMPDIFF(SECOND, last_seen_at, NOW(3)) FROM vault_sessions"
                           " WHERE id_hash = UNHEX('%s')" % session_hash(s.cookie))

    def test_idle_expiry_ends_a_session(self):
        idle = int(dc.config_value("vault", "session_idle", 1800))
        s = Session(self.alice.username, self.alice.password)
        # Just within vault.session_idle: still a session, and the request renews last_seen_at.
        self._backdate_session(s, idle - min(120, idle // 2))
        self.assertEqual(s.get("browse", "/").status, 200)
        self.assertLess(int(self._session_row(s)[0][0]), 60)
        # Past it: neither reading nor writing is accepted, and the row is not renewed.
        self._backdate_session(s, idle + 5)
        self.assertEqual(s.get("browse", "/").status, 401)
        target = "%s/idle-%s" % (self.home, secrets.token_hex(3))
        self.assertEqual(s.mkdir(target).status, 401)
        self.assertFalse((vault_files() / target.lstrip("/")).exists())
        self.assertGreaterEqual(int(self._session_row(s)[0][0]), idle)
        # The next login removes the expired row for good.
        Session(self.alice.username, self.alice.password)
        self.assertEqual(self._session_row(s), [])
        self.assertEqual(s.get("browse", "/").status, 401)

    def test_absolute_expiry_ends_even_an_active_session(self):
        absolute = int(dc.config_value("vault", "session_absolute", 43200))
        s = Session(self.alice.username, self.alice.password)
        # Used a moment ago and younger than vault.session_absolute: a session.
        self._backdate_session(s, 0, absolute - min(120, absolute // 2))
        self.assertEqual(s.get("browse", "/").status, 200)
        # Used a moment ago but older than vault.session_absolute: no longer.
        self._backdate_session(s, 0, absolute + 5)
        self.assertEqual(s.get("browse", "/").status, 401)
        target = "%s/absolute-%s" % (self.home, secrets.token_hex(3))
        self.assertEqual(s.mkdir(target).status, 401)
        self.assertFalse((vault_files() / target.lstrip("/")).exists())
        Session(self.alice.username, self.alice.password)
        self.assertEqual(self._session_row(s), [])

    def test_login_page_is_served_and_wrong_password_is_401(self):
        r = dc.get("/vault/login", headers={"Accept": "text/html"})
        self.assertEqual(r.status, 200, r)
        self.assertIn("vault-login.js", r.text)
        r = login(self.alice.username, "wrong-" + secrets.token_hex(4))
        self.assertEqual(r.status, 401, r)
        self.assertIsNone(cookie_of(r))

    def test_login_abuse_is_throttled_by_the_shared_login_throttle(self):
        u = dc.create_user("vthrottle")
        try:
            source = dc.fresh_source()
            statuses = [login(u.username, "wrong-%d" % i, source=source).status for i in range(8)]
            self.assertEqual(statuses[0], 401)
            self.assertIn(429, statuses)
            r = login(u.username, u.password, source=source)
            self.assertEqual(r.status, 429, r)
            self.assertTrue(r.header("Retry-After"))
            self.assertIsNone(cookie_of(r))
        finally:
            dc.delete_user(u.id)

    def test_oversized_password_is_refused(self):
        r = login(self.alice.username, "x" * 8192)
        self.assertEqual(r.status, 413, r)
        self.assertEqual(r.json, {"detail": "Request body too large"})

    def test_login_from_a_foreign_origin_is_refused(self):
        r = login(self.alice.username, self.alice.password, headers={"Origin": "https://evil.example"})
        self.assertEqual(r.status, 403, r)
        self.assertIsNone(cookie_of(r))

    def test_bearer_token_never_works_on_vault_routes(self):
        for method, url, body in (("GET", "/vault/browse?path=%2F", None),
                                  ("POST", "/vault/create_folder", {"path": self.home + "/bearer"}),
                                  ("DELETE", "/vault/delete?path=" + q(self.home), None)):
            r = dc.request(method, url, json_body=body if body is not None else dc._UNSET,
                           token=self.alice.token, headers={"Origin": ORIGIN})
            self.assertEqual(r.status, 401, r)
        self.assertFalse((vault_files() / self.home.lstrip("/") / "bearer").exists())

    def test_vault_cookie_never_works_on_the_api(self):
        r = dc.get("/api/auth/verify", headers={"Cookie": "%s=%s" % (COOKIE, self.a.cookie)})
        self.assertEqual(r.status, 401, r)

    def test_session_in_the_query_string_is_ignored(self):
        r = dc.get("/vault/browse?path=%2F&" + COOKIE + "=" + self.a.cookie)
        self.assertEqual(r.status, 401, r)

    def test_unauthenticated_page_request_goes_to_login(self):
        r = dc.get("/vault/browse?path=%2F", headers={"Accept": "text/html"})
        self.assertEqual(r.status, 303, r)
        self.assertEqual(r.header("Location"), "/vault/login")

    # ---- pages (issue 28 §2): a page request never gets raw JSON ------------------------------

    NAVIGATE = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
                "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document", "Sec-Fetch-Site": "none"}
    FETCH = {"Accept": "application/json", "Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty",
             "Sec-Fetch-Site": "same-origin"}

    def assert_error_page(self, r, status):
        self.assertEqual(r.status, status, r)
        self.assertTrue(r.header("Content-Type").startswith("text/html"), r.headers)
        self.assertIn('<script type="module" src="/js/vault-error.js">', r.text)
        self.assertIn('"status":%d' % status, r.text)
        self.assertIn('id="topbar"', r.text)
        self.assertIsNone(r.json, "an HTML page, not JSON")

    def test_a_page_request_that_fails_gets_an_html_page(self):
        missing = self.home + "/no-such-folder-" + secrets.token_hex(3)
        # 404: a path that does not exist, and an address that is no route (before any session).
        self.assert_error_page(self.a.get("browse", missing, headers=self.NAVIGATE), 404)
        self.assert_error_page(self.a.get("no-such-page", headers=self.NAVIGATE), 404)
        self.assert_error_page(dc.get("/vault/no-such-page", headers=self.NAVIGATE), 404)
        self.assert_error_page(self.a.get("download", missing + "/x.txt", headers=self.NAVIGATE), 404)
        # Without fetch metadata (an older browser), Accept decides.
        self.assert_error_page(self.a.get("browse", missing, headers={"Accept": self.NAVIGATE["Accept"]}), 404)
        # 405 keeps its Allow; 403 (a visible path without the right); 422 (an invalid path).
        r = self.a.get("delete", self.home + "/x", headers=self.NAVIGATE)
        self.assert_error_page(r, 405)
        self.assertEqual(r.header("Allow"), "DELETE")
        self.assert_error_page(self.a.get("edit", "/home", headers=self.NAVIGATE), 403)  # seen, not readable
        self.assert_error_page(self.a.get("edit", "/home/" + self.bob.username, headers=self.NAVIGATE), 404)
        self.assert_error_page(self.a.get("browse", "/a/../b", headers=self.NAVIGATE), 422)
        # 401: the login page.
        r = dc.get("/vault/browse?path=%2F", headers=self.NAVIGATE)
        self.assertEqual((r.status, r.header("Location")), (303, "/vault/login"), r)
        # Scripts' calls keep the JSON shape, with or without fetch metadata.
        for headers in (self.FETCH, {"Accept": "application/json"}):
            r = self.a.get("browse", missing, headers=headers)
            self.assertEqual(r.status, 404, r)
            self.assertEqual(r.json, {"detail": "Not found"})
            r = self.a.get("no-such-page", headers=headers)
            self.assertEqual((r.status, r.json), (404, {"detail": "Not Found"}), r)

    def test_nginx_own_errors_on_a_vault_page_request_are_html(self):
        # /vault/docedit_download is for vault.docserver_networks only (127.0.0.1/32 in test
        # stacks): from another address nginx refuses it before dozor-fcgi sees it.
        url = "/vault/docedit_download?path=%2Fx&exp=1&sig=x"
        r = dc.get(url, headers=self.NAVIGATE, source="127.0.0.2")
        self.assertEqual(r.status, 403, r)
        self.assertTrue(r.header("Content-Type").startswith("text/html"), r.headers)
        self.assertIn('data-status="403"', r.text)
        self.assertIn('src="/js/vault-error.js"', r.text)
        self.assertIn("default-src", r.header("Content-Security-Policy") or "")
        r = dc.get(url, headers=self.FETCH, source="127.0.0.2")
        self.assertEqual((r.status, r.json), (403, {"detail": "Forbidden"}), r)
        # The static pages themselves are not addresses of their own.
        self.assertEqual(dc.get("/vault/error-403.html", headers=self.FETCH).status, 404)

    def test_the_vault_start_page_is_the_users_home(self):
        for path in ("/vault", "/vault/"):
            r = dc.get(path, headers=self.a.headers(self.NAVIGATE, csrf=False))
            self.assertEqual(r.status, 303, r)
            self.assertEqual(r.header("Location"), "/vault/browse?path=%2Fhome%2F" + q(self.alice.username))
            r = dc.get(path, headers=self.NAVIGATE)
            self.assertEqual((r.status, r.header("Location")), (303, "/vault/login"), r)
        # The home exists: the page it leads to lists it.
        self.assertEqual(self.a.get("browse", self.home).status, 200)

    def test_logout_revokes_the_session(self):
        s = Session(self.alice.username, self.alice.password)
        self.assertEqual(s.get("browse", "/").status, 200)
        r = s.post("logout")
        self.assertEqual(r.status, 200, r)
        self.assertTrue(any(l.startswith(COOKIE + "=;") for l in r.header_all("Set-Cookie")), r.headers)
        self.assertEqual(s.get("browse", "/").status, 401)

    def test_password_change_and_deactivation_revoke_sessions(self):
        u = dc.create_user("vrevoke")
        try:
            s = Session(u.username, u.password)
            self.assertEqual(s.get("browse", "/").status, 200)
            r = dc.put("/api/admin/users/%d" % u.id, {"password": "Npw-" + secrets.token_urlsafe(12)},
                       token=dc.admin_token())
            self.assertEqual(r.status, 200, r)
            self.assertEqual(s.get("browse", "/").status, 401)
            u.password = r.json and u.password
        finally:
            dc.delete_user(u.id)
        v = dc.create_user("vdeact")
        try:
            s = Session(v.username, v.password)
            r = dc.put("/api/admin/users/%d" % v.id, {"is_active": False}, token=dc.admin_token())
            self.assertEqual(r.status, 200, r)
            self.assertEqual(s.get("browse", "/").status, 401)
        finally:
            dc.delete_user(v.id)

    # ---- CSRF (7) -----------------------------------------------------------------------

    def test_cross_site_mutations_are_refused(self):
        cases = {
            "no csrf token": {"X-CSRF-Token": None},
            "wrong csrf token": {"X-CSRF-Token": "A" * 43},
            "foreign origin": {"Origin": "https://evil.example"},
            "null origin": {"Origin": "null"},
            "look-alike origin": {"Origin": ORIGIN + ".evil.example"},
            "http origin": {"Origin": ORIGIN.replace("https:", "http:")},
            "sec-fetch-site cross-site": {"Sec-Fetch-Site": "cross-site"},
            "no origin, no referer": {"Origin": None},
            "foreign referer": {"Origin": None, "Referer": "https://evil.example/x"},
        }
        for name, extra in cases.items():
            with self.subTest(name):
                target = "%s/csrf-%s" % (self.home, secrets.token_hex(3))
                r = self.a.mkdir(target, headers=extra)
                self.assertEqual(r.status, 403, r)
                self.assertFalse((vault_files() / target.lstrip("/")).exists())
        # A form POST from another site: no token, foreign origin, text/plain body.
        r = dc.post("/vault/create_folder", data='{"path":"%s/form"}' % self.home,
                    headers={"Cookie": "%s=%s" % (COOKIE, self.a.cookie), "Origin": "https://evil.example",
                             "Content-Type": "text/plain", "Sec-Fetch-Site": "cross-site"})
        self.assertEqual(r.status, 403, r)
        # The same-origin Referer stands in for a missing Origin.
        target = "%s/referer-%s" % (self.home, secrets.token_hex(3))
        r = self.a.mkdir(target, headers={"Origin": None, "Referer": ORIGIN + "/vault/browse"})
        self.assertEqual(r.status, 200, r)

    # ---- paths (1, 2) ------------------------------------------------------------------

    def test_traversal_in_every_form_is_refused_and_touches_nothing(self):
        outside = vault_files().parent / ("outside-%s.txt" % self.tag)
        outside.write_text("keep")
        before = sorted(p.name for p in vault_files().parent.iterdir())
        raw_forms = ["..", "../outside-%s.txt" % self.tag, "%2e%2e%2f", "..%2f", "%2e%2e/%2e%2e/etc/passwd",
                     "a/../../x", "..%5c..%5cx", "%5c", "a%00b", "%c0%ae%c0%ae/x", "%e0%80%af",
                     "/home/%2e%2e/%2e%2e/outside-" + self.tag + ".txt", "./x", "a//b"]
        for raw in raw_forms:
            with self.subTest(raw):
                for route in ("browse", "download", "view"):
                    r = dc.get("/vault/%s?path=%s" % (route, raw), headers=self.admin.headers(csrf=False))
                    self.assertIn(r.status, (400, 404, 422), r)
                r = dc.delete("/vault/delete?path=" + raw, headers=self.admin.headers())
                self.assertIn(r.status, (400, 404, 422), r)
                r = self.admin.upload("", [("x.txt", b"x")], raw_query="path=" + raw)
                self.assertIn(r.status, (400, 404, 422), r)
                decoded = urllib.parse.unquote(raw, errors="surrogateescape")
                for body in ({"path": decoded}, ):
                    self.assertIn(self.admin.post("create_folder", body).status, (404, 422))
                self.assertIn(self.admin.rename(self.home, decoded).status, (404, 409, 422))
        # Double encoding is one decoding away from a name, never from a separator.
        r = dc.get("/vault/download?path=%252e%252e%252foutside", headers=self.admin.headers(csrf=False))
        self.assertEqual(r.status, 404, r)
        for bad_name in ("../evil.txt", "..\\evil.txt", "a/b.txt", "..", "x\r\nSet-Cookie: a=b", "nul\0.txt"):
            r = self.admin.upload(self.home, [(bad_name, b"x")])
            self.assertIn(r.status, (400, 422), (bad_name, r))
        self.assertEqual(outside.read_text(), "keep")
        self.assertEqual(sorted(p.name for p in vault_files().parent.iterdir()), before)
        outside.unlink()

    def test_symlinks_inside_the_root_are_never_followed(self):
        folder = self.fresh("links")
        disk = vault_files() / folder.lstrip("/")
        secret_dir = vault_files().parent / ("secret-%s" % self.tag)
        secret_dir.mkdir()
        (secret_dir / "s.txt").write_text("secret")
        os.symlink(secret_dir, disk / "dirlink")
        os.symlink(secret_dir / "s.txt", disk / "filelink")
        os.symlink(disk / "nowhere", disk / "dangling")
        try:
            names = [e["name"] for e in self.admin.get("browse", folder).json["entries"]]
            self.assertEqual(names, [])
            for p in ("dirlink", "filelink", "dangling", "dirlink/s.txt"):
                for route in ("download", "view", "browse"):
                    self.assertEqual(self.admin.get(route, folder + "/" + p).status, 404, (route, p))
            r = self.admin.upload(folder + "/dirlink", [("new.txt", b"x")])
            self.assertEqual(r.status, 404, r)
            self.assertEqual(self.admin.save(folder + "/dangling", "x").status, 409)
            self.assertEqual(self.admin.save(folder + "/dirlink/s.txt", "pwned").status, 404)
            self.assertEqual(self.admin.mkdir(folder + "/dirlink/sub").status, 404)
            self.assertEqual(self.admin.rename(folder + "/dirlink/s.txt", folder + "/stolen").status, 404)
            self.assertEqual(sorted(p.name for p in secret_dir.iterdir()), ["s.txt"])
            self.assertEqual((secret_dir / "s.txt").read_text(), "secret")
            self.assertFalse((disk / "nowhere").exists())
        finally:
            for p in ("dirlink", "filelink", "dangling"):
                (disk / p).unlink()
            (secret_dir / "s.txt").unlink()
            secret_dir.rmdir()

    # ---- rights (3, 4, 5, 6) ----------------------------------------------------------

    def test_rules_match_whole_components_case_and_unicode_forms(self):
        base = self.fresh("rules")
        for folder in ("Secret", "Secretive", "secret", "Caf\u00e9"):
            self.assertEqual(self.admin.mkdir(base + "/" + folder).status, 200)
            self.assertEqual(self.admin.save(base + "/" + folder + "/f.txt", folder).status, 200)
        grant(self.alice.id, base + "/Secret", read=True)
        grant(self.alice.id, base + "/Cafe\u0301", read=True)  # NFD spelling of the rule
        a = self.a
        self.assertEqual(a.download(base + "/Secret/f.txt").status, 200)
        self.assertEqual(a.download(base + "/Secretive/f.txt").status, 404)
        self.assertEqual(a.download(base + "/secret/f.txt").status, 404)
        self.assertEqual(a.download(base + "/Caf\u00e9/f.txt").status, 200)
        self.assertEqual(a.download(base + "/Cafe\u0301/f.txt").status, 200)
        # Listing the parent names only what leads to a readable entry (6).
        names = [e["name"] for e in a.get("browse", base).json["entries"]]
        self.assertEqual(sorted(names), sorted(["Secret", unicodedata.normalize("NFC", "Caf\u00e9")]))
        root_names = [e["name"] for e in a.get("browse", "/").json["entries"]]
        self.assertIn("home", root_names)
        self.assertNotIn(self.fresh("hidden").lstrip("/"), root_names)
        home_names = [e["name"] for e in a.get("browse", "/home").json["entries"]]
        self.assertEqual(home_names, [self.alice.username])
        # Another user's home: 404 whether or not it exists, never 403.
        self.assertEqual(a.get("browse", "/home/" + self.bob.username).status, 404)
        self.assertEqual(a.get("browse", "/home/nobody-" + self.tag).status, 404)
        # Read without write: 403 (the path is visible), not 404.
        self.assertEqual(a.mkdir(base + "/Secret/new").status, 403)

    def test_without_the_delete_right_nothing_is_removed_or_replaced(self):
        base = self.fresh("nodelete")
        self.assertEqual(self.admin.save(base + "/keep.txt", "original").status, 200)
        self.assertEqual(self.admin.save(base + "/other.txt", "other").status, 200)
        grant(self.alice.id, base, read=True, write=True)
        a = self.a
        self.assertEqual(a.delete(base + "/keep.txt").status, 403)
        self.assertEqual(a.upload(base, [("keep.txt", b"replaced")], overwrite=True).status, 403)
        self.assertEqual(a.rename(base + "/other.txt", base + "/keep.txt").status, 403)
        self.assertEqual(a.rename(base + "/keep.txt", self.home + "/moved.txt").status, 403)
        self.assertEqual(a.rename(base + "/keep.txt", base + "/renamed.txt").status, 403)
        self.assertEqual((vault_files() / base.lstrip("/") / "keep.txt").read_text(), "original")
        # Writing new files is allowed; without overwrite an existing name is a conflict.
        self.assertEqual(a.upload(base, [("new.txt", b"n")]).status, 200)
        self.assertEqual(a.upload(base, [("keep.txt", b"x")]).status, 409)
        self.assertEqual((vault_files() / base.lstrip("/") / "keep.txt").read_text(), "original")

    def test_both_ends_of_a_rename_are_checked(self):
        base = self.fresh("ends")
        self.assertEqual(self.admin.save(base + "/ro.txt", "ro").status, 200)
        grant(self.alice.id, base, read=True)
        a = self.a
        self.assertEqual(a.save(self.home + "/mine.txt", "mine").status, 200)
        self.assertEqual(a.rename(self.home + "/mine.txt", base + "/mine.txt").status, 403)
        self.assertEqual(a.rename(base + "/ro.txt", self.home + "/ro.txt").status, 403)
        self.assertEqual(a.rename(self.home + "/mine.txt", "/home/%s/x.txt" % self.bob.username).status, 404)
        self.assertEqual(a.rename(self.home + "/mine.txt", self.home + "/../" + self.bob.username).status, 422)
        self.assertTrue((vault_files() / self.home.lstrip("/") / "mine.txt").exists())
        self.assertEqual(a.rename(self.home + "/mine.txt", self.home + "/renamed.txt").status, 200)
        self.assertEqual(a.download(self.home + "/renamed.txt").status, 200)

    def test_a_folder_with_a_protected_part_inside_is_neither_moved_nor_deleted(self):
        # Alice may do anything in base; an admin locks base/Shared/Locked for her. Renaming
        # Shared into her home would put Locked under her home rule; deleting Shared would carry
        # Locked into her trash: both are refused whole, nothing moves.
        base = self.fresh("subtree")
        shared = base + "/Shared"
        for folder in (shared, shared + "/Locked", shared + "/Open"):
            self.assertEqual(self.admin.mkdir(folder).status, 200)
        self.assertEqual(self.admin.save(shared + "/Locked/l.txt", "locked").status, 200)
        self.assertEqual(self.admin.save(shared + "/Open/o.txt", "open").status, 200)
        grant(self.alice.id, base, read=True, write=True, delete=True)
        grant(self.alice.id, shared + "/Locked")  # no rights at all
        a = self.a
        disk = vault_files() / shared.lstrip("/")
        r = a.rename(shared, self.home + "/S-" + self.tag)
        self.assertEqual(r.status, 403, r)
        self.assertIn("protected", r.json["detail"])
        self.assertEqual(a.rename(shared, base + "/Renamed").status, 403)
        r = a.delete(shared)
        self.assertEqual(r.status, 403, r)
        self.assertIn("protected", r.json["detail"])
        self.assertEqual((disk / "Locked" / "l.txt").read_text(), "locked")
        self.assertEqual(a.download(self.home + "/S-%s/Locked/l.txt" % self.tag).status, 404)
        # The unprotected parts still move and go to the trash one by one.
        self.assertEqual(a.rename(shared + "/Open", base + "/Open2").status, 200)
        self.assertEqual(a.delete(base + "/Open2").status, 200)
        # A read-only rule beneath protects as well (moving needs write and delete there).
        self.assertEqual(self.admin.mkdir(base + "/Other").status, 200)
        self.assertEqual(self.admin.mkdir(base + "/Other/RO").status, 200)
        grant(self.alice.id, base + "/Other/RO", read=True)
        self.assertEqual(a.delete(base + "/Other").status, 403)
        # A rule for a name that is not there protects nothing.
        self.assertEqual(self.admin.mkdir(base + "/Free").status, 200)
        grant(self.alice.id, base + "/Free/Gone")
        self.assertEqual(a.delete(base + "/Free").status, 200)
        # Once the admin lifts the lock, the whole folder moves.
        r = dc.post("/api/admin/vault/rules/revoke", {"user_id": self.alice.id, "path": shared + "/Locked"},
                    token=dc.admin_token())
        self.assertEqual(r.status, 200, r)
        self.assertEqual(a.rename(shared, base + "/Renamed").status, 200)

    def test_save_file_replaces_only_with_the_delete_right_and_keeps_the_old_version(self):
        # Issue 26 §3: in a folder where users see each other's files (rw-), save_file emptied
        # another user's report. Replacing needs what an upload's overwrite needs.
        base = self.fresh("savedrop")
        disk = vault_files() / base.lstrip("/")
        self.assertEqual(self.admin.save(base + "/report.txt", "the report").status, 200)
        grant(self.alice.id, base, read=True, write=True)
        a = self.a
        r = a.save(base + "/report.txt", "")
        self.assertEqual(r.status, 403, r)
        self.assertIn("delete", r.json["detail"])
        self.assertEqual((disk / "report.txt").read_text(), "the report")
        self.assertEqual(a.save(base + "/mine.txt", "new").status, 200)  # creating needs write only
        self.assertEqual(a.save(base + "/mine.txt", "again").status, 403)  # replacing, her own file too
        # With the delete right it is replaced, and the previous version goes to her trash.
        grant(self.alice.id, base, read=True, write=True, delete=True)
        r = a.save(base + "/report.txt", "edited")
        self.assertEqual(r.status, 200, r)
        self.assertTrue(r.json["replaced"])
        self.assertEqual((disk / "report.txt").read_text(), "edited")
        items = [i for i in a.get("trash").json["items"] if i["path"] == base + "/report.txt"]
        self.assertEqual(len(items), 1, items)
        kept = vault_files().parent / "trash" / str(self.alice.id) / str(items[0]["id"])
        self.assertEqual(kept.read_text(), "the report")
        self.assertEqual(a.delete(base + "/report.txt").status, 200)
        self.assertEqual(a.post("restore", {"id": items[0]["id"]}).status, 200)
        self.assertEqual(a.download(base + "/report.txt").body, b"the report")
        r = dc.get("/api/admin/vault/audit?limit=50", token=dc.admin_token())
        rows = [(x["action"], x["path"], x["outcome"]) for x in r.json if x["username"] == self.alice.username]
        self.assertIn(("save_file", base + "/report.txt", "denied"), rows)

    def test_a_move_never_plants_content_under_a_rule_that_withholds_write(self):
        # Issue 26 §3: moving /home/a/P (holding RO/x) to /Shared/Proj created /Shared/Proj/RO/x
        # although the caller may only read /Shared/Proj/RO.
        base = self.fresh("dest")
        grant(self.alice.id, base, read=True, write=True, delete=True)
        grant(self.alice.id, base + "/Proj/RO", read=True)
        a = self.a
        src = "%s/P-%s" % (self.home, secrets.token_hex(3))
        for folder in (src, src + "/RO", src + "/Free"):
            self.assertEqual(a.mkdir(folder).status, 200)
        self.assertEqual(a.save(src + "/RO/x.txt", "planted").status, 200)
        r = a.rename(src, base + "/Proj")
        self.assertEqual(r.status, 403, r)
        self.assertIn("protected", r.json["detail"])
        self.assertNotIn("RO", r.json["detail"])  # the protected path is never named
        self.assertFalse((vault_files() / base.lstrip("/") / "Proj").exists())
        self.assertEqual(a.download(src + "/RO/x.txt").body, b"planted")
        # A rule for a name the content does not have receives nothing: that move is fine.
        self.assertEqual(a.rename(src + "/Free", base + "/Proj").status, 200)
        self.assertEqual(a.rename(base + "/Proj", src + "/Free").status, 200)
        # Restoring a folder from the trash is a move too.
        self.assertEqual(a.mkdir(base + "/Q").status, 200)
        self.assertEqual(a.mkdir(base + "/Q/RO").status, 200)
        self.assertEqual(a.save(base + "/Q/RO/y.txt", "back").status, 200)
        trash_id = a.delete(base + "/Q").json["trash_id"]
        grant(self.alice.id, base + "/Q/RO", read=True)
        r = a.post("restore", {"id": trash_id})
        self.assertEqual(r.status, 403, r)
        self.assertIn("protected", r.json["detail"])
        self.assertFalse((vault_files() / base.lstrip("/") / "Q").exists())
        self.assertIn(trash_id, [i["id"] for i in a.get("trash").json["items"]])
        r = dc.post("/api/admin/vault/rules/revoke", {"user_id": self.alice.id, "path": base + "/Q/RO"},
                    token=dc.admin_token())
        self.assertEqual(r.status, 200, r)
        self.assertEqual(a.post("restore", {"id": trash_id}).status, 200)
        self.assertEqual(a.download(base + "/Q/RO/y.txt").body, b"back")

    def test_bidirectional_controls_in_names_are_refused(self):
        # "invoice<U+202E>fdp.exe" is shown as "invoiceexe.pdf".
        home, a = self.home, self.a
        disk = vault_files() / home.lstrip("/")
        bidi = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
        r = a.upload(home, [("invoice\u202efdp.exe", b"MZ")])
        self.assertEqual(r.status, 422, r)
        self.assertIn("bidirectional control characters", r.text)
        r = a.save(home + "/x\u2066y.txt", "x")
        self.assertEqual(r.status, 422, r)
        self.assertEqual(r.json["detail"][0]["loc"], ["body", "path"])
        self.assertIn("bidirectional control characters", r.json["detail"][0]["msg"])
        self.assertEqual(a.save(home + "/plain-bidi.txt", "x").status, 200)
        self.assertEqual(a.rename(home + "/plain-bidi.txt", home + "/a\u200fb.txt").status, 422)
        self.assertEqual(a.mkdir(home + "/\u061cdir").status, 422)
        r = a.get("browse", home + "/\u202b")
        self.assertEqual(r.status, 422, r)
        self.assertEqual(r.json["detail"][0]["loc"], ["query", "path"])
        self.assertEqual([p.name for p in disk.iterdir() if bidi.search(p.name)], [])
        self.assertTrue((disk / "plain-bidi.txt").exists())

    def test_a_write_only_folder_never_tells_which_names_exist(self):
        # Issue 26 §3: a drop box (-w-) answered 409 for a name that exists and 200 for one that
        # does not. Whoever cannot read where it writes gets a name of its own, whatever exists.
        base = self.fresh("dropbox")
        disk = vault_files() / base.lstrip("/")
        self.assertEqual(self.admin.save(base + "/secret-report.txt", "theirs").status, 200)
        grant(self.alice.id, base, write=True)
        a = self.a
        absent = "absent-%s.txt" % secrets.token_hex(3)

        def tagged(name: str) -> str:
            stem, ext = name.rsplit(".", 1)
            return r"^%s/%s~[0-9a-f]{12}\.%s$" % (re.escape(base), re.escape(stem), ext)

        answers = []
        for name, overwrite in (("secret-report.txt", False), (absent, False), ("secret-report.txt", True)):
            r = a.upload(base, [(name, b"dropped")], overwrite=overwrite)
            self.assertEqual(r.status, 200, r)
            (f,) = r.json["files"]
            self.assertRegex(f["path"], tagged(name))
            answers.append((f["size"], f["replaced"]))
            self.assertEqual((disk / f["path"].rsplit("/", 1)[1]).read_bytes(), b"dropped")
        self.assertEqual(answers, [(7, False)] * 3)
        for path in (base + "/secret-report.txt", base + "/" + absent):
            r = a.save(path, "saved")
            self.assertEqual(r.status, 200, r)
            self.assertRegex(r.json["path"], tagged(path.rsplit("/", 1)[1]))
            self.assertFalse(r.json["replaced"])
            r = a.mkdir(path)
            self.assertEqual(r.status, 200, r)
            self.assertRegex(r.json["path"], tagged(path.rsplit("/", 1)[1]))
        mine = "%s/mv-%s.txt" % (self.home, secrets.token_hex(3))
        self.assertEqual(a.save(mine, "moved").status, 200)
        r = a.rename(mine, base + "/secret-report.txt")
        self.assertEqual(r.status, 200, r)
        self.assertRegex(r.json["to"], tagged("secret-report.txt"))
        self.assertEqual((disk / "secret-report.txt").read_text(), "theirs")
        self.assertFalse((disk / absent).exists())
        # The audit log names where each went.
        r = dc.get("/api/admin/vault/audit?limit=100", token=dc.admin_token())
        rows = [(x["action"], x["path"], x["target"]) for x in r.json if x["username"] == self.alice.username]
        self.assertTrue([t for (act, p, t) in rows if act == "save_file" and p == base + "/secret-report.txt"
                         and re.search(tagged("secret-report.txt")[1:-1], t.replace("stored as ", ""))], rows)

    # ---- homes (issue 26 §3) -----------------------------------------------------------

    def _new_account(self, name: str, password: str) -> int:
        r = dc.post("/api/admin/users", {"username": name, "email": name.replace("_", "-") + "@example.com",
                                         "password": password}, token=dc.admin_token())
        self.assertEqual(r.status, 200, r)
        return r.json["id"]

    def test_a_new_account_of_a_deleted_users_name_never_sees_the_old_files(self):
        name, pw = dc.unique_name("vheir"), "Pw-" + secrets.token_urlsafe(12)
        home, disk = "/home/" + name, vault_files() / "home" / name
        first = self._new_account(name, pw)
        try:
            # The home exists from the account's creation: nobody made it.
            self.assertTrue(disk.is_dir())
            s = Session(name, pw)
            r = s.get("browse", home)
            self.assertEqual((r.status, r.json["entries"]), (200, []), r)
            self.assertEqual(s.save(home + "/diary.txt", "old secrets").status, 200)
            grant(self.bob.id, home + "/shared", read=True)  # a share of the old account's home
            self.assertEqual(s.mkdir(home + "/shared").status, 200)
        finally:
            dc.delete_user(first)
        self.assertFalse(disk.exists())
        archived = sorted((vault_files() / "home-archive").glob("%s~%d~*" % (name, first)))
        self.assertEqual(len(archived), 1, archived)
        self.assertEqual((archived[0] / "diary.txt").read_text(), "old secrets")
        self.assertFalse(dc.db_query("SELECT id FROM vault_rules WHERE path LIKE 'home/%s%%'" % name))
        second = self._new_account(name, pw)
        try:
            s = Session(name, pw)
            r = s.get("browse", home)
            self.assertEqual((r.status, r.json["entries"]), (200, []), r)
            self.assertEqual(s.download(home + "/diary.txt").status, 404)
            self.assertEqual(s.mkdir(home + "/shared").status, 200)
            b = Session(self.bob.username, self.bob.password)
            self.assertEqual(b.get("browse", home + "/shared").status, 404)  # the old share is gone
            # Not lost: admins reach the archive.
            r = self.admin.download("/home-archive/%s/diary.txt" % archived[0].name)
            self.assertEqual((r.status, r.body), (200, b"old secrets"), r)
            self.assertEqual(s.get("browse", "/home-archive").status, 404)
            r = dc.get("/api/admin/vault/audit?limit=100", token=dc.admin_token())
            rows = [(x["action"], x["path"], x["outcome"]) for x in r.json if x["target"].startswith(
                "account %d deleted" % first)]
            self.assertEqual(rows, [("archive_home", home, "ok")])
        finally:
            dc.delete_user(second)

    def test_dozorctl_user_add_gets_a_fresh_home_and_what_lay_at_the_name_is_archived(self):
        name, pw = dc.unique_name("vorph"), "Pw-" + secrets.token_urlsafe(12)
        home, disk = "/home/" + name, vault_files() / "home" / name
        # Something lies at the name already: a deleted account's folder from before homes were
        # tracked, or an admin's, with another user's rule on it.
        self.assertEqual(self.admin.mkdir(home).status, 200)
        self.assertEqual(self.admin.save(home + "/left.txt", "not yours").status, 200)
        grant(self.bob.id, home, read=True)
        r = subprocess.run([str(dc.BIN_DIR / "dozorctl"), "--config", str(dc.STATE_DIR / "dozor.toml"), "user", "add",
                            "--username", name, "--email", name.replace("_", "-") + "@example.com",
                            "--password-stdin"], input=pw + "\n", capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        uid = int(dc.db_query("SELECT id FROM users WHERE username = '%s'" % name)[0][0])
        try:
            # dozorctl never writes the vault: dozor-fcgi makes the home by the time /home is listed.
            listed = [e["name"] for e in self.admin.get("browse", "/home").json["entries"]]
            self.assertIn(name, listed)
            self.assertEqual(list(disk.iterdir()), [])
            archived = sorted((vault_files() / "home-archive").glob("%s~found~*" % name))
            self.assertEqual(len(archived), 1, archived)
            self.assertEqual((archived[0] / "left.txt").read_text(), "not yours")
            s = Session(name, pw)
            self.assertEqual(s.download(home + "/left.txt").status, 404)
            self.assertEqual(s.save(home + "/mine.txt", "mine").status, 200)
            b = Session(self.bob.username, self.bob.password)
            self.assertEqual(b.get("browse", home).status, 404)  # a rule older than the account is gone
        finally:
            dc.delete_user(uid)

    def test_homes_of_accounts_from_before_migration_0023_are_kept_and_unknown_ones_are_new(self):
        u = dc.create_user("vadopt")
        home, disk = "/home/" + u.username, vault_files() / "home" / u.username
        try:
            s = Session(u.username, u.password)
            self.assertEqual(s.save(home + "/kept.txt", "mine all along").status, 200)
            # What migration 0023 writes for an existing account: its folder is its own.
            dc.db_query("UPDATE vault_homes SET state = 'adopt' WHERE user_id = %d" % u.id)
            self.assertEqual(s.download(home + "/kept.txt").body, b"mine all along")
            self.assertEqual(dc.db_query("SELECT state FROM vault_homes WHERE user_id = %d" % u.id), [["ready"]])
            # An account without a row (written by hand) is new: nothing at the name is its own.
            dc.db_query("DELETE FROM vault_homes WHERE user_id = %d" % u.id)
            self.assertEqual(s.download(home + "/kept.txt").status, 404)
            self.assertEqual(list(disk.iterdir()), [])
            self.assertTrue(sorted((vault_files() / "home-archive").glob("%s~found~*" % u.username)))
        finally:
            dc.delete_user(u.id)

    def test_a_home_is_neither_deleted_nor_moved(self):
        u = dc.create_user("vfixed")
        home = "/home/" + u.username
        try:
            s = Session(u.username, u.password)
            r = s.delete(home)
            self.assertEqual(r.status, 409, r)
            self.assertIn("home folder", r.json["detail"])
            self.assertEqual(self.admin.delete(home).status, 409)
            self.assertEqual(self.admin.rename(home, "/moved-%s" % self.tag).status, 409)
            self.assertEqual(self.admin.delete("/home").status, 409)
            self.assertEqual(self.admin.rename("/home", "/home2-%s" % self.tag).status, 409)
            self.assertTrue((vault_files() / "home" / u.username).is_dir())
            # What is inside may go.
            self.assertEqual(s.mkdir(home + "/sub").status, 200)
            self.assertEqual(s.rename(home + "/sub", home + "/sub2").status, 200)
            self.assertEqual(s.delete(home + "/sub2").status, 200)
        finally:
            dc.delete_user(u.id)

    # ---- serving (9, 10) ---------------------------------------------------------------

    def test_downloads_go_through_nginx_with_rfc6266_names(self):
        folder = self.fresh("names")
        names = ['quote"d.txt', "semi;colon.txt", "per%cent.txt", "what?.txt", "hash#.txt",
                 "\u043e\u0442\u0447\u0451\u0442 2024.txt", "\u4e2d\u6587.txt", "sp ace.txt"]
        payload = {n: ("content of %s" % n).encode() for n in names}
        r = self.admin.upload(folder, list(payload.items()))
        self.assertEqual(r.status, 200, r)
        self.assertEqual(len(r.json["files"]), len(names))
        for n in names:
            with self.subTest(n):
                r = self.admin.download(folder + "/" + n)
                self.assertEqual(r.status, 200, r)
                self.assertEqual(r.body, payload[n])
                cd = r.header("Content-Disposition")
                self.assertTrue(cd.startswith('attachment; filename="'), cd)
                star = cd.split("filename*=UTF-8''", 1)[1]
                self.assertEqual(urllib.parse.unquote(star), n)
                ascii_part = cd.split('filename="', 1)[1].split('"', 1)[0]
                self.assertNotIn("\\", ascii_part)
                self.assertEqual(r.header("X-Accel-Redirect"), None)
                self.assertEqual(r.header("X-Content-Type-Options"), "nosniff")
        # Ranges come from nginx for free.
        r = dc.get("/vault/download?path=" + q(folder + "/sp ace.txt"),
                   headers=self.admin.headers({"Range": "bytes=0-6"}, csrf=False))
        self.assertEqual(r.status, 206, r)
        self.assertEqual(r.body, b"content")
        # The internal location is not reachable from outside.
        for url in ("/_vault_files/" + folder.lstrip("/") + "/sp%20ace.txt", "/_vault_files/"):
            self.assertEqual(dc.get(url).status, 404)

    def test_uploaded_html_and_svg_never_run_in_the_vault_origin(self):
        folder = self.fresh("xss")
        files = {
            "page.html": b"<!doctype html><html><body><script>alert(document.cookie)</script></body></html>",
            "image.svg": b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
            "disguised.png": b"<html><script>alert(1)</script></html>",
            "data.xml": b'<?xml version="1.0"?><a xmlns:h="http://www.w3.org/1999/xhtml"><h:script>1</h:script></a>',
            "notes.txt": b"plain text <b>not bold</b>\n",
            "pixel.png": bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                                       "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"),
        }
        self.assertEqual(self.admin.upload(folder, list(files.items())).status, 200)
        for name in ("page.html", "image.svg", "disguised.png", "data.xml"):
            with self.subTest(name):
                r = self.admin.get("view", folder + "/" + name)
                self.assertEqual(r.status, 200, r)
                self.assertTrue(r.header("Content-Disposition").startswith("attachment"), r.headers)
                self.assertEqual(r.header("Content-Type"), "application/octet-stream")
                self.assertEqual(r.header("X-Content-Type-Options"), "nosniff")
                self.assertTrue(any("sandbox" in c for c in r.header_all("Content-Security-Policy")), r.headers)
                r = self.admin.download(folder + "/" + name)
                self.assertTrue(r.header("Content-Disposition").startswith("attachment"))
                self.assertEqual(r.header("Content-Type"), "application/octet-stream")
        r = self.admin.get("view", folder + "/notes.txt")
        self.assertTrue(r.header("Content-Disposition").startswith("inline"), r.headers)
        self.assertTrue(r.header("Content-Type").startswith("text/plain"), r.headers)
        self.assertTrue(any("sandbox" in c for c in r.header_all("Content-Security-Policy")), r.headers)
        r = self.admin.get("view", folder + "/pixel.png")
        self.assertEqual(r.header("Content-Type"), "image/png")
        self.assertTrue(r.header("Content-Disposition").startswith("inline"))

    # ---- writes (15) and the rest of the operations -------------------------------------

    def test_browse_lists_folders_first_with_sizes_and_a_page_for_browsers(self):
        folder = self.fresh("list")
        self.assertEqual(self.admin.save(folder + "/b.txt", "12345").status, 200)
        self.assertEqual(self.admin.mkdir(folder + "/z-folder").status, 200)
        self.assertEqual(self.admin.save(folder + "/a.txt", "1").status, 200)
        r = self.admin.get("browse", folder)
        self.assertEqual(r.status, 200, r)
        self.assertEqual([e["name"] for e in r.json["entries"]], ["z-folder", "a.txt", "b.txt"])
        self.assertEqual(r.json["entries"][2]["size"], 5)
        self.assertEqual(r.json["entries"][0]["type"], "folder")
        page = self.admin.get("browse", folder, headers={"Accept": "text/html"})
        self.assertEqual(page.status, 200, page)
        self.assertTrue(page.header("Content-Type").startswith("text/html"))
        self.assertIn('id="vault-data"', page.text)
        self.assertIn(self.admin.csrf, page.text)
        # A name cannot open markup or a comment inside the data element.
        self.assertEqual(self.admin.save(folder + "/<!--<script>x.txt", "x").status, 200)
        page = self.admin.get("browse", folder, headers={"Accept": "text/html"})
        self.assertNotIn("<!--<script>", page.text)
        self.assertIn("\\u003c!--\\u003cscript\\u003ex.txt", page.text)

    def test_save_and_upload_replace_atomically_with_the_right_rights(self):
        path = self.home + "/doc.txt"
        self.assertEqual(self.a.save(path, "v1").status, 200)
        self.assertEqual(self.a.save(path, "v2").status, 200)
        self.assertEqual(self.a.download(path).body, b"v2")
        self.assertEqual(self.a.upload(self.home, [("doc.txt", b"v3")]).status, 409)
        r = self.a.upload(self.home, [("doc.txt", b"v3"), ("other.bin", b"\x00\x01")], overwrite=True)
        self.assertEqual(r.status, 200, r)
        self.assertEqual([f["replaced"] for f in r.json["files"]], [True, False])
        self.assertEqual(self.a.download(path).body, b"v3")
        self.assertEqual(self.a.mkdir(self.home + "/sub").status, 200)
        self.assertEqual(self.a.mkdir(self.home + "/sub").status, 409)

    def test_a_broken_upload_leaves_the_old_file_and_no_temporary_file(self):
        path = self.home + "/atomic.txt"
        self.assertEqual(self.a.save(path, "old content").status, 200)
        disk = vault_files() / self.home.lstrip("/")
        # A body that ends without its closing boundary.
        body = multipart([("atomic.txt", b"new content" * 1000)])[:-30]
        r = dc.post("/vault/upload?path=%s&overwrite=true" % q(self.home), data=body,
                    headers=self.a.headers({"Content-Type": "multipart/form-data; boundary=b0und4ry"}))
        self.assertEqual(r.status, 400, r)
        self.assertEqual((disk / "atomic.txt").read_text(), "old content")
        self.assertEqual([p for p in disk.iterdir() if p.name.startswith(".vault-")], [])

    def test_the_quota_admits_exactly_what_is_left_and_refuses_a_byte_more(self):
        quota = int(dc.config_value("vault", "quota", 10 * 1024 ** 3))
        if quota <= 0:
            self.skipTest("vault.quota is 0 (no quota) on this stack")
        u = dc.create_user("vquota")
        try:
            home = "/home/" + u.username
            self.assertIn(self.admin.mkdir(home).status, (200, 409))
            s = Session(u.username, u.password)
            disk = vault_files() / home.lstrip("/")

            def usage() -> int:
                rows = dc.db_query("SELECT bytes FROM vault_usage WHERE user_id = %d" % u.id)
                return int(rows[0][0]) if rows else 0

            def left_behind() -> list[str]:
                return sorted(p.name for p in disk.iterdir())

            n = 4096
            # The user has written all but n bytes of vault.quota (seeded: the bytes are not on disk).
            dc.db_query("INSERT INTO vault_usage (user_id, bytes) VALUES (%d, %d)"
                        " ON DUPLICATE KEY UPDATE bytes = VALUES(bytes)" % (u.id, quota - n))
            # n + 1 bytes: refused with the documented 413, nothing stored, nothing counted.
            r = s.upload(home, [("over.bin", b"o" * (n + 1))])
            self.assertEqual(r.status, 413, r)
            self.assertEqual(r.json, {"detail": "the file is larger than the limit"})
            self.assertEqual(left_behind(), [])
            self.assertEqual(usage(), quota - n)
            # Exactly n bytes: stored, and the quota is now full.
            r = s.upload(home, [("exact.bin", b"e" * n)])
            self.assertEqual(r.status, 200, r)
            self.assertEqual((disk / "exact.bin").read_bytes(), b"e" * n)
            self.assertEqual(usage(), quota)
            # A full quota refuses even one byte (saved text too) ...
            r = s.upload(home, [("one.bin", b"1")])
            self.assertEqual(r.status, 413, r)
            self.assertEqual(r.json, {"detail": "the file is larger than the limit"})
            self.assertEqual(s.save(home + "/one.txt", "1").status, 413)
            self.assertEqual(left_behind(), ["exact.bin"])
            # ... while a replacement may use the room its old content frees: n bytes again, not n + 1.
            r = s.upload(home, [("exact.bin", b"E" * (n + 1))], overwrite=True)
            self.assertEqual(r.status, 413, r)
            self.assertEqual((disk / "exact.bin").read_bytes(), b"e" * n)
            r = s.upload(home, [("exact.bin", b"E" * n)], overwrite=True)
            self.assertEqual(r.status, 200, r)
            self.assertEqual((disk / "exact.bin").read_bytes(), b"E" * n)
            self.assertEqual(usage(), quota)
            self.assertEqual(left_behind(), ["exact.bin"])
        finally:
            dc.delete_user(u.id)

    def test_max_upload_admits_n_bytes_and_refuses_n_plus_one(self):
        # vault.max_upload is 1 GiB on the test stack: dozor-fcgi is restarted with a small one
        # (DOZOR_VAULT_MAX_UPLOAD overrides the file), then with the stack's own again.
        n = 4096
        folder = self.fresh("max-upload")
        disk = vault_files() / folder.lstrip("/")

        def restart_fcgi(env: dict) -> None:
            dc.stackctl("stop-fcgi")
            r = subprocess.run([dc.STACKCTL, str(dc.STATE_DIR), "start-fcgi"], env=env,
                               capture_output=True, text=True, timeout=120)
            self.assertEqual(r.returncode, 0, r.stderr)
            # nginx's kept upstream connections went to the stopped workers: fresh ones.
            dc.stackctl("start-nginx")
            self.assertTrue(dc.wait_until(lambda: self.admin.get("browse", "/").status == 200, 60, 0.3))

        restart_fcgi(dict(os.environ, DOZOR_VAULT_MAX_UPLOAD=str(n)))
        try:
            r = self.admin.upload(folder, [("over.bin", b"o" * (n + 1))])
            self.assertEqual(r.status, 413, r)
            self.assertEqual(r.json, {"detail": "the file is larger than the limit"})
            self.assertEqual(self.admin.save(folder + "/over.txt", "o" * (n + 1)).status, 413)
            self.assertEqual(sorted(p.name for p in disk.iterdir()), [])
            r = self.admin.upload(folder, [("exact.bin", b"e" * n)])
            self.assertEqual(r.status, 200, r)
            self.assertEqual((disk / "exact.bin").read_bytes(), b"e" * n)
            self.assertEqual(sorted(p.name for p in disk.iterdir()), ["exact.bin"])
        finally:
            restart_fcgi(dict(os.environ))

    def test_killed_upload_leaves_the_old_file_intact(self):
        path = self.home + "/killed.txt"
        self.assertEqual(self.a.save(path, "before the kill").status, 200)
        disk = vault_files() / self.home.lstrip("/")
        head = (b"--b0und4ry\r\nContent-Disposition: form-data; name=\"file\"; filename=\"killed.txt\"\r\n\r\n")
        total = len(head) + 4 * 1024 * 1024 + 64
        u = urllib.parse.urlsplit(dc.BASE_URL)
        conn = http.client.HTTPSConnection(u.hostname, u.port, timeout=30, context=dc._SSL)
        conn.putrequest("POST", "/vault/upload?path=%s&overwrite=true" % q(self.home))
        for k, v in self.a.headers({"Content-Type": "multipart/form-data; boundary=b0und4ry"}).items():
            conn.putheader(k, v)
        conn.putheader("Content-Length", str(total))
        conn.endheaders()
        conn.send(head + b"x" * (1024 * 1024))
        time.sleep(1.0)  # the worker is now writing the new content
        workers = dc.worker_pids()
        for pid in workers:
            os.kill(pid, signal.SIGKILL)
        try:
            conn.send(b"x" * (1024 * 1024))
            conn.getresponse().read()
        except (OSError, http.client.HTTPException):
            pass
        conn.close()
        dc.wait_until(lambda: dc.worker_pids() and not (dc.worker_pids() & workers), 60)
        # nginx's kept upstream connections went to the killed workers; a POST on one would be a
        # 502 (never retried): a reload gives nginx fresh ones.
        dc.stackctl("start-nginx")
        self.assertTrue(dc.wait_until(lambda: self.a.mkdir(self.home).status == 409, 30))
        dc.wait_until(lambda: dc.get("/health").status == 200, 60)
        self.assertEqual((disk / "killed.txt").read_text(), "before the kill")
        self.assertEqual([p for p in disk.iterdir() if p.name.startswith(".vault-")], [])

    def test_delete_goes_to_the_trash_and_restores(self):
        path = self.home + "/trashme.txt"
        self.assertEqual(self.a.save(path, "precious").status, 200)
        r = self.a.delete(path)
        self.assertEqual(r.status, 200, r)
        trash_id = r.json["trash_id"]
        self.assertEqual(self.a.download(path).status, 404)
        items = self.a.get("trash").json["items"]
        self.assertIn(trash_id, [i["id"] for i in items])
        # Another user's trash item is not theirs to restore.
        b = Session(self.bob.username, self.bob.password)
        self.assertEqual(b.post("restore", {"id": trash_id}).status, 404)
        r = self.a.post("restore", {"id": trash_id})
        self.assertEqual(r.status, 200, r)
        self.assertEqual(self.a.download(path).body, b"precious")
        self.assertNotIn(trash_id, [i["id"] for i in self.a.get("trash").json["items"]])
        self.assertEqual(self.a.delete("/").status, 403)  # visible (on the way home), not hers to delete

    def test_dozord_sweeps_the_expired_trash_of_users_who_never_come_back(self):
        old_path, new_path = self.home + "/sweep-old.txt", self.home + "/sweep-new.txt"
        for p in (old_path, new_path):
            self.assertEqual(self.a.save(p, "x" * 100).status, 200)
        old_id = self.a.delete(old_path).json["trash_id"]
        new_id = self.a.delete(new_path).json["trash_id"]
        trash = vault_files().parent / "trash" / str(self.alice.id)
        self.assertTrue((trash / str(old_id)).exists())
        usage = int(dc.db_query("SELECT bytes FROM vault_usage WHERE user_id = %d" % self.alice.id)[0][0])
        dc.db_query("UPDATE vault_trash SET trashed_at = NOW(3) - INTERVAL 31 DAY WHERE id = %d" % old_id)
        # Alice never comes back: a dozord's retention round removes it (the first round runs at start).
        dc.start_dozord(self, "vault-sweep")
        gone = dc.wait_until(lambda: not dc.db_query("SELECT 1 FROM vault_trash WHERE id = %d" % old_id), 30, 0.3)
        self.assertTrue(gone, "the expired trash item was not swept")
        self.assertFalse((trash / str(old_id)).exists())
        self.assertTrue((trash / str(new_id)).exists(), "an item within vault.trash_days stays")
        self.assertTrue(dc.db_query("SELECT 1 FROM vault_trash WHERE id = %d" % new_id))
        after = int(dc.db_query("SELECT bytes FROM vault_usage WHERE user_id = %d" % self.alice.id)[0][0])
        self.assertEqual(after, usage - 100, "the quota gets the swept bytes back, once")

    # ---- the analyzer's check for personal data (issue 11 §2) --------------------------

    def test_check_for_personal_data_reads_the_file_as_the_caller_with_values_masked(self):
        from test_analyzer import CLEAN_RU, PLANTED_RU, docx
        folder = self.home
        r = self.a.upload(folder, [("staff-%s.docx" % self.tag, docx([t for t, _ in PLANTED_RU]))], overwrite=True)
        self.assertEqual(r.status, 200, r)
        path = folder + "/staff-%s.docx" % self.tag
        r = self.a.get("analyze", path)
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json["path"], path)
        self.assertEqual(r.json["document"]["type"], "docx")
        self.assertEqual(r.json["summary"]["risk"], "high")
        for cat in ("snils", "passport_rf", "inn"):
            self.assertIn(cat, r.json["summary"]["counts"])
        self.assertNotIn("112-233-445 95", r.text)  # the SNILS, masked
        self.assertNotIn("123456", r.text)          # the passport number, masked
        self.assertEqual(self.a.save(folder + "/clean-%s.txt" % self.tag, "\n".join(CLEAN_RU)).status, 200)
        r = self.a.get("analyze", folder + "/clean-%s.txt" % self.tag)
        self.assertEqual((r.status, r.json["summary"]["risk"]), (200, "none"), r)
        # Only with the read right, only with the vault session, only files that exist.
        bob = Session(self.bob.username, self.bob.password)
        self.assertIn(bob.get("analyze", path).status, (403, 404))
        self.assertEqual(self.a.get("analyze", folder + "/missing-%s.docx" % self.tag).status, 404)
        self.assertEqual(self.a.get("analyze").status, 422)
        r = dc.get("/vault/analyze?path=" + q(path), token=self.alice.token)
        self.assertEqual(r.status, 401, r)
        # A folder is not a document.
        self.assertEqual(self.a.get("analyze", folder).status, 404)

    def test_mutations_are_audited(self):
        path = self.home + "/audited-%s.txt" % secrets.token_hex(3)
        self.assertEqual(self.a.save(path, "x").status, 200)
        self.assertEqual(self.a.delete("/home/%s/x" % self.bob.username).status, 404)
        r = dc.get("/api/admin/vault/audit?limit=200", token=dc.admin_token())
        self.assertEqual(r.status, 200, r)
        rows = [(a["username"], a["action"], a["path"], a["outcome"]) for a in r.json]
        self.assertIn((self.alice.username, "save_file", path, "ok"), rows)
        self.assertIn((self.alice.username, "delete", "/home/%s/x" % self.bob.username, "not_found"), rows)
        self.assertEqual(dc.get("/api/admin/vault/audit", token=self.alice.token).status, 403)

    def test_rules_are_managed_by_admins_only(self):
        r = dc.post("/api/admin/vault/rules", {"user_id": self.bob.id, "path": "/x", "read": True},
                    token=self.alice.token)
        self.assertEqual(r.status, 403, r)
        r = dc.post("/api/admin/vault/rules", {"user_id": self.bob.id, "path": "/a/../b", "read": True},
                    token=dc.admin_token())
        self.assertEqual(r.status, 422, r)
        grant(self.bob.id, "/shared-%s" % self.tag, read=True)
        rules = dc.get("/api/admin/vault/rules", token=dc.admin_token()).json
        self.assertIn(("/shared-%s" % self.tag, True, False), [(x["path"], x["read"], x["write"]) for x in rules
                                                                if x["user_id"] == self.bob.id])
        r = dc.post("/api/admin/vault/rules/revoke", {"user_id": self.bob.id, "path": "/shared-%s" % self.tag},
                    token=dc.admin_token())
        self.assertEqual(r.status, 200, r)

    def test_dozorctl_grants_lists_and_revokes_rules(self):
        base = self.fresh("ctl")
        self.assertEqual(self.admin.save(base + "/f.txt", "ctl").status, 200)

        def ctl(*args):
            return subprocess.run([str(dc.BIN_DIR / "dozorctl"), "--config", str(dc.STATE_DIR / "dozor.toml"),
                                   "vault", *args], capture_output=True, text=True, timeout=60)
        self.assertEqual(self.a.download(base + "/f.txt").status, 404)
        r = ctl("grant", "--username", self.alice.username, "--path", base, "--read")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(self.a.download(base + "/f.txt").status, 200)
        r = ctl("rules")
        self.assertIn("%s\t%s\tr--" % (self.alice.username, base), r.stdout)
        r = ctl("grant", "--username", self.alice.username, "--path", base + "/../x", "--read")
        self.assertNotEqual(r.returncode, 0)
        r = ctl("revoke", "--username", self.alice.username, "--path", base)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(self.a.download(base + "/f.txt").status, 404)


if __name__ == "__main__":
    unittest.main()
