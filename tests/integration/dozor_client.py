"""Shared helpers for Dozor's black-box integration tests (Python 3 stdlib only).

The tests talk HTTPS to nginx in front of dozor-fcgi and MariaDB, exactly as a client
would. The stack is described by environment variables set by ``scripts/test``:

  DOZOR_TEST_BASE_URL        https://127.0.0.1:18443
  DOZOR_TEST_HTTP_URL        http://127.0.0.1:18080 (redirects to HTTPS)
  DOZOR_TEST_STATE           state directory (dozor.toml, jwt.key, run/*.pid, log/)
  DOZOR_TEST_STACKCTL        path of scripts/stackctl
  DOZOR_TEST_ADMIN_PASSWORD  password of the first admin ``admin``
  DOZOR_TEST_BIN_DIR         directory holding dozorctl and dozor-fcgi

Without DOZOR_TEST_BASE_URL the helpers fall back to the development stack that
``scripts/run --detach`` brings up in ``var/`` (https://127.0.0.1:8443).

Every user a test creates gets a unique name and is deleted again by a cleanup, so the
suite can run again and again on the same database.
"""

from __future__ import annotations

import base64
import datetime as _dt
import hashlib
import hmac
import http.client
import http.server
import json
import os
import re
import secrets
import socket
import ssl
import struct
import subprocess
import sys
import threading
import time
import tomllib
import unittest
import urllib.parse
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
_DEV_STATE = REPO / "var"

sys.path.insert(0, str(REPO / "tests" / "fixtures"))
from loopback_http import LoopbackHttp  # noqa: E402  (the server under every fixture)


def _env(name: str, default: str | None = None) -> str | None:
    value = os.environ.get(name)
    return value if value else default


if _env("DOZOR_TEST_BASE_URL"):
    BASE_URL = _env("DOZOR_TEST_BASE_URL")
    HTTP_URL = _env("DOZOR_TEST_HTTP_URL", "http://127.0.0.1:18080")
    STATE_DIR = Path(_env("DOZOR_TEST_STATE", str(REPO / "build" / "test-stack")))
else:  # development stack of scripts/run
    BASE_URL = "https://127.0.0.1:" + _env("DOZOR_HTTPS_PORT", "8443")
    HTTP_URL = "http://127.0.0.1:" + _env("DOZOR_HTTP_PORT", "8080")
    STATE_DIR = Path(_env("DOZOR_TEST_STATE", str(_DEV_STATE)))
# The version the binaries report (project(VERSION) in CMakeLists.txt).
VERSION = re.search(r"project\(dozor VERSION ([0-9.]+)", (REPO / "CMakeLists.txt").read_text()).group(1)
STACKCTL = _env("DOZOR_TEST_STACKCTL", str(REPO / "scripts" / "stackctl"))
BIN_DIR = Path(_env("DOZOR_TEST_BIN_DIR", str(REPO / "build" / "release")))


def _admin_password() -> str:
    pw = _env("DOZOR_TEST_ADMIN_PASSWORD")
    if pw:
        return pw
    f = STATE_DIR / "admin-password"
    try:
        return f.read_text().strip()
    except OSError as e:
        raise RuntimeError(
            "DOZOR_TEST_ADMIN_PASSWORD is not set and %s is unreadable: %s" % (f, e)
        ) from e


ADMIN_USER = "admin"
ADMIN_PASSWORD = _admin_password()

REQUEST_TIMEOUT = 40.0  # seconds; a check may take monitor.timeout (10 s) and more under ASan

_SSL = ssl.create_default_context()
_SSL.check_hostname = False
_SSL.verify_mode = ssl.CERT_NONE  # the stack uses a self-signed certificate

_UNSET = object()


# --------------------------------------------------------------------------- config


def stack_config() -> dict:
    """The stack's dozor.toml (empty dict when it cannot be read)."""
    try:
        with open(STATE_DIR / "dozor.toml", "rb") as f:
            return tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError):
        return {}


