"""Issue 8 §2: geolocation (GET /api/audit/geo/{target}): the target's A/AAAA addresses, each
classified as the egress policy sees it and located with the configured database — here Debian's
geoip-database, as a stack without scanner.geoip_db has it — which the answer names with its date.
The full audit (POST /api/audit/full/{target}) carries the same part; the plain audit does not."""


import dozor_client as dc



class Geo(dc.DozorTestCase):
    def test_a_loopback_target_is_classified_and_the_database_named(self):
        user = self.new_user("geo")
        with dc.FixtureServer({"/": (200, {"Content-Type": "text/html"}, "<p>hi</p>")}) as fx:
            for path in ("/api/audit/geo/%s" % dc.enc(fx.url("/")), "/api/audit/geo/%s" % fx.url("/")):
                with self.subTest(path=path):
                    r = dc.get(path, token=user.token)
                    self.assertEqual(r.status, 200, r.text)
                    body = r.json
                    self.assertEqual(body["target"], fx.url("/"))
                    self.assertEqual(body["host"], "127.0.0.1")
                    self.assertIsNone(body["error"])
                    self.assertEqual(body["addresses"], [{
                        "address": "127.0.0.1", "kind": "loopback", "public": False, "country_code": None,
                        "country": None, "city": None, "asn": None, "as_org": None}])
                    db = body["database"]
                    self.assertEqual(db["name"], "GeoIP legacy (Debian geoip-database)")
                    self.assertEqual(db["paths"], ["/usr/share/GeoIP/GeoIP.dat"])
                    self.assertRegex(db["build_date"], r"^\d{4}-\d\d-\d\d$")
                    self.assertEqual(body["findings"], [])

    def test_localhost_is_classified_as_loopback(self):
        user = self.new_user("geo2")
        r = dc.get("/api/audit/geo/%s" % dc.enc("https://localhost:1/"), token=user.token)
        self.assertEqual(r.status, 200, r.text)
        kinds = {a["address"]: a["kind"] for a in r.json["addresses"]}
        self.assertIn("127.0.0.1", kinds)
        self.assertTrue(all(k == "loopback" for k in kinds.values()), kinds)

    def test_an_unknown_host_is_a_clear_error_not_a_guess(self):
        user = self.new_user("geo3")
        r = dc.get("/api/audit/geo/%s" % dc.enc("https://no-such-host.invalid/"), token=user.token)
        self.assertEqual(r.status, 200, r.text)
        self.assertEqual(r.json["addresses"], [])
        self.assertTrue(r.json["error"])

    def test_only_the_full_audit_carries_geolocation(self):
        user = self.new_user("geo4")
        with dc.FixtureServer({"/": (200, {"Content-Type": "text/html"}, "<p>hi</p>")}) as fx:
            full = dc.post("/api/audit/full/%s?depth=0" % dc.enc(fx.url("/")), token=user.token, timeout=120)
            self.assertEqual(full.status, 200, full.text)
            self.assertEqual(full.json["geo"]["addresses"][0]["kind"], "loopback")
            self.assertNotIn("geo", {e["check"] for e in full.json["errors"]})
            plain = dc.post("/api/audit/%s?depth=0" % dc.enc(fx.url("/")), token=user.token, timeout=120)
            self.assertEqual(plain.status, 200, plain.text)
            self.assertIsNone(plain.json["geo"])

    def test_validation_and_auth(self):
        user = self.new_user("geo5")
        self.assertUnauthenticated(dc.get("/api/audit/geo/example.com"))
        r = dc.get("/api/audit/geo/%s" % dc.enc("ftp://example.com/"), token=user.token)
        self.assertValidation(r, [("url_scheme", ["path", "target_url"])])
