"""Issue 26 §7: a 422 echoes the query value it refuses, and the value may hold any bytes. The body
must stay valid UTF-8 JSON: each invalid sequence is echoed as U+FFFD (fcgi/error_mapping.cpp), on
every route that reads a query parameter — one table over all of them."""

import json
import unittest

import dozor_client as dc

T = dc.enc("https://example.com/")
RAW = "%FF%FEx"  # two bytes that are no UTF-8, then a letter
ECHO = "\ufffd\ufffdx"

# (method, path, parameter, admin token?)
ROUTES = [
    ("POST", "/api/v1/kiosk/start", "interval", False),
    ("POST", "/api/kiosk/start", "interval", False),
    ("POST", "/api/security/kiosk/start", "interval", False),
    ("POST", "/api/crawl/" + T, "depth", False),
    ("POST", "/api/security/crawl/" + T, "max_pages", False),
    ("GET", "/api/audit/xxe/" + T, "depth", False),
    ("GET", "/api/audit/ssrf/" + T, "max_pages", False),
    ("POST", "/api/v1/owasp/scan/" + T, "depth", False),
    ("POST", "/api/security/owasp/scan/" + T, "max_pages", False),
    ("GET", "/api/security/owasp/report/" + T, "lang", False),
    ("POST", "/api/v1/audit/" + T, "depth", False),
    ("POST", "/api/audit/full/" + T, "max_pages", False),
    ("GET", "/api/v1/audit/" + T + "/report", "lang", False),
    ("GET", "/api/security/audit/download/" + T, "lang", False),
    ("GET", "/api/v1/compliance/" + T, "profile", False),
    ("GET", "/api/compliance/" + T, "depth", False),
    ("POST", "/api/security/scanner/" + T, "severity", False),
    ("GET", "/api/security/evidence/" + T, "limit", False),
    ("GET", "/api/security/evidence/" + T, "severity", False),
    ("POST", "/api/security/queue/" + T, "task_type", False),
    ("POST", "/api/v1/owasp/schedule/1", "interval_hours", False),
    ("POST", "/api/owasp/schedule/1", "interval_hours", False),
    ("GET", "/api/security/endpoints/" + T, "timeout", False),
    ("POST", "/api/security/api-check/" + T, "max_operations", False),
    ("GET", "/api/v1/services/1/history", "window", False),
    ("GET", "/api/security/tasks", "limit", False),
    ("GET", "/api/security/tasks", "offset", False),
    ("GET", "/api/security/scan-log", "limit", False),
    ("GET", "/api/security/scan-log", "before", False),
    ("GET", "/api/admin/scan-log", "user_id", True),
]


class QueryEchoTest(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = dc.create_user("qecho")

    @classmethod
    def tearDownClass(cls):
        dc.delete_user(cls.user.id)

    def test_every_query_parameter_is_echoed_as_valid_utf8(self):
        names = set()
        for method, path, name, admin in ROUTES:
            names.add(name)
            with self.subTest(route="%s %s ?%s" % (method, path, name)):
                token = dc.admin_token() if admin else self.user.token
                r = dc.request(method, "%s?%s=%s" % (path, name, RAW), token=token, timeout=60)
                self.assertEqual(r.status, 422, r)
                text = r.body.decode("utf-8")  # strict: raw 0xFF would raise here
                items = [d for d in json.loads(text)["detail"] if d["loc"] == ["query", name]]
                self.assertTrue(items, r)
                self.assertIn(ECHO, json.dumps(items[0]["input"], ensure_ascii=False), items)
        # The spec's query parameters are all in the table (spec §4.2, §4.3, §4.6).
        self.assertLessEqual({"interval", "depth", "max_pages", "severity", "limit", "task_type", "interval_hours",
                              "timeout", "lang"}, names)


if __name__ == "__main__":
    unittest.main()
