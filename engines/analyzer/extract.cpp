#include "engines/analyzer/extract.hpp"

#include <uchardet/uchardet.h>

#include <algorithm>
#include <memory>

#include "engines/analyzer/text.hpp"

namespace dozor::analyzer {
namespace {

using namespace limits::analyzer;

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string lower_ascii(std::string_view s) {
  std::string o(s);
  for (auto& c : o) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return o;
}

// Binary formats the analyzer does not read (images without OCR): named in the 415 answer.
const char* known_binary(std::string_view b) {
  if (const char* image = image_kind(b)) return image;
  if (starts_with(b,
                  "\x7F"
                  "ELF"))
    return "executable";
  if (starts_with(b, "MZ")) return "executable";
  if (starts_with(b, "\x1F\x8B")) return "gzip archive";
  if (starts_with(b, "Rar!")) return "RAR archive";
  if (starts_with(b, "7z\xBC\xAF")) return "7-Zip archive";
  if (starts_with(b, "\xD0\xCF\x11\xE0")) return "legacy Office (OLE) document";
  return nullptr;
}

}  // namespace

const char* image_kind(std::string_view b) {
  if (starts_with(b, "\x89PNG\r\n\x1A\n")) return "PNG image";
  if (starts_with(b, "\xFF\xD8\xFF")) return "JPEG image";
  if (starts_with(b, "GIF87a") || starts_with(b, "GIF89a")) return "GIF image";
  if (starts_with(b, std::string_view("II*\0", 4)) || starts_with(b, std::string_view("MM\0*", 4))) return "TIFF image";
  if (b.size() >= 12 && starts_with(b, "RIFF") && b.substr(8, 4) == "WEBP") return "WebP image";
  // "BM" alone starts too much text: the info header's size must be one BMP defines.
  if (b.size() >= 18 && starts_with(b, "BM")) {
    auto header = static_cast<unsigned char>(b[14]) | static_cast<unsigned>(static_cast<unsigned char>(b[15])) << 8;
    if (b[16] == 0 && b[17] == 0 &&
        (header == 12 || header == 40 || header == 52 || header == 56 || header == 108 || header == 124))
      return "BMP image";
  }
  return nullptr;
}

std::size_t segment_bytes(const Location& where, std::string_view text, std::string_view context) {
  return text.size() + context.size() + where.kind.size() + where.ref.size() + where.part.size();
}

void add_segment(Document& doc, Location where, std::string text, std::string context) {
  if (std::all_of(text.begin(), text.end(), [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }))
    return;
  if (doc.segments.size() >= kMaxSegments) throw BadDocument("the document has more than the allowed number of parts");
  // Every byte the segment holds counts, not only its own text: the context derived for it (a
  // cell's neighbours) and its location (a sheet's name is repeated in each of its cells).
  doc.text_bytes += segment_bytes(where, text, context);
  if (doc.text_bytes > kMaxTextBytes)
    throw BadDocument("the document's text is larger than the " + std::to_string(kMaxTextBytes) + " bytes allowed");
  doc.segments.push_back({std::move(where), std::move(text), std::move(context)});
}

std::string decode_text(std::string_view bytes, std::string& charset) {
  if (starts_with(bytes, "\xEF\xBB\xBF")) {
    charset = "UTF-8";
    return std::string(bytes.substr(3));
  }
  if (starts_with(bytes, "\xFF\xFE") || starts_with(bytes, "\xFE\xFF")) {
    charset = bytes[0] == '\xFF' ? "UTF-16LE" : "UTF-16BE";
    return text::to_utf8(bytes.substr(2), charset);
  }
  if (text::valid_utf8(bytes)) {
    charset = "UTF-8";
    return std::string(bytes);
  }
  std::unique_ptr<std::remove_pointer_t<uchardet_t>, decltype(&uchardet_delete)> det(uchardet_new(), uchardet_delete);
  // uchardet needs a sample, not the whole document.
  std::string_view sample = bytes.substr(0, std::min<std::size_t>(bytes.size(), 1 << 20));
  uchardet_handle_data(det.get(), sample.data(), sample.size());
  uchardet_data_end(det.get());
  std::string guess = uchardet_get_charset(det.get());
  // Cyrillic text that uchardet cannot place is most often windows-1251 in Russian documents.
  charset = guess.empty() || guess == "ASCII" ? "windows-1251" : guess;
  try {
    return text::to_utf8(bytes, charset);
  } catch (const std::exception&) {
    charset = "windows-1251";
    return text::to_utf8(bytes, charset);
  }
}

std::string sniff_type(std::string_view b, std::string_view content_type) {
  if (starts_with(b, "%PDF-")) return "pdf";
  if (starts_with(b, "{\\rtf")) return "rtf";
  if (starts_with(b, "PK\x03\x04")) return "office";  // the container decides (extract_office)
  if (const char* what = known_binary(b)) throw UnsupportedDocument(std::string("unsupported document type: ") + what);
  std::string ct = lower_ascii(content_type);
  std::string head = lower_ascii(b.substr(0, 1024));
  auto first = head.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  std::string_view lead = first == std::string::npos ? std::string_view() : std::string_view(head).substr(first);
  if (ct.find("text/html") != std::string::npos || ct.find("xhtml") != std::string::npos ||
      starts_with(lead, "<!doctype html") || starts_with(lead, "<html") || head.find("<body") != std::string::npos)
    return "html";
  // Text: no NUL bytes outside UTF-16 (a NUL in the first KiB of anything else means binary).
  bool utf16 = starts_with(b, "\xFF\xFE") || starts_with(b, "\xFE\xFF");
  if (!utf16 && b.substr(0, 4096).find('\0') != std::string_view::npos)
    throw UnsupportedDocument("unsupported document type: binary data of an unknown format");
  return "text";
}

Document extract_text(std::string_view bytes) {
  Document doc;
  doc.type = "text";
  std::string utf8 = decode_text(bytes, doc.charset);
  std::size_t line = 0, pos = 0;
  while (pos <= utf8.size()) {
    auto nl = utf8.find('\n', pos);
    if (nl == std::string::npos) nl = utf8.size();
    ++line;
    add_segment(doc, {"line", std::to_string(line), ""}, utf8.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return doc;
}

Document extract_image(std::string_view bytes, const ExtractLimits& limits) {
  const char* kind = image_kind(bytes);
  if (!kind) throw UnsupportedDocument("unsupported document type: not an image");
  if (!limits.ocr)
    throw UnsupportedDocument(std::string("unsupported document type: ") + kind + " (OCR is off: analyzer.ocr)");
  Document doc;
  doc.type = "image";
  auto read = limits.ocr->read_image_file(bytes, limits.max_pages, kOcrMaxPages, limits.deadline);
  doc.pages = read.pages;
  doc.ocr_pages = read.text.size();
  doc.pages_without_text = read.pages - read.text.size();  // past kOcrMaxPages
  for (std::size_t i = 0; i < read.text.size(); ++i)
    add_segment(doc, {"page", std::to_string(i + 1), ""}, std::move(read.text[i]));
  return doc;
}

Document extract(std::string_view bytes, std::string_view content_type, const ExtractLimits& limits) {
  if (image_kind(bytes)) {  // read by OCR, or refused naming analyzer.ocr
    Document doc = extract_image(bytes, limits);
    limits.deadline.check();
    return doc;
  }
  std::string type = sniff_type(bytes, content_type);
  Document doc;
  if (type == "pdf")
    doc = extract_pdf(bytes, limits);
  else if (type == "rtf")
    doc = extract_rtf(bytes);
  else if (type == "office")
    doc = extract_office(bytes, limits.deadline);
  else if (type == "html")
    doc = extract_html(bytes);
  else
    doc = extract_text(bytes);
  limits.deadline.check();
  return doc;
}

}  // namespace dozor::analyzer
