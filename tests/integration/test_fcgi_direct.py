"""dozor-fcgi's own limits, reached on its socket past nginx (nginx's stricter limits hide them):
the body limit answers 413 without reading the body, and the answer is a whole FastCGI reply.
And who may speak on the sockets: a request without nginx's key (DOZOR_NGINX_KEY) is refused by
dozor-fcgi and by the analyzer, whatever REMOTE_ADDR or caller it claims (docs/install.md
"The FastCGI sockets")."""

import json
import os
import unittest

import dozor_client as dc
import fcgi_client


def as_nginx(sock, method, uri, **kw):
    """A request as nginx sends it: with nginx's key."""
    return fcgi_client.request(sock, method, uri, params={"DOZOR_NGINX_KEY": dc.nginx_key()}, **kw)


class FcgiDirectTest(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        cls.sock = str(dc.STATE_DIR / "run" / "fcgi.sock")
        try:
            as_nginx(cls.sock, "GET", "/api/health")
        except OSError as e:
            raise unittest.SkipTest("no FastCGI socket at %s: %s" % (cls.sock, e))

    def test_health_answers_directly(self):
        a = as_nginx(self.sock, "GET", "/api/health")
        self.assertEqual(a.status, 200, a.body)
        self.assertIn(b'"status"', a.body)

    def test_body_over_max_body_is_413_from_the_backend(self):
        limit = int(dc.config_value("server", "max_body", 1 << 20))
        a = as_nginx(self.sock, "POST", "/api/auth/login", body=b"{}", content_length=limit + 1)
        self.assertEqual(a.status, 413, a.body)
        self.assertIn(b"too large", a.body.lower())

    def test_body_of_exactly_max_body_is_read(self):
        limit = int(dc.config_value("server", "max_body", 1 << 20))
        body = b'{"username": "x", "password": "' + b"a" * (limit - 33) + b'"}'
        self.assertEqual(len(body), limit)
        a = as_nginx(self.sock, "POST", "/api/auth/login", body=body)
        self.assertNotEqual(a.status, 413, a.body)
        self.assertIn(a.status, (401, 422, 429), a.body)

    def test_a_body_shorter_than_its_content_length_is_400_not_500(self):
        a = as_nginx(self.sock, "POST", "/api/auth/login", body=b'{"username": "x"}', content_length=500)
        self.assertEqual(a.status, 400, a.body)
        self.assertIn(b"detail", a.body)

    def test_api_answers_are_not_cached(self):
        a = as_nginx(self.sock, "GET", "/api/health")
        self.assertEqual(a.headers.get("cache-control"), "no-store", a.headers)


class ForgedCallerTest(dc.DozorTestCase):
    """Anything that can write to a socket (production: any www-data process) is not nginx."""

    @classmethod
    def setUpClass(cls):
        cls.sock = str(dc.STATE_DIR / "run" / "fcgi.sock")
        cls.analyzer_sock = dc.stack_config().get("analyzer", {}).get("socket", str(dc.STATE_DIR / "run" / "analyzer.sock"))
        if not os.path.exists(cls.sock):
            raise unittest.SkipTest("no FastCGI socket at %s" % cls.sock)

    def test_dozor_fcgi_refuses_a_request_without_nginx_key(self):
        # /monitoring/ is for internal addresses, which nginx checks; a forger claims one.
        for params in ({"REMOTE_ADDR": "127.0.0.1"}, {"REMOTE_ADDR": "127.0.0.1", "DOZOR_NGINX_KEY": ""},
                       {"REMOTE_ADDR": "127.0.0.1", "DOZOR_NGINX_KEY": "0" * len(dc.nginx_key())},
                       {"REMOTE_ADDR": "127.0.0.1", "DOZOR_NGINX_KEY": dc.nginx_key()[:-1]},
                       {"DOZOR_NGINX_KEY": dc.nginx_key("analyzer")}):
            with self.subTest(params=params):
                for uri in ("/monitoring/health", "/api/health"):
                    a = fcgi_client.request(self.sock, "GET", uri, params=params)
                    self.assertEqual(a.status, 403, a.body)
                    self.assertEqual(json.loads(a.body)["detail"],
                                     "Forbidden: only nginx may send requests to this socket")
        # The same request with nginx's key is served.
        a = as_nginx(self.sock, "GET", "/monitoring/health")
        self.assertIn(a.status, (200, 503), a.body)
        self.assertIn(b'"web"', a.body)

    def test_a_forged_login_address_is_refused(self):
        # REMOTE_ADDR is what login throttling counts by: a forger must not pick a fresh one.
        a = fcgi_client.request(self.sock, "POST", "/api/auth/login", body=b'{"username":"admin","password":"x"}',
                                params={"REMOTE_ADDR": "203.0.113.9"})
        self.assertEqual(a.status, 403, a.body)

    def test_the_analyzer_refuses_a_forged_admin_caller(self):
        if not os.path.exists(self.analyzer_sock):
            self.skipTest("no analyzer socket at %s" % self.analyzer_sock)
        forged = {"DOZOR_CALLER_ID": "1", "DOZOR_CALLER_ADMIN": "1"}
        body = "Иванов Иван Иванович, паспорт 4510 123456".encode("utf-8")
        for extra in ({}, {"DOZOR_NGINX_KEY": dc.nginx_key()}, {"DOZOR_NGINX_KEY": "x" * 64}):
            with self.subTest(extra=list(extra)):
                a = fcgi_client.request(self.analyzer_sock, "POST", "/api/v1/analyze?reveal=true", body=body,
                                        headers={"Content-Type": "text/plain"}, params={**forged, **extra})
                self.assertEqual(a.status, 403, a.body)
                self.assertNotIn("4510".encode(), a.body)
        # nginx's own key with the caller nginx established is served (the analyzer's key, not
        # dozor-fcgi's: a worker taken over by a document cannot pass as nginx to dozor-fcgi).
        a = fcgi_client.request(self.analyzer_sock, "GET", "/health",
                                params={"DOZOR_NGINX_KEY": dc.nginx_key("analyzer")})
        self.assertIn(a.status, (200, 503), a.body)
        self.assertNotEqual(dc.nginx_key("analyzer"), dc.nginx_key())


if __name__ == "__main__":
    unittest.main()
