"""Issue 9 §2 endpoint discovery (docs/scan.md "Endpoint discovery"): GET
/api/security/endpoints/{target}?timeout= against a local site (tests/fixtures/endpoints/site_app.py)
finds a path of each source — links, forms, robots.txt, the sitemap, JavaScript, an OpenAPI document,
the wordlist — each with the right found_by, methods, parameters and status; a catch-all site gives
no wordlist false positives; the timeout is validated (1..60) and kept; the task kind runs it too."""

import os
import sys
import time
import unittest

import dozor_client as dc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "endpoints"))
from site_app import SiteApp  # noqa: E402

# path → (found_by, methods, parameters as (name, in), status or None)
EXPECTED = {
    "/": ({"target"}, {"GET"}, set(), 200),
    "/about": ({"link"}, {"GET"}, set(), 200),
    "/catalog": ({"link"}, {"GET"}, {("page", "query")}, 200),
    "/contact": ({"form"}, {"POST"}, {("name", "body"), ("message", "body")}, 200),
    "/private-area/": ({"robots"}, {"GET"}, set(), 403),
    "/news/2026": ({"sitemap"}, {"GET"}, set(), 200),
    "/api/v2/orders": ({"js"}, {"GET"}, {("status", "query")}, 200),
    "/api/v2/profile": ({"js"}, {"GET"}, set(), 401),
    "/openapi.json": ({"openapi"}, {"GET"}, set(), 200),
    "/api/v3/users": ({"openapi"}, {"GET", "POST"}, {("limit", "query"), ("name", "body"), ("email", "body")}, 200),
    "/api/v3/users/{id}": ({"openapi"}, {"GET", "DELETE"}, {("id", "path")}, None),
    "/actuator/health": ({"wordlist"}, {"GET"}, set(), 200),
}


def discover(user, url, timeout=None, encoded=True, token=dc._UNSET):
    target = dc.enc(url) if encoded else url
    query = "" if timeout is None else "?timeout=%s" % timeout
    return dc.get("/api/security/endpoints/%s%s" % (target, query),
                  token=user.token if token is dc._UNSET else token, timeout=90)


