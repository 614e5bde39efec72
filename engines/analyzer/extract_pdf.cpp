// PDF → pages (poppler-cpp). Encrypted and malformed files are refused with their reason; the
// page count is bounded before any text is read. With OCR, a page whose text layer is (almost)
// empty — a scan — is rendered in grey and read by OCR, up to kOcrMaxPages of them; the others
// are counted as pages without text.
#include <poppler/cpp/poppler-document.h>
#include <poppler/cpp/poppler-global.h>
#include <poppler/cpp/poppler-page-renderer.h>
#include <poppler/cpp/poppler-page.h>

#include <cmath>
#include <memory>
#include <mutex>

#include "engines/analyzer/extract.hpp"

namespace dozor::analyzer {
namespace {

using namespace limits::analyzer;

// Characters other than white space (a UTF-8 lead byte counts one character).
std::size_t visible_chars(const std::string& s) {
  std::size_t n = 0;
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if ((c & 0xC0) != 0x80 && c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '\f') ++n;
  }
  return n;
}

// kOcrRenderDpi, lowered for a page so large that it would pass kImageMaxPixels.
double render_dpi(const poppler::page& page) {
  auto box = page.page_rect(poppler::media_box);
  double inches2 = std::abs(box.width() / 72.0) * std::abs(box.height() / 72.0);
  double dpi = kOcrRenderDpi;
  if (inches2 > 0 && dpi * dpi * inches2 > static_cast<double>(kImageMaxPixels))
    dpi = std::floor(std::sqrt(static_cast<double>(kImageMaxPixels) / inches2));
  return std::max(dpi, 1.0);
}

std::string ocr_page(const poppler::page& page, const Ocr& ocr, const Deadline& deadline) {
  poppler::page_renderer renderer;
  renderer.set_image_format(poppler::image::format_gray8);
  renderer.set_render_hint(poppler::page_renderer::antialiasing, true);
  renderer.set_render_hint(poppler::page_renderer::text_antialiasing, true);
  double dpi = render_dpi(page);
  poppler::image img = renderer.render_page(&page, dpi, dpi);
  if (!img.is_valid() || img.width() <= 0 || img.height() <= 0) return {};
  GrayImage gray;
  gray.width = img.width();
  gray.height = img.height();
  gray.dpi = static_cast<int>(dpi);
  gray.pixels.resize(static_cast<std::size_t>(gray.width) * static_cast<std::size_t>(gray.height));
  const char* data = img.const_data();
  for (int y = 0; y < gray.height; ++y) {
    const auto* row =
        reinterpret_cast<const unsigned char*>(data + static_cast<std::ptrdiff_t>(y) * img.bytes_per_row());
    std::copy(row, row + gray.width, gray.pixels.begin() + static_cast<std::ptrdiff_t>(y) * gray.width);
  }
  return ocr.read_page(gray, deadline);
}

}  // namespace

Document extract_pdf(std::string_view bytes, const ExtractLimits& limits) {
  // poppler reports syntax errors on stderr by default: the analyzer's answer carries them instead.
  static std::once_flag quiet;
  std::call_once(quiet, [] { poppler::set_debug_error_function([](const std::string&, void*) {}, nullptr); });
  Document doc;
  doc.type = "pdf";
  std::vector<char> data(bytes.begin(), bytes.end());  // poppler keeps a pointer while the document lives
  std::unique_ptr<poppler::document> pdf(
      poppler::document::load_from_raw_data(data.data(), static_cast<int>(data.size())));
  if (!pdf) {
    // A document with a user password fails to load at all in poppler-cpp.
    if (bytes.find("/Encrypt") != std::string_view::npos) throw BadDocument("the PDF is encrypted");
    throw BadDocument("the PDF is malformed and cannot be read");
  }
  if (pdf->is_locked()) throw BadDocument("the PDF is encrypted");
  int pages = pdf->pages();
  // poppler repairs what it can; a file with no readable page tree has nothing to analyse.
  if (pages <= 0) throw BadDocument("the PDF is malformed: no readable pages");
  if (static_cast<std::size_t>(pages) > limits.max_pages)
    throw BadDocument("the PDF has " + std::to_string(pages) + " pages, more than the " +
                      std::to_string(limits.max_pages) + " allowed");
  doc.pages = static_cast<std::size_t>(pages);
  for (int i = 0; i < pages; ++i) {
    limits.deadline.check();
    std::unique_ptr<poppler::page> page(pdf->create_page(i));
    if (!page) continue;
    auto utf8 = page->text().to_utf8();
    std::string text(utf8.begin(), utf8.end());
    if (visible_chars(text) < kOcrTextLayerMinChars) {  // a scan, or a page with no text at all
      if (limits.ocr && doc.ocr_pages < kOcrMaxPages) {
        std::string read = ocr_page(*page, *limits.ocr, limits.deadline);
        text += text.empty() ? read : "\n" + read;  // the text layer, if any, first
        ++doc.ocr_pages;
      } else {
        ++doc.pages_without_text;
      }
    }
    add_segment(doc, {"page", std::to_string(i + 1), ""}, std::move(text));
  }
  return doc;
}

}  // namespace dozor::analyzer
