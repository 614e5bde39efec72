#pragma once
// OCR with Tesseract (LSTM) on images Leptonica decodes. Linked only into dozor-analyzer and the
// tests (library dozor_ocr), so the other programs do not load Tesseract.
#include <memory>
#include <string>

#include "engines/analyzer/ocr.hpp"

namespace dozor::analyzer {

struct OcrError : std::runtime_error {  // the engine cannot start: the analyzer is not ready
  using std::runtime_error::runtime_error;
};

// Thread-safe: each thread that reads gets its own engine (loaded once, kept for the thread's
// life). Construction loads one to prove that the languages' data is installed; it throws
// OcrError naming what is missing.
class TesseractOcr : public Ocr {
 public:
  // `languages` as Tesseract names them, "rus+eng"; `datapath` empty for the installed tessdata.
  explicit TesseractOcr(std::string languages, std::string datapath = {});

  ImageText read_image_file(std::string_view bytes, std::size_t max_pages, std::size_t max_read,
                            const Deadline& deadline) const override;
  std::string read_page(const GrayImage& page, const Deadline& deadline) const override;

  const std::string& languages() const { return languages_; }

 private:
  std::string languages_;
  std::string datapath_;
};

}  // namespace dozor::analyzer
