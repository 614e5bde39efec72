#include "engines/report/docx/document.hpp"

#include <cstdint>

#include "engines/text/utf8.hpp"

namespace dozor::report::docx {
namespace {

// XML 1.0's Char production, narrowed by the controls Word refuses or shows as boxes.
bool allowed(std::uint32_t cp) {
  if (cp == '\t' || cp == '\n') return true;
  if (cp < 0x20) return false;
  if (cp >= 0x7F && cp <= 0x9F) return false;
  if (cp == 0xFFFE || cp == 0xFFFF) return false;
  return true;  // surrogates cannot occur in valid UTF-8
}

}  // namespace

std::string xml_text(std::string_view s) {
  const std::string valid = text::to_valid_utf8(s);
  std::string out;
  out.reserve(valid.size());
  for (std::size_t i = 0; i < valid.size();) {
    const auto lead = static_cast<unsigned char>(valid[i]);
    const std::size_t len = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    std::uint32_t cp = len == 1 ? lead : len == 2 ? (lead & 0x1Fu) : len == 3 ? (lead & 0x0Fu) : (lead & 0x07u);
    for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(valid[i + k]) & 0x3Fu);
    if (cp == '\r') {
      // CR LF is one line end; a lone CR is one too.
      if (i + 1 >= valid.size() || valid[i + 1] != '\n') out += '\n';
    } else if (allowed(cp)) {
      out.append(valid, i, len);
    }
    i += len;
  }
  return out;
}

Paragraph paragraph(std::string text, Style style) {
  Paragraph p;
  p.style = style;
  p.runs.emplace_back(std::move(text));
  return p;
}

Paragraph paragraph(std::vector<Run> runs, Style style) {
  Paragraph p;
  p.style = style;
  p.runs = std::move(runs);
  return p;
}

Run bold(std::string text) {
  Run r(std::move(text));
  r.bold = true;
  return r;
}

Cell cell(std::string text, std::string fill, bool strong) {
  Cell c;
  Run r(std::move(text));
  r.bold = strong;
  c.paragraphs.push_back(paragraph(std::vector<Run>{std::move(r)}));
  c.fill = std::move(fill);
  return c;
}

Cell cell(std::vector<Paragraph> paragraphs, std::string fill) {
  Cell c;
  c.paragraphs = std::move(paragraphs);
  c.fill = std::move(fill);
  return c;
}

}  // namespace dozor::report::docx