def db_query(query: str) -> list[list[str]]:
    """Runs SQL on the stack's database as its admin (unix-socket auth); rows as lists of text.
    For tests that must see or seed what the API does not show."""
    db = stack_config().get("database", {}).get("name", "dozor")
    r = subprocess.run(
        ["mariadb", "--no-defaults", "--socket=%s" % (STATE_DIR / "run" / "mysqld.sock"), "--batch",
         "--skip-column-names", db, "-e", query],
        capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        raise RuntimeError("SQL failed: %s\n%s" % (query, r.stderr))
    return [line.split("\t") for line in r.stdout.splitlines()]


def oast_url() -> str:
    """nginx's listener for out-of-band interactions (scanner.oast_base_url of the stack:
    /oast/ only, plain HTTP; docs/scan.md "XXE and SSRF")."""
    return _env("DOZOR_TEST_OAST_URL") or config_value("scanner", "oast_base_url", "")


def config_value(section: str, key: str, default):
    """A config value as the server sees it: DOZOR_<SECTION>_<KEY> overrides the file."""
    env = os.environ.get("DOZOR_%s_%s" % (section.upper(), key.upper()))
    if env is not None and env != "":
        if isinstance(default, bool):
            return env.strip().lower() in ("1", "true", "yes", "on")
        if isinstance(default, int):
            return int(env)
        return env
    return stack_config().get(section, {}).get(key, default)


# --------------------------------------------------------------------------- HTTP


class Response:
    def __init__(self, status: int, reason: str, headers, body: bytes, method: str, url: str):
        self.status = status
        self.reason = reason
        self.headers = headers  # http.client.HTTPMessage (case-insensitive get/get_all)
        self.body = body
        self.method = method
        self.url = url
        self._json = _UNSET

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    @property
    def json(self):
        """The parsed body, or None when it is not JSON."""
        if self._json is _UNSET:
            try:
                self._json = json.loads(self.body.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                self._json = None
        return self._json

    def header(self, name: str) -> str | None:
        return self.headers.get(name)

    def header_all(self, name: str) -> list[str]:
        return self.headers.get_all(name) or []

    def __repr__(self) -> str:
        body = self.text
        if len(body) > 600:
            body = body[:600] + "...(%d bytes)" % len(self.body)
        return "<%s %s -> %d %s %r>" % (self.method, self.url, self.status, self.reason, body)


def _connection(base: str, timeout: float, source: str | None = None):
    """``source``: a loopback address to connect from (127.0.0.2, ...), so a test can be a
    client of its own for the login throttle and nginx's per-address limit."""
    u = urllib.parse.urlsplit(base)
    src = (source, 0) if source else None
    if u.scheme == "https":
        return http.client.HTTPSConnection(u.hostname, u.port or 443, timeout=timeout, context=_SSL,
                                           source_address=src)
    return http.client.HTTPConnection(u.hostname, u.port or 80, timeout=timeout, source_address=src)


_source_counter = iter(range(1, 1 << 20))
_source_lock = threading.Lock()


def fresh_source() -> str:
    """A loopback source address no other test of this process uses (127.77.x.y); Linux
    routes all of 127.0.0.0/8 to lo, so a socket may bind any of them."""
    with _source_lock:
        n = next(_source_counter) + (os.getpid() % 200) * 1000
    return "127.77.%d.%d" % ((n // 250) % 250 + 1, n % 250 + 1)


# nginx limits POST /api/auth/login per client address (10 r/s, burst 20). All tests come
# from 127.0.0.1, so login requests are paced below that rate; the app's own per-account
# throttling (429 with Retry-After) is what the tests assert, never nginx's brake.
LOGIN_PACE = 0.125  # seconds between login requests
_login_lock = threading.Lock()
_last_login = [0.0]


def _pace_login():
    with _login_lock:
        wait = _last_login[0] + LOGIN_PACE - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        _last_login[0] = time.monotonic()


def request(
    method: str,
    path: str,
    *,
    json_body=_UNSET,
    data: bytes | str | None = None,
    token: str | None = None,
    headers: dict | None = None,
    base: str | None = None,
    timeout: float = REQUEST_TIMEOUT,
    pace: bool = True,
    source: str | None = None,
) -> Response:
    """One request on a fresh connection. ``json_body`` is serialised; ``data`` is sent raw."""
    base = base or BASE_URL
    if pace and source is None and method == "POST" and path.rstrip("/").endswith("/auth/login"):
        _pace_login()
    hdrs = {"Accept": "application/json", "Connection": "close"}
    body = None
    if json_body is not _UNSET:
        body = json.dumps(json_body).encode("utf-8")
        hdrs["Content-Type"] = "application/json"
    elif data is not None:
        body = data.encode("utf-8") if isinstance(data, str) else data
        hdrs["Content-Type"] = "application/json"
    if token is not None:
        hdrs["Authorization"] = "Bearer " + token
    if headers:
        hdrs.update(headers)
    hdrs = {k: v for k, v in hdrs.items() if v is not None}
    if method in ("POST", "PUT", "PATCH") and body is None:
        hdrs.setdefault("Content-Length", "0")
    conn = _connection(base, timeout, source)
    try:
        try:
            conn.request(method, path, body=body, headers=hdrs)
        except (BrokenPipeError, ConnectionResetError, ssl.SSLEOFError):
            # The server may answer (e.g. 413) and close before the whole body is sent;
            # the answer is still readable.
            pass
        r = conn.getresponse()
        payload = r.read()
        return Response(r.status, r.reason, r.headers, payload, method, base + path)
    finally:
        conn.close()


def get(path, **kw):
    return request("GET", path, **kw)


def post(path, json_body=_UNSET, **kw):
    return request("POST", path, json_body=json_body, **kw)


def put(path, json_body=_UNSET, **kw):
    return request("PUT", path, json_body=json_body, **kw)


def delete(path, **kw):
    return request("DELETE", path, **kw)


# --------------------------------------------------------------------------- auth


DEVICE_COOKIE = "__Host-dozor_device"
# Device cookies the helpers received, per username, sent back as a browser would: the whole
# suite logs in from 127.0.0.1, and a client that logged in before is never stopped by the
# login throttle (docs/login.md).
_device_cookies: dict[str, str] = {}


def device_cookie_of(r: Response) -> str | None:
    """The value of the device cookie a login answer sets, or None."""
    for line in r.header_all("Set-Cookie"):
        name, _, rest = line.partition("=")
        if name.strip() == DEVICE_COOKIE:
            return rest.split(";", 1)[0]
    return None


def login(username: str, password: str, *, device: str | None = None, source: str | None = None) -> Response:
    headers = {"Cookie": "%s=%s" % (DEVICE_COOKIE, device)} if device else None
    return post("/api/auth/login", {"username": username, "password": password}, headers=headers, source=source)


def login_token(username: str, password: str) -> str:
    """Log in (helper use, not under test). nginx rate-limits /api/auth/login per client
    address (429, Retry-After); the helper waits and retries a bounded number of times."""
    last = None
    for attempt in range(8):
        last = login(username, password, device=_device_cookies.get(username))
        if last.status == 200:
            cookie = device_cookie_of(last)
            if cookie:
                _device_cookies[username] = cookie
            return last.json["access_token"]
        if last.status in (429, 503):
            try:
                wait = float(last.header("Retry-After") or 1)
            except ValueError:
                wait = 1.0
            time.sleep(min(max(wait, 0.2), 3.0))
            continue
        break
    raise AssertionError("login of %r failed: %r" % (username, last))


_admin_token_cache: list[str] = []
_admin_lock = threading.Lock()


def admin_token(refresh: bool = False) -> str:
    with _admin_lock:
        if refresh or not _admin_token_cache:
            _admin_token_cache[:] = [login_token(ADMIN_USER, ADMIN_PASSWORD)]
        return _admin_token_cache[0]


def admin_user_id() -> int:
    r = get("/api/admin/me", token=admin_token())
    assert r.status == 200, r
    return r.json["id"]


_counter = iter(range(1, 1 << 30))
_counter_lock = threading.Lock()
TEST_PREFIX = "it_"


def enc(url: str) -> str:
    """A target URL as one path segment ({target_url} percent-encoded whole, slashes included)."""
    return urllib.parse.quote(url, safe="")


def unique_name(tag: str = "u") -> str:
    with _counter_lock:
        n = next(_counter)
    tag = re.sub(r"[^A-Za-z0-9]", "", tag)[:16] or "u"
    return "%s%s_%d_%d_%s" % (TEST_PREFIX, tag, os.getpid() % 100000, n, secrets.token_hex(3))


class User:
    def __init__(self, id: int, username: str, email: str, password: str, is_admin: bool):
        self.id = id
        self.username = username
        self.email = email
        self.password = password
        self.is_admin = is_admin
        self._token = None

    @property
    def token(self) -> str:
        if self._token is None:
            self._token = login_token(self.username, self.password)
        return self._token

    def relogin(self) -> str:
        self._token = login_token(self.username, self.password)
        return self._token

    def __repr__(self):
        return "<User %s #%s admin=%s>" % (self.username, self.id, self.is_admin)


def create_user(tag: str = "u", *, is_admin: bool = False, password: str | None = None,
                scan_grant: bool = False) -> User:
    """A new user; ``scan_grant`` lets them actively scan any target (the fixtures are no services of
    theirs: docs/scan.md "Who may scan what")."""
    username = unique_name(tag)
    email = username.replace("_", "-") + "@example.com"
    password = password or ("Pw-" + secrets.token_urlsafe(12))
    r = post(
        "/api/admin/users",
        {"username": username, "email": email, "password": password, "is_admin": is_admin},
        token=admin_token(),
    )
    if r.status != 200 or not isinstance(r.json, dict) or "id" not in r.json:
        raise AssertionError("creating user %s failed: %r" % (username, r))
    if scan_grant:
        g = put("/api/admin/users/%d/scan-grant" % r.json["id"], token=admin_token())
        if g.status != 200:
            raise AssertionError("granting scans to %s failed: %r" % (username, g))
    return User(r.json["id"], username, email, password, is_admin)


def mark_verified(user_id: int, url: str) -> None:
    """Records, straight in the database, that the user proved control of the host of ``url`` (docs/scan.md
    "Proof of control"): for tests whose subject is not the proof itself (test_scan_scope proves it over HTTP)."""
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname
    origin = "%s://%s:%d" % (parts.scheme, host, parts.port or (443 if parts.scheme == "https" else 80))
    db_query("INSERT INTO scan_verifications (user_id, host, origin, token, method, scope, created_at, checked_at,"
             " verified_at, expires_at) VALUES (%d, '%s', '%s', 'seeded-by-test', 'http', 'host', NOW(3), NOW(3),"
             " NOW(3), NOW(3) + INTERVAL 1 DAY)" % (user_id, host, origin))


def delete_user(user_id: int) -> None:
    r = delete("/api/admin/users/%d" % user_id, token=admin_token())
    if r.status not in (200, 404):
        raise AssertionError("cleanup: deleting user %d failed: %r" % (user_id, r))


# --------------------------------------------------------------------------- FastCGI


def fcgi_socket() -> str:
    return stack_config().get("server", {}).get("socket", str(STATE_DIR / "run" / "fcgi.sock"))


def nginx_key(section: str = "server") -> str:
    """The key nginx sends to dozor-fcgi ("server") or the analyzer ("analyzer") as
    DOZOR_NGINX_KEY (docs/install.md "The FastCGI sockets"): the tests speak as nginx does."""
    default = {"server": "nginx-fcgi.key", "analyzer": "nginx-analyzer.key"}[section]
    path = stack_config().get(section, {}).get("nginx_key_file", str(STATE_DIR / default))
    return Path(path).read_text().splitlines()[0].strip()


def fcgi_request(method: str, path: str, *, json_body=_UNSET, remote_addr: str = "127.0.0.1",
                 headers: dict | None = None, timeout: float = REQUEST_TIMEOUT,
                 key: str | None = _UNSET) -> Response:
    """One request straight to dozor-fcgi's socket, as nginx would send it (with nginx's key,
    unless ``key`` says otherwise: None sends none), with any REMOTE_ADDR: the way to be an IPv6
    client, or many clients, on a loopback-only machine. Bypasses nginx (and its rate limits)
    on purpose."""
    body = b"" if json_body is _UNSET else json.dumps(json_body).encode("utf-8")
    params = {
        "REQUEST_METHOD": method, "REQUEST_URI": path, "REMOTE_ADDR": remote_addr, "HTTPS": "on",
        "CONTENT_LENGTH": str(len(body)), "CONTENT_TYPE": "application/json" if body else "",
        "SERVER_PROTOCOL": "HTTP/1.1",
    }
    key = nginx_key() if key is _UNSET else key
    if key is not None:
        params["DOZOR_NGINX_KEY"] = key
    for k, v in (headers or {}).items():
        params["HTTP_" + k.upper().replace("-", "_")] = v

    def record(kind: int, content: bytes) -> bytes:
        return struct.pack(">BBHHBx", 1, kind, 1, len(content), 0) + content

    def length(n: int) -> bytes:
        return bytes([n]) if n < 128 else struct.pack(">I", n | 0x80000000)

    pairs = b"".join(length(len(k.encode())) + length(len(v.encode())) + k.encode() + v.encode()
                     for k, v in params.items())
    out = record(1, struct.pack(">HB5x", 1, 0))  # BEGIN_REQUEST, responder, close after
    out += record(4, pairs) + record(4, b"")
    for i in range(0, len(body), 65535):
        out += record(5, body[i:i + 65535])
    out += record(5, b"")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(fcgi_socket())
        sock.sendall(out)
        data = b""
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    finally:
        sock.close()
    stdout = b""
    pos = 0
    while pos + 8 <= len(data):
        _, kind, _, clen, plen = struct.unpack(">BBHHBx", data[pos:pos + 8])
        if kind == 6:
            stdout += data[pos + 8:pos + 8 + clen]
        pos += 8 + clen + plen
    head, _, payload = stdout.partition(b"\r\n\r\n")
    msg = http.client.HTTPMessage()
    status, reason = 200, "OK"
    for line in head.decode("latin-1").split("\r\n"):
        name, _, value = line.partition(":")
        if name.lower() == "status":
            code, _, reason = value.strip().partition(" ")
            status = int(code)
        elif name:
            msg[name.strip()] = value.strip()
    return Response(status, reason, msg, payload, method, "fcgi:" + path)


# --------------------------------------------------------------------------- JWT


def b64url_encode(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def jwt_parts(token: str) -> tuple[dict, dict, bytes]:
    h, p, s = token.split(".")
    return json.loads(b64url_decode(h)), json.loads(b64url_decode(p)), b64url_decode(s)


def jwt_encode(header: dict, payload: dict, key: bytes | None, signature: bytes | None = None) -> str:
    head = b64url_encode(json.dumps(header, separators=(",", ":")).encode())
    body = b64url_encode(json.dumps(payload, separators=(",", ":")).encode())
    signing_input = (head + "." + body).encode("ascii")
    if signature is None:
        signature = hmac.new(key, signing_input, hashlib.sha256).digest() if key is not None else b""
    return head + "." + body + "." + b64url_encode(signature)


def jwt_signing_key(sample_token: str) -> bytes:
    """The HS256 key from $DOZOR_TEST_STATE/jwt.key, in whatever encoding the file uses:
    the candidate that reproduces a token issued by the server wins."""
    path = STATE_DIR / "jwt.key"
    raw = path.read_bytes()
    candidates = [raw, raw.strip()]
    stripped = raw.strip()
    try:
        candidates.append(bytes.fromhex(stripped.decode("ascii")))
    except ValueError:
        pass
    for decoder in (base64.b64decode, base64.urlsafe_b64decode):
        try:
            candidates.append(decoder(stripped + b"=" * (-len(stripped) % 4)))
        except (ValueError, TypeError):
            pass
    h, p, s = sample_token.split(".")
    sig = b64url_decode(s)
    for key in candidates:
        if hmac.compare_digest(hmac.new(key, (h + "." + p).encode(), hashlib.sha256).digest(), sig):
            return key
    raise AssertionError("no reading of %s reproduces the server's token signature" % path)


# --------------------------------------------------------------------------- processes


def master_pid() -> int:
    return int((STATE_DIR / "run" / "dozor-fcgi.pid").read_text().strip())


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # a zombie still answers kill(0)
    try:
        stat = Path("/proc/%d/stat" % pid).read_text()
        return stat.rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def child_pids(pid: int) -> set[int]:
    """Live child processes of pid (from /proc, falling back to pgrep -P)."""
    kids: set[int] = set()
    task_dir = Path("/proc/%d/task" % pid)
    try:
        for t in task_dir.iterdir():
            try:
                kids.update(int(x) for x in (t / "children").read_text().split())
            except OSError:
                pass
    except OSError:
        pass
    if not kids:
        out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True, timeout=10)
        kids.update(int(x) for x in out.stdout.split())
    return {k for k in kids if pid_alive(k)}


def worker_pids() -> set[int]:
    return child_pids(master_pid())


def thread_count(pid: int) -> int:
    try:
        return len(list(Path("/proc/%d/task" % pid).iterdir()))
    except OSError:
        return 0


def stackctl(*args: str, timeout: float = 180) -> subprocess.CompletedProcess:
    r = subprocess.run(
        [STACKCTL, str(STATE_DIR), *args], capture_output=True, text=True, timeout=timeout
    )
    if r.returncode != 0:
        raise AssertionError(
            "stackctl %s failed (%d):\n%s\n%s" % (" ".join(args), r.returncode, r.stdout, r.stderr)
        )
    return r


def start_dozord(test: unittest.TestCase, name: str, env: dict | None = None) -> subprocess.Popen:
    """A dozord of the test's own on the stack's config (log: log/dozord-<name>.log), with extra
    environment (config overrides such as DOZOR_TASKS_RUNNERS); stopped when the test ends."""
    log = open(STATE_DIR / "log" / ("dozord-%s.log" % name), "ab")
    proc = subprocess.Popen([str(BIN_DIR / "dozord"), "--config", str(STATE_DIR / "dozor.toml")],
                            stdout=log, stderr=log, env=dict(os.environ, **(env or {})), start_new_session=True)
    test.addCleanup(lambda: (proc.poll() is None and proc.terminate(), proc.wait(), log.close()))
    return proc


def wait_until(predicate, timeout: float, interval: float = 0.2):
    """Poll predicate() until it returns a truthy value or timeout passes; returns the last value."""
    deadline = time.monotonic() + timeout
    value = predicate()
    while not value and time.monotonic() < deadline:
        time.sleep(interval)
        value = predicate()
    return value


# --------------------------------------------------------------------------- fixtures


class AnyPath(dict):
    """FixtureServer routes that answer every path with one route (a catch-all site)."""

    def __init__(self, route):
        super().__init__()
        self.route = route

    def get(self, key, default=None):
        return self.route


class FixtureServer(LoopbackHttp):
    """A local HTTP target on 127.0.0.1. ``routes`` maps a path to (status, headers, body)
    or to a callable(handler) returning that tuple. Requests are recorded."""

    methods = ("GET", "HEAD", "POST", "OPTIONS")  # OPTIONS: CORS preflights of the audit

    def __init__(self, routes: dict):
        self.routes = routes
        super().__init__()

    def answer(self, handler, body: bytes):
        route = self.routes.get(handler.path.split("?", 1)[0])
        if route is None:
            return 404, [], b"not found"
        status, headers, body = route(handler) if callable(route) else route
        return status, list(headers.items()), body


class TlsFixtureServer(FixtureServer):
    """FixtureServer over HTTPS with the stack's self-signed certificate (untrusted by design)."""

    def __init__(self, routes: dict):
        super().__init__(routes)
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(STATE_DIR / "tls" / "cert.pem", STATE_DIR / "tls" / "key.pem")
        self.httpd.socket = ctx.wrap_socket(self.httpd.socket, server_side=True)

    def url(self, path: str = "/") -> str:
        return "https://127.0.0.1:%d%s" % (self.port, path)


class TcpListener:
    """A bare TCP listener that records connections (and closes them at once)."""

    def __init__(self):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except (socket.timeout, OSError):
                continue
            self.connections += 1
            conn.close()

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(timeout=5)
        self.sock.close()


def closed_port() -> int:
    """A loopback TCP port with nothing listening (bound, then released)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


# --------------------------------------------------------------------------- assertions


USER_FIELDS = {"id", "username", "email", "is_active", "is_admin", "created_at"}
SERVICE_FIELDS = {
    "id", "name", "url", "check_interval", "is_active",
    "last_status", "last_response_time", "last_checked_at",
    # additive (issue 7): grouping, the monitor's debounced view and the check options
    "group_id", "state", "down_since", "last_error", "cert_expires_at",
    "method", "expected_status", "keyword", "keyword_absent", "slow_ms",
    # additive (issue 28 §5): a failed check not yet confirmed, and when dozord checks next
    "pending", "next_check_at",
}
GROUP_FIELDS = {"id", "name", "description", "color", "services_count",
                # additive (issue 7 §4): the group's public status page
                "status_slug", "status_public", "status_show_urls", "status_announcement",
                # additive (issue 28 §1): the page's public title (the name when null)
                "status_title"}
ONESHOT_FIELDS = {"service_id", "checked_at", "is_available", "status_code", "response_time_ms", "error"}
SECRET_KEY_RE = re.compile(r"pass|hash|secret|salt", re.I)


def parse_datetime(text: str) -> _dt.datetime:
    t = text.replace("Z", "+00:00") if text.endswith("Z") else text
    return _dt.datetime.fromisoformat(t)


class DozorTestCase(unittest.TestCase):
    maxDiff = None

    # --- users that clean up after themselves
    def new_user(self, tag: str = "u", *, is_admin: bool = False, password: str | None = None) -> User:
        u = create_user(tag, is_admin=is_admin, password=password)
        self.addCleanup(delete_user, u.id)
        return u

    def new_service(self, user: User, *, prefix: str = "/api/v1", **fields) -> dict:
        body = {"name": unique_name("svc"), "url": "http://127.0.0.1:9/x"}
        body.update(fields)
        r = post(prefix + "/services", body, token=user.token)
        self.assertEqual(r.status, 200, r)
        return r.json

    # --- shape assertions
    def assertReplayableEvidence(self, findings: list, methods: str = "GET|PUT|DELETE|TRACE|POST"):
        """Every finding of an active scan carries evidence: the exact exchange, an excerpt and a
        curl command that repeats the request (docs/scan.md)."""
        for f in findings:
            self.assertTrue(f["evidence"], f)
            for e in f["evidence"]:
                ex = e["exchange"]
                self.assertIsNotNone(ex, f)
                self.assertTrue(e["replay"].startswith("curl -i -s "), e)
                self.assertIn(e["url"].replace("'", "'\\''"), e["replay"])
                self.assertTrue(e["excerpt"], f)
                self.assertRegex(ex["request_line"], r"^(%s) /" % methods)
                self.assertTrue(ex["status_line"].startswith("HTTP/1."))

    def assertJsonContentType(self, r: Response):
        ct = (r.header("Content-Type") or "").lower()
        self.assertTrue(ct.startswith("application/json"), "Content-Type %r of %r" % (ct, r))

    def assertDetail(self, r: Response, status: int, detail: str | None = None):
        self.assertEqual(r.status, status, r)
        self.assertJsonContentType(r)
        self.assertIsInstance(r.json, dict, r)
        self.assertIsInstance(r.json.get("detail"), str, r)
        if detail is not None:
            self.assertEqual(r.json["detail"], detail, r)

    def assertUnauthenticated(self, r: Response):
        self.assertDetail(r, 401, "Not authenticated")
        www = r.header("WWW-Authenticate") or ""
        self.assertTrue(www.lower().startswith("bearer"), "WWW-Authenticate %r of %r" % (www, r))

    def assertValidation(self, r: Response, expected: list[tuple[str, list]]) -> list[dict]:
        """422 in pydantic v2 shape holding at least the (type, loc) pairs in ``expected``."""
        self.assertEqual(r.status, 422, r)
        self.assertJsonContentType(r)
        self.assertIsInstance(r.json, dict, r)
        detail = r.json.get("detail")
        self.assertIsInstance(detail, list, r)
        self.assertTrue(detail, r)
        for item in detail:
            self.assertIsInstance(item, dict, r)
            for key in ("type", "loc", "msg", "input"):
                self.assertIn(key, item, "validation error without %r: %r" % (key, r))
            self.assertIsInstance(item["type"], str, r)
            self.assertIsInstance(item["msg"], str, r)
            self.assertTrue(item["msg"], r)
            self.assertIsInstance(item["loc"], list, r)
            for part in item["loc"]:
                self.assertIsInstance(part, (str, int), r)
        got = [(d["type"], d["loc"]) for d in detail]
        for typ, loc in expected:
            self.assertIn((typ, loc), got, "expected %s at %s in %r" % (typ, loc, r))
        return detail

    def assertValidationLoc(self, r: Response, loc: list) -> dict:
        """422 with an error at ``loc`` whatever its type; returns that error."""
        self.assertValidation(r, [])
        for item in r.json["detail"]:
            if item["loc"] == loc:
                return item
        self.fail("no validation error at %s in %r" % (loc, r))

    def assertUserResponse(self, obj):
        self.assertIsInstance(obj, dict)
        self.assertEqual(set(obj), USER_FIELDS, obj)
        self.assertIsInstance(obj["id"], int)
        self.assertIsInstance(obj["username"], str)
        self.assertIsInstance(obj["email"], str)
        self.assertIsInstance(obj["is_active"], bool)
        self.assertIsInstance(obj["is_admin"], bool)
        if obj["created_at"] is not None:
            self.assertTrue(obj["created_at"].endswith("Z"), obj)
            parse_datetime(obj["created_at"])

    def assertServiceResponse(self, obj):
        self.assertIsInstance(obj, dict)
        self.assertEqual(set(obj), SERVICE_FIELDS, obj)
        self.assertIsInstance(obj["id"], int)
        self.assertIsInstance(obj["name"], str)
        self.assertIsInstance(obj["url"], str)
        self.assertIsInstance(obj["check_interval"], int)
        self.assertIsInstance(obj["is_active"], bool)
        self.assertIn(obj["last_status"], (None, "up", "down"), obj)
        if obj["last_response_time"] is not None:
            self.assertIsInstance(obj["last_response_time"], int)

    def assertNoSecrets(self, r: Response, *secret_values: str):
        """No key that looks like a password/hash anywhere in the JSON, and no secret text."""

        def walk(v, path):
            if isinstance(v, dict):
                for k, x in v.items():
                    self.assertFalse(SECRET_KEY_RE.search(str(k)), "secret-like key %s.%s in %r" % (path, k, r))
                    walk(x, path + "." + str(k))
            elif isinstance(v, list):
                for i, x in enumerate(v):
                    walk(x, "%s[%d]" % (path, i))

        walk(r.json, "$")
        for s in secret_values:
            self.assertNotIn(s, r.text, "secret value appears in %r" % r)
        self.assertNotIn("$argon2", r.text, r)
