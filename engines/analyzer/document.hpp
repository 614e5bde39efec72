#pragma once
// What an extractor produces and a detector reads: the document's text in located pieces.
#include <chrono>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace dozor::analyzer {

// Where a piece of text was found: kind is page | paragraph | cell | slide | line, ref the
// 1-based number (or the cell name "B2"), part the sheet or part name when there is one.
struct Location {
  std::string kind;
  std::string ref;
  std::string part;
};

struct Segment {
  Location where;
  std::string text;     // UTF-8, NFKC-normalised by the detector
  std::string context;  // text near it that context words may come from (a cell's row and header)
};

struct Document {
  std::string type;           // text | html | docx | xlsx | pptx | odt | ods | odp | pdf | rtf | image
  std::string charset;        // what the bytes were decoded from (text and html)
  std::size_t pages = 0;      // PDF; an image file's pages (a TIFF may have several)
  std::size_t ocr_pages = 0;  // pages whose text came from OCR (analyzer.ocr)
  // Pages with (almost) no text layer that OCR did not read — it is off, or the document has
  // more than kOcrMaxPages such pages: a scan the report cannot speak for.
  std::size_t pages_without_text = 0;
  std::size_t text_bytes = 0;  // of all segments (text, context, location), bounded by kMaxTextBytes
  std::vector<Segment> segments;
};

// The document cannot be analysed; `reason` says why in words an operator can act on.
struct UnsupportedDocument : std::runtime_error {  // → 415
  using std::runtime_error::runtime_error;
};
struct BadDocument : std::runtime_error {  // malformed, encrypted, or past a limit → 422
  using std::runtime_error::runtime_error;
};

// The per-document time limit (analyzer.max_seconds): extractors check it per page or part,
// the detector per segment, OCR per page — work that cannot be interrupted ends at the next check.
struct Deadline {
  std::chrono::steady_clock::time_point at = std::chrono::steady_clock::time_point::max();
  int seconds = 0;  // what the limit was, for the reason

  static Deadline in(int seconds) {
    return {std::chrono::steady_clock::now() + std::chrono::seconds(seconds), seconds};
  }
  // Throws BadDocument (422) once the deadline has passed.
  void check() const {
    if (at != std::chrono::steady_clock::time_point::max() && std::chrono::steady_clock::now() >= at)
      throw BadDocument("the analysis took longer than the " + std::to_string(seconds) +
                        " s allowed for one document (analyzer.max_seconds)");
  }
};

}  // namespace dozor::analyzer
