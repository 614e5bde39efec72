"""dozor-analyzer through nginx's internal listener (docs/analyzer.md): readiness and version,
a labelled corpus in every supported format with planted personal data and clean twins,
hostile documents each refused with a clear reason, the API's 401/403/413/415/422 answers,
the OpenAPI document, and the network restriction enforced by nginx itself."""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import unittest
import zipfile

from analyzer_corpus import docx, html, odp, ods, odt, pdf, pptx, rtf, xlsx
from dozor_client import (REPO, STATE_DIR, VERSION, DozorTestCase, FixtureServer, admin_token, child_pids, get,
                          jwt_encode, jwt_signing_key, post, request)

ANALYZER = os.environ.get("DOZOR_TEST_ANALYZER_URL", "http://127.0.0.1:8181")
MAX_DOCUMENT = 50 << 20

# ---------------------------------------------------------------- the labelled corpus

# (text, category) — every value has a valid checksum or its context.
PLANTED_RU = [
    ("Сотрудник: Смирнова Анна Сергеевна", "full_name"),
    ("СНИЛС 112-233-445 95", "snils"),
    ("ИНН 500100732259", "inn"),
    ("Паспорт серия 45 10 № 123456, выдан ОВД", "passport_rf"),
    ("Телефон: +7 (916) 123-45-67", "phone"),
    ("Почта: anna.smirnova@example.ru", "email"),
    ("Дата рождения: 12.03.1985", "birth_date"),
    ("Карта 2200 7012 3456 7896", "bank_card"),
    ("ОГРН 1027700132195", "ogrn"),
    ("Автомобиль, госномер А123ВС77", "car_plate"),
    ("Полис ОМС 7751 2300 1234 5678", "oms_policy"),
    ("БИК 044525225, счёт 40817810438000012345", "bank_account"),
    ("Диагноз: гипертоническая болезнь II стадии", "health"),
    ("Адрес регистрации: 101000, г. Москва, ул. Ленина, д. 5, кв. 12", "address"),
]
# The clean twin: the same shapes with wrong check digits and without context or names.
CLEAN_RU = [
    "Отдел снабжения: заявка принята",
    "Номер заявки 112-233-445 96",
    "Код партии 500100732258",
    "Артикул 45 10 123456, склад 3",
    "Доставка до 12.03.1985 не выполнялась",
    "Номер сертификата 2200 7012 3456 7895",
    "Регистрационный код 1027700132194",
    "Цена 12 500 рублей, срок поставки 5 дней",
    "Улица Ленина закрыта на ремонт до 5 мая",
]
PLANTED_EN = [
    ("Employee: John Smith", "full_name"),
    ("SNILS 112-233-445 95", "snils"),
    ("INN 500100732259", "inn"),
    ("Phone: +44 20 7946 0958", "phone"),
    ("E-mail: john.smith@example.com", "email"),
    ("Date of birth: 12.03.1985", "birth_date"),
    ("Card 5555 5555 5555 4444", "bank_card"),
]
CLEAN_EN = [
    "Order 112-233-445 96 was shipped",
    "Batch code 500100732258",
    "Certificate 5555 5555 5555 4445",
    "Delivery expected on 12.03.1985",
]


CORPUS = {"ru": (PLANTED_RU, CLEAN_RU), "en": (PLANTED_EN, CLEAN_EN)}
SHEET = {"ru": "Сотрудники", "en": "Staff"}
TITLE = {"ru": "Отчёт за квартал", "en": "Quarterly report"}

