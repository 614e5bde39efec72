// OCR (analyzer.ocr): images and PDF pages without a text layer read by Tesseract, with the
// limits that bound them (kImageMaxPixels, kOcrMaxPages) at N and N+1. The fixtures come from
// tests/fixtures/ocr/make_fixtures.py: a form with a name, a SNILS and an INN.
#include <zlib.h>

#include <boost/test/unit_test.hpp>
#include <fstream>
#include <iterator>
#include <set>

#include "dozor_source_dir.hpp"
#include "engines/analyzer/analyzer.hpp"
#include "engines/analyzer/tesseract_ocr.hpp"

using namespace dozor::analyzer;
namespace lim = dozor::limits::analyzer;

namespace {

std::string corpus(const std::string& name) {
  std::ifstream in(std::string(DOZOR_SOURCE_DIR) + "/tests/fuzz/corpus/" + name, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const Analyzer& analyzer() {
  static Analyzer a(std::string(DOZOR_SOURCE_DIR) + "/share/analyzer");
  return a;
}

const TesseractOcr& ocr() {
  static TesseractOcr o("rus+eng");
  return o;
}

ExtractLimits with_ocr() {
  ExtractLimits l;
  l.ocr = &ocr();
  return l;
}

std::set<std::string> categories(const Report& r) {
  std::set<std::string> out;
  for (const auto& f : r.findings) out.insert(f.category);
  return out;
}

// A PNG of only its signature, header and end: the size is all the OCR reads before refusing.
std::string png_header(std::uint32_t width, std::uint32_t height) {
  auto be32 = [](std::uint32_t v) {
    return std::string{static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
                       static_cast<char>(v)};
  };
  std::string chunk = "IHDR" + be32(width) + be32(height) + std::string("\x08\x00\x00\x00\x00", 5);
  auto crc = static_cast<std::uint32_t>(
      crc32(0, reinterpret_cast<const Bytef*>(chunk.data()), static_cast<uInt>(chunk.size())));
  return std::string("\x89PNG\r\n\x1A\n", 8) + be32(13) + chunk + be32(crc) + be32(0) + "IEND" + be32(0xAE426082);
}

// `pages` empty pages of 8×8 points: no text layer, so each one is a page for OCR.
std::string blank_pdf(int pages) {
  std::vector<std::string> objects{"<< /Type /Catalog /Pages 2 0 R >>", ""};
  std::string kids;
  for (int i = 0; i < pages; ++i) {
    objects.push_back("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 8 8] >>");
    kids += std::to_string(objects.size()) + " 0 R ";
  }
  objects[1] = "<< /Type /Pages /Kids [" + kids + "] /Count " + std::to_string(pages) + " >>";
  std::string out = "%PDF-1.4\n";
  std::vector<std::size_t> offsets;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    offsets.push_back(out.size());
    out += std::to_string(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
  }
  std::size_t xref = out.size();
  out += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
  for (auto off : offsets) {
    char line[24];
    std::snprintf(line, sizeof line, "%010zu 00000 n \n", off);
    out += line;
  }
  out += "trailer\n<< /Size " + std::to_string(objects.size() + 1) + " /Root 1 0 R >>\nstartxref\n" +
         std::to_string(xref) + "\n%%EOF\n";
  return out;
}

bool says(const std::exception& e, const std::string& part) {
  return std::string(e.what()).find(part) != std::string::npos;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(analyzer_ocr)

BOOST_AUTO_TEST_CASE(an_image_is_read_when_ocr_is_on_and_refused_naming_the_key_when_off) {
  for (const char* name : {"analyzer_image/form.png", "analyzer_image/form.jpg"}) {
    BOOST_TEST_CONTEXT(name) {
      auto bytes = corpus(name);
      BOOST_REQUIRE(!bytes.empty());
      auto report = analyzer().analyze(bytes, "", with_ocr());
      BOOST_TEST(report.type == "image");
      BOOST_TEST(report.pages == 1u);
      BOOST_TEST(report.ocr_pages == 1u);
      auto found = categories(report);
      BOOST_TEST(found.count("snils") == 1u);
      BOOST_TEST(found.count("inn") == 1u);
      BOOST_TEST(found.count("full_name") == 1u);
      BOOST_CHECK_EXCEPTION(extract(bytes, "", {}), UnsupportedDocument,
                            [](const auto& e) { return says(e, "(OCR is off: analyzer.ocr)"); });
    }
  }
}

BOOST_AUTO_TEST_CASE(every_page_of_a_tiff_is_read_and_located) {
  auto bytes = corpus("analyzer_image/two-pages.tif");
  BOOST_REQUIRE(!bytes.empty());
  auto report = analyzer().analyze(bytes, "", with_ocr());
  BOOST_TEST(report.pages == 2u);
  BOOST_TEST(report.ocr_pages == 2u);
  std::set<std::string> where;
  for (const auto& f : report.findings) where.insert(f.category + "@" + f.where.kind + f.where.ref);
  BOOST_TEST(where.count("snils@page1") == 1u);
  BOOST_TEST(where.count("inn@page2") == 1u);
  // Pages are counted before any is decoded: analyzer.max_pages applies as to a PDF's.
  ExtractLimits one = with_ocr();
  one.max_pages = 1;
  BOOST_CHECK_EXCEPTION(extract_image(bytes, one), BadDocument,
                        [](const auto& e) { return says(e, "has 2 pages, more than the 1 allowed"); });
  // Past kOcrMaxPages pages are counted, not read (the PDF test shows N and N+1).
  auto doc = extract_image(bytes, with_ocr());
  BOOST_TEST(doc.pages_without_text == 0u);
}

BOOST_AUTO_TEST_CASE(a_scanned_pdf_page_is_read_by_ocr_and_counted_when_ocr_is_off) {
  auto pdf = corpus("analyzer_pdf/scanned-form.pdf");
  BOOST_REQUIRE(!pdf.empty());
  auto read = analyzer().analyze(pdf, "", with_ocr());
  BOOST_TEST(read.type == "pdf");
  BOOST_TEST(read.ocr_pages == 1u);
  BOOST_TEST(read.pages_without_text == 0u);
  BOOST_TEST(categories(read).count("snils") == 1u);
  auto unread = analyzer().analyze(pdf, "", {});
  BOOST_TEST(unread.ocr_pages == 0u);
  BOOST_TEST(unread.pages_without_text == 1u);
  BOOST_TEST(unread.findings.empty());
}

BOOST_AUTO_TEST_CASE(only_pages_without_a_text_layer_are_read_by_ocr) {
  // Page 1 is a title ("Intro", under kOcrTextLayerMinChars), page 2 a full page of text.
  auto pdf = corpus("analyzer_pdf/two-pages.pdf");
  auto doc = extract_pdf(pdf, with_ocr());
  BOOST_TEST(doc.ocr_pages == 1u);
  BOOST_REQUIRE(doc.segments.size() == 2u);
  BOOST_TEST(doc.segments[0].text.rfind("Intro", 0) == 0u);  // the text layer is kept first
  BOOST_TEST(extract_pdf(pdf, {}).pages_without_text == 1u);
}

BOOST_AUTO_TEST_CASE(pages_for_ocr_at_n_and_n_plus_one) {
  ExtractLimits l = with_ocr();
  l.deadline = Deadline::in(120);
  auto n = static_cast<int>(lim::kOcrMaxPages);
  auto doc = extract_pdf(blank_pdf(n), l);
  BOOST_TEST(doc.ocr_pages == lim::kOcrMaxPages);
  BOOST_TEST(doc.pages_without_text == 0u);
  // One more is not read, and the report says so: its text layer is still analysed.
  doc = extract_pdf(blank_pdf(n + 1), l);
  BOOST_TEST(doc.ocr_pages == lim::kOcrMaxPages);
  BOOST_TEST(doc.pages_without_text == 1u);
  // Without OCR the same pages are only counted.
  auto unread = extract_pdf(blank_pdf(n + 1), {});
  BOOST_TEST(unread.ocr_pages == 0u);
  BOOST_TEST(unread.pages_without_text == lim::kOcrMaxPages + 1);
}

BOOST_AUTO_TEST_CASE(image_pixels_at_n_and_n_plus_one_are_checked_before_decoding) {
  static_assert(lim::kImageMaxPixels == 8000ULL * 5000);
  // N passes the size check (and then fails to decode: the header is all there is).
  BOOST_CHECK_EXCEPTION(extract_image(png_header(8000, 5000), with_ocr()), BadDocument,
                        [](const auto& e) { return says(e, "its pixels cannot be decoded"); });
  BOOST_CHECK_EXCEPTION(extract_image(png_header(8001, 5000), with_ocr()), BadDocument,
                        [](const auto& e) { return says(e, "8001×5000 pixels, more than the 40000000 allowed"); });
  // A GIF's size is read from its screen descriptor.
  std::string gif = std::string("GIF89a\xFF\xFF\xFF\xFF", 10) + std::string(20, '\0');
  BOOST_CHECK_EXCEPTION(extract_image(gif, with_ocr()), BadDocument,
                        [](const auto& e) { return says(e, "65535×65535 pixels"); });
}

BOOST_AUTO_TEST_CASE(ocr_stops_at_the_deadline) {
  ExtractLimits late = with_ocr();
  late.deadline = {std::chrono::steady_clock::now() - std::chrono::seconds(1), 7};
  BOOST_CHECK_EXCEPTION(extract(corpus("analyzer_image/form.png"), "", late), BadDocument,
                        [](const auto& e) { return says(e, "(analyzer.max_seconds)"); });
  BOOST_CHECK_EXCEPTION(extract_pdf(corpus("analyzer_pdf/scanned-form.pdf"), late), BadDocument,
                        [](const auto& e) { return says(e, "(analyzer.max_seconds)"); });
  // Tesseract itself is told the deadline: a page it is reading ends there too.
  GrayImage page{200, 100, 300, std::vector<unsigned char>(200 * 100, 255)};
  BOOST_CHECK_NO_THROW(ocr().read_page(page, Deadline::in(60)));
  BOOST_CHECK_EXCEPTION(ocr().read_page(page, late.deadline), BadDocument,
                        [](const auto& e) { return says(e, "(analyzer.max_seconds)"); });
}

BOOST_AUTO_TEST_CASE(missing_language_data_is_named) {
  BOOST_CHECK_EXCEPTION(TesseractOcr("xyz"), OcrError, [](const auto& e) { return says(e, "\"xyz\""); });
}

BOOST_AUTO_TEST_CASE(bmp_needs_a_known_info_header_size) {
  BOOST_TEST(image_kind("BMW dealers list") == nullptr);
  std::string bmp = "BM" + std::string(12, '\0') + std::string("\x28\x00\x00\x00", 4);
  BOOST_TEST(image_kind(bmp) != nullptr);
}

BOOST_AUTO_TEST_SUITE_END()
