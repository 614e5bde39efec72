"""Document editing in the vault (issue 10, docs/vault.md "Document editing") over HTTPS through
nginx, with a fake document server started here on vault.docserver_url's port: the editor page's
signed config, the signed download, and the callback — forged callbacks write nothing (research
test 11), hostile URLs are never fetched (12), a replayed status-2 callback writes once and the
next session gets a new key (13), and nginx refuses the callback from outside
vault.docserver_networks."""

from __future__ import annotations

import hashlib
import hmac
import http.server
import json
import re
import secrets
import threading
import time
import unittest
import urllib.parse
from pathlib import Path

import dozor_client as dc
from test_vault import Session, grant, q, vault_files

CALLBACK = "/vault/docedit_callback"


def docserver_url() -> str:
    return dc.stack_config().get("vault", {}).get("docserver_url", "")


def secret() -> bytes:
    path = dc.stack_config().get("vault", {}).get("docserver_jwt_secret_file", str(dc.STATE_DIR / "docserver.key"))
    return Path(path).read_bytes().strip()


def sign(payload: dict, key: bytes | None = None, alg: str = "HS256", ttl: int = 300) -> str:
    claims = dict(payload)
    claims.setdefault("exp", int(time.time()) + ttl)
    return dc.jwt_encode({"alg": alg, "typ": "JWT"}, claims, key if key is not None else secret())


class FakeDocServer:
    """Serves registered bytes at /files/<name>, a redirect at /redirect, an endless body at
    /huge and a fake api.js; counts every request it gets."""

    def __init__(self, port: int):
        self.files: dict[str, bytes] = {}
        self.hits: list[str] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                outer.hits.append(self.path)
                if self.path.startswith("/files/") and self.path[7:] in outer.files:
                    body = outer.files[self.path[7:]]
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                elif self.path == "/redirect":
                    self.send_response(302)
                    self.send_header("Location", "/files/" + next(iter(outer.files), "x"))
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                elif self.path == "/huge":
                    self.send_response(200)
                    self.end_headers()  # no length: the body runs until the client stops reading
                    chunk = b"\0" * (1 << 20)
                    try:
                        for _ in range(110):  # 110 MiB > limits::kVaultDocFetchBytes (100 MiB)
                            self.wfile.write(chunk)
                    except OSError:
                        pass
                    self.close_connection = True
                elif self.path == "/web-apps/apps/api/documents/api.js":
                    body = FAKE_API_JS.encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/javascript")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                else:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


# The browser test's stand-in for ONLYOFFICE's api.js: records the config it was given.
FAKE_API_JS = """
window.DocsAPI = { DocEditor: function (id, config) {
  window.__docEditor = { id: id, config: config };
  const el = document.getElementById(id);
  if (el) el.setAttribute('data-key', config.document.key);
} };
"""


def editor_data(s: Session, path: str) -> dc.Response:
    return s.get("docedit_edit", path, headers={"Accept": "text/html"})


def page_data(r: dc.Response) -> dict:
    m = re.search(r'<script type="application/json" id="vault-data">(.*?)</script>', r.text, re.S)
    assert m, r.text[:500]
    return json.loads(m.group(1))


def callback(body: dict, headers: dict | None = None, source: str | None = None) -> dc.Response:
    return dc.post(CALLBACK, body, headers=headers or {}, source=source)


class DocEditTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        url = urllib.parse.urlsplit(docserver_url())
        assert url.port, "vault.docserver_url is not configured by the stack"
        cls.origin = "%s://%s" % (url.scheme, url.netloc)
        cls.docserver = FakeDocServer(url.port)
        cls.admin = Session(dc.ADMIN_USER, dc.ADMIN_PASSWORD)
        cls.tag = secrets.token_hex(4)

    @classmethod
    def tearDownClass(cls):
        cls.docserver.close()

    def new_doc(self, content: str = "version one") -> tuple[str, str]:
        folder = "/de-%s-%s" % (self.tag, secrets.token_hex(3))
        self.assertEqual(self.admin.mkdir(folder).status, 200)
        path = folder + "/report.docx"
        self.assertEqual(self.admin.save(path, content).status, 200)
        r = editor_data(self.admin, path)
        self.assertEqual(r.status, 200, r)
        return path, page_data(r)["config"]["document"]["key"]

    def on_disk(self, path: str) -> bytes:
        return (vault_files() / path.lstrip("/")).read_bytes()

    def serve(self, content: bytes) -> str:
        name = secrets.token_hex(6)
        self.docserver.files[name] = content
        return "%s/files/%s" % (self.origin, name)

    def saves_of(self, path: str) -> int:
        rows = dc.db_query("SELECT COUNT(*) FROM vault_audit WHERE action = 'docedit_save' AND outcome = 'ok' "
                           "AND path = '%s'" % path.replace("'", "''"))
        return int(rows[0][0])

    # ---- the editor page ----------------------------------------------------------------

    def test_editor_page_carries_a_config_signed_with_the_shared_secret(self):
        path, key = self.new_doc()
        r = editor_data(self.admin, path)
        data = page_data(r)
        self.assertEqual(data["api_js"], self.origin + "/web-apps/apps/api/documents/api.js")
        config = data["config"]
        header, claims, _ = dc.jwt_parts(config["token"])
        self.assertEqual(header["alg"], "HS256")
        # The token verifies with the shared secret and signs exactly the config shown.
        signing_input, _, signature = config["token"].rpartition(".")
        self.assertEqual(dc.b64url_decode(signature),
                         hmac.new(secret(), signing_input.encode(), hashlib.sha256).digest())
        self.assertGreater(claims["exp"], time.time())
        for field in ("document", "documentType", "editorConfig"):
            self.assertEqual(claims[field], config[field])
        self.assertEqual(config["documentType"], "word")
        self.assertEqual(config["document"]["key"], key)
        self.assertRegex(key, r"^[0-9A-Za-z._=-]{1,128}$")
        self.assertTrue(config["editorConfig"]["callbackUrl"].endswith(CALLBACK))
        self.assertEqual(config["editorConfig"]["mode"], "edit")
        # The page lets the document server's origin, and only it, load scripts and be framed.
        # One policy, written by dozor-fcgi from vault.docserver_url at run time (nginx passes it
        # on and adds no second one), with the rest of the site's policy intact.
        policies = r.header_all("Content-Security-Policy")
        self.assertEqual(len(policies), 1, policies)
        directives = dict(d.strip().split(" ", 1) for d in policies[0].split(";"))
        self.assertEqual(directives["script-src"], "'self' " + self.origin)
        self.assertEqual(directives["frame-src"], "'self' " + self.origin)
        self.assertEqual(directives["connect-src"], "'self' " + self.origin)
        self.assertEqual(directives["default-src"], "'self'")
        self.assertEqual(directives["frame-ancestors"], "'none'")
        self.assertEqual(directives["object-src"], "'none'")
        self.assertEqual(r.header("X-Content-Type-Options"), "nosniff")
        self.assertEqual(r.header("X-Frame-Options"), "DENY")
        # Other pages keep the site's own policy, without the document server; so does an error
        # answer of the editor page itself (nginx's fallback when dozor-fcgi wrote none).
        other = self.admin.get("browse", "/")
        self.assertNotIn(self.origin, other.header("Content-Security-Policy"))
        missing = self.admin.get("docedit_edit", "/no-such-%s.docx" % secrets.token_hex(3))
        self.assertEqual(missing.status, 404, missing)
        self.assertEqual(len(missing.header_all("Content-Security-Policy")), 1)
        self.assertNotIn(self.origin, missing.header("Content-Security-Policy"))
        self.assertIn("default-src 'self'", missing.header("Content-Security-Policy"))
        # The same key until a save.
        self.assertEqual(page_data(editor_data(self.admin, path))["config"]["document"]["key"], key)

    def test_signed_download_serves_the_file_and_a_tampered_link_is_refused(self):
        path, _ = self.new_doc("the original")
        url = urllib.parse.urlsplit(page_data(editor_data(self.admin, path))["config"]["document"]["url"])
        self.assertEqual(url.path, "/vault/docedit_download")
        r = dc.get(url.path + "?" + url.query)
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.body, b"the original")
        params = urllib.parse.parse_qs(url.query)
        other = "path=%s&exp=%s&sig=%s" % (q(path.rsplit("/", 1)[0] + "/other.docx"), params["exp"][0],
                                           params["sig"][0])
        by_backend = dc.get(url.path + "?" + other)
        self.assertEqual(by_backend.status, 403)
        longer = "path=%s&exp=%d&sig=%s" % (q(path), int(params["exp"][0]) + 1, params["sig"][0])
        self.assertEqual(dc.get(url.path + "?" + longer).status, 403)
        # dozor-fcgi's refusal carries its Cache-Control and its own reason...
        self.assertIsNotNone(by_backend.header("Cache-Control"), by_backend)
        self.assertNotEqual(by_backend.json.get("detail"), "Forbidden", by_backend)
        # ...while from outside vault.docserver_networks nginx refuses even a valid link before
        # dozor-fcgi sees it: nginx's JSON 403 {"detail": "Forbidden"} and no header of the backend.
        r = dc.get(url.path + "?" + url.query, source="127.0.0.2")
        self.assertEqual(r.status, 403, r)
        self.assertEqual(r.json, {"detail": "Forbidden"}, r)
        self.assertIsNone(r.header("Cache-Control"), r)
        self.assertIsNone(r.header("X-Accel-Redirect"), r)
        self.assertIsNone(r.header("Content-Disposition"), r)
        self.assertNotEqual(r.body, b"the original")

    def test_text_file_is_not_an_office_document(self):
        folder = "/de-%s-txt" % self.tag
        self.admin.mkdir(folder)
        self.assertEqual(self.admin.save(folder + "/notes.md", "x").status, 200)
        self.assertEqual(editor_data(self.admin, folder + "/notes.md").status, 404)
        r = self.admin.get("edit", folder + "/notes.md", headers={"Accept": "text/html"})
        self.assertEqual(r.status, 200, r)
        data = page_data(r)
        self.assertEqual(data["path"], folder + "/notes.md")
        self.assertTrue(data["can_write"])
        self.assertEqual(data["csrf"], self.admin.csrf)

    # ---- a save, its replay, the next key (13) -------------------------------------------

    def test_status_2_saves_once_keeps_the_previous_version_and_rotates_the_key(self):
        path, key = self.new_doc("version one")
        url = self.serve(b"version two")
        body = {"key": key, "status": 2, "url": url, "users": ["1"]}
        r = callback({**body, "token": sign(body)})
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json, {"error": 0})
        self.assertEqual(self.on_disk(path), b"version two")
        self.assertEqual(self.saves_of(path), 1)
        # The previous version is in the trash, restorable.
        trash = self.admin.get("trash").json
        items = trash if isinstance(trash, list) else trash.get("items", [])
        self.assertTrue([t for t in items if t["path"] == path], trash)
        # A replay (same token, even with other bytes behind the URL) writes nothing.
        self.docserver.files[url.rsplit("/", 1)[1]] = b"version three"
        hits = len(self.docserver.hits)
        r = callback({**body, "token": sign(body)})
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json, {"error": 0})
        self.assertEqual(self.on_disk(path), b"version two")
        self.assertEqual(self.saves_of(path), 1)
        self.assertEqual(len(self.docserver.hits), hits)  # not even fetched
        # The next session gets a new key.
        new_key = page_data(editor_data(self.admin, path))["config"]["document"]["key"]
        self.assertNotEqual(new_key, key)

    def test_bearer_header_with_payload_wrapper_is_accepted(self):
        path, key = self.new_doc("v1")
        body = {"key": key, "status": 2, "url": self.serve(b"from the header")}
        r = callback(body, headers={"Authorization": "Bearer " + sign({"payload": body})})
        self.assertEqual(r.status, 200, r)
        self.assertEqual(self.on_disk(path), b"from the header")

    def test_statuses_without_a_file_answer_error_0_and_write_nothing(self):
        path, key = self.new_doc("unchanged")
        for status in (1, 3, 4, 7):
            body = {"key": key, "status": status}
            r = callback({**body, "token": sign(body)})
            self.assertEqual((r.status, r.json), (200, {"error": 0}), status)
        self.assertEqual(self.on_disk(path), b"unchanged")
        self.assertEqual(page_data(editor_data(self.admin, path))["config"]["document"]["key"], key)

    def test_force_save_writes_and_keeps_the_key(self):
        path, key = self.new_doc("v1")
        body = {"key": key, "status": 6, "url": self.serve(b"forced")}
        self.assertEqual(callback({**body, "token": sign(body)}).json, {"error": 0})
        self.assertEqual(self.on_disk(path), b"forced")
        self.assertEqual(page_data(editor_data(self.admin, path))["config"]["document"]["key"], key)
        body = {"key": key, "status": 2, "url": self.serve(b"final")}
        self.assertEqual(callback({**body, "token": sign(body)}).json, {"error": 0})
        self.assertEqual(self.on_disk(path), b"final")

    def test_a_replayed_force_save_writes_once(self):
        path, key = self.new_doc("v1")
        url = self.serve(b"forced once")
        body = {"key": key, "status": 6, "url": url, "users": ["1"]}
        self.assertEqual(callback({**body, "token": sign(body)}).json, {"error": 0})
        self.assertEqual(self.on_disk(path), b"forced once")
        self.assertEqual(self.saves_of(path), 1)
        # The same callback again (even with other bytes behind its URL) writes nothing.
        self.docserver.files[url.rsplit("/", 1)[1]] = b"forced twice"
        hits = len(self.docserver.hits)
        r = callback({**body, "token": sign(body)})
        self.assertEqual((r.status, r.json), (200, {"error": 0}))
        self.assertEqual(self.on_disk(path), b"forced once")
        self.assertEqual(len(self.docserver.hits), hits)  # not even fetched
        self.assertEqual(self.saves_of(path), 1)
        # Another force-save of the session (another url) still writes, and so does the final save.
        body = {"key": key, "status": 6, "url": self.serve(b"forced again")}
        self.assertEqual(callback({**body, "token": sign(body)}).json, {"error": 0})
        self.assertEqual(self.on_disk(path), b"forced again")
        body = {"key": key, "status": 2, "url": self.serve(b"final")}
        self.assertEqual(callback({**body, "token": sign(body)}).json, {"error": 0})
        self.assertEqual(self.saves_of(path), 3)

    # ---- who saves: the writer, never a viewer --------------------------------------------

    def saver_of(self, path: str) -> list[str]:
        rows = dc.db_query("SELECT username FROM vault_audit WHERE action = 'docedit_save' AND outcome = 'ok' "
                           "AND path = '%s' ORDER BY id" % path.replace("'", "''"))
        return [r[0] for r in rows]

    def test_a_viewer_opening_after_the_editor_does_not_become_the_saver(self):
        writer, viewer = dc.create_user("dewriter"), dc.create_user("deviewer")
        try:
            folder = "/de-%s-%s" % (self.tag, secrets.token_hex(3))
            self.assertEqual(self.admin.mkdir(folder).status, 200)
            path = folder + "/shared.docx"
            self.assertEqual(self.admin.save(path, "v1").status, 200)
            grant(writer.id, folder, read=True, write=True, delete=True)
            grant(viewer.id, folder, read=True)
            w, v = Session(writer.username, writer.password), Session(viewer.username, viewer.password)
            wc = page_data(editor_data(w, path))["config"]
            self.assertEqual((wc["editorConfig"]["mode"], wc["editorConfig"]["user"]["id"]), ("edit", str(writer.id)))
            vc = page_data(editor_data(v, path))["config"]
            self.assertEqual(vc["editorConfig"]["mode"], "view")
            self.assertFalse(vc["document"]["permissions"]["edit"])
            key = wc["document"]["key"]
            self.assertEqual(vc["document"]["key"], key)  # one document, co-viewed
            # No users claim: the recorded writer saves, not the viewer who opened last.
            body = {"key": key, "status": 6, "url": self.serve(b"forced by the writer")}
            r = callback({**body, "token": sign(body)})
            self.assertEqual((r.status, r.json), (200, {"error": 0}))
            self.assertEqual(self.on_disk(path), b"forced by the writer")
            self.assertEqual(page_data(editor_data(v, path))["config"]["document"]["key"], key)
            # A users claim naming the viewer first: the first one who may write saves.
            body = {"key": key, "status": 2, "url": self.serve(b"final"), "users": [str(viewer.id), str(writer.id)]}
            r = callback({**body, "token": sign(body)})
            self.assertEqual((r.status, r.json), (200, {"error": 0}))
            self.assertEqual(self.on_disk(path), b"final")
            self.assertEqual(self.saver_of(path), [writer.username, writer.username])
            # A file only a viewer opened has nobody to save it: refused in the protocol's shape.
            other = folder + "/viewed.docx"
            self.assertEqual(self.admin.save(other, "untouched").status, 200)
            key = page_data(editor_data(v, other))["config"]["document"]["key"]
            body = {"key": key, "status": 2, "url": self.serve(b"by a viewer"), "users": [str(viewer.id)]}
            r = callback({**body, "token": sign(body)})
            self.assertEqual((r.status, r.json), (403, {"error": 1}))
            self.assertEqual(self.on_disk(other), b"untouched")
        finally:
            dc.delete_user(writer.id)
            dc.delete_user(viewer.id)

    def test_write_without_delete_only_views_and_never_saves(self):
        # Issue 26 §3: a save replaces the file, as an upload's overwrite does. Where users see and
        # add each other's files (rw-, no delete), the editor must not let one empty another's report.
        u = dc.create_user("derw")
        try:
            folder = "/de-%s-%s" % (self.tag, secrets.token_hex(3))
            self.assertEqual(self.admin.mkdir(folder).status, 200)
            path = folder + "/report.docx"
            self.assertEqual(self.admin.save(path, "their report").status, 200)
            grant(u.id, folder, read=True, write=True)
            s = Session(u.username, u.password)
            c = page_data(editor_data(s, path))["config"]
            self.assertEqual(c["editorConfig"]["mode"], "view")
            self.assertFalse(c["document"]["permissions"]["edit"])
            body = {"key": c["document"]["key"], "status": 2, "url": self.serve(b"emptied"), "users": [str(u.id)]}
            r = callback({**body, "token": sign(body)})
            self.assertEqual((r.status, r.json), (403, {"error": 1}))
            self.assertEqual(self.on_disk(path), b"their report")
            # With the delete right too, the same user edits and saves.
            grant(u.id, folder, read=True, write=True, delete=True)
            c = page_data(editor_data(s, path))["config"]
            self.assertEqual(c["editorConfig"]["mode"], "edit")
            body = {"key": c["document"]["key"], "status": 2, "url": self.serve(b"edited"), "users": [str(u.id)]}
            r = callback({**body, "token": sign(body)})
            self.assertEqual((r.status, r.json), (200, {"error": 0}))
            self.assertEqual(self.on_disk(path), b"edited")
        finally:
            dc.delete_user(u.id)

    # ---- the key follows the file, whatever route changed it --------------------------------

    def test_a_file_changed_by_another_route_gets_a_new_key_and_the_old_session_writes_nothing(self):
        path, key = self.new_doc("v1")
        folder = path.rsplit("/", 1)[0]
        # Overwritten by an upload: a new key, and the old session's save is refused.
        r = self.admin.upload(folder, [("report.docx", b"uploaded")], overwrite=True)
        self.assertEqual(r.status, 200, r)
        body = {"key": key, "status": 2, "url": self.serve(b"stale edits")}
        r = callback({**body, "token": sign(body)})
        self.assertEqual((r.status, r.json), (403, {"error": 1}))
        self.assertEqual(self.on_disk(path), b"uploaded")
        rows = dc.db_query("SELECT COUNT(*) FROM vault_audit WHERE action = 'docedit_save' AND outcome = 'conflict' "
                           "AND path = '%s'" % path)
        self.assertEqual(int(rows[0][0]), 1)
        key2 = page_data(editor_data(self.admin, path))["config"]["document"]["key"]
        self.assertNotEqual(key2, key)
        body = {"key": key, "status": 6, "url": self.serve(b"stale force-save")}
        self.assertEqual(callback({**body, "token": sign(body)}).json, {"error": 1})
        # Saved by save_file: another new key.
        self.assertEqual(self.admin.save(path, "saved").status, 200)
        key3 = page_data(editor_data(self.admin, path))["config"]["document"]["key"]
        self.assertNotIn(key3, (key, key2))
        body = {"key": key2, "status": 2, "url": self.serve(b"stale again")}
        self.assertEqual(callback({**body, "token": sign(body)}).json, {"error": 1})
        self.assertEqual(self.on_disk(path), b"saved")
        # Renamed away: the callback does not bring the file back at its old path.
        self.assertEqual(self.admin.rename(path, folder + "/moved.docx").status, 200)
        body = {"key": key3, "status": 2, "url": self.serve(b"resurrected")}
        self.assertEqual(callback({**body, "token": sign(body)}).json, {"error": 1})
        self.assertFalse((vault_files() / path.lstrip("/")).exists())
        self.assertEqual(self.on_disk(folder + "/moved.docx"), b"saved")
        # Deleted: the same.
        key4 = page_data(editor_data(self.admin, folder + "/moved.docx"))["config"]["document"]["key"]
        self.assertEqual(self.admin.delete(folder + "/moved.docx").status, 200)
        body = {"key": key4, "status": 2, "url": self.serve(b"resurrected")}
        self.assertEqual(callback({**body, "token": sign(body)}).json, {"error": 1})
        self.assertFalse((vault_files() / folder.lstrip("/") / "moved.docx").exists())
        # The current key of an unchanged file still saves.
        path2, key5 = self.new_doc("fresh")
        body = {"key": key5, "status": 2, "url": self.serve(b"edited")}
        self.assertEqual(callback({**body, "token": sign(body)}).json, {"error": 0})
        self.assertEqual(self.on_disk(path2), b"edited")

    # ---- forged callbacks (11) ----------------------------------------------------------

    def test_forged_callbacks_write_nothing(self):
        path, key = self.new_doc("kept")
        url = self.serve(b"forged content")
        body = {"key": key, "status": 2, "url": url}
        now = int(time.time())
        forged = {
            "no token": body,
            "wrong secret": {**body, "token": sign(body, key=b"not-the-secret-at-all")},
            "alg none": {**body, "token": dc.jwt_encode({"alg": "none"}, {**body, "exp": now + 300}, None)},
            "alg HS512 header": {**body, "token": sign(body, alg="HS512")},
            "expired": {**body, "token": sign({**body, "exp": now - 10})},
            "no exp": {**body, "token": dc.jwt_encode({"alg": "HS256"}, body, secret())},
            "other key": {**body, "key": "0123456789abcdef", "token": sign({**body, "key": "0123456789abcdef"})},
            "body differs from claims": {**body, "url": self.serve(b"evil"),
                                         "token": sign(body)},
            "status differs from claims": {**body, "token": sign({**body, "status": 1})},
        }
        for name, payload in forged.items():
            r = callback(payload)
            self.assertEqual(r.status, 403, "%s: %s" % (name, r))
            self.assertEqual(r.json.get("error"), 1, name)
        r = callback(body, headers={"Authorization": "Bearer " + sign({"payload": {**body, "status": 1}})})
        self.assertEqual(r.status, 403, r)  # the body says 2, the header's claims say 1
        r = callback(body, headers={"Authorization": "Bearer " + sign(body, key=b"wrong-secret-wrong")})
        self.assertEqual(r.status, 403, r)
        self.assertEqual(self.on_disk(path), b"kept")
        self.assertEqual(self.saves_of(path), 0)
        # The key still works for the genuine callback afterwards.
        self.assertEqual(callback({**body, "token": sign(body)}).json, {"error": 0})
        self.assertEqual(self.on_disk(path), b"forged content")

    # ---- hostile URLs (12) -------------------------------------------------------------

    def test_hostile_urls_are_never_fetched(self):
        path, key = self.new_doc("kept")
        other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
        other_hits = []

        class Counting(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                other_hits.append(self.path)
                self.send_response(200)
                self.send_header("Content-Length", "4")
                self.end_headers()
                self.wfile.write(b"evil")

        other.RequestHandlerClass = Counting
        t = threading.Thread(target=other.serve_forever, daemon=True)
        t.start()
        try:
            urls = {
                "metadata": "http://169.254.169.254/latest/meta-data/",
                "file": "file:///etc/passwd",
                "other origin": "http://127.0.0.1:%d/x" % other.server_address[1],
                "userinfo": self.origin.replace("://", "://user@") + "/files/x",
                "redirect": self.origin + "/redirect",
                "oversized": self.origin + "/huge",
                "not found": self.origin + "/files/missing",
            }
            self.serve(b"redirect target")
            for name, url in urls.items():
                body = {"key": key, "status": 2, "url": url}
                r = callback({**body, "token": sign(body)})
                self.assertEqual(r.status, 403, "%s: %s" % (name, r))
            self.assertEqual(other_hits, [])
            self.assertEqual(self.on_disk(path), b"kept")
            self.assertEqual(self.saves_of(path), 0)
            # After all that, the key is still open for the genuine save.
            body = {"key": key, "status": 2, "url": self.serve(b"genuine")}
            self.assertEqual(callback({**body, "token": sign(body)}).json, {"error": 0})
            self.assertEqual(self.on_disk(path), b"genuine")
        finally:
            other.shutdown()
            other.server_close()

    # ---- nginx: the callback only from vault.docserver_networks -----------------------------

    def test_callback_from_outside_the_docserver_networks_is_refused_by_nginx(self):
        path, key = self.new_doc("kept")
        body = {"key": key, "status": 2, "url": self.serve(b"from outside")}
        r = callback({**body, "token": sign(body)}, source="127.0.0.2")
        self.assertEqual(r.status, 403, r)
        self.assertIn("detail", r.json)  # nginx's JSON 403, not dozor-fcgi's {"error": 1}
        self.assertNotIn("error", r.json)
        self.assertEqual(self.on_disk(path), b"kept")
        r = callback({**body, "token": sign(body)})
        self.assertEqual(r.json, {"error": 0})


if __name__ == "__main__":
    unittest.main()
