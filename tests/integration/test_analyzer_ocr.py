"""OCR in dozor-analyzer (analyzer.ocr, on in the test stack; docs/analyzer.md "OCR"): images and
a scanned PDF page read by Tesseract through nginx's internal listener, their personal data found
and located, and hostile images refused with the reason while the analyzer keeps answering. The
fixtures come from tests/fixtures/ocr/make_fixtures.py (a form: a name, a SNILS, an INN)."""

from __future__ import annotations

import struct
import unittest
import zlib

from dozor_client import REPO, DozorTestCase, get
from test_analyzer import ANALYZER, analyze

CORPUS = REPO / "tests" / "fuzz" / "corpus"


def fixture(name: str) -> bytes:
    return (CORPUS / name).read_bytes()


def png_header(width: int, height: int) -> bytes:
    chunk = b"IHDR" + struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    end = struct.pack(">I", 0) + b"IEND" + struct.pack(">I", zlib.crc32(b"IEND"))
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + chunk + struct.pack(">I", zlib.crc32(chunk)) + end


class AnalyzerOcrTest(DozorTestCase):
    def findings(self, r) -> set[tuple[str, str]]:
        self.assertEqual(r.status, 200, r)
        return {(f["category"], f["location"]["ref"]) for f in r.json["findings"]}

    def test_health_says_ocr_is_on_with_its_languages(self):
        r = get("/health", base=ANALYZER)
        self.assertEqual(r.status, 200, r)
        self.assertEqual(r.json["ocr"], {"enabled": True, "languages": "rus+eng"})

    def test_a_png_and_a_jpeg_are_read(self):
        for name, ctype in (("form.png", "image/png"), ("form.jpg", "image/jpeg")):
            with self.subTest(name):
                r = analyze(fixture("analyzer_image/" + name), content_type=ctype)
                self.assertEqual({c for c, _ in self.findings(r)}, {"full_name", "snils", "inn"}, r)
                doc = r.json["document"]
                self.assertEqual((doc["type"], doc["pages"], doc["ocr_pages"]), ("image", 1, 1), r)
                # Masked as for any other document.
                snils = next(f for f in r.json["findings"] if f["category"] == "snils")
                self.assertTrue(snils["masked"], r)
                self.assertNotIn("112-233-445", snils["value"], r)

    def test_every_page_of_a_tiff_is_read_and_located(self):
        r = analyze(fixture("analyzer_image/two-pages.tif"), content_type="image/tiff")
        self.assertEqual(self.findings(r), {("snils", "1"), ("inn", "2")}, r)
        self.assertEqual(r.json["document"]["pages"], 2, r)

    def test_a_scanned_pdf_page_is_read(self):
        r = analyze(fixture("analyzer_pdf/scanned-form.pdf"), content_type="application/pdf")
        self.assertEqual({c for c, _ in self.findings(r)}, {"full_name", "snils", "inn"}, r)
        doc = r.json["document"]
        self.assertEqual((doc["type"], doc["pages"], doc["ocr_pages"], doc["pages_without_text"]),
                         ("pdf", 1, 1, 0), r)

    def test_only_the_page_without_a_text_layer_is_read_by_ocr(self):
        # Page 1 is a title ("Intro"), page 2 a full page of text.
        r = analyze(fixture("analyzer_pdf/two-pages.pdf"), content_type="application/pdf")
        self.assertEqual(r.status, 200, r)
        self.assertEqual((r.json["document"]["pages"], r.json["document"]["ocr_pages"]), (2, 1), r)

    def test_hostile_images_are_refused_with_the_reason(self):
        cases = (
            (b"\x89PNG\r\n\x1a\n" + b"\0" * 64, "the image cannot be decoded"),
            (png_header(8001, 5000), "8001\u00d75000 pixels, more than the 40000000 allowed"),
            (b"GIF89a\xff\xff\xff\xff" + b"\0" * 20, "65535\u00d765535 pixels"),
        )
        for body, reason in cases:
            with self.subTest(reason):
                r = analyze(body, content_type="image/png")
                self.assertEqual(r.status, 422, r)
                self.assertIn(reason, str(r.json), r)
        # The analyzer is still there and still reads.
        self.assertEqual(get("/health", base=ANALYZER).status, 200)
        r = analyze(fixture("analyzer_image/form.png"), content_type="image/png")
        self.assertIn("snils", {c for c, _ in self.findings(r)})


if __name__ == "__main__":
    unittest.main()
