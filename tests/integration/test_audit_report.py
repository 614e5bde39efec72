"""Issue 8 §3: the DOCX report routes (GET /api{,/v1}/audit/{target}/report and
GET /api/security/audit/download/{target}) render the caller's latest stored audit of the target,
and run and store one first when there is none. python-docx reads the answer back; the
LibreOffice round trip of the same writer is test_report_docx.py's."""

import io
import sys

import dozor_client as dc
import test_full_audit as fa

try:
    import docx  # python3-docx
except ImportError:  # an interpreter outside Debian's (pyenv): Debian's package is pure Python
    sys.path.append("/usr/lib/python3/dist-packages")
    import docx  # noqa: E402

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"



def text_of(body: bytes) -> str:
    document = docx.Document(io.BytesIO(body))
    parts = [p.text for p in document.paragraphs]
    for table in document.tables:
        for row in table.rows:
            parts.extend(cell.text for cell in row.cells)
    return "\n".join(parts)


def audits_of(user, target: str) -> int:
    return int(dc.db_query("SELECT COUNT(*) FROM audits WHERE user_id = %d AND target = '%s'"
                           % (user.id, target.replace("'", "''")))[0][0])


class AuditReport(dc.DozorTestCase):
    @classmethod
    def setUpClass(cls):
        cls.user = dc.create_user("rp")
        cls.site = fa.Site().__enter__()
        cls.target = cls.site.url("/")
        r = fa.audit(cls.user, cls.target)
        assert r.status == 200, r.text
        cls.audit = r.json

    @classmethod
    def tearDownClass(cls):
        cls.site.__exit__(None, None, None)
        dc.delete_user(cls.user.id)

    def assertDocx(self, r):
        self.assertEqual(r.status, 200, r.text[:300])
        self.assertEqual(r.header("Content-Type"), DOCX)
        disposition = r.header("Content-Disposition") or ""
        self.assertRegex(disposition, r'^attachment; filename="dozor-audit-127\.0\.0\.1-\d{4}-\d\d-\d\d\.docx"; '
                                      r"filename\*=UTF-8''dozor-audit-127\.0\.0\.1-\d{4}-\d\d-\d\d\.docx$")
        return text_of(r.body)

    def test_every_route_and_encoding_renders_the_stored_audit_without_running_another(self):
        before = audits_of(self.user, self.target)
        titles = {f["title"] for f in self.audit["findings"] if f["severity"] in ("high", "critical", "medium")}
        self.assertTrue(titles, self.audit["findings"])
        routes = ("/api/v1/audit/%s/report", "/api/audit/%s/report", "/api/security/audit/download/%s")
        paths = [route % target for route in routes for target in (dc.enc(self.target), self.target)]
        for path in paths:
            with self.subTest(path=path):
                text = self.assertDocx(dc.get(path, token=self.user.token, timeout=60))
                self.assertIn(self.target, text)
                self.assertIn(self.audit["grade"], text)
                for title in titles:
                    self.assertIn(title, text)
        self.assertEqual(audits_of(self.user, self.target), before)

    def test_lang_chooses_the_reports_language_and_is_validated(self):
        ru = self.assertDocx(dc.get("/api/v1/audit/%s/report" % dc.enc(self.target), token=self.user.token))
        en = self.assertDocx(dc.get("/api/v1/audit/%s/report?lang=en" % dc.enc(self.target), token=self.user.token))
        self.assertRegex(ru, "[А-Яа-я]{4,}")
        self.assertIn("Executive summary", en)
        self.assertNotIn("Executive summary", ru)
        r = dc.get("/api/v1/audit/%s/report?lang=de" % dc.enc(self.target), token=self.user.token)
        self.assertValidation(r, [("enum", ["query", "lang"])])

    def test_without_a_stored_audit_one_is_run_and_kept(self):
        user = self.new_user("rq")
        with dc.FixtureServer({"/": (200, {"Content-Type": "text/html"}, "<title>Plain</title><p>hi</p>")}) as fx:
            target = fx.url("/")
            self.assertEqual(audits_of(user, target), 0)
            text = self.assertDocx(dc.get("/api/security/audit/download/%s" % dc.enc(target), token=user.token,
                                          timeout=120))
            self.assertIn(target, text)
            self.assertEqual(audits_of(user, target), 1)
            # The next download renders that one: no second audit.
            self.assertDocx(dc.get("/api/audit/%s/report" % dc.enc(target), token=user.token))
            self.assertEqual(audits_of(user, target), 1)

    def test_validation_and_auth(self):
        self.assertUnauthenticated(dc.get("/api/v1/audit/%s/report" % dc.enc(self.target)))
        self.assertUnauthenticated(dc.get("/api/security/audit/download/%s" % dc.enc(self.target)))
        r = dc.get("/api/v1/audit/%s/report" % dc.enc("ftp://example.com/"), token=self.user.token)
        self.assertValidation(r, [("url_scheme", ["path", "target_url"])])
        # Another user's stored audit is never rendered for them: they get an audit of their own.
        other = self.new_user("rr")
        before = audits_of(self.user, self.target)
        self.assertDocx(dc.get("/api/v1/audit/%s/report?depth=0" % dc.enc(self.target), token=other.token, timeout=120))
        self.assertEqual(audits_of(other, self.target), 1)
        self.assertEqual(audits_of(self.user, self.target), before)


