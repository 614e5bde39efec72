"""Issue 8: the compliance check (GET /compliance/{target_url}, both prefixes) — 152-FZ, 8-FZ and
the technical regulator's items over a crawl of local fixture sites (docs/compliance.md)."""

import unittest

import dozor_client as dc

SECURE = {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'",
    "Strict-Transport-Security": "max-age=63072000",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

FOOTER = ("<footer>ООО «Ромашка», ИНН 7707083893, ОГРН 1027700132195, г. Москва, ул. Ленина, 1, "
          "<a href='mailto:info@romashka.ru'>info@romashka.ru</a></footer>")

POLICY = ("<html><head><title>Политика обработки персональных данных</title></head><body>"
          "<p>Оператор ООО «Ромашка», ИНН 7707083893. Цели обработки персональных данных: договор. "
          "Категории персональных данных: имя, телефон. Правовые основания обработки: согласие. "
          "Сроки хранения: три года. Права субъекта: доступ, отзыв согласия. Передача третьим лицам "
          "по поручению оператора. Трансграничная передача не осуществляется. Меры по обеспечению "
          "безопасности персональных данных: шифрование.</p></body></html>")

GOOD_SHOP = ("<html lang='ru'><head><title>Магазин</title></head><body>"
             "<a href='/privacy'>Политика конфиденциальности</a>"
             "<form method='post' action='/order'><input name='name' placeholder='Имя'>"
             "<input type='email' name='email'><input type='tel' name='phone'>"
             "<label><input type='checkbox' name='agree' required> Даю <a href='/consent'>согласие на обработку "
             "персональных данных</a> и принимаю <a href='/privacy'>политику</a></label><button>OK</button></form>"
             + FOOTER + "</body></html>")

BAD_SHOP_CP1251 = ("<html><head><title>Обратный звонок</title></head><body>"
                   "<form method='post' action='/callback'><input name='fio' placeholder='Ваше ФИО'>"
                   "<input name='telefon' placeholder='Номер телефона'><button>Перезвоните</button></form>"
                   "<p>ИНН 7707083894</p></body></html>").encode("cp1251")

GOV_PAGE = ("<html lang='ru'><head><title>Официальный сайт администрации муниципального образования «Энск»</title>"
            "</head><body><a href='/kontakty'>Контакты</a><a href='/korrupciya'>Противодействие коррупции</a>"
            "<a href='https://vk.com/ensk'>ВКонтакте</a><p>Телефон 8 (3452) 12-34-56, adm@ensk.ru</p></body></html>")



class Compliance(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = dc.create_user("compliance")

    @classmethod
    def tearDownClass(cls):
        dc.delete_user(cls.user.id)

    def check(self, target: str, prefix: str = "/api/v1", encoded: bool = True, query: str = ""):
        path = "%s/compliance/%s%s" % (prefix, dc.enc(target) if encoded else target, query)
        return dc.get(path, token=self.user.token, timeout=90)

    def ok(self, *a, **kw) -> dict:
        r = self.check(*a, **kw)
        self.assertEqual(r.status, 200, r.text)
        self.assertJsonContentType(r)
        return r.json

    @staticmethod
    def items(body: dict) -> dict:
        return {it["id"]: it for s in body["sets"] for it in s["items"]}

    def test_a_shop_with_consent_and_policy_passes_under_both_prefixes_and_encodings(self):
        routes = {
            "/": (200, SECURE, GOOD_SHOP),
            "/privacy": (200, SECURE, POLICY),
            "/consent": (200, SECURE, "<html><body>Согласие на обработку персональных данных</body></html>"),
        }
        with dc.TlsFixtureServer(routes) as fx:
            for prefix in ("/api/v1", "/api"):
                for encoded in (True, False):
                    with self.subTest(prefix=prefix, encoded=encoded):
                        body = self.ok(fx.url("/"), prefix, encoded)
                        self.assertEqual(set(body), {"target", "profile", "governmental", "sets", "pages_read",
                                                     "duration_ms", "findings", "error", "documents"})
                        self.assertEqual(body["documents"]["found"], 0)  # the shop links no document
                        self.assertIsNone(body["error"])
                        self.assertEqual(body["target"], fx.url("/"))
                        self.assertEqual(body["profile"], "auto")
                        self.assertEqual(body["pages_read"], 3)
                        self.assertEqual([s["id"] for s in body["sets"]], ["152-FZ", "8-FZ", "FSTEC"])
                        items = self.items(body)
                        for pid in ("PD-01", "PD-02", "PD-03", "PD-04", "PD-05", "PD-06", "PD-07", "PD-13", "PD-14"):
                            self.assertEqual(items[pid]["status"], "passed", items[pid])
                        self.assertEqual(items["GOV-01"]["status"], "not_applicable")
                        self.assertEqual(items["SEC-05"]["status"], "passed", items["SEC-05"])
                        pd = body["sets"][0]
                        self.assertEqual(pd["score"], 100)
                        self.assertEqual(pd["failed"], 0)
                        self.assertEqual(pd["passed"] + pd["manual"] + pd["not_applicable"], 16)
                        self.assertIsNone(body["sets"][1]["score"])
                        # The one finding is true: http.server names itself and its version.
                        self.assertEqual([f["check"] for f in body["findings"]], ["compliance-sec-03"])
                        self.assertIn("Python/", body["findings"][0]["evidence"][0]["excerpt"])
                        self.assertEqual(items["SEC-03"]["status"], "failed")
                        it = items["PD-03"]
                        self.assertEqual(set(it), {"id", "title", "status", "automated", "severity", "confidence",
                                                   "legal_reference", "evidence", "note", "recommendation"})
                        self.assertIn("ст. 9", it["legal_reference"])
                        self.assertEqual(set(it["title"]), {"ru", "en"})

    def test_a_windows_1251_form_without_consent_fails_with_evidence_and_findings(self):
        routes = {"/": (200, {"Content-Type": "text/html; charset=windows-1251"}, BAD_SHOP_CP1251)}
        with dc.FixtureServer(routes) as fx:
            body = self.ok(fx.url("/"))
        items = self.items(body)
        pd03 = items["PD-03"]
        self.assertEqual(pd03["status"], "failed")
        self.assertEqual(pd03["severity"], "critical")
        self.assertEqual(pd03["evidence"][0]["url"], fx.url("/"))
        self.assertIn("fio, telefon", pd03["evidence"][0]["excerpt"])
        self.assertLessEqual(len(pd03["evidence"][0]["excerpt"]), 300)
        self.assertEqual(items["PD-01"]["status"], "failed")
        self.assertEqual(items["PD-13"]["status"], "failed")  # a personal-data form on plain HTTP
        self.assertEqual(items["PD-14"]["status"], "failed")
        self.assertIn("check digit does not match", items["PD-14"]["evidence"][0]["excerpt"])
        checks = {f["check"]: f for f in body["findings"]}
        self.assertIn("compliance-pd-03", checks)
        self.assertEqual(checks["compliance-pd-03"]["severity"], "critical")
        self.assertEqual(checks["compliance-pd-03"]["evidence"][0]["url"], fx.url("/"))
        for f in body["findings"]:
            self.assertIn(f["severity"], ("medium", "high", "critical"), f)
        self.assertLess(body["sets"][0]["score"], 50)

    def test_a_governmental_site_gets_the_8fz_set_unless_the_profile_says_commercial(self):
        routes = {"/": (200, SECURE, GOV_PAGE), "/kontakty": (200, SECURE, "<html><body>Адрес</body></html>"),
                  "/korrupciya": (404, {}, "no")}
        with dc.FixtureServer(routes) as fx:
            auto = self.ok(fx.url("/"))
            commercial = self.ok(fx.url("/"), query="?profile=commercial")
            gov = self.ok(fx.url("/"), "/api", query="?profile=gov&depth=0&max_pages=1")
        self.assertTrue(auto["governmental"]["applies"], auto["governmental"])
        items = self.items(auto)
        self.assertEqual(items["GOV-01"]["status"], "passed", items["GOV-01"])
        self.assertEqual(items["GOV-12"]["status"], "failed")  # linked, but 404
        self.assertEqual(items["GOV-10"]["status"], "failed")  # VK without OK
        self.assertIsNotNone(auto["sets"][1]["score"])
        self.assertFalse(commercial["governmental"]["applies"])
        self.assertEqual(commercial["profile"], "commercial")
        self.assertTrue(all(it["status"] == "not_applicable" for it in commercial["sets"][1]["items"]))
        self.assertEqual(gov["profile"], "gov")
        self.assertTrue(gov["governmental"]["applies"])
        self.assertEqual(gov["pages_read"], 1)

    def test_an_unreachable_target_says_so(self):
        body = self.ok("http://127.0.0.1:%d/" % dc.closed_port())
        self.assertIsNotNone(body["error"])
        self.assertEqual(body["sets"], [])
        self.assertEqual(body["pages_read"], 0)

    def test_profile_depth_and_max_pages_are_validated_and_a_token_is_needed(self):
        r = self.check("example.com", query="?profile=government")
        self.assertValidation(r, [("enum", ["query", "profile"])])
        self.assertEqual(r.json["detail"][0]["input"], "government")
        r = self.check("example.com", "/api", query="?profile=x&depth=abc&max_pages=0")
        self.assertValidation(r, [("enum", ["query", "profile"]), ("int_parsing", ["query", "depth"]),
                                  ("greater_than_equal", ["query", "max_pages"])])
        r = self.check("example.com", query="?depth=11")
        self.assertValidation(r, [("less_than_equal", ["query", "depth"])])
        r = self.check("ftp://example.com/")
        self.assertValidation(r, [("url_scheme", ["path", "target_url"])])
        for prefix in ("/api/v1", "/api"):
            self.assertUnauthenticated(dc.get("%s/compliance/example.com" % prefix))


if __name__ == "__main__":
    unittest.main()
