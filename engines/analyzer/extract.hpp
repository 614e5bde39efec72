#pragma once
// Extractors: document bytes → located text. Each one is bounded by engines/limits.hpp
// (analyzer section) and throws UnsupportedDocument (415) or BadDocument (422) with a reason.
#include <cstddef>
#include <string>
#include <string_view>

#include "engines/analyzer/document.hpp"
#include "engines/analyzer/ocr.hpp"
#include "engines/limits.hpp"

namespace dozor::analyzer {

struct ExtractLimits {
  std::size_t max_pages = limits::analyzer::kPdfMaxPages;  // config analyzer.max_pages
  Deadline deadline;                                       // config analyzer.max_seconds
  const Ocr* ocr = nullptr;  // config analyzer.ocr: images and PDF pages without a text layer
};

// The type from the bytes (magic numbers, the container's manifest), the Content-Type only
// breaking ties between text and HTML: text | html | docx | xlsx | pptx | odt | ods | pdf | rtf.
// Throws UnsupportedDocument for anything else (images, archives, executables); extract() reads
// images itself when it has OCR.
std::string sniff_type(std::string_view bytes, std::string_view content_type);

Document extract(std::string_view bytes, std::string_view content_type, const ExtractLimits& limits = {});

// One extractor per format (also the fuzz targets' entry points).
Document extract_text(std::string_view bytes);
Document extract_html(std::string_view bytes);
Document extract_office(std::string_view bytes, const Deadline& deadline = {});  // DOCX, XLSX, PPTX, ODT, ODS, ODP
Document extract_pdf(std::string_view bytes, const ExtractLimits& limits);
Document extract_rtf(std::string_view bytes);
Document extract_image(std::string_view bytes, const ExtractLimits& limits);  // needs limits.ocr

// Bytes in an unknown charset → UTF-8 (BOM, valid UTF-8, else uchardet's guess); the charset
// used goes to `charset`.
std::string decode_text(std::string_view bytes, std::string& charset);

// Adds a segment unless it is blank; throws BadDocument past kMaxSegments or kMaxTextBytes.
// Its text, context and location all count against kMaxTextBytes (segment_bytes).
void add_segment(Document& doc, Location where, std::string text, std::string context = {});
std::size_t segment_bytes(const Location& where, std::string_view text, std::string_view context);

}  // namespace dozor::analyzer
