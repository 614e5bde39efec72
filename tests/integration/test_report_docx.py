"""The DOCX audit report, for real: `dozorctl report-docx` renders a rich stored-audit JSON
(tests/fixtures/audit/full_audit.json: every severity, compliance sets, technologies, TLS,
geolocation, a failed check, Russian text) in Russian and English; python-docx opens the files
and LibreOffice converts them to PDF, whose text pdftotext reads back.

python3-docx, libreoffice-writer-nogui and poppler-utils come from Debian (scripts/setup). A
missing tool fails the test: the report's claim is that real readers open it.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

import dozor_client as dc

try:
    import docx  # python3-docx
except ImportError:  # an interpreter outside Debian's (pyenv): Debian's package is pure Python
    sys.path.append("/usr/lib/python3/dist-packages")
    import docx  # noqa: E402

FIXTURE = dc.REPO / "tests" / "fixtures" / "audit" / "full_audit.json"
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
LIBREOFFICE_TIMEOUT = 240


def dozorctl(*args: str) -> subprocess.CompletedProcess:
    # No --config: report-docx needs neither the config file nor the database.
    return subprocess.run([str(dc.BIN_DIR / "dozorctl"), *args], capture_output=True, text=True, timeout=60)


def headings(document, level: int) -> list[str]:
    return [p.text for p in document.paragraphs if p.style.name == "Heading %d" % level]


def cell_fill(cell) -> str | None:
    shd = cell._tc.find("%stcPr/%sshd" % (W, W))
    return None if shd is None else shd.get(W + "fill")


class ReportDocxTest(unittest.TestCase):
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="dozor-docx-")
        cls.files = {}
        cls.render_ms = {}
        for lang in ("ru", "en"):
            out = os.path.join(cls.tmp, "audit-%s.docx" % lang)
            started = time.monotonic()
            r = dozorctl("report-docx", "--input", str(FIXTURE), "--lang", lang, "--output", out)
            cls.render_ms[lang] = (time.monotonic() - started) * 1000
            if r.returncode != 0:
                raise AssertionError("dozorctl report-docx --lang %s failed: %s" % (lang, r.stderr))
            cls.files[lang] = out
            cls.stdout = r.stdout

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_cli_reports_the_size_and_the_rfc6266_filename(self):
        self.assertRegex(self.stdout, r"report: .*audit-en\.docx: \d+ bytes in \d+ ms")
        self.assertIn(
            "Content-Disposition: attachment; filename=\"dozor-audit-xn--e1afmkfd.xn--p1ai-2026-11-23.docx\"; "
            "filename*=UTF-8''dozor-audit-%D0%BF%D1%80%D0%B8%D0%BC%D0%B5%D1%80.%D1%80%D1%84-2026-11-23.docx",
            self.stdout)
        print("\n[report-docx] sizes: ru %d B, en %d B; wall time per render (process included): ru %.0f ms, en %.0f ms"
              % (os.path.getsize(self.files["ru"]), os.path.getsize(self.files["en"]),
                 self.render_ms["ru"], self.render_ms["en"]), file=sys.stderr)

    def test_cli_refuses_bad_arguments_and_bad_input(self):
        out = os.path.join(self.tmp, "bad.docx")
        r = dozorctl("report-docx", "--input", str(FIXTURE), "--lang", "de", "--output", out)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("report-docx", r.stderr)  # the usage
        bad = os.path.join(self.tmp, "bad.json")
        for text, message in (("{\"findings\": [", "dozorctl:"), ("[1, 2]", "must be an object")):
            with open(bad, "w") as f:
                f.write(text)
            r = dozorctl("report-docx", "--input", bad, "--output", out)
            self.assertEqual(r.returncode, 1, r.stdout)
            self.assertIn(message, r.stderr)
        self.assertFalse(os.path.exists(out))

    def test_python_docx_reads_the_russian_report(self):
        d = docx.Document(self.files["ru"])
        titles = [p.text for p in d.paragraphs if p.style.name == "Title"]
        self.assertEqual(titles, ["Dozor"])
        self.assertEqual(headings(d, 1), [
            "Краткие выводы", "Найденные проблемы", "Заголовки безопасности HTTP", "Технологии", "TLS",
            "Соответствие требованиям", "Геолокация", "Проверки, завершившиеся ошибкой"])
        h2 = headings(d, 2)
        # Findings most severe first, each with its number; the compliance sets by title and id.
        self.assertEqual([h for h in h2 if re.match(r"\d+\. ", h)], [
            "1. Git repository exposed (/.git/HEAD)", "2. jQuery 1.12.4: CVE-2020-11022 <XSS> & \"friends\"",
            "3. Cookie PHPSESSID без флага Secure", "4. Сторонний скрипт без SRI", "5. Server version disclosed"])
        self.assertIn("Персональные данные (152-ФЗ) (152-FZ)", h2)
        self.assertIn("Technical regulator (FSTEC) (SEC)", h2)
        text = "\n".join(p.text for p in d.paragraphs)
        self.assertIn("Отчёт об аудите безопасности", text)
        self.assertIn("https://пример.рф/", text)
        self.assertIn("Оценка: C", text)
        self.assertIn("Запрос: GET /.git/HEAD HTTP/1.1", text)
        self.assertIn("Ответ: HTTP/1.1 200 OK", text)
        self.assertIn("Установите атрибут Secure для всех cookie сеанса.", text)
        self.assertIn("PD-03: Добавьте в форму обратной связи флажок согласия", text)
        props = d.core_properties
        self.assertEqual(props.author, "Dozor")
        self.assertEqual(props.title, "Dozor: Отчёт об аудите безопасности — https://пример.рф/")
        self.assertEqual(props.language, "ru-RU")
        self.assertIsNotNone(props.created)

    def test_python_docx_reads_the_tables_with_coloured_severities(self):
        d = docx.Document(self.files["ru"])
        by_header = {tuple(c.text for c in t.rows[0].cells): t for t in d.tables}
        counts = by_header[("Уровень риска", "Количество")]
        self.assertEqual([[c.text for c in r.cells] for r in counts.rows[1:]], [
            ["Критический", "1"], ["Высокий", "1"], ["Средний", "1"], ["Низкий", "1"], ["Информация", "1"],
            ["Всего", "5"]])
        fills = [cell_fill(r.cells[0]) for r in counts.rows[1:6]]
        self.assertEqual(len(set(fills)), 5, fills)  # one colour per severity
        findings = by_header[("№", "Уровень риска", "Проблема", "OWASP", "CWE")]
        self.assertEqual([c.text for c in findings.rows[1].cells],
                         ["1", "Критический", "Git repository exposed (/.git/HEAD)", "A05:2021", "CWE-538"])
        self.assertEqual(cell_fill(findings.rows[1].cells[1]), fills[0])
        self.assertEqual(findings.rows[5].cells[3].text, "")  # no OWASP category
        compliance = [t for t in d.tables if [c.text for c in t.rows[0].cells][:3] == ["№", "Требование", "Статус"]]
        self.assertEqual(len(compliance), 2)
        rows = [[c.text for c in r.cells] for r in compliance[0].rows[1:]]
        self.assertEqual([r[:4] for r in rows], [
            ["PD-01", "Опубликована политика обработки персональных данных", "Выполнено", "152-ФЗ, ст. 18.1 ч. 2"],
            ["PD-03", "Согласие на обработку персональных данных в формах", "Не выполнено", "152-ФЗ, ст. 9"],
            ["PD-09", "Локализация баз данных на территории РФ", "Требует ручной проверки", "152-ФЗ, ст. 18 ч. 5"],
            ["PD-12", "Cookie-баннер", "Неприменимо", "152-ФЗ, ст. 6"]])
        self.assertIn("https://пример.рф/feedback/", rows[1][4])
        self.assertIn("<form action=\"/send\">", rows[1][4])
        self.assertEqual(len({cell_fill(r.cells[2]) for r in compliance[0].rows[1:]}), 4)
        techs = by_header[("Название", "Версия", "Категории", "Достоверность")]
        self.assertEqual([c.text for c in techs.rows[3].cells], ["Яндекс.Метрика", "", "Analytics", "90"])
        protocols = by_header[("Протокол", "Поддерживается")]
        self.assertEqual([[c.text for c in r.cells] for r in protocols.rows[1:]],
                         [["TLSv1.0", "да"], ["TLSv1.1", "нет"], ["TLSv1.2", "да"], ["TLSv1.3", "да"]])
        self.assertNotEqual(cell_fill(protocols.rows[1].cells[1]), cell_fill(protocols.rows[3].cells[1]))
        errors = by_header[("Проверка", "Ошибка")]
        self.assertEqual([c.text for c in errors.rows[1].cells], ["exposures", "time budget exceeded after 40 requests"])

    def test_python_docx_reads_the_english_report(self):
        d = docx.Document(self.files["en"])
        self.assertEqual(headings(d, 1), [
            "Executive summary", "Findings", "HTTP security headers", "Technologies", "TLS", "Compliance",
            "Geolocation", "Checks that failed"])
        self.assertIn("Top findings", headings(d, 2))
        text = "\n".join(p.text for p in d.paragraphs)
        self.assertIn("Security audit report", text)
        self.assertIn("Grade: C", text)
        self.assertNotIn("Краткие выводы", text)
        # Data stays as stored: Russian finding titles appear in the English report unchanged.
        self.assertIn("3. Cookie PHPSESSID без флага Secure", headings(d, 2))
        self.assertEqual(d.core_properties.language, "en-US")

    def test_empty_parts_leave_no_headings(self):
        audit = json.loads(FIXTURE.read_text())
        audit.update({"headers": None, "technologies": [], "tls": None, "compliance": {"sets": []}, "geo": None,
                      "findings": [], "errors": [], "counts": {k: 0 for k in audit["counts"]}})
        src = os.path.join(self.tmp, "empty.json")
        out = os.path.join(self.tmp, "empty.docx")
        with open(src, "w") as f:
            json.dump(audit, f, ensure_ascii=False)
        r = dozorctl("report-docx", "--input", src, "--lang", "en", "--output", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        d = docx.Document(out)
        self.assertEqual(headings(d, 1), ["Executive summary"])
        self.assertEqual(headings(d, 2) + headings(d, 3), [])
        self.assertEqual(len(d.tables), 0)
        self.assertIn("No security problems were found.", [p.text for p in d.paragraphs])

    def test_libreoffice_converts_both_reports_to_pdf(self):
        office = shutil.which("libreoffice") or shutil.which("soffice")
        self.assertIsNotNone(office, "libreoffice is not installed (scripts/setup installs libreoffice-writer-nogui)")
        self.assertIsNotNone(shutil.which("pdftotext"), "pdftotext is missing (poppler-utils)")
        # A private profile and HOME: parallel runs and a user's own LibreOffice do not clash.
        profile = tempfile.mkdtemp(prefix="dozor-lo-")
        self.addCleanup(shutil.rmtree, profile, True)
        outdir = os.path.join(self.tmp, "pdf")
        env = {**os.environ, "HOME": profile}
        started = time.monotonic()
        r = subprocess.run([office, "-env:UserInstallation=file://" + profile + "/profile", "--headless",
                            "--convert-to", "pdf", "--outdir", outdir, self.files["ru"], self.files["en"]],
                           capture_output=True, text=True, timeout=LIBREOFFICE_TIMEOUT, env=env)
        elapsed = time.monotonic() - started
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertNotRegex(r.stdout + r.stderr, r"(?i)\berror\b", r.stdout + r.stderr)
        print("\n[report-docx] libreoffice converted 2 reports in %.1f s" % elapsed, file=sys.stderr)
        texts = {}
        for lang in ("ru", "en"):
            pdf = Path(outdir) / ("audit-%s.pdf" % lang)
            self.assertTrue(pdf.exists(), "%s: %s" % (pdf, r.stdout))
            self.assertGreater(pdf.stat().st_size, 1000)
            self.assertEqual(pdf.read_bytes()[:5], b"%PDF-")
            t = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, timeout=60)
            self.assertEqual(t.returncode, 0, t.stderr)
            texts[lang] = re.sub(r"[ \t]+", " ", t.stdout)
        ru, en = texts["ru"], texts["en"]
        self.assertIn("Отчёт об аудите безопасности", ru)
        self.assertRegex(ru, r"Оценка: C\b")
        self.assertIn("Персональные данные (152-ФЗ)", ru)
        self.assertIn("Критический", ru)
        # The footer's fields were computed: page 1 of N, N > 1.
        pages = re.search(r"Dozor · пример\.рф · стр\. 1 из (\d+)", ru)
        self.assertIsNotNone(pages, ru[:2000])
        self.assertGreater(int(pages.group(1)), 1)
        self.assertIn("Security audit report", en)
        self.assertRegex(en, r"Grade: C\b")
        self.assertRegex(en, r"page 1 of \d+")


if __name__ == "__main__":
    unittest.main()
