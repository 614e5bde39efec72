#pragma once
// A small WordprocessingML document model: what the audit report needs and no more — title,
// headings 1–3, paragraphs of runs (bold, italic, monospace, colour, size), bullets, tables with a
// repeated header row and shaded cells, page breaks, a footer with page numbers, and the package's
// core properties. `write_docx` (package.hpp) turns it into a .docx file.
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace dozor::report::docx {

// `s` as text XML 1.0 can carry: valid UTF-8 (invalid bytes become U+FFFD) without the characters
// XML forbids or Word chokes on — C0 controls but tab and newline, DEL, C1 controls, U+FFFE/U+FFFF;
// CR LF and lone CR become LF.
std::string xml_text(std::string_view s);

struct Run {
  Run() = default;
  explicit Run(std::string t) : text(std::move(t)) {}

  std::string text;  // any UTF-8; '\n' is a line break, '\t' a tab
  bool bold = false;
  bool italic = false;
  bool mono = false;    // a monospace font, for excerpts and request lines
  std::string color;    // "RRGGBB"; empty: the style's
  int half_points = 0;  // font size in half-points; 0: the style's
};

enum class Style { Normal, Title, Subtitle, Heading1, Heading2, Heading3, Bullet };
enum class Align { Start, Center, End };

struct Paragraph {
  Style style = Style::Normal;
  std::vector<Run> runs;
  Align align = Align::Start;
  bool keep_next = false;  // on the same page as the next block (a caption above its table)
};

struct Cell {
  std::vector<Paragraph> paragraphs;  // none: an empty paragraph is written (a cell needs one)
  std::string fill;                   // shading "RRGGBB"; empty: none
};

struct Table {
  std::vector<int> widths;              // relative column weights; empty or mismatched: equal columns
  std::vector<std::vector<Cell>> rows;  // rows[0] is the header: shaded, bold, repeated on each page
};

struct PageBreak {};

using Block = std::variant<Paragraph, Table, PageBreak>;

enum class Field { None, Page, NumPages };
struct FooterPart {
  explicit FooterPart(std::string t) : text(std::move(t)) {}
  explicit FooterPart(Field f) : field(f) {}

  std::string text;           // for Field::None
  Field field = Field::None;  // the current page or the page count
};

struct Properties {
  std::string title;
  std::string subject;
  std::string creator;
  std::string language = "en-US";  // spelling language of the text, "ru-RU"
  std::string created;             // W3CDTF "2026-11-23T10:00:00Z"; empty: the time of writing
};

struct Document {
  Properties properties;
  std::vector<Block> body;
  std::vector<FooterPart> footer;  // empty: no footer
};

// Builders for the common cases.
Paragraph paragraph(std::string text, Style style = Style::Normal);
Paragraph paragraph(std::vector<Run> runs, Style style = Style::Normal);
Run bold(std::string text);
Cell cell(std::string text, std::string fill = {}, bool strong = false);
Cell cell(std::vector<Paragraph> paragraphs, std::string fill = {});

}  // namespace dozor::report::docx