class EndpointDiscovery(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = dc.create_user("ep", scan_grant=True)
        cls.site = SiteApp().__enter__()
        cls.spa = SiteApp(catch_all=True).__enter__()
        r = discover(cls.user, cls.site.url("/"), timeout=40)
        assert r.status == 200, r.text
        cls.found = r.json
        r = discover(cls.user, cls.spa.url("/"), timeout=40, encoded=False)
        assert r.status == 200, r.text
        cls.spa_found = r.json

    @classmethod
    def tearDownClass(cls):
        cls.site.__exit__(None, None, None)
        cls.spa.__exit__(None, None, None)
        dc.delete_user(cls.user.id)

    def check_expected(self, body):
        eps = body["endpoints"]
        for path, (found_by, methods, params, status) in EXPECTED.items():
            self.assertIn(path, eps, sorted(eps))
            e = eps[path]
            self.assertEqual(set(e["found_by"]), found_by, (path, e))
            self.assertEqual(set(e["methods"]), methods, (path, e))
            self.assertEqual({(p["name"], p["in"]) for p in e["parameters"]}, params, (path, e))
            self.assertEqual(e["status"], status, (path, e))
            self.assertEqual(e["url"], self.site.url(path) if body is self.found else self.spa.url(path))
        self.assertEqual(eps["/api/v2/orders"]["content_type"], "application/json")
        self.assertIsNone(eps["/api/v3/users/{id}"]["content_type"])
        wordlist = {p for p, e in eps.items() if "wordlist" in e["found_by"]}
        self.assertEqual(wordlist, {"/actuator/health"}, "wordlist false positives")

    def test_every_source_is_found_with_its_found_by(self):
        body = self.found
        self.assertEqual(body["stopped"], "complete", body)
        self.assertFalse(body["partial"])
        self.assertEqual(body["target"], self.site.url("/"))
        self.assertEqual(body["timeout"], 40)
        self.check_expected(body)
        self.assertEqual(body["count"], len(body["endpoints"]))
        self.assertEqual(len(body["endpoints"]), len(EXPECTED), sorted(body["endpoints"]))
        self.assertFalse(body["catch_all"]["detected"])
        self.assertEqual(body["catch_all"]["status"], 404)
        self.assertGreater(body["catch_all"]["wordlist_asked"], 100)
        self.assertEqual(body["catch_all"]["wordlist_rejected"], 0)
        self.assertEqual([d["url"] for d in body["documents"]], [self.site.url("/openapi.json")])
        self.assertEqual(body["documents"][0]["spec"], "openapi 3.0.3")
        self.assertEqual(body["documents"][0]["operations"], 4)
        for source in ("target", "link", "form", "robots", "sitemap", "js", "openapi", "wordlist"):
            self.assertGreaterEqual(body["by_source"].get(source, 0), 1, source)

    def test_a_catch_all_site_gives_no_wordlist_false_positives(self):
        body = self.spa_found
        self.assertEqual(body["stopped"], "complete", body)
        self.assertEqual(body["target"], self.spa.url("/"), "the unencoded target")
        self.assertTrue(body["catch_all"]["detected"])
        self.assertEqual(body["catch_all"]["status"], 200)
        self.assertGreater(body["catch_all"]["wordlist_rejected"], 100)
        self.check_expected(body)
        self.assertEqual(len(body["endpoints"]), len(EXPECTED), sorted(body["endpoints"]))

    def test_requests_are_paced_and_name_dozor(self):
        hits = self.site.hits()
        self.assertTrue(hits)
        self.assertEqual({h["method"] for h in hits} - {"GET", "HEAD"}, set(), "discovery only reads")
        self.assertTrue(all("Dozor" in h["headers"].get("User-Agent", "") for h in hits))
        times = sorted(h["t"] for h in hits)
        worst = max(sum(1 for t in times[i:] if t - times[i] < 1.0) for i in range(len(times)))
        self.assertLessEqual(worst, 11, worst)

    def test_the_timeout_is_validated(self):
        url = self.site.url("/")
        for bad, kind in (("0", "greater_than_equal"), ("61", "less_than_equal"), ("abc", "int_parsing")):
            r = discover(self.user, url, timeout=bad)
            self.assertValidation(r, [(kind, ["query", "timeout"])])
        self.assertEqual(discover(self.user, url, timeout=5, token=None).status, 401)
        self.assertEqual(discover(self.user, "ftp://127.0.0.1/", timeout=5).status, 422)

    def test_the_answer_comes_within_the_timeout_and_says_it_is_partial(self):
        with SiteApp(delay=0.3) as slow:
            for timeout, slack in ((2, 1.5), (None, 1.5)):
                started = time.monotonic()
                r = discover(self.user, slow.url("/"), timeout=timeout)
                elapsed = time.monotonic() - started
                self.assertEqual(r.status, 200, r.text)
                wanted = timeout or 5
                self.assertEqual(r.json["timeout"], wanted)
                self.assertLess(elapsed, wanted + slack, r.json)
                self.assertTrue(r.json["partial"], r.json)
                self.assertEqual(r.json["stopped"], "deadline")
                self.assertIn("/", r.json["endpoints"])

    def test_the_endpoints_task_kind_answers_as_the_route(self):
        def queue(body):
            return dc.post("/api/security/queue/%s?task_type=endpoints" % dc.enc(self.site.url("/")), body,
                           token=self.user.token)

        self.assertValidation(queue({"timeout": 61}), [("less_than_equal", ["body", "timeout"])])
        self.assertEqual(queue({"depth": 1}).status, 422, "endpoints takes only a timeout")
        r = queue({"timeout": 40})
        self.assertEqual(r.status, 200, r.text)
        task_id = r.json["task_id"]
        self.assertEqual(r.json["options"], {"timeout": 40})
        done = dc.wait_until(lambda: dc.get("/api/task/%s/status" % task_id).json["status"] in ("succeeded", "failed"),
                             120, 0.5)
        self.assertTrue(done)
        body = dc.get("/api/security/queue/" + task_id, token=self.user.token).json
        self.assertEqual(body["status"], "succeeded", body)
        self.check_expected_task(body["result"])

    def check_expected_task(self, result):
        self.assertEqual(result["stopped"], "complete", result)
        eps = result["endpoints"]
        self.assertEqual(set(eps["/api/v3/users"]["found_by"]), {"openapi"})
        self.assertEqual(set(eps["/actuator/health"]["found_by"]), {"wordlist"})
        self.assertEqual(set(eps["/news/2026"]["found_by"]), {"sitemap"})


if __name__ == "__main__":
    unittest.main()
