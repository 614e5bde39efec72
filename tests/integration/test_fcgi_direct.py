"""dozor-fcgi's own limits, reached on its socket past nginx (nginx's stricter limits hide them):
the body limit answers 413 without reading the body, and the answer is a whole FastCGI reply."""

import unittest

import dozor_client as dc
import fcgi_client


class FcgiDirectTest(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        cls.sock = str(dc.STATE_DIR / "run" / "fcgi.sock")
        try:
            fcgi_client.request(cls.sock, "GET", "/api/health")
        except OSError as e:
            raise unittest.SkipTest("no FastCGI socket at %s: %s" % (cls.sock, e))

    def test_health_answers_directly(self):
        a = fcgi_client.request(self.sock, "GET", "/api/health")
        self.assertEqual(a.status, 200, a.body)
        self.assertIn(b'"status"', a.body)

    def test_body_over_max_body_is_413_from_the_backend(self):
        limit = int(dc.config_value("server", "max_body", 1 << 20))
        a = fcgi_client.request(self.sock, "POST", "/api/auth/login", body=b"{}", content_length=limit + 1)
        self.assertEqual(a.status, 413, a.body)
        self.assertIn(b"too large", a.body.lower())

    def test_body_of_exactly_max_body_is_read(self):
        limit = int(dc.config_value("server", "max_body", 1 << 20))
        body = b'{"username": "x", "password": "' + b"a" * (limit - 33) + b'"}'
        self.assertEqual(len(body), limit)
        a = fcgi_client.request(self.sock, "POST", "/api/auth/login", body=body)
        self.assertNotEqual(a.status, 413, a.body)
        self.assertIn(a.status, (401, 422, 429), a.body)

    def test_a_body_shorter_than_its_content_length_is_400_not_500(self):
        a = fcgi_client.request(self.sock, "POST", "/api/auth/login", body=b'{"username": "x"}', content_length=500)
        self.assertEqual(a.status, 400, a.body)
        self.assertIn(b"detail", a.body)

    def test_api_answers_are_not_cached(self):
        a = fcgi_client.request(self.sock, "GET", "/api/health")
        self.assertEqual(a.headers.get("cache-control"), "no-store", a.headers)


if __name__ == "__main__":
    unittest.main()
