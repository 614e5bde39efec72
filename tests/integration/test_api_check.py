"""Issue 9 §2 API check (docs/scan.md "API check"): POST /api/security/api-check/{target} (and /api/api-check/…)
against the deliberately vulnerable fixture's API (tests/fixtures/owasp/vulnerable_app.py) finds the OpenAPI
document and the GraphQL endpoint and every planted API flaw with its OWASP category and CWE and replayable
evidence, and nothing of those classes on the fixed twin; a user without a grant is refused as for the OWASP
scan; the task kind runs it through the queue and refuses unknown options."""

import os
import sys
import unittest

import dozor_client as dc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "owasp"))
from vulnerable_app import VulnerableApp  # noqa: E402

# check → (OWASP 2021 category, CWE, the finding's place: the part of its title after ": ")
EXPECTED = {
    "api-graphql-introspection": ("A05:2021", 200, "{origin}/graphql"),
    "api-missing-auth": ("A01:2021", 306, "GET /api/users/{{id}}"),
    "api-id-enumeration": ("A01:2021", 639, "GET /api/users/{{id}}"),
    "api-sensitive-data": ("A01:2021", 200, "GET /api/users/{{id}}"),
    "api-cors-credentials": ("A01:2021", 942, "{origin}"),
    "api-no-rate-limit-headers": ("A04:2021", 770, "{origin}"),
    "api-jwt-alg-none": ("A07:2021", 347, "{origin}/api/me"),
    "api-jwt-weak-secret": ("A02:2021", 326, "token from POST {origin}/api/login"),
    "api-jwt-no-exp": ("A07:2021", 613, "token from POST {origin}/api/login"),
}
STACK_TRACES = {"GET /api/users/{id}", "GET /api/products/{id}"}  # api-stack-trace, A05, CWE-209
DANGEROUS = {"PUT", "TRACE"}  # api-dangerous-method, A05, CWE-749


def api_check(user, url, prefix="/api/security", encoded=True, query="", token=dc._UNSET):
    target = dc.enc(url) if encoded else url
    return dc.post("%s/api-check/%s%s" % (prefix, target, query), token=user.token if token is dc._UNSET else token,
                   timeout=150)


def by_check(body):
    got = {}
    for f in body["findings"]:
        got.setdefault(f["check"], []).append(f)
    return got


