#pragma once
// Text from pixels (analyzer.ocr): the extractors call it for image files and for PDF pages
// without a text layer. An interface so that only dozor-analyzer links Tesseract and Leptonica
// (engines/analyzer/tesseract_ocr.hpp); the other programs share the extractors without them.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "engines/analyzer/document.hpp"

namespace dozor::analyzer {

// A rendered page: 8-bit grey, rows of `width` bytes, top row first.
struct GrayImage {
  int width = 0;
  int height = 0;
  int dpi = 0;
  std::vector<unsigned char> pixels;
};

// An image file's pages and the text of those read (the first `max_read`).
struct ImageText {
  std::size_t pages = 0;
  std::vector<std::string> text;
};

class Ocr {
 public:
  virtual ~Ocr() = default;
  // The text of the first `max_read` pages of an image file (PNG, JPEG, GIF, BMP, WebP; a TIFF
  // may have several pages), each page's size checked before it is decoded. Throws BadDocument
  // for an image that cannot be decoded, is larger than kImageMaxPixels, or has more than
  // `max_pages` pages.
  virtual ImageText read_image_file(std::string_view bytes, std::size_t max_pages, std::size_t max_read,
                                    const Deadline& deadline) const = 0;
  // The text of one rendered page.
  virtual std::string read_page(const GrayImage& page, const Deadline& deadline) const = 0;
};

// What an image file is, from its first bytes ("PNG image", …), or nullptr.
const char* image_kind(std::string_view bytes);

}  // namespace dozor::analyzer
