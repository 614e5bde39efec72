#include "engines/analyzer/extract.hpp"

#include <poppler/cpp/poppler-document.h>
#include <poppler/cpp/poppler-page.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <fstream>
#include <iterator>
#include <memory>

#include "dozor_source_dir.hpp"
#include "engines/analyzer/text.hpp"
#include "tests/unit/support/pdf_writer.hpp"
#include "tests/unit/support/zip_writer.hpp"

using namespace dozor::analyzer;

BOOST_AUTO_TEST_SUITE(analyzer_extract)

BOOST_AUTO_TEST_CASE(sniffs_types_from_bytes) {
  BOOST_TEST(sniff_type("%PDF-1.4\n", "") == "pdf");
  BOOST_TEST(sniff_type("{\\rtf1\\ansi }", "") == "rtf");
  BOOST_TEST(sniff_type("<!DOCTYPE html><p>x", "") == "html");
  BOOST_TEST(sniff_type("plain", "text/plain") == "text");
  BOOST_TEST(sniff_type("<p>x</p>", "text/html; charset=utf-8") == "html");
  BOOST_CHECK_THROW(sniff_type("\x89PNG\r\n\x1a\n", ""), UnsupportedDocument);
  BOOST_CHECK_THROW(sniff_type(std::string("ab\0cd", 5), ""), UnsupportedDocument);
}

BOOST_AUTO_TEST_CASE(windows_1251_text_is_decoded) {
  std::string cp1251 = text::to_utf8("", "windows-1251");  // converter exists
  // "Паспорт гражданина Иванова" in windows-1251.
  std::string bytes =
      "\xCF\xE0\xF1\xEF\xEE\xF0\xF2 \xE3\xF0\xE0\xE6\xE4\xE0\xED\xE8\xED\xE0 \xC8\xE2\xE0\xED\xEE\xE2\xE0";
  auto doc = extract_text(bytes);
  BOOST_TEST(doc.charset != "UTF-8");
  BOOST_REQUIRE(doc.segments.size() == 1u);
  BOOST_TEST(doc.segments[0].text == "Паспорт гражданина Иванова");
}

BOOST_AUTO_TEST_CASE(text_lines_are_located) {
  auto doc = extract_text("первая\n\nтретья\n");
  BOOST_REQUIRE(doc.segments.size() == 2u);
  BOOST_TEST(doc.segments[1].where.kind == "line");
  BOOST_TEST(doc.segments[1].where.ref == "3");
}

BOOST_AUTO_TEST_CASE(html_paragraphs_without_scripts) {
  auto doc = extract_html(
      "<html><head><script>var x='СНИЛС';</script></head><body><p>Иван <b>Петров</b></p>"
      "<div>второй</div></body></html>");
  BOOST_REQUIRE(doc.segments.size() == 2u);
  BOOST_TEST(doc.segments[0].text.find("Петров") != std::string::npos);
  BOOST_TEST(doc.segments[0].text.find("СНИЛС") == std::string::npos);
  BOOST_TEST(doc.segments[1].where.ref == "2");
}