class ApiCheck(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = dc.create_user("api", scan_grant=True)
        cls.vulnerable = VulnerableApp().__enter__()
        cls.fixed = VulnerableApp(fixed=True).__enter__()
        r = api_check(cls.user, cls.vulnerable.url("/"))
        assert r.status == 200, r.text
        cls.found = r.json
        r = api_check(cls.user, cls.fixed.url("/"), prefix="/api", encoded=False)
        assert r.status == 200, r.text
        cls.clean = r.json

    @classmethod
    def tearDownClass(cls):
        cls.vulnerable.__exit__(None, None, None)
        cls.fixed.__exit__(None, None, None)
        dc.delete_user(cls.user.id)

    def test_the_document_and_the_graphql_endpoint_are_found(self):
        for app, body, introspection in ((self.vulnerable, self.found, True), (self.fixed, self.clean, False)):
            self.assertEqual(body["stopped"], "complete", body)
            self.assertEqual([d["url"] for d in body["documents"]], [app.url("/openapi.json")])
            self.assertEqual(body["documents"][0]["operations"], 4)
            self.assertEqual(body["graphql"], [{"url": app.url("/graphql"), "introspection": introspection}])
            self.assertEqual(sorted(body["tested"]), ["GET /api/me", "GET /api/products/{id}", "GET /api/users/{id}",
                                                      "POST /api/login"])
            self.assertGreaterEqual(body["tokens"], 1, "the login's token was not read")

    def test_every_planted_flaw_is_found_with_its_category(self):
        origin = self.vulnerable.url("/").rstrip("/")
        got = by_check(self.found)
        wanted = set(EXPECTED) | {"api-stack-trace", "api-dangerous-method"}
        self.assertEqual(sorted(got), sorted(wanted), [f["title"] for f in self.found["findings"]])
        for check, (owasp, cwe, place) in EXPECTED.items():
            self.assertEqual(len(got[check]), 1, got[check])
            f = got[check][0]
            self.assertEqual((f["owasp"], f["cwe"]), (owasp, cwe), f)
            self.assertEqual(f["title"].split(": ", 1)[1], place.format(origin=origin))
        traces = got["api-stack-trace"]
        self.assertEqual({f["title"].split(": ", 1)[1] for f in traces}, STACK_TRACES)
        for f in traces:
            self.assertEqual((f["owasp"], f["cwe"]), ("A05:2021", 209))
            self.assertIn("Traceback (most recent call last)", f["evidence"][0]["excerpt"])
        methods = got["api-dangerous-method"]
        self.assertEqual({f["title"].split(": ", 1)[1] for f in methods}, DANGEROUS)
        for f in methods:
            self.assertEqual((f["owasp"], f["cwe"]), ("A05:2021", 749))
        for f in self.found["findings"]:
            self.assertIn(f["severity"], ("low", "medium", "high", "critical"))
            self.assertIn(f["confidence"], ("firm", "certain"))
            self.assertTrue(f["recommendation"] and f["description"])
        self.assertEqual(got["api-jwt-alg-none"][0]["severity"], "critical")
        self.assertEqual(got["api-no-rate-limit-headers"][0]["severity"], "low")

    def test_evidence_is_the_exact_request_the_proof_and_a_curl_command(self):
        self.assertReplayableEvidence(self.found["findings"])
        got = by_check(self.found)
        self.assertIn("password_hash", got["api-sensitive-data"][0]["evidence"][0]["excerpt"])
        self.assertIn("password hash", got["api-sensitive-data"][0]["evidence"][0]["note"])
        self.assertIn("'changeme'", got["api-jwt-weak-secret"][0]["evidence"][0]["note"])
        self.assertIn("eyJ", got["api-jwt-no-exp"][0]["evidence"][0]["excerpt"])
        alg_none = got["api-jwt-alg-none"][0]["evidence"][0]
        self.assertIn("Authorization: Bearer eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.", alg_none["replay"])
        self.assertEqual(len(got["api-id-enumeration"][0]["evidence"]), 2)
        self.assertIn('"alice"', got["api-id-enumeration"][0]["evidence"][0]["excerpt"])
        self.assertIn('"bob"', got["api-id-enumeration"][0]["evidence"][1]["excerpt"])
        self.assertIn("Access-Control-Allow-Credentials: true", got["api-cors-credentials"][0]["evidence"][0]["excerpt"])
        self.assertIn("__schema", got["api-graphql-introspection"][0]["evidence"][0]["excerpt"])

    def test_the_fixed_twin_has_no_finding(self):
        self.assertEqual(self.clean["findings"], [], [f["title"] for f in self.clean["findings"]])
        self.assertGreater(self.clean["requests"], 15)

    def test_requests_are_benign_and_name_dozor(self):
        hits = self.fixed.hits()
        self.assertTrue(hits)
        self.assertTrue(all("Dozor" in h["headers"].get("User-Agent", "") for h in hits))
        # Writes and deletes go to ids and paths no object has.
        for h in hits:
            if h["method"] in ("PUT", "DELETE"):
                self.assertIn("/dozor-", h["path"], h)

    def test_validation_authentication_and_permission(self):
        r = api_check(self.user, self.fixed.url("/"), query="?max_operations=0")
        self.assertEqual(r.status, 422, r.text)
        self.assertEqual(r.json["detail"][0]["loc"], ["query", "max_operations"])
        self.assertEqual(api_check(self.user, self.fixed.url("/"), token=None).status, 401)
        self.assertEqual(api_check(self.user, "ftp://127.0.0.1/").status, 422)
        stranger = dc.create_user("apino")
        self.addCleanup(dc.delete_user, stranger.id)
        before = len(self.fixed.hits())
        owasp = dc.post("/api/owasp/scan/%s" % dc.enc(self.fixed.url("/")), token=stranger.token)
        for prefix in ("/api/security", "/api"):
            r = api_check(stranger, self.fixed.url("/"), prefix=prefix)
            self.assertEqual(r.status, 403, r.text)
            self.assertEqual(r.json, owasp.json)
        self.assertEqual(len(self.fixed.hits()), before, "a refused check sent traffic")
        log = dc.get("/api/security/scan-log", token=stranger.token).json["items"]
        self.assertIn(("api-check", "inline", False), [(e["kind"], e["via"], e["allowed"]) for e in log])
        r = dc.post("/api/security/queue/%s?task_type=api-check" % dc.enc(self.fixed.url("/")), token=stranger.token)
        self.assertEqual(r.status, 403, r.text)

    def test_the_task_kind_runs_through_the_queue(self):
        def queue(body):
            return dc.post("/api/security/queue/%s?task_type=api-check" % dc.enc(self.vulnerable.url("/")), body,
                           token=self.user.token)

        r = queue({"depth": 1})
        self.assertEqual(r.status, 422, r.text)
        self.assertEqual(queue({"max_operations": 61}).status, 422)
        r = queue({"max_operations": 10})
        self.assertEqual(r.status, 200, r.text)
        self.assertEqual(r.json["options"], {"max_operations": 10})
        task_id = r.json["task_id"]
        done = dc.wait_until(lambda: dc.get("/api/task/%s/status" % task_id).json["status"] in ("succeeded", "failed"),
                             150, 0.5)
        self.assertTrue(done)
        body = dc.get("/api/security/queue/" + task_id, token=self.user.token).json
        self.assertEqual(body["status"], "succeeded", body)
        self.assertEqual(sorted(by_check(body["result"])), sorted(by_check(self.found)))


if __name__ == "__main__":
    unittest.main()
