"""Issue 11 §2: the full audit hands the site's own documents to dozor-analyzer
(engines/audit/documents, docs/audit.md "Documents"): a public document carrying personal data
is a 152-FZ finding with the document's URL, the categories and masked samples as evidence;
clean documents and documents of other sites are not; the DOCX report has the section."""

from __future__ import annotations

import io
import unittest
import zipfile

import dozor_client as dc
from test_analyzer import CLEAN_RU, PLANTED_EN, PLANTED_RU, docx, pdf

PLANTED_TEXT = [text for text, _ in PLANTED_RU]
PASSPORT_DIGITS = "123456"  # of PLANTED_RU's passport line: never shown unmasked
SNILS = "112-233-445 95"


class Site(dc.FixtureServer):
    """A site whose pages link a staff list (DOCX, personal data), a price list (PDF, English
    names and contacts), a clean order form (DOCX) and a document on another site."""

    def __init__(self):
        page = ("<html><body><h1>Company</h1>"
                "<a href='/files/staff.docx'>Staff</a> <a href='/files/price-list.pdf'>Prices</a>"
                "<a href='/about'>About</a>"
                "<a href='http://127.0.0.1:9/elsewhere.pdf'>Partner</a></body></html>")
        about = "<html><body><a href='/files/order-form.docx'>Order form</a><a href='/files/staff.docx'>again</a></body></html>"
        docx_type = {"Content-Type": "application/vnd.openxmlformats-officedocument.wordprocessingml.document"}
        super().__init__({
            "/": (200, {"Content-Type": "text/html"}, page),
            "/about": (200, {"Content-Type": "text/html"}, about),
            "/files/staff.docx": (200, docx_type, docx(PLANTED_TEXT)),
            "/files/price-list.pdf": (200, {"Content-Type": "application/pdf"},
                                      pdf([[text for text, _ in PLANTED_EN[:1]] + [PLANTED_EN[3][0], PLANTED_EN[4][0]]])),
            "/files/order-form.docx": (200, docx_type, docx(CLEAN_RU)),
        })


class AuditDocuments(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = dc.create_user("docs")
        cls.site = Site().__enter__()
        r = dc.post("/api/audit/%s" % dc.enc(cls.site.url("/")), token=cls.user.token, timeout=120)
        assert r.status == 200, r.text
        cls.body = r.json
        cls.audit_paths = [x["path"] for x in cls.site.requests]  # before other tests crawl it again

    @classmethod
    def tearDownClass(cls):
        cls.site.__exit__(None, None, None)
        dc.delete_user(cls.user.id)

    def rows(self):
        return {row["url"]: row for row in self.body["documents"]["documents"]}

    def test_the_site_s_documents_are_read_and_listed(self):
        part = self.body["documents"]
        rows = self.rows()
        own = {self.site.url(p) for p in ("/files/staff.docx", "/files/price-list.pdf", "/files/order-form.docx")}
        self.assertEqual(set(rows), own, "only the site's own documents, each once")
        self.assertEqual(part["found"], 3)
        self.assertEqual(part["analysed"], 3, part)
        self.assertEqual(part["with_personal_data"], 2, part)
        staff = rows[self.site.url("/files/staff.docx")]
        self.assertEqual((staff["type"], staff["risk"]), ("docx", "high"), staff)
        for cat in ("passport_rf", "snils", "inn", "full_name"):
            self.assertGreaterEqual(staff["counts"].get(cat, 0), 1, staff)
        self.assertIn("health", staff["special_categories"])
        clean = rows[self.site.url("/files/order-form.docx")]
        self.assertEqual((clean["risk"], clean["counts"]), ("none", {}), clean)
        self.assertEqual(rows[self.site.url("/files/price-list.pdf")]["type"], "pdf")
        self.assertNotIn("documents", {e["check"] for e in self.body["errors"]}, self.body["errors"])
        # The documents were fetched from the site by the audit itself, each once.
        self.assertEqual(self.audit_paths.count("/files/staff.docx"), 1, self.audit_paths)

    def test_a_document_with_personal_data_is_a_finding_with_masked_evidence(self):
        found = [f for f in self.body["findings"] if f["check"] == "personal-data-in-public-document"]
        by_url = {f["evidence"][0]["url"]: f for f in found}
        self.assertEqual(set(by_url), {self.site.url("/files/staff.docx"), self.site.url("/files/price-list.pdf")})
        staff = by_url[self.site.url("/files/staff.docx")]
        self.assertEqual(staff["severity"], "high")
        self.assertEqual((staff["owasp"], staff["cwe"]), ("A01:2021", 359))
        self.assertIn("152-FZ art. 21 part 3.1", staff["references"])
        self.assertIn("special categories", staff["description"])
        excerpt = staff["evidence"][0]["excerpt"]
        lines = excerpt.splitlines()
        self.assertTrue(1 <= len(lines) <= 5, excerpt)  # limits::kAuditDocumentSamples
        self.assertNotIn(PASSPORT_DIGITS, excerpt)
        self.assertNotIn(SNILS, excerpt)
        self.assertIn("masked", staff["evidence"][0]["note"])
        # The score pays for it like any other high finding.
        self.assertIn(staff["severity"], self.body["counts"])

    def test_the_compliance_check_reads_the_documents_too(self):
        r = dc.get("/api/compliance/%s" % dc.enc(self.site.url("/")), token=self.user.token, timeout=120)
        self.assertEqual(r.status, 200, r)
        part = r.json["documents"]
        self.assertEqual((part["found"], part["analysed"], part["with_personal_data"]), (3, 3, 2), part)
        self.assertNotIn("error", part)
        checks = [f["check"] for f in r.json["findings"]]
        self.assertEqual(checks.count("personal-data-in-public-document"), 2, checks)

    def test_the_docx_report_has_the_documents_section(self):
        r = dc.get("/api/audit/%s/report?lang=en" % dc.enc(self.site.url("/")), token=self.user.token, timeout=120)
        self.assertEqual(r.status, 200, r)
        with zipfile.ZipFile(io.BytesIO(r.body)) as z:
            xml = z.read("word/document.xml").decode()
        self.assertIn("Personal data in the site", xml)
        self.assertIn("/files/staff.docx", xml)
        self.assertIn("passport_rf", xml)
        self.assertNotIn(PASSPORT_DIGITS, xml)
        r = dc.get("/api/audit/%s/report?lang=ru" % dc.enc(self.site.url("/")), token=self.user.token, timeout=120)
        with zipfile.ZipFile(io.BytesIO(r.body)) as z:
            self.assertIn("Персональные данные в документах сайта", z.read("word/document.xml").decode())


if __name__ == "__main__":
    unittest.main()
