// Images read by OCR (analyzer.ocr) on hostile bytes: Leptonica decodes them after the size
// check, Tesseract reads them, the detector scans the text; any input ends in a document or in
// BadDocument/UnsupportedDocument, within kImageMaxPixels and the page limit.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "dozor_source_dir.hpp"
#include "engines/analyzer/analyzer.hpp"
#include "engines/analyzer/tesseract_ocr.hpp"

namespace a = dozor::analyzer;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const a::Analyzer analyzer(std::string(DOZOR_SOURCE_DIR) + "/share/analyzer");
  static const a::TesseractOcr ocr("eng");
  std::string_view in(reinterpret_cast<const char*>(data), size);
  a::ExtractLimits limits;
  limits.ocr = &ocr;
  limits.deadline = a::Deadline::in(10);
  try {
    auto doc = a::extract_image(in, limits);
    analyzer.analyze(doc);
  } catch (const a::BadDocument&) {
  } catch (const a::UnsupportedDocument&) {
  }
  return 0;
}