# Every format the analyzer reads (docs/analyzer.md), each in both languages with a clean twin
# (AnalyzerTest.test_corpus_<format>_<language>): the writer of a document from lines, the
# request's Content-Type, the type reported, and where the second line (the SNILS) is found.
# Spreadsheets hold one line per row in column A; PDF pages and slides have a title first.
FORMATS = {
    "text": (lambda ls, lang: "\n".join(ls).encode(), "text/plain", "text",
             lambda lang: {"kind": "line", "ref": "2"}),
    # (the page's <title> is its first paragraph)
    "html": (lambda ls, lang: html(ls), "text/html", "html", lambda lang: {"kind": "paragraph", "ref": "3"}),
    "docx": (lambda ls, lang: docx(ls), "application/octet-stream", "docx",
             lambda lang: {"kind": "paragraph", "ref": "2"}),
    "odt": (lambda ls, lang: odt(ls), "application/octet-stream", "odt",
            lambda lang: {"kind": "paragraph", "ref": "2"}),
    "rtf": (lambda ls, lang: rtf(ls), "application/octet-stream", "rtf",
            lambda lang: {"kind": "paragraph", "ref": "2"}),
    "pdf": (lambda ls, lang: pdf([[TITLE[lang]], ls]), "application/octet-stream", "pdf",
            lambda lang: {"kind": "page", "ref": "2"}),
    "xlsx": (lambda ls, lang: xlsx([[l] for l in ls], sheet=SHEET[lang]), "application/octet-stream", "xlsx",
             lambda lang: {"kind": "cell", "ref": "A2", "part": SHEET[lang]}),
    "ods": (lambda ls, lang: ods([[l] for l in ls], sheet=SHEET[lang]), "application/octet-stream", "ods",
            lambda lang: {"kind": "cell", "ref": "A2", "part": SHEET[lang]}),
    "pptx": (lambda ls, lang: pptx([[TITLE[lang]], ls]), "application/octet-stream", "pptx",
             lambda lang: {"kind": "slide", "ref": "2"}),
    "odp": (lambda ls, lang: odp([[TITLE[lang]], ls]), "application/octet-stream", "odp",
            lambda lang: {"kind": "slide", "ref": "2"}),
}


def categories(lines):
    return sorted({c for _, c in lines})


def analyze(body: bytes, *, token: str | None = None, content_type: str = "application/octet-stream",
            query: str = "", source: str | None = None):
    return request("POST", "/api/v1/analyze" + query, data=body, token=token or admin_token(), base=ANALYZER,
                   headers={"Content-Type": content_type}, source=source, timeout=120)