class Grades(dc.DozorTestCase):
    """The latest stored audit of each service, for the dashboard (GET /api{,/v1}/audit/services) and
    the kiosk (its current_service carries the grade and the high and critical findings)."""

    def test_each_service_shows_its_latest_audit_and_the_kiosk_its_serious_findings(self):
        user = self.new_user("gr")
        other = self.new_user("gr2")
        with fa.Site() as site, dc.FixtureServer({"/": (200, {"Content-Type": "text/html"}, "<p>plain</p>")}) as fx:
            shop = self.new_service(user, name="shop", url=site.url("/"))
            plain = self.new_service(user, name="plain", url=fx.url("/"))
            port = self.new_service(user, name="port", url="tcp://127.0.0.1:9")
            self.new_service(other, name="theirs", url=site.url("/"))
            for prefix in ("/api/v1", "/api"):
                r = dc.get(prefix + "/audit/services", token=user.token)
                self.assertEqual(r.status, 200, r.text)
                self.assertEqual([(x["service_id"], x["audit"]) for x in r.json],
                                 [(shop["id"], None), (plain["id"], None), (port["id"], None)])
            first = fa.audit(user, site.url("/"), query="?depth=0").json
            batch = dc.post("/api/audit/batch", token=user.token, timeout=120)
            self.assertEqual(batch.status, 200, batch.text)
            newest = {x["service_id"]: x["audit_id"] for x in batch.json}
            rows = {x["service_id"]: x for x in dc.get("/api/v1/audit/services", token=user.token).json}
            self.assertEqual(rows[shop["id"]]["target"], site.url("/"))
            audit = rows[shop["id"]]["audit"]
            self.assertEqual(audit["audit_id"], newest[shop["id"]])
            self.assertNotEqual(audit["audit_id"], first["id"])
            self.assertEqual(set(audit), {"audit_id", "grade", "score", "counts", "finished_at"})
            self.assertGreater(audit["counts"]["high"], 0)
            self.assertRegex(audit["finished_at"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
            by_service = {x["service_id"]: x for x in batch.json}
            for service in (shop, plain):
                self.assertEqual(rows[service["id"]]["audit"]["counts"], by_service[service["id"]]["counts"])
                self.assertEqual(rows[service["id"]]["audit"]["grade"], by_service[service["id"]]["grade"])
            self.assertIsNone(rows[port["id"]]["target"])
            self.assertIsNone(rows[port["id"]]["audit"])
            # Another user's audits of the same site are not theirs.
            theirs = dc.get("/api/v1/audit/services", token=other.token).json
            self.assertEqual([x["audit"] for x in theirs], [None])

            state = dc.get("/api/v1/kiosk/state", token=user.token).json
            self.assertEqual(state["current_service"]["id"], shop["id"])
            kiosk_audit = state["current_service"]["audit"]
            self.assertEqual(kiosk_audit["audit_id"], audit["audit_id"])
            self.assertEqual(kiosk_audit["grade"], audit["grade"])
            serious = kiosk_audit["serious_findings"]
            self.assertEqual(len(serious), min(5, audit["counts"]["high"] + audit["counts"]["critical"]))
            self.assertTrue(all(f["severity"] in ("high", "critical") for f in serious), serious)
            evidence = dc.get("/api/security/evidence/%s?severity=high,critical&limit=100" % dc.enc(site.url("/")),
                              token=user.token).json
            stored = {(e["finding_id"], e["title"]) for e in evidence if e["audit_id"] == audit["audit_id"]}
            self.assertLessEqual({(f["id"], f["title"]) for f in serious}, stored)
            self.assertEqual(dc.post("/api/v1/kiosk/next", token=user.token).json["current_service"]["audit"]["audit_id"],
                             rows[plain["id"]]["audit"]["audit_id"])
            self.assertIsNone(dc.post("/api/v1/kiosk/next", token=user.token).json["current_service"]["audit"])
        self.assertUnauthenticated(dc.get("/api/v1/audit/services"))
