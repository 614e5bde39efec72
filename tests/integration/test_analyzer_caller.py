"""Who calls the analyzer (docs/analyzer.md "Who the caller is"): nginx asks dozor-fcgi about the
bearer token in an auth subrequest and hands the analyzer the caller, so the analyzer holds no
signing key and a token is judged as the API judges it — a deactivated account or an older token
version is refused there too. Through nginx's analyzer listener, like every caller."""

from __future__ import annotations

import os
import subprocess
import time
import unittest

import dozor_client as dc
from dozor_client import DozorTestCase, admin_token, admin_user_id, create_user, delete_user, jwt_encode, \
    jwt_signing_key, put, request

ANALYZER = os.environ.get("DOZOR_TEST_ANALYZER_URL", "http://127.0.0.1:8181")
TEXT = "Сотрудник: Смирнова Анна Сергеевна, СНИЛС 112-233-445 95".encode()


def analyze(token: str | None, query: str = "", headers: dict | None = None):
    h = {"Content-Type": "text/plain", **(headers or {})}
    return request("POST", "/api/v1/analyze" + query, data=TEXT, token=token, base=ANALYZER, headers=h, timeout=60)


def installation_token(user_id: int, *, admin: bool = False) -> str:
    # What Dozor's own processes sign for a user (engines/analyzer/remote.cpp token_for).
    now = int(time.time())
    return jwt_encode({"alg": "HS256", "typ": "JWT"},
                      {"sub": str(user_id), "name": "dozor-audit", "adm": admin, "iat": now, "exp": now + 300, "ver": -1},
                      jwt_signing_key(admin_token()))


class AnalyzerCallerTest(DozorTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not dc.get("/health", base=ANALYZER).json.get("ready"):
            time.sleep(0.2)

    def test_a_deactivated_account_or_an_old_token_is_refused_by_the_analyzer(self):
        u = create_user("ancaller")
        self.addCleanup(delete_user, u.id)
        old = u.token
        self.assertEqual(analyze(old).status, 200)
        # A password change bumps the token version: the old token is refused, a new one works.
        new_password = "Pw-Zq8#-Lm4%-Tx9&"  # not a repeat: the password policy refuses "Zq8#" * 4
        r = put("/api/admin/users/%d" % u.id, {"password": new_password}, token=admin_token())
        self.assertEqual(r.status, 200, r)
        self.assertUnauthenticated(analyze(old))
        u.password = new_password
        fresh = u.relogin()
        self.assertEqual(analyze(fresh).status, 200)
        r = put("/api/admin/users/%d" % u.id, {"is_active": False}, token=admin_token())
        self.assertEqual(r.status, 200, r)
        self.assertUnauthenticated(analyze(fresh))
        # Dozor's own token for that user is refused too once the account is off.
        self.assertUnauthenticated(analyze(installation_token(u.id)))

    def test_headers_a_client_sends_are_never_the_caller(self):
        forged = {"X-Dozor-Caller-Id": str(admin_user_id()), "X-Dozor-Caller-Admin": "1"}
        self.assertUnauthenticated(analyze(None, headers=forged))
        u = create_user("anforge")
        self.addCleanup(delete_user, u.id)
        r = analyze(u.token, query="?reveal=true", headers=forged)
        self.assertEqual(r.status, 403, r)
        self.assertEqual(analyze(admin_token(), query="?reveal=true").status, 200)

    def test_dozors_own_token_for_a_user_is_accepted_and_never_an_admin(self):
        token = installation_token(admin_user_id(), admin=True)
        self.assertEqual(analyze(token).status, 200)
        self.assertEqual(analyze(token, query="?reveal=true").status, 403)
        forged = jwt_encode({"alg": "HS256", "typ": "JWT"}, {"sub": str(admin_user_id()), "name": "x", "adm": True, "iat": 1, "ver": -1, "exp": 4102444800},
                            b"not the installation's key")
        self.assertUnauthenticated(analyze(forged))

    def test_the_analyzer_needs_no_signing_key(self):
        # Nor the database password: the packaged unit hides both files (and the password file is
        # root's alone), so reading either would stop the analyzer at start.
        # Nor dozor-fcgi's nginx key (it reads its own, analyzer.nginx_key_file).
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "DOZOR_AUTH_JWT_SECRET_FILE": "/nonexistent/jwt.key",
               "DOZOR_DATABASE_PASSWORD_FILE": "/nonexistent/database.password",
               "DOZOR_SERVER_NGINX_KEY_FILE": "/nonexistent/nginx-fcgi.key"}
        config = str(dc.STATE_DIR / "dozor.toml")
        r = subprocess.run([str(dc.BIN_DIR / "dozor-analyzer"), "--config", config, "--check-config"],
                           capture_output=True, text=True, timeout=120, env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        # The same override stops dozor-fcgi, which does sign and check tokens.
        r = subprocess.run([str(dc.BIN_DIR / "dozor-fcgi"), "--config", config, "--check-config"],
                           capture_output=True, text=True, timeout=60, env=env)
        self.assertEqual(r.returncode, 78, r.stderr)

    def test_public_routes_need_no_caller_and_unknown_ones_are_404(self):
        for path in ("/health", "/version", "/api/v1/openapi.json"):
            self.assertIn(dc.get(path, base=ANALYZER).status, (200, 503), path)
        self.assertEqual(dc.get("/nope", base=ANALYZER).status, 404)
        self.assertEqual(dc.get("/api/v1/analyze", base=ANALYZER).status, 405)
        self.assertUnauthenticated(analyze("not.a.token"))


if __name__ == "__main__":
    unittest.main()