class AnalyzerTest(DozorTestCase):
    @staticmethod
    def wait_ready(seconds: float = 60):
        deadline = time.monotonic() + seconds
        while True:
            h = get("/health", base=ANALYZER)
            if (h.status == 200 and h.json.get("ready")) or time.monotonic() > deadline:
                return h
            time.sleep(0.2)

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        # A stack just started is still loading the model (and OCR data, ClamAV signatures):
        # the tests are about a ready analyzer (readiness itself is the unit tests').
        cls.wait_ready(120)

    def found(self, r) -> set[str]:
        self.assertEqual(r.status, 200, r)
        return {f["category"] for f in r.json["findings"]}

    # ------------------------------------------------------------ readiness and version

    def test_health_is_ready_with_the_model(self):
        r = get("/health", base=ANALYZER)
        self.assertEqual(r.status, 200, r)
        self.assertTrue(r.json["ready"])
        self.assertEqual(r.json["model"]["self_test"], "passed")
        for k in ("uptime_seconds", "documents_analysed", "in_flight"):
            self.assertIsInstance(r.json[k], int, r)

    def test_version_names_the_model_and_its_checksum(self):
        r = get("/version", base=ANALYZER)
        self.assertEqual(r.status, 200, r)
        manifest = (REPO / "share" / "analyzer" / "manifest.json").read_bytes()
        self.assertEqual(r.json["model"]["checksum"], "sha256:" + hashlib.sha256(manifest).hexdigest())
        self.assertEqual(r.json["model"]["version"], json.loads(manifest)["version"])
        self.assertRegex(r.json["model"]["loaded_at"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
        # The analyzer's release (spec §9.3: 1.0.0) apart from the build serving it.
        self.assertEqual(r.json["version"], "1.0.0", r)
        self.assertEqual(r.json["build"], VERSION, r)

    def test_documents_analysed_counts_up(self):
        before = get("/health", base=ANALYZER).json["documents_analysed"]
        self.assertEqual(analyze("Телефон +7 916 123-45-67".encode()).status, 200)
        # Several workers would each count their own; the dev and test stacks run one.
        self.assertGreater(get("/health", base=ANALYZER).json["documents_analysed"], before)

    # ------------------------------------------------------------ the corpus, per format

    def check_pair(self, make, planted, clean, content_type="application/octet-stream"):
        r = analyze(make([t for t, _ in planted]), content_type=content_type)
        self.assertEqual(sorted(self.found(r)), categories(planted), r)
        r2 = analyze(make(clean), content_type=content_type)
        self.assertEqual(self.found(r2), set(), r2)
        return r

    def check_format(self, fmt: str, lang: str):
        """One format in one language: the planted lines give exactly their categories, the SNILS
        (the second line in both languages) where the format locates it, and the clean twin
        gives nothing."""
        make, content_type, doc_type, where = FORMATS[fmt]
        planted, clean = CORPUS[lang]
        r = self.check_pair(lambda ls: make(ls, lang), planted, clean, content_type)
        self.assertEqual(r.json["document"]["type"], doc_type, r)
        snils = [f for f in r.json["findings"] if f["category"] == "snils"]
        self.assertEqual(len(snils), 1, r)
        self.assertEqual(snils[0]["location"], where(lang), r)
        if fmt in ("pdf", "pptx", "odp"):
            # The lines are on the second page or slide, after a title one.
            self.assertEqual({json.dumps(f["location"], sort_keys=True) for f in r.json["findings"]},
                             {json.dumps(where(lang), sort_keys=True)}, r)
        if fmt == "pdf":
            self.assertEqual(r.json["document"]["pages"], 2)

    def test_text_utf8_summary(self):
        r = self.check_pair(lambda ls: "\n".join(ls).encode(), PLANTED_RU, CLEAN_RU, "text/plain")
        self.assertEqual(r.json["document"]["type"], "text")
        self.assertEqual(r.json["summary"]["risk"], "high")
        self.assertTrue(r.json["summary"]["art10"])
        self.assertEqual(r.json["summary"]["special_categories"], ["health"])

    def test_text_windows_1251(self):
        r = self.check_pair(lambda ls: "\n".join(ls).encode("cp1251"), PLANTED_RU, CLEAN_RU, "text/plain")
        self.assertNotEqual(r.json["document"]["charset"], "UTF-8")

    def test_xlsx_cells_use_their_column_header_as_context(self):
        rows = [["ФИО", "СНИЛС", "ИНН", "Телефон"],
                ["Петров Иван Сергеевич", 11223344595, "7707083893", "8 (916) 123-45-67"]]
        r = analyze(xlsx(rows))
        self.assertEqual(self.found(r), {"full_name", "snils", "inn", "phone"})
        inn = [f for f in r.json["findings"] if f["category"] == "inn"][0]
        self.assertEqual(inn["location"], {"kind": "cell", "ref": "C2", "part": "Сотрудники"})
        clean = analyze(xlsx([["Товар", "Код", "Цена"], ["Болт", "7707083893", 120]]))
        self.assertEqual(self.found(clean), set(), clean)  # INN-10 needs its context

    def test_ods_cells_use_their_column_header_as_context(self):
        rows = [["ФИО", "СНИЛС", "ИНН", "Телефон"],
                ["Петров Иван Сергеевич", 11223344595, "7707083893", "8 (916) 123-45-67"]]
        r = analyze(ods(rows, sheet="Кадры"))
        self.assertEqual(r.json["document"]["type"], "ods", r)
        self.assertEqual(self.found(r), {"full_name", "snils", "inn", "phone"})
        snils = [f for f in r.json["findings"] if f["category"] == "snils"][0]
        self.assertEqual(snils["location"], {"kind": "cell", "ref": "B2", "part": "Кадры"})
        clean = analyze(ods([["Товар", "Код", "Цена"], ["Болт", "7707083893", 120]]))
        self.assertEqual(self.found(clean), set(), clean)

    def test_multipart_upload(self):
        boundary = "dozorBoundary42"
        doc = "СНИЛС 112-233-445 95".encode()
        body = (b"--%s\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n"
                b"Content-Type: text/plain\r\n\r\n%s\r\n--%s--\r\n" % (boundary.encode(), doc, boundary.encode()))
        r = analyze(body, content_type="multipart/form-data; boundary=" + boundary)
        self.assertEqual(self.found(r), {"snils"})
        self.assertEqual(r.json["document"]["source"], "multipart")

    def test_url_is_fetched_through_the_egress_policy(self):
        with FixtureServer({"/doc.txt": (200, {"Content-Type": "text/plain"}, "ИНН 500100732259".encode())}) as fx:
            r = request("POST", "/api/v1/analyze", json_body={"url": fx.url("/doc.txt")}, token=admin_token(),
                        base=ANALYZER)
            self.assertEqual(self.found(r), {"inn"})
            self.assertEqual(r.json["document"]["source"], "url")
            r = request("POST", "/api/v1/analyze", json_body={"url": fx.url("/missing")}, token=admin_token(),
                        base=ANALYZER)
            self.assertValidation(r, [("value_error", ["body", "url"])])

    # ------------------------------------------------------------ masking and reveal

    def test_values_are_masked_unless_an_admin_reveals(self):
        doc = "Карта 2200 7012 3456 7896, e-mail anna.smirnova@example.ru".encode()
        r = analyze(doc)
        values = {f["category"]: f["value"] for f in r.json["findings"]}
        self.assertEqual(values["bank_card"], "**** **** **** 7896")
        self.assertEqual(values["email"], "a***@example.ru")
        self.assertNotIn(b"2200 7012", r.body)
        revealed = analyze(doc, query="?reveal=true")
        self.assertEqual({f["category"]: f["value"] for f in revealed.json["findings"]}["bank_card"],
                         "2200 7012 3456 7896")
        user = self.new_user("an")
        self.assertDetail(analyze(doc, token=user.token, query="?reveal=true"), 403)
        self.assertEqual(analyze(doc, token=user.token).status, 200)
        # Nothing of the values reaches the analyzer's log: the stack's own (DOZOR_TEST_STATE),
        # which must be there — a missing log would prove nothing.
        log = STATE_DIR / "log" / "dozor-analyzer.log"
        self.assertTrue(log.is_file(), "no analyzer log at %s" % log)
        text = log.read_text(errors="replace")
        self.assertIn("dozor-analyzer", text, "%s is not the analyzer's log" % log)
        self.assertNotIn("2200 7012 3456 7896", text)
        self.assertNotIn("2200701234567896", text)

    # ------------------------------------------------------------ hostile documents

    def test_zip_bomb_is_refused(self):
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
            z.writestr("[Content_Types].xml", "<Types/>")
            z.writestr("word/document.xml", b"<w:document>" + b" " * (8 << 20) + b"</w:document>")
        self.assertLess(len(buf.getvalue()), 64 << 10)
        r = analyze(buf.getvalue())
        self.assertValidation(r, [("value_error", ["body"])])
        self.assertIn("zip bomb", r.json["detail"][0]["msg"])

    def test_too_many_entries_are_refused(self):
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as z:
            for i in range(10001):
                z.writestr("x/%d" % i, b"")
            z.writestr("word/document.xml", "<w:document/>")
        r = analyze(buf.getvalue())
        self.assertValidation(r, [("value_error", ["body"])])
        self.assertIn("entries", r.json["detail"][0]["msg"])

    def test_billion_laughs_is_refused(self):
        lol = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
               + "".join('<!ENTITY lol%d "%s">' % (i, ("&lol%d;" % (i - 1) if i else "&lol;") * 10) for i in range(10))
               + ']><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
               "<w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>")
        r = analyze(docx([], document_xml=lol))
        self.assertValidation(r, [("value_error", ["body"])])
        self.assertIn("DTD", r.json["detail"][0]["msg"])

    def test_malformed_pdf_is_refused(self):
        r = analyze(b"%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 9 0 R >>\ntrailer << /Root 1 0 R >>\n%%EOF")
        self.assertValidation(r, [("value_error", ["body"])])
        self.assertIn("PDF", r.json["detail"][0]["msg"])

    @unittest.skipUnless(shutil.which("qpdf"), "qpdf (Debian package) makes the encrypted PDF")
    def test_encrypted_pdf_is_refused(self):
        with tempfile.TemporaryDirectory() as d:
            src, dst = os.path.join(d, "a.pdf"), os.path.join(d, "b.pdf")
            with open(src, "wb") as f:
                f.write(pdf([["SNILS 112-233-445 95"]]))
            subprocess.run(["qpdf", "--encrypt", "user-secret", "owner-secret", "256", "--", src, dst], check=True)
            with open(dst, "rb") as f:
                r = analyze(f.read())
        self.assertValidation(r, [("value_error", ["body"])])
        self.assertIn("encrypted", r.json["detail"][0]["msg"])

    def test_a_10000_page_pdf_is_refused_before_any_page_is_read(self):
        many = pdf([["Page %d" % i] for i in range(10000)])
        started = time.monotonic()
        r = analyze(many)
        self.assertValidation(r, [("value_error", ["body"])])
        self.assertIn("10000 pages, more than the 2000 allowed", r.json["detail"][0]["msg"])
        self.assertLess(time.monotonic() - started, 30, "the page count is checked before the pages are read")

    def test_the_page_limit_through_the_api_at_n_and_n_plus_one(self):
        # Each page with a text layer (16+ characters), so OCR leaves them to it.
        r = analyze(pdf([["Page %d of the quarterly report" % i] for i in range(2000)]))
        self.assertEqual(r.status, 200, r.text)
        self.assertEqual(r.json["document"]["pages"], 2000)
        self.assertEqual(r.json["document"]["ocr_pages"], 0)
        r = analyze(pdf([["Page %d of the quarterly report" % i] for i in range(2001)]))
        self.assertValidation(r, [("value_error", ["body"])])
        self.assertIn("2001 pages", r.json["detail"][0]["msg"])

    def test_an_analyzer_killed_mid_document_answers_503_and_recovers(self):
        master = int((STATE_DIR / "run" / "dozor-analyzer.pid").read_text().strip())
        workers = child_pids(master)
        self.assertTrue(workers, "the analyzer's master has no worker")
        # Tens of MiB of dense personal data: seconds of work, so the kill lands mid-document.
        line = "Смирнова Анна Сергеевна, СНИЛС 112-233-445 95, тел. +7 (916) 123-45-67, anna@example.ru\n"
        body = (line * ((36 << 20) // len(line.encode()))).encode()
        answer = {}
        caller = threading.Thread(target=lambda: answer.update(r=analyze(body, content_type="text/plain")))
        caller.start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and get("/health", base=ANALYZER).json.get("in_flight", 0) < 1:
            time.sleep(0.05)
        self.assertLess(time.monotonic(), deadline, "the document never reached the analyzer")
        for pid in workers:
            os.kill(pid, signal.SIGKILL)
        # The supervisor starts a new worker; it is ready once its model is loaded again (waited
        # for even when an assertion below fails, so the tests after this one find it ready).
        self.addCleanup(self.wait_ready)
        caller.join(120)
        r = answer["r"]
        self.assertEqual(r.status, 503, r.text)
        self.assertIn("Analyzer unavailable", r.json["detail"])
        self.assertEqual(r.headers.get("Retry-After"), "5")
        self.assertEqual(self.wait_ready().status, 200)
        self.assertFalse(workers & child_pids(master), "the killed worker is still there")
        r = analyze("СНИЛС 112-233-445 95".encode(), content_type="text/plain")
        self.assertEqual(r.status, 200, r.text)
        self.assertEqual(self.found(r), {"snils"})

    # ------------------------------------------------------------ API errors

    def test_unsupported_type_is_415(self):
        # (Images are read by OCR in this stack: test_analyzer_ocr.)
        r = analyze(b"\x7fELF\x02\x01\x01" + b"\0" * 64)
        self.assertDetail(r, 415)
        self.assertIn("executable", r.json["detail"])

    def test_too_large_is_413(self):
        r = analyze(b"a" * (MAX_DOCUMENT + 1), content_type="text/plain")
        self.assertDetail(r, 413)
        self.assertIn("analyzer.max_document", r.json["detail"])

    def test_bad_input_is_422(self):
        r = request("POST", "/api/v1/analyze", data=b"{not json", token=admin_token(), base=ANALYZER,
                    headers={"Content-Type": "application/json"})
        self.assertValidation(r, [("json_invalid", ["body"])])
        r = request("POST", "/api/v1/analyze", json_body={"url": 5}, token=admin_token(), base=ANALYZER)
        self.assertValidation(r, [("string_type", ["body", "url"])])
        r = request("POST", "/api/v1/analyze", json_body={"url": "ftp://x/y"}, token=admin_token(), base=ANALYZER)
        self.assertValidation(r, [("url_scheme", ["body", "url"])])
        r = analyze(b"", content_type="text/plain")
        self.assertValidation(r, [("missing", ["body"])])
        r = analyze(b"x", query="?reveal=maybe")
        self.assertValidation(r, [("bool_parsing", ["query", "reveal"])])

    def test_token_is_required(self):
        r = request("POST", "/api/v1/analyze", data=b"text", base=ANALYZER, headers={"Content-Type": "text/plain"})
        self.assertUnauthenticated(r)
        forged = jwt_encode({"alg": "HS256", "typ": "JWT"}, {"sub": 1, "adm": True, "exp": 4102444800}, b"wrong key")
        self.assertUnauthenticated(analyze(b"text", token=forged))
        key = jwt_signing_key(admin_token())
        expired = jwt_encode({"alg": "HS256", "typ": "JWT"}, {"sub": 1, "name": "admin", "adm": True, "iat": 1,
                                                              "exp": 2, "ver": 0}, key)
        self.assertUnauthenticated(analyze(b"text", token=expired))

    def test_unknown_route_and_method(self):
        self.assertDetail(get("/nope", base=ANALYZER), 404)
        r = get("/api/v1/analyze", base=ANALYZER)
        self.assertDetail(r, 405)
        self.assertEqual(r.header("Allow"), "POST")

    # ------------------------------------------------------------ OpenAPI

    def test_openapi_document_describes_the_served_routes(self):
        r = get("/api/v1/openapi.json", base=ANALYZER)
        self.assertEqual(r.status, 200, r)
        doc = r.json
        self.assertEqual(doc["openapi"], "3.1.0")
        self.assertEqual(set(doc["paths"]), {"/health", "/version", "/api/v1/analyze", "/api/v1/malware_scan",
                                             "/api/v1/openapi.json"})

        def refs(node):
            if isinstance(node, dict):
                for k, v in node.items():
                    if k == "$ref":
                        yield v
                    else:
                        yield from refs(v)
            elif isinstance(node, list):
                for v in node:
                    yield from refs(v)

        for ref in refs(doc):
            self.assertTrue(ref.startswith("#/components/schemas/"), ref)
            self.assertIn(ref.rsplit("/", 1)[1], doc["components"]["schemas"], ref)
        for path, item in doc["paths"].items():
            for method, op in item.items():
                self.assertIn("200", op["responses"])
                # Every documented operation is served: no 404 or 405 for it.
                if method == "get":
                    self.assertNotIn(get(path, base=ANALYZER).status, (404, 405), path)
        self.assertEqual(doc["paths"]["/api/v1/analyze"]["post"]["security"], [{"bearerAuth": []}])
        # OpenAPI 3.1's objects as the document uses them, and every schema a valid JSON Schema
        # 2020-12 (the dialect 3.1 names) — with Debian's python3-jsonschema, always.
        from jsonschema import Draft202012Validator
        dialect = "https://spec.openapis.org/oas/3.1/dialect/base"
        self.assertEqual(doc.get("jsonSchemaDialect", dialect), dialect)
        self.assertTrue(doc["info"]["title"] and doc["info"]["version"])
        for name, schema in doc["components"]["schemas"].items():
            Draft202012Validator.check_schema(schema)
        for name, scheme in doc["components"]["securitySchemes"].items():
            self.assertIn(scheme["type"], ("http", "apiKey", "oauth2", "openIdConnect", "mutualTLS"), name)
        for path, item in doc["paths"].items():
            self.assertTrue(path.startswith("/"), path)
            for method, op in item.items():
                self.assertIn(method, ("get", "put", "post", "delete", "options", "head", "patch", "trace"), path)
                for status, resp in op["responses"].items():
                    self.assertRegex(status, r"^[1-5][0-9][0-9]$", (path, method))
                    self.assertTrue(resp["description"], (path, method, status))
                    for media in resp.get("content", {}).values():
                        Draft202012Validator.check_schema(media["schema"])
                for media in op.get("requestBody", {}).get("content", {}).values():
                    Draft202012Validator.check_schema(media.get("schema", {}))
                for req in op.get("security", []):
                    for scheme in req:
                        self.assertIn(scheme, doc["components"]["securitySchemes"])
        # A fuller validator where one is installed (PyPI's openapi-spec-validator; not in Debian 12).
        try:
            from openapi_spec_validator import validate
        except ImportError:
            return
        validate(doc)

    # ------------------------------------------------------------ nginx's allow list

    def test_a_refused_source_gets_nginx_403(self):
        ok = get("/health", base=ANALYZER, source="127.0.0.1")
        self.assertEqual(ok.status, 200, ok)
        self.assertEqual(ok.header("Cache-Control"), "no-store")  # the analyzer's own answer
        for path in ("/health", "/version", "/api/v1/openapi.json"):
            r = get(path, base=ANALYZER, source="127.0.0.2")
            self.assertDetail(r, 403, "Forbidden")
            # nginx answered: the backend sets Cache-Control on every answer, nginx's return does not.
            self.assertIsNone(r.header("Cache-Control"), r)
        r = analyze(b"text", source="127.0.0.2")
        self.assertDetail(r, 403, "Forbidden")


def _corpus_test(fmt: str, lang: str):
    def test(self):
        self.check_format(fmt, lang)
    test.__doc__ = "%s in %s: planted personal data found and located, the clean twin clean" % (fmt, lang)
    return test


for _fmt in FORMATS:
    for _lang in CORPUS:
        setattr(AnalyzerTest, "test_corpus_%s_%s" % (_fmt, _lang), _corpus_test(_fmt, _lang))


if __name__ == "__main__":
    unittest.main()
