"""Issue 8 §2: technology detection and vulnerable JavaScript libraries (GET /cms/{target_url},
both prefixes, both target encodings) against local fixture sites: a fake WordPress, a fake
1C-Bitrix, a Tilda page, a plain page and a page with an old jQuery (docs/audit.md
"Technologies")."""

import hashlib
import json
import unittest

import dozor_client as dc

HTML = {"Content-Type": "text/html; charset=utf-8"}

WORDPRESS = ("<!doctype html><html><head><meta name='generator' content='WordPress 6.4.2'>"
             "<link rel='stylesheet' href='/wp-content/themes/twentytwentyfour/style.css?ver=6.4.2'>"
             "<script src='/wp-includes/js/jquery/jquery.min.js?ver=3.7.1'></script>"
             "<script src='/wp-includes/js/jquery/jquery-migrate.min.js?ver=3.4.1'></script>"
             "</head><body><h1>Just another WordPress site</h1></body></html>")
WP_ROUTES = {
    "/": (200, dict(HTML, Link='<http://example.test/wp-json/>; rel="https://api.w.org/"'), WORDPRESS),
    "/readme.html": (200, HTML, "<html><head><title>WordPress &#8250; ReadMe</title></head></html>"),
    "/robots.txt": (200, {"Content-Type": "text/plain"}, "User-agent: *\nDisallow: /wp-admin/\n"),
}

BITRIX = ("<!DOCTYPE html><html lang='ru'><head><title>Интернет-магазин</title>"
          "<link href='/bitrix/cache/css/s1/eshop/template_styles.css' rel='stylesheet'>"
          "<script src='/bitrix/js/main/core/core.min.js?1700000000'></script>"
          "<script>BX.setJSList(['/bitrix/js/main/core/core_ajax.js']);</script>"
          "<script>(function(m,e,t,r,i,k,a){m[i]=m[i]||function(){(m[i].a=m[i].a||[]).push(arguments)};})"
          "(window, document, 'script', 'https://mc.yandex.ru/metrika/tag.js', 'ym');"
          "ym(12345678, 'init', {webvisor:true});</script>"
          "<script src='//code.jivo.ru/widget/AbCdEf12' async></script>"
          "</head><body><div id='bx-panel'></div><p>Каталог</p></body></html>")
BX_HEADERS = dict(HTML, **{"X-Powered-CMS": "Bitrix Site Manager (2a1f0e5b8c4d7e9f)",
                           "X-Powered-By": "PHP/8.1.27",
                           "Set-Cookie": "BITRIX_SM_GUEST_ID=1; Path=/; HttpOnly"})
BX_ROUTES = {
    "/": (200, BX_HEADERS, BITRIX),
    "/robots.txt": (200, {"Content-Type": "text/plain"}, "User-agent: *\nDisallow: /bitrix/\nDisallow: /personal/\n"),
}

TILDA = ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>Лендинг</title>"
         "<link rel='stylesheet' href='https://static.tildacdn.com/css/tilda-grid-3.0.min.css'>"
         "<script src='https://static.tildacdn.com/js/tilda-scripts-3.0.min.js'></script></head>"
         "<body><div id='allrecords' class='t-records' data-tilda-page-id='1234'></div></body></html>")

PLAIN = ("<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Plain</title>"
         "<link rel='stylesheet' href='/style.css'></head><body><h1>Plain page</h1>"
         "<p>Nothing here but text and a <a href='/about'>link</a>.</p><img src='/logo.png' alt=''>"
         "<script src='/app.js'></script><script>console.log('hi');</script></body></html>")

OLD_JQUERY = ("<html><head><script src='/js/jquery-1.12.4.min.js'></script>"
              "<script src='/js/lib/jquery.min.js'></script></head><body><p>Old</p></body></html>")
OLD_JQUERY_ROUTES = {
    "/": (200, HTML, OLD_JQUERY),
    "/js/jquery-1.12.4.min.js": (200, {"Content-Type": "application/javascript"}, "/*! jQuery v1.12.4 */"),
    # An unversioned file: its banner gives the version.
    "/js/lib/jquery.min.js": (200, {"Content-Type": "application/javascript"},
                              "/*! jQuery v2.2.4 | (c) jQuery Foundation | jquery.org/license */\n!function(){}"),
}

TECH_KEYS = {"name", "slug", "version", "confidence", "categories", "website", "evidence"}



