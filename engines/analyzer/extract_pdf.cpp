// PDF → pages (poppler-cpp). Encrypted and malformed files are refused with their reason; the
// page count is bounded before any text is read.
#include <poppler/cpp/poppler-document.h>
#include <poppler/cpp/poppler-global.h>
#include <poppler/cpp/poppler-page.h>

#include <memory>
#include <mutex>

#include "engines/analyzer/extract.hpp"

namespace dozor::analyzer {

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
    add_segment(doc, {"page", std::to_string(i + 1), ""}, std::string(utf8.begin(), utf8.end()));
  }
  return doc;
}

}  // namespace dozor::analyzer
