"""Writers of the document formats dozor-analyzer reads (docs/analyzer.md), shared by
tests/integration/test_analyzer.py and bench/analyzer: each takes paragraphs (or rows, or pages
of lines) and returns the document's bytes. Built with the standard library only, so the bench
can generate its corpus without a running stack."""

from __future__ import annotations

import io
import zipfile
import zlib


def xml_escape(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def docx(paragraphs: list[str], document_xml: str | None = None) -> bytes:
    body = "".join('<w:p><w:r><w:t xml:space="preserve">%s</w:t></w:r></w:p>' % xml_escape(p) for p in paragraphs)
    document_xml = document_xml or (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
        "<w:body>%s</w:body></w:document>" % body)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml",
                   '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                   '<Default Extension="xml" ContentType="application/xml"/>'
                   '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>')
        z.writestr("word/document.xml", document_xml)
    return buf.getvalue()


def xlsx(rows: list[list[str | int]], sheet: str = "Сотрудники") -> bytes:
    def col(i):
        return chr(ord("A") + i)

    xml_rows = []
    for r, row in enumerate(rows, 1):
        cells = []
        for c, v in enumerate(row):
            ref = "%s%d" % (col(c), r)
            if isinstance(v, int):
                cells.append('<c r="%s"><v>%d</v></c>' % (ref, v))
            else:
                cells.append('<c r="%s" t="inlineStr"><is><t>%s</t></is></c>' % (ref, xml_escape(v)))
        xml_rows.append('<row r="%d">%s</row>' % (r, "".join(cells)))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
        z.writestr("xl/workbook.xml",
                   '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
                   'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
                   '<sheets><sheet name="%s" sheetId="1" r:id="rId1"/></sheets></workbook>' % xml_escape(sheet))
        z.writestr("xl/_rels/workbook.xml.rels",
                   '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                   '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" '
                   'Target="worksheets/sheet1.xml"/></Relationships>')
        z.writestr("xl/worksheets/sheet1.xml",
                   '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                   "<sheetData>%s</sheetData></worksheet>" % "".join(xml_rows))
    return buf.getvalue()


def odt(paragraphs: list[str]) -> bytes:
    body = "".join("<text:p>%s</text:p>" % xml_escape(p) for p in paragraphs)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.text")  # stored, first
        z.writestr("content.xml",
                   '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
                   'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
                   'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0">'
                   "<office:body><office:text>%s</office:text></office:body></office:document-content>" % body,
                   zipfile.ZIP_DEFLATED)
    return buf.getvalue()


_CT = "application/vnd.openxmlformats-officedocument.presentationml."
_PML = "http://schemas.openxmlformats.org/presentationml/2006/main"
_DML = "http://schemas.openxmlformats.org/drawingml/2006/main"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"


def pptx(slides: list[list[str]]) -> bytes:
    """A presentation: each slide one text box whose paragraphs are the given lines."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml",
                   '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
                   '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                   '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                   '<Default Extension="xml" ContentType="application/xml"/>'
                   '<Override PartName="/ppt/presentation.xml" ContentType="%spresentation.main+xml"/>%s</Types>'
                   % (_CT, "".join('<Override PartName="/ppt/slides/slide%d.xml" ContentType="%sslide+xml"/>'
                                   % (i, _CT) for i in range(1, len(slides) + 1))))
        z.writestr("_rels/.rels",
                   '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="%s">'
                   '<Relationship Id="rId1" Type="%s/officeDocument" Target="ppt/presentation.xml"/></Relationships>'
                   % (_PKG_REL, _REL))
        z.writestr("ppt/presentation.xml",
                   '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
                   '<p:presentation xmlns:p="%s" xmlns:r="%s"><p:sldIdLst>%s</p:sldIdLst>'
                   '<p:sldSz cx="9144000" cy="6858000"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>'
                   % (_PML, _REL, "".join('<p:sldId id="%d" r:id="rId%d"/>' % (255 + i, i)
                                          for i in range(1, len(slides) + 1))))
        z.writestr("ppt/_rels/presentation.xml.rels",
                   '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="%s">%s</Relationships>'
                   % (_PKG_REL, "".join('<Relationship Id="rId%d" Type="%s/slide" Target="slides/slide%d.xml"/>'
                                        % (i, _REL, i) for i in range(1, len(slides) + 1))))
        for i, lines in enumerate(slides, 1):
            paras = "".join('<a:p><a:r><a:rPr lang="ru-RU"/><a:t>%s</a:t></a:r></a:p>' % xml_escape(l) for l in lines)
            z.writestr("ppt/slides/slide%d.xml" % i,
                       '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
                       '<p:sld xmlns:a="%s" xmlns:p="%s" xmlns:r="%s"><p:cSld><p:spTree>'
                       '<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>'
                       '<p:sp><p:nvSpPr><p:cNvPr id="2" name="Text %d"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>'
                       '<p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/>%s</p:txBody></p:sp>'
                       '</p:spTree></p:cSld></p:sld>' % (_DML, _PML, _REL, i, paras))
    return buf.getvalue()


_ODF_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
           'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
           'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
           'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
           'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.3"')


def _odf(mimetype: str, body: str) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), mimetype)  # stored, first
        z.writestr("META-INF/manifest.xml",
                   '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
                   'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">'
                   '<manifest:file-entry manifest:full-path="/" manifest:media-type="%s"/>'
                   '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
                   '</manifest:manifest>' % mimetype, zipfile.ZIP_DEFLATED)
        z.writestr("content.xml",
                   '<?xml version="1.0" encoding="UTF-8"?><office:document-content %s>'
                   "<office:body>%s</office:body></office:document-content>" % (_ODF_NS, body),
                   zipfile.ZIP_DEFLATED)
    return buf.getvalue()


def ods(rows: list[list[str | int]], sheet: str = "Сотрудники") -> bytes:
    """A spreadsheet of one sheet; ints are numbers (their exact office:value), strings text."""
    xml_rows = []
    for row in rows:
        cells = []
        for v in row:
            if isinstance(v, int):
                cells.append('<table:table-cell office:value-type="float" office:value="%d"><text:p>%d</text:p>'
                             "</table:table-cell>" % (v, v))
            else:
                cells.append('<table:table-cell office:value-type="string"><text:p>%s</text:p></table:table-cell>'
                             % xml_escape(v))
        xml_rows.append("<table:table-row>%s</table:table-row>" % "".join(cells))
    width = max((len(r) for r in rows), default=1)
    return _odf("application/vnd.oasis.opendocument.spreadsheet",
                '<office:spreadsheet><table:table table:name="%s">'
                '<table:table-column table:number-columns-repeated="%d"/>%s</table:table></office:spreadsheet>'
                % (xml_escape(sheet), width, "".join(xml_rows)))


def long_text(size: int) -> str:
    """At least `size` bytes of UTF-8: a name and a SNILS, then ordinary words (a long cell)."""
    s = "Сотрудник Иванов Иван Иванович, СНИЛС 112-233-445 95. "
    while len(s.encode()) < size:
        s += "Отчёт отдела снабжения за квартал, позиции склада и сроки поставки. "
    return s


def column_name(i: int) -> str:
    """1 → A, 27 → AA."""
    s = ""
    while i > 0:
        i, r = divmod(i - 1, 26)
        s = chr(ord("A") + r) + s
    return s


def xlsx_shared(rows: int, cols: int, shared: str, sheet: str = "Лист1") -> bytes:
    """A hostile workbook (issue 26 §1): rows × cols cells that all name one shared string — a
    few KB of ZIP that once cost the analyzer cells of a row² × the string's length."""
    cells = ['<row r="%d">%s</row>' % (r, "".join('<c r="%s%d" t="s"><v>0</v></c>' % (column_name(c), r)
                                                  for c in range(1, cols + 1))) for r in range(1, rows + 1)]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
        z.writestr("xl/workbook.xml",
                   '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
                   'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
                   '<sheets><sheet name="%s" sheetId="1" r:id="rId1"/></sheets></workbook>' % xml_escape(sheet))
        z.writestr("xl/_rels/workbook.xml.rels",
                   '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                   '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" '
                   'Target="worksheets/sheet1.xml"/></Relationships>')
        z.writestr("xl/sharedStrings.xml",
                   '<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                   "<si><t>%s</t></si></sst>" % xml_escape(shared))
        z.writestr("xl/worksheets/sheet1.xml",
                   '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                   "<sheetData>%s</sheetData></worksheet>" % "".join(cells))
    return buf.getvalue()


def ods_long_row(cells: int, text: str, repeat_columns: int = 3, repeat_rows: int = 1000,
                 sheet: str = "Лист1") -> bytes:
    """The same shape in OpenDocument (issue 26 §1): one row of `cells` long cells, each repeated
    over `repeat_columns` columns, the row repeated `repeat_rows` times."""
    cell = ('<table:table-cell office:value-type="string" table:number-columns-repeated="%d"><text:p>%s</text:p>'
            "</table:table-cell>" % (repeat_columns, xml_escape(text)))
    return _odf("application/vnd.oasis.opendocument.spreadsheet",
                '<office:spreadsheet><table:table table:name="%s">'
                '<table:table-row table:number-rows-repeated="%d">%s</table:table-row></table:table></office:spreadsheet>'
                % (xml_escape(sheet), repeat_rows, cell * cells))


def odp(slides: list[list[str]]) -> bytes:
    """A presentation: each slide (draw:page) one text box whose paragraphs are the given lines."""
    pages = "".join(
        '<draw:page draw:name="page%d"><draw:frame svg:x="1cm" svg:y="1cm" svg:width="25cm" svg:height="15cm">'
        "<draw:text-box>%s</draw:text-box></draw:frame></draw:page>"
        % (i, "".join("<text:p>%s</text:p>" % xml_escape(l) for l in lines)) for i, lines in enumerate(slides, 1))
    return _odf("application/vnd.oasis.opendocument.presentation",
                "<office:presentation>%s</office:presentation>" % pages)


def _to_unicode_cmap() -> bytes:
    """A ToUnicode CMap for windows-1251 single-byte codes, so text extractors map every code back
    to its character whatever glyphs the font has (the standard 14 fonts have no Cyrillic)."""
    pairs = []
    for code in range(0x20, 0x100):
        try:
            ch = bytes([code]).decode("cp1251")
        except UnicodeDecodeError:
            continue
        pairs.append("<%02X> <%04X>" % (code, ord(ch)))
    blocks = []
    for i in range(0, len(pairs), 100):
        chunk = pairs[i:i + 100]
        blocks.append("%d beginbfchar\n%s\nendbfchar" % (len(chunk), "\n".join(chunk)))
    return ("/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CIDSystemInfo << /Registry (Adobe) "
            "/Ordering (UCS) /Supplement 0 >> def /CMapName /Adobe-Identity-UCS def /CMapType 2 def "
            "1 begincodespacerange <00> <FF> endcodespacerange\n%s\nendcmap CMapName currentdict /CMap "
            "defineresource pop end end" % "\n".join(blocks)).encode()


def pdf(pages: list[list[str]]) -> bytes:
    """A minimal PDF (Helvetica), one content stream per page, with a correct xref. ASCII text is
    written as is; text with other characters is encoded in windows-1251 with a ToUnicode CMap."""
    cyrillic = any(any(ord(c) > 127 for c in line) for lines in pages for line in lines)
    encoding = "cp1251" if cyrillic else "latin-1"
    objects: list[bytes | None] = [b"<< /Type /Catalog /Pages 2 0 R >>", None, None]
    if cyrillic:
        cmap = _to_unicode_cmap()
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(cmap), cmap))
        objects[2] = (b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding "
                      b"/ToUnicode %d 0 R >>" % len(objects))
    else:
        objects[2] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    kids = []
    for lines in pages:
        ops = (b"BT /F1 11 Tf 72 760 Td 14 TL " +
               b" ".join(b"(%s) Tj T*" % l.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
                         .encode(encoding) for l in lines) + b" ET")
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(ops), ops))
        content_no = len(objects)
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
                       b"/Contents %d 0 R >>" % content_no)
        kids.append(b"%d 0 R" % len(objects))
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(kids), len(kids))
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, o in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (i, o)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def _pdf_file(objects: list[bytes]) -> bytes:
    """The file of `objects`, numbered from 1 (object 1 the catalog), with a correct xref."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, o in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (i, o)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def _deflated(entries: bytes, data: bytes) -> bytes:
    z = zlib.compress(data, 9)
    return b"<< %s /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream" % (entries, len(z), z)


def pdf_form_drawn(form_chars: int, draws: int) -> bytes:
    """A hostile PDF (issue 26 §1): one page drawing one form XObject — `form_chars` characters
    of Helvetica in lines of 100 — `draws` times, both streams deflated. A 2 KB file whose page
    draws form_chars × draws characters (40 million for 20,000 × 2,000): poppler-cpp's page text
    once took minutes and gigabytes for it."""
    line = b""
    while len(line) < 100:
        line += b"Ivanov Ivan SNILS 112-233-445 95 "
    ops, left = [b"BT /F1 6 Tf 10 780 Td 7 TL"], form_chars
    while left > 0:
        ops.append(b"(%s) Tj T*" % line[:min(100, left)])
        left -= min(100, left)
    ops.append(b"ET")
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    return _pdf_file([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> "
        b"/XObject << /X0 5 0 R >> >> /Contents 6 0 R >>",
        font,
        _deflated(b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >>",
                  b" ".join(ops)),
        _deflated(b"", b"/X0 Do\n" * draws),
    ])


def html(paragraphs: list[str]) -> bytes:
    body = "".join("<p>%s</p>" % xml_escape(p) for p in paragraphs)
    return ("<!DOCTYPE html><html><head><meta charset=utf-8><title>Документ</title>"
            "<script>var snils='112-233-445 95';</script></head><body>%s</body></html>" % body).encode()


def rtf(paragraphs: list[str]) -> bytes:
    def enc(s):
        return "".join(c if ord(c) < 128 else "\\u%d?" % ord(c) for c in s)
    return ("{\\rtf1\\ansi\\ansicpg1251{\\fonttbl{\\f0 Times New Roman;}}\\f0 " +
            "".join(enc(p) + "\\par " for p in paragraphs) + "}").encode()