class Technologies(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        # The fingerprints' probes of unlinked paths (readme.html …) need the scan permission (docs/audit.md);
        # without it, test_exposures shows what is skipped.
        cls.user = dc.create_user("cms", scan_grant=True)

    @classmethod
    def tearDownClass(cls):
        dc.delete_user(cls.user.id)

    def detect(self, target: str, prefix: str = "/api/v1", encoded: bool = True) -> dict:
        r = dc.get("%s/cms/%s" % (prefix, dc.enc(target) if encoded else target), token=self.user.token, timeout=60)
        self.assertEqual(r.status, 200, r.text)
        self.assertJsonContentType(r)
        body = r.json
        self.assertEqual(set(body), {"target", "url", "status_code", "technologies", "vulnerable_libraries",
                                     "requests", "duration_ms", "error", "skipped"})
        self.assertEqual(body["skipped"], [])
        for t in body["technologies"]:
            self.assertEqual(set(t), TECH_KEYS, t)
            self.assertTrue(1 <= t["confidence"] <= 100, t)
        return body

    @staticmethod
    def by_slug(body: dict) -> dict:
        return {t["slug"]: t for t in body["technologies"]}

    def test_a_fake_wordpress_under_both_prefixes_and_encodings(self):
        with dc.FixtureServer(WP_ROUTES) as fx:
            for prefix in ("/api/v1", "/api"):
                for encoded in (True, False):
                    with self.subTest(prefix=prefix, encoded=encoded):
                        body = self.detect(fx.url("/"), prefix, encoded)
                        self.assertEqual(body["target"], fx.url("/"))
                        self.assertIsNone(body["error"])
                        self.assertEqual(body["status_code"], 200)
                        techs = self.by_slug(body)
                        wp = techs["wordpress"]
                        self.assertEqual(wp["name"], "WordPress")
                        self.assertEqual(wp["version"], "6.4.2")
                        self.assertEqual(wp["confidence"], 100)
                        self.assertIn("CMS", wp["categories"])
                        self.assertEqual(wp["website"], "https://wordpress.org")
                        sources = {e["source"] for e in wp["evidence"]}
                        self.assertTrue({"meta", "html"} <= sources, wp["evidence"])
                        self.assertEqual(techs["jquery"]["version"], "3.7.1")
                        self.assertEqual(techs["jquery-migrate"]["version"], "3.4.1")
                        self.assertEqual(techs["php"]["evidence"][0], {"source": "implied", "name": "wordpress"})
                        self.assertIn("mysql", techs)
                        self.assertEqual(body["vulnerable_libraries"], [])
            # The probes were made: readme.html and robots.txt.
            paths = {h["path"] for h in fx.hits()}
            self.assertTrue({"/", "/readme.html", "/robots.txt"} <= paths, paths)

    def test_a_fake_1c_bitrix_shop_with_yandex_metrica_and_jivochat(self):
        with dc.FixtureServer(BX_ROUTES) as fx:
            body = self.detect(fx.url("/"), "/api")
        techs = self.by_slug(body)
        for slug in ("1c-bitrix", "php", "yandex-metrica", "jivochat"):
            self.assertIn(slug, techs, sorted(techs))
        bx = techs["1c-bitrix"]
        self.assertEqual(bx["confidence"], 100)
        self.assertEqual(bx["categories"], ["CMS", "Ecommerce"])
        self.assertEqual(techs["php"]["version"], "8.1.27")
        cookie = [e for e in bx["evidence"] if e["source"] == "cookie"]
        self.assertTrue(cookie and "match" not in cookie[0], bx["evidence"])  # cookie values are not shown

    def test_a_tilda_page(self):
        with dc.FixtureServer({"/": (200, HTML, TILDA)}) as fx:
            body = self.detect(fx.url("/"), "/api/v1", False)
        techs = self.by_slug(body)
        self.assertIn("tilda", techs)
        self.assertEqual(techs["tilda"]["confidence"], 100)
        self.assertIn("Site builders", techs["tilda"]["categories"])

    def test_a_plain_page_has_no_technology_but_its_server(self):
        with dc.FixtureServer({"/": (200, HTML, PLAIN)}) as fx:
            body = self.detect(fx.url("/"))
        # http.server says "Server: BaseHTTP/0.6 Python/3.x": the only true finding.
        self.assertEqual([t["slug"] for t in body["technologies"]], ["python"], body["technologies"])
        self.assertEqual(body["vulnerable_libraries"], [])

    def test_a_favicon_alone_names_phpmyadmin_and_zabbix(self):
        # The icons Debian 12's packages serve at /favicon.ico (tests/fixtures/favicons); the page
        # itself is plain, so the favicon's SHA-256 is the only evidence.
        for slug, name, icon in (("phpmyadmin", "phpMyAdmin", "phpmyadmin.ico"), ("zabbix", "Zabbix", "zabbix.ico")):
            data = (dc.REPO / "tests" / "fixtures" / "favicons" / icon).read_bytes()
            with self.subTest(slug), dc.FixtureServer({"/": (200, HTML, PLAIN),
                                                       "/favicon.ico": (200, {"Content-Type": "image/x-icon"}, data)}) as fx:
                techs = self.by_slug(self.detect(fx.url("/")))
                self.assertIn(slug, techs, list(techs))
                self.assertEqual(techs[slug]["name"], name)
                self.assertEqual([e["source"] for e in techs[slug]["evidence"]], ["favicon"], techs[slug])
                self.assertIn(hashlib.sha256(data).hexdigest(), json.dumps(techs[slug]["evidence"]))
            # The same icon one byte off is nobody's.
            off = data[:-1] + bytes([data[-1] ^ 0xFF])
            with dc.FixtureServer({"/": (200, HTML, PLAIN),
                                   "/favicon.ico": (200, {"Content-Type": "image/x-icon"}, off)}) as fx:
                self.assertNotIn(slug, self.by_slug(self.detect(fx.url("/"))))

    def test_an_old_jquery_is_reported_with_its_advisories(self):
        with dc.FixtureServer(OLD_JQUERY_ROUTES) as fx:
            body = self.detect(fx.url("/"))
            fetched = {h["path"] for h in fx.hits()}
        self.assertIn("/js/lib/jquery.min.js", fetched)  # fetched for its banner
        libs = {(v["id"], v["version"]): v for v in body["vulnerable_libraries"]}
        self.assertEqual(set(libs), {("jquery", "1.12.4"), ("jquery", "2.2.4")}, libs)
        old = libs[("jquery", "1.12.4")]
        self.assertEqual(old["name"], "jQuery")
        self.assertEqual(old["severity"], "medium")
        ids = {a["id"] for a in old["advisories"]}
        self.assertTrue({"CVE-2020-11022", "CVE-2020-11023", "CVE-2019-11358", "CVE-2015-9251"} <= ids, ids)
        for a in old["advisories"]:
            self.assertEqual(set(a), {"id", "identifiers", "severity", "fixed_in", "summary"})
        self.assertEqual(old["evidence"][0]["script"], fx.url("/js/jquery-1.12.4.min.js"))
        self.assertEqual(old["evidence"][0]["page"], fx.url("/"))
        banner = libs[("jquery", "2.2.4")]
        self.assertEqual(banner["evidence"][0]["script"], fx.url("/js/lib/jquery.min.js"))

    def test_the_full_audit_lists_technologies_and_a_finding_for_the_old_jquery(self):
        with dc.FixtureServer(OLD_JQUERY_ROUTES) as fx:
            r = dc.post("/api/audit/%s?depth=0&max_pages=1" % dc.enc(fx.url("/")), token=self.user.token, timeout=90)
        self.assertEqual(r.status, 200, r.text)
        audit = r.json
        self.assertIn("jquery", {t["slug"] for t in audit["technologies"]})
        # As the /cms route: the version in a script's URL, and the banner of a same-origin script
        # whose URL names none (the crawl fetched it) — one finding per vulnerable version.
        findings = {f["evidence"][0]["url"]: f for f in audit["findings"] if f["check"] == "vulnerable-js-jquery"}
        self.assertEqual(set(findings), {fx.url("/js/jquery-1.12.4.min.js"), fx.url("/js/lib/jquery.min.js")},
                         [f["check"] for f in audit["findings"]])
        f = findings[fx.url("/js/jquery-1.12.4.min.js")]
        self.assertIn("1.12.4", f["title"])
        self.assertEqual(f["severity"], "medium")
        self.assertEqual(f["owasp"], "A06:2021")
        self.assertEqual(f["cwe"], 1104)
        self.assertIn("2.2.4", findings[fx.url("/js/lib/jquery.min.js")]["title"])

    def test_an_unreachable_target_says_so(self):
        body = self.detect("http://127.0.0.1:%d/" % dc.closed_port())
        self.assertIsNotNone(body["error"])
        self.assertEqual(body["technologies"], [])

    def test_a_token_is_needed_and_a_bad_target_is_422(self):
        for prefix in ("/api/v1", "/api"):
            self.assertUnauthenticated(dc.get("%s/cms/example.com" % prefix))
            r = dc.get("%s/cms/%s" % (prefix, dc.enc("ftp://example.com/")), token=self.user.token)
            self.assertValidation(r, [("url_scheme", ["path", "target_url"])])
            r = dc.get("%s/cms/%s" % (prefix, dc.enc("http://")), token=self.user.token)
            self.assertEqual(r.status, 422, r.text)


if __name__ == "__main__":
    unittest.main()