BOOST_AUTO_TEST_CASE(deeply_nested_html_is_bounded) {
  // The same bound as the crawler's (engines/text/html_parse): without it gumbo took 16 GB.
  std::string html = "<p>Иван Петров</p>";
  for (int i = 0; i < 150000; ++i) html += "<span>";
  html += "<p>below the bound</p>";
  auto doc = extract_html(html);
  BOOST_REQUIRE(!doc.segments.empty());
  BOOST_TEST(doc.segments[0].text.find("Петров") != std::string::npos);
  for (const auto& s : doc.segments) BOOST_TEST(s.text.find("below the bound") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(rtf_text_with_code_page_and_unicode) {
  auto doc = extract_rtf(
      "{\\rtf1\\ansi\\ansicpg1251{\\fonttbl{\\f0 Times;}}{\\info{\\author X}}\\f0 \\'c8\\'e2\\'e0\\'ed\\par "
      "\\u1055?\\u1077?\\u1090?\\u1088?\\u1086?\\u1074?}");
  BOOST_REQUIRE(doc.segments.size() == 2u);
  BOOST_TEST(doc.segments[0].text == "Иван");
  BOOST_TEST(doc.segments[1].text == "Петров");
}

BOOST_AUTO_TEST_CASE(rtf_depth_is_bounded) {
  std::string deep(dozor::limits::analyzer::kRtfMaxDepth + 1, '{');
  BOOST_CHECK_THROW(extract_rtf("{\\rtf1 " + deep), BadDocument);
  std::string ok(dozor::limits::analyzer::kRtfMaxDepth - 2, '{');
  BOOST_CHECK_NO_THROW(extract_rtf("{\\rtf1 " + ok));
}

namespace {
std::string office_seed(const std::string& name) {
  std::ifstream in(std::string(DOZOR_SOURCE_DIR) + "/tests/fuzz/corpus/analyzer_office/" + name, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
const Segment* segment_with(const Document& doc, const std::string& text) {
  for (const auto& s : doc.segments)
    if (s.text.find(text) != std::string::npos) return &s;
  return nullptr;
}
}  // namespace

// The seeds of tests/fuzz/corpus/analyzer_office (made by tests/integration/analyzer_corpus.py):
// slide 1 a title, slide 2 a name and a SNILS; a sheet with a header row and one person.
BOOST_AUTO_TEST_CASE(pptx_paragraphs_are_located_by_their_slide) {
  auto bytes = office_seed("slides.pptx");
  BOOST_REQUIRE(!bytes.empty());
  auto doc = extract_office(bytes);
  BOOST_TEST(doc.type == "pptx");
  BOOST_REQUIRE(doc.segments.size() == 3u);
  BOOST_TEST(doc.segments[0].where.kind == "slide");
  BOOST_TEST(doc.segments[0].where.ref == "1");
  const auto* snils = segment_with(doc, "СНИЛС 112-233-445 95");
  BOOST_REQUIRE(snils);
  BOOST_TEST(snils->where.kind == "slide");
  BOOST_TEST(snils->where.ref == "2");
}

BOOST_AUTO_TEST_CASE(odp_paragraphs_are_located_by_their_slide_not_their_count) {
  auto bytes = office_seed("slides.odp");
  BOOST_REQUIRE(!bytes.empty());
  auto doc = extract_office(bytes);
  BOOST_TEST(doc.type == "odp");
  BOOST_REQUIRE(doc.segments.size() == 3u);
  BOOST_TEST(doc.segments[0].where.ref == "1");
  const auto* name = segment_with(doc, "Смирнова Анна Сергеевна");
  const auto* snils = segment_with(doc, "СНИЛС 112-233-445 95");
  BOOST_REQUIRE(name);
  BOOST_REQUIRE(snils);
  // Both on slide 2 (the third paragraph of the file is still on the second slide).
  BOOST_TEST(name->where.kind == "slide");
  BOOST_TEST(name->where.ref == "2");
  BOOST_TEST(snils->where.kind == "slide");
  BOOST_TEST(snils->where.ref == "2");
}

BOOST_AUTO_TEST_CASE(ods_cells_are_located_on_their_sheet_with_the_exact_number) {
  auto bytes = office_seed("sheet.ods");
  BOOST_REQUIRE(!bytes.empty());
  auto doc = extract_office(bytes);
  BOOST_TEST(doc.type == "ods");
  BOOST_REQUIRE(doc.segments.size() == 4u);
  const auto* snils = segment_with(doc, "11223344595");
  BOOST_REQUIRE(snils);
  BOOST_TEST(snils->text == "11223344595");
  BOOST_TEST(snils->where.kind == "cell");
  BOOST_TEST(snils->where.ref == "B2");
  BOOST_TEST(snils->where.part == "Сотрудники");
  // Its column's header is its context.
  BOOST_TEST(snils->context.find("СНИЛС") != std::string::npos);
  const auto* name = segment_with(doc, "Петров Иван Сергеевич");
  BOOST_REQUIRE(name);
  BOOST_TEST(name->where.ref == "A2");
}

BOOST_AUTO_TEST_CASE(broken_containers_and_pdfs_are_bad_documents) {
  BOOST_CHECK_THROW(extract_office("PK\x03\x04garbage"), BadDocument);
  BOOST_CHECK_THROW(extract_pdf("%PDF-1.4\nnot a pdf", {}), BadDocument);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(analyzer_extract_pdf)

BOOST_AUTO_TEST_CASE(pdf_without_a_page_tree_is_malformed) {
  BOOST_CHECK_THROW(
      extract_pdf("%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 9 0 R >>\ntrailer << /Root 1 0 R >>\n%%EOF", {}),
      BadDocument);
}

// The page's text is what poppler-cpp's page::text() gave (physical layout, the same reading
// order), now read through poppler's core API within bounds.
BOOST_AUTO_TEST_CASE(page_text_is_the_physical_layout_poppler_cpp_gave) {
  std::ifstream in(std::string(DOZOR_SOURCE_DIR) + "/tests/fuzz/corpus/analyzer_pdf/two-pages.pdf", std::ios::binary);
  std::string seed((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  BOOST_REQUIRE(!seed.empty());
  // Two columns on shared baselines, a heading, small print and a rotated margin note.
  std::string columns = dozor::test::pdf_page(
      "BT /F1 16 Tf 72 740 Td (Quarterly report) Tj ET "
      "BT /F1 10 Tf 72 700 Td 12 TL (Left column, line one) Tj T* (Left column, line two) Tj ET "
      "BT /F1 10 Tf 320 700 Td 12 TL (Right column, line one) Tj T* (SNILS 112-233-445 95) Tj ET "
      "BT /F1 6 Tf 72 60 Td (A footnote in small print.) Tj ET "
      "BT /F1 10 Tf 0 1 -1 0 580 300 Tm (Rotated margin note) Tj ET");
  for (const std::string& pdf : {seed, columns}) {
    auto doc = extract_pdf(pdf, {});
    std::unique_ptr<poppler::document> old(
        poppler::document::load_from_raw_data(pdf.data(), static_cast<int>(pdf.size())));
    BOOST_REQUIRE(old);
    BOOST_REQUIRE(doc.segments.size() == static_cast<std::size_t>(old->pages()));
    for (int i = 0; i < old->pages(); ++i) {
      std::unique_ptr<poppler::page> page(old->create_page(i));
      auto utf8 = page->text().to_utf8();
      BOOST_TEST(doc.segments[static_cast<std::size_t>(i)].text == std::string(utf8.begin(), utf8.end()));
      BOOST_TEST(doc.segments[static_cast<std::size_t>(i)].where.ref == std::to_string(i + 1));
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(analyzer_extract_pdf_pages)

BOOST_AUTO_TEST_CASE(page_limit_at_n_and_n_plus_one) {
  std::ifstream in(std::string(DOZOR_SOURCE_DIR) + "/tests/fuzz/corpus/analyzer_pdf/two-pages.pdf", std::ios::binary);
  std::string pdf((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  BOOST_REQUIRE(!pdf.empty());
  ExtractLimits two, one;
  two.max_pages = 2;
  one.max_pages = 1;
  auto doc = extract_pdf(pdf, two);
  BOOST_TEST(doc.pages == 2u);
  BOOST_TEST(doc.segments.back().where.ref == "2");
  BOOST_CHECK_THROW(extract_pdf(pdf, one), BadDocument);
}

BOOST_AUTO_TEST_SUITE_END()

// analyzer.max_seconds: every extractor and the detector stop at a passed deadline with the
// key in the reason; a deadline still ahead changes nothing.
BOOST_AUTO_TEST_SUITE(analyzer_deadline)

namespace {
std::string corpus(const std::string& name) {
  std::ifstream in(std::string(DOZOR_SOURCE_DIR) + "/tests/fuzz/corpus/" + name, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
Deadline passed() { return {std::chrono::steady_clock::now() - std::chrono::seconds(1), 7}; }
bool names_the_key(const BadDocument& e) {
  return std::string(e.what()).find("7 s allowed for one document (analyzer.max_seconds)") != std::string::npos;
}
}  // namespace

BOOST_AUTO_TEST_CASE(a_passed_deadline_stops_every_format) {
  ExtractLimits ahead, late;
  ahead.deadline = Deadline::in(60);
  late.deadline = passed();
  // Each extractor checks on its own (per page, per part), not only extract() at its end.
  auto pdf = corpus("analyzer_pdf/two-pages.pdf");
  BOOST_REQUIRE(!pdf.empty());
  BOOST_CHECK_NO_THROW(extract_pdf(pdf, ahead));
  BOOST_CHECK_EXCEPTION(extract_pdf(pdf, late), BadDocument, names_the_key);
  for (const char* name : {"analyzer_office/doc.docx", "analyzer_office/sheet.xlsx", "analyzer_office/doc.odt",
                           "analyzer_office/slides.pptx", "analyzer_office/sheet.ods", "analyzer_office/slides.odp"}) {
    BOOST_TEST_CONTEXT(name) {
      auto bytes = corpus(name);
      BOOST_REQUIRE(!bytes.empty());
      BOOST_CHECK_NO_THROW(extract_office(bytes, ahead.deadline));
      BOOST_CHECK_EXCEPTION(extract_office(bytes, late.deadline), BadDocument, names_the_key);
    }
  }
  BOOST_CHECK_NO_THROW(extract("plain text", "text/plain", ahead));
  BOOST_CHECK_EXCEPTION(extract("plain text", "text/plain", late), BadDocument, names_the_key);
}

BOOST_AUTO_TEST_CASE(no_deadline_never_expires) { BOOST_CHECK_NO_THROW(Deadline{}.check()); }

BOOST_AUTO_TEST_SUITE_END()

// Issue 26 §1: what an extractor derives (a cell's context, its location) counts against
// kMaxTextBytes, and a cell's context is a window, not its row: a 1.9 KB workbook of 1,200
// cells naming one long shared string took 1.4 GB when every cell carried the whole row.
BOOST_AUTO_TEST_SUITE(analyzer_extract_bounds)

namespace {
using dozor::limits::analyzer::kCellContextBytes;
using dozor::limits::analyzer::kMaxTextBytes;

// text + context + location of every segment (what add_segment must have counted).
std::size_t derived_bytes(const Document& doc) {
  std::size_t n = 0;
  for (const auto& s : doc.segments)
    n += s.text.size() + s.context.size() + s.where.kind.size() + s.where.ref.size() + s.where.part.size();
  return n;
}

const Segment& cell(const Document& doc, const std::string& ref) {
  for (const auto& s : doc.segments)
    if (s.where.ref == ref) return s;
  throw std::runtime_error("no cell " + ref);
}

std::string ods_bytes(const std::string& rows_xml) {
  return dozor::test::zip_bytes(
      {{"mimetype", "application/vnd.oasis.opendocument.spreadsheet"},
       {"content.xml",
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><office:document-content "
        "xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" "
        "xmlns:table=\"urn:oasis:names:tc:opendocument:xmlns:table:1.0\" "
        "xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\"><office:body><office:spreadsheet>"
        "<table:table table:name=\"Лист1\">" +
            rows_xml + "</table:table></office:spreadsheet></office:body></office:document-content>"}});
}
}  // namespace

BOOST_AUTO_TEST_CASE(a_shared_string_named_by_every_cell_of_a_row_stays_within_the_window) {
  std::vector<std::string> row(300, "#0");
  std::string shared;
  while (shared.size() < 1000) shared += "Иванов Иван, СНИЛС 112-233-445 95; ";
  auto doc = extract_office(dozor::test::xlsx_bytes({row}, {shared}));
  BOOST_REQUIRE(doc.segments.size() == 300u);
  std::size_t contexts = 0;
  for (const auto& s : doc.segments) {
    BOOST_TEST(s.text == shared);
    BOOST_TEST(s.context.size() <= kCellContextBytes);
    BOOST_TEST(text::valid_utf8(s.context));  // neighbours are cut at a character boundary
    contexts += s.context.size();
  }
  BOOST_TEST(contexts <= 300 * kCellContextBytes);
  // Every byte the document holds was counted, context and location included.
  BOOST_TEST(doc.text_bytes == derived_bytes(doc));
}

BOOST_AUTO_TEST_CASE(a_cells_context_is_its_header_and_nearest_cells_at_n_and_n_plus_one) {
  // "H | " (4 bytes) and the next cell: the window holds a neighbour of N − 4 bytes whole and
  // cuts one of N − 3 bytes at N.
  for (std::size_t extra : {0u, 1u}) {
    std::string next(kCellContextBytes - 4 + extra, 'b');
    auto doc = extract_office(dozor::test::xlsx_bytes({{"H"}, {"x", next}}));
    const auto& a2 = cell(doc, "A2");
    BOOST_TEST(a2.context.size() == kCellContextBytes);
    BOOST_TEST(a2.context.rfind("H | ", 0) == 0u);
    BOOST_TEST((a2.context.find(next) != std::string::npos) == (extra == 0), "extra " << extra);
    BOOST_TEST(doc.text_bytes == derived_bytes(doc));
  }
  // Nearest first: in a row of 20 cells of 50 bytes the last cell's context has its header and
  // its neighbours, not the first cell of the row.
  std::vector<std::string> header(20, "");
  header[19] = "СНИЛС";
  std::vector<std::string> row;
  for (int i = 0; i < 20; ++i) row.push_back(std::string(48, static_cast<char>('a' + i)) + "..");
  row[19] = "11223344595";
  auto doc = extract_office(dozor::test::xlsx_bytes({header, row}));
  const auto& t2 = cell(doc, "T2");
  BOOST_TEST(t2.context.find("СНИЛС") != std::string::npos);
  BOOST_TEST(t2.context.find(row[18]) != std::string::npos);
  BOOST_TEST(t2.context.find(row[0]) == std::string::npos);
  BOOST_TEST(t2.context.size() <= kCellContextBytes);
}

BOOST_AUTO_TEST_CASE(ods_cells_with_repeated_columns_and_rows_stay_within_the_window) {
  // 400 cells of 1,000 bytes, each repeated over 3 columns, in a row repeated 1,000 times:
  // each cell is read once, with a bounded context.
  std::string text(1000, 'x');
  std::string cells;
  for (int i = 0; i < 400; ++i)
    cells += "<table:table-cell office:value-type=\"string\" table:number-columns-repeated=\"3\"><text:p>" + text +
             "</text:p></table:table-cell>";
  auto doc = extract_office(ods_bytes("<table:table-row table:number-rows-repeated=\"1000\">" + cells +
                                      "</table:table-row><table:table-row>" + cells + "</table:table-row>"));
  BOOST_TEST(doc.type == "ods");
  BOOST_REQUIRE(doc.segments.size() == 800u);
  BOOST_TEST(doc.segments[400].where.ref == "A1001");
  for (const auto& s : doc.segments) BOOST_TEST(s.context.size() <= kCellContextBytes);
  BOOST_TEST(doc.text_bytes == derived_bytes(doc));
}

// A PDF page's text is bounded while poppler draws it (issue 26 §1): a page drawing one form
// XObject of 20,000 characters 2,000 times once took poppler-cpp's page::text() minutes and
// gigabytes before any limit could look at its text.
namespace {
using dozor::limits::analyzer::kPdfPageMaxChars;
using clock_type = std::chrono::steady_clock;

// `chars` characters of Helvetica (one character each, none a PDF string escapes) in lines of
// 100, from the top of the page down (and past its bottom: drawn there too, and counted).
std::string text_ops(std::size_t chars) {
  std::string line;
  while (line.size() < 100) line += "Ivanov Ivan SNILS 112-233-445 95 ";
  std::string ops = "BT /F1 6 Tf 10 780 Td 7 TL ";
  for (std::size_t left = chars; left > 0;) {
    std::size_t n = std::min<std::size_t>(100, left);
    ops += "(" + line.substr(0, n) + ") Tj T* ";
    left -= n;
  }
  return ops + "ET";
}

std::string repeat(const std::string& s, std::size_t times) {
  std::string out;
  for (std::size_t i = 0; i < times; ++i) out += s;
  return out;
}

// One page drawing form /X0 `draws` times, then `extra` characters of its own.
std::string form_drawn_pdf(const std::string& form, std::size_t draws, std::size_t extra = 0) {
  return dozor::test::pdf_page(repeat("/X0 Do\n", draws) + (extra ? text_ops(extra) : ""), {form});
}

bool draws_too_much(const BadDocument& e) {
  std::string what = e.what();
  return what.find("the PDF draws more text than allowed: page 1 draws more than " + std::to_string(kPdfPageMaxChars) +
                   " characters") != std::string::npos;
}
}  // namespace

BOOST_AUTO_TEST_CASE(a_page_drawing_one_form_thousands_of_times_is_stopped_while_it_is_drawn,
                     *boost::unit_test::timeout(120)) {
  std::string pdf = form_drawn_pdf(text_ops(20000), 2000);
  BOOST_TEST(pdf.size() < 64u << 10);
  auto started = clock_type::now();
  BOOST_CHECK_EXCEPTION(extract_pdf(pdf, {}), BadDocument, draws_too_much);
  // Refused after the few draws that pass the bound, not after 40 million characters.
  BOOST_TEST((clock_type::now() - started < std::chrono::seconds(20)));
}

BOOST_AUTO_TEST_CASE(the_characters_a_page_draws_are_bounded_at_n_and_n_plus_one) {
  static_assert(kPdfPageMaxChars % 10 == 0);
  std::string form = text_ops(kPdfPageMaxChars / 10);
  auto at_n = extract_pdf(form_drawn_pdf(form, 10), {});
  BOOST_REQUIRE(at_n.segments.size() == 1u);
  BOOST_TEST(at_n.segments[0].text.find("Ivanov Ivan SNILS 112-233-445 95") != std::string::npos);
  BOOST_CHECK_EXCEPTION(extract_pdf(form_drawn_pdf(form, 10, 1), {}), BadDocument, draws_too_much);
}

BOOST_AUTO_TEST_CASE(an_actual_text_span_counts_by_its_length_at_n_and_n_plus_one) {
  // One glyph inside a span whose ActualText replaces it with 999 characters: 1,000 a draw.
  static_assert(kPdfPageMaxChars % 1000 == 0);
  std::string form = "/Span << /ActualText (" + std::string(999, 'a') + ") >> BDC BT /F1 6 Tf 10 700 Td (x) Tj ET EMC";
  auto at_n = extract_pdf(form_drawn_pdf(form, kPdfPageMaxChars / 1000), {});
  BOOST_REQUIRE(at_n.segments.size() == 1u);
  BOOST_TEST(at_n.segments[0].text.find(std::string(999, 'a')) != std::string::npos);
  BOOST_CHECK_EXCEPTION(extract_pdf(form_drawn_pdf(form, kPdfPageMaxChars / 1000, 1), {}), BadDocument, draws_too_much);
}

BOOST_AUTO_TEST_CASE(the_deadline_stops_a_page_in_the_middle, *boost::unit_test::timeout(120)) {
  // 30 forms, each drawing the next twice, the last a line: 2^30 lines and no text to count —
  // hours of drawing, stopped by a 1-second deadline while the page is drawn.
  std::vector<std::string> forms(30, "/X Do /X Do");
  forms.back() = "0 0 m 10 10 l S";
  std::string pdf = dozor::test::pdf_page(text_ops(40) + " /X0 Do", forms);
  ExtractLimits limits;
  limits.deadline = Deadline::in(1);
  auto started = clock_type::now();
  BOOST_CHECK_EXCEPTION(extract_pdf(pdf, limits), BadDocument, [](const BadDocument& e) {
    return std::string(e.what()).find("1 s allowed for one document (analyzer.max_seconds)") != std::string::npos;
  });
  BOOST_TEST((clock_type::now() - started < std::chrono::seconds(10)));
}

BOOST_AUTO_TEST_CASE(the_text_limit_counts_context_and_location_at_n_and_n_plus_one) {
  const Location where{"cell", "A1", "Лист1"};
  const std::size_t located = where.kind.size() + where.ref.size() + where.part.size();
  Document at_n;
  add_segment(at_n, where, "a", std::string(kMaxTextBytes - 1 - located, 'c'));
  BOOST_TEST(at_n.text_bytes == kMaxTextBytes);
  BOOST_TEST(at_n.segments.size() == 1u);
  Document past;
  BOOST_CHECK_THROW(add_segment(past, where, "a", std::string(kMaxTextBytes - located, 'c')), BadDocument);
  BOOST_TEST(past.segments.empty());
}

BOOST_AUTO_TEST_SUITE_END()
