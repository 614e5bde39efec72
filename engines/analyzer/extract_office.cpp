// Office Open XML (DOCX, XLSX, PPTX) and OpenDocument (ODT, ODS, ODP) → paragraphs, cells and
// slides. The ZIP container is read with libzip within the zip-bomb limits of engines/limits.hpp
// (entries, bytes per part, bytes in all, compression ratio), counting the bytes actually
// inflated, not the sizes the archive declares. XML parts are parsed by pugixml, which never
// expands entities beyond the five predefined ones; a part that declares a DTD is refused.
#include <zip.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <pugixml.hpp>

#include "engines/analyzer/extract.hpp"

namespace dozor::analyzer {
namespace {

using namespace limits::analyzer;

class Container {
 public:
  Container(std::string_view bytes, const Deadline& deadline) : deadline_(deadline) {
    zip_error_t err;
    zip_error_init(&err);
    zip_source_t* src = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &err);
    if (!src) throw BadDocument("the ZIP container cannot be read");
    zip_ = zip_open_from_source(src, ZIP_RDONLY, &err);
    if (!zip_) {
      zip_source_free(src);
      zip_error_fini(&err);
      throw BadDocument("the ZIP container is malformed");
    }
    zip_int64_t n = zip_get_num_entries(zip_, 0);
    if (n < 0 || static_cast<std::uint64_t>(n) > kZipMaxEntries)
      throw BadDocument("the ZIP container has " + std::to_string(n) + " entries, more than the " +
                        std::to_string(kZipMaxEntries) + " allowed");
    for (zip_int64_t i = 0; i < n; ++i) {
      const char* name = zip_get_name(zip_, static_cast<zip_uint64_t>(i), 0);
      if (name) names_.emplace_back(name);
    }
  }
  ~Container() {
    if (zip_) zip_discard(zip_);
  }
  Container(const Container&) = delete;
  Container& operator=(const Container&) = delete;

  const std::vector<std::string>& names() const { return names_; }
  bool has(const std::string& name) const { return std::find(names_.begin(), names_.end(), name) != names_.end(); }

  std::string read(const std::string& name) {
    deadline_.check();
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat(zip_, name.c_str(), 0, &st) != 0) throw BadDocument("the part " + name + " is missing");
    if ((st.valid & ZIP_STAT_SIZE) && st.size > kZipMaxEntryBytes)
      throw BadDocument("the part " + name + " declares " + std::to_string(st.size) +
                        " bytes uncompressed, more than allowed");
    std::unique_ptr<zip_file_t, decltype(&zip_fclose)> f(zip_fopen(zip_, name.c_str(), 0), zip_fclose);
    if (!f) throw BadDocument("the part " + name + " cannot be opened (encrypted or an unknown compression)");
    std::string out;
    char buf[65536];
    for (;;) {
      zip_int64_t got = zip_fread(f.get(), buf, sizeof buf);
      if (got < 0) throw BadDocument("the part " + name + " is corrupt");
      if (got == 0) break;
      out.append(buf, static_cast<std::size_t>(got));
      total_ += static_cast<std::uint64_t>(got);
      std::uint64_t comp = (st.valid & ZIP_STAT_COMP_SIZE) && st.comp_size > 0 ? st.comp_size : 1;
      if (out.size() > kZipMaxEntryBytes)
        throw BadDocument("the part " + name + " inflates to more than " + std::to_string(kZipMaxEntryBytes) +
                          " bytes (a zip bomb)");
      if (total_ > kZipMaxTotalBytes)
        throw BadDocument("the container inflates to more than " + std::to_string(kZipMaxTotalBytes) +
                          " bytes (a zip bomb)");
      if (out.size() > kZipRatioFloorBytes && out.size() / comp > kZipMaxRatio)
        throw BadDocument("the part " + name + " is compressed more than " + std::to_string(kZipMaxRatio) +
                          ":1 (a zip bomb)");
    }
    return out;
  }

 private:
  zip_t* zip_ = nullptr;
  std::vector<std::string> names_;
  const Deadline& deadline_;
  std::uint64_t total_ = 0;
};

pugi::xml_document parse_xml(Container& zip, const std::string& name) {
  std::string body = zip.read(name);
  if (body.find("<!DOCTYPE") != std::string::npos || body.find("<!ENTITY") != std::string::npos)
    throw BadDocument("the part " + name + " declares a DTD; documents with DTDs are refused (entity expansion)");
  pugi::xml_document doc;
  auto res = doc.load_buffer(body.data(), body.size(), pugi::parse_default | pugi::parse_ws_pcdata);
  if (!res) throw BadDocument("the part " + name + " is not well-formed XML: " + res.description());
  return doc;
}

// Pre-order walk without recursion (a deep document cannot exhaust the stack). `fn` returns
// whether to descend into the node.
template <class F>
void walk(pugi::xml_node root, F&& fn) {
  pugi::xml_node n = root.first_child();
  while (n) {
    bool descend = fn(n);
    if (descend && n.first_child()) {
      n = n.first_child();
      continue;
    }
    while (n != root && !n.next_sibling()) n = n.parent();
    if (n == root) break;
    n = n.next_sibling();
  }
}

bool is_name(pugi::xml_node n, const char* name) { return std::strcmp(n.name(), name) == 0; }

// The text of an element: character data of all descendants, with tabs and breaks as spaces.
std::string text_of(pugi::xml_node el, const char* text_tag) {
  std::string s;
  walk(el, [&](pugi::xml_node n) {
    if (n.type() == pugi::node_pcdata || n.type() == pugi::node_cdata) {
      if (!text_tag || is_name(n.parent(), text_tag)) s += n.value();
    } else if (n.type() == pugi::node_element) {
      const char* nm = n.name();
      if (is_name(n, "w:tab") || is_name(n, "text:tab") || is_name(n, "w:br") || is_name(n, "w:cr") ||
          is_name(n, "text:s") || is_name(n, "text:line-break") || is_name(n, "a:br"))
        s += ' ';
      else if (is_name(n, "w:p") || is_name(n, "a:p") || is_name(n, "text:p")) {
        if (!s.empty()) s += ' ';
      }
      (void)nm;
    }
    return true;
  });
  return s;
}

std::string column_name(std::size_t col) {  // 1 → A, 27 → AA
  std::string s;
  while (col > 0) {
    --col;
    s.insert(s.begin(), static_cast<char>('A' + col % 26));
    col /= 26;
  }
  return s;
}

// Paragraph elements (`tag`) of one XML part, each a segment.
void paragraphs(Document& doc, pugi::xml_node root, const char* tag, const char* text_tag, const std::string& part,
                const std::string& kind, std::size_t& counter, bool per_paragraph_ref = true,
                const std::string& fixed_ref = {}) {
  walk(root, [&](pugi::xml_node n) {
    if (n.type() != pugi::node_element) return false;
    if (is_name(n, tag) || (std::strcmp(tag, "text:p") == 0 && is_name(n, "text:h"))) {
      ++counter;
      add_segment(doc, {kind, per_paragraph_ref ? std::to_string(counter) : fixed_ref, part}, text_of(n, text_tag));
      return false;  // nested paragraphs (text boxes) are part of this one's text
    }
    return true;
  });
}

// The first `budget` bytes of `s` (the last ones when `tail`), cut at a UTF-8 character boundary.
std::string_view clip(std::string_view s, std::size_t budget, bool tail) {
  if (s.size() <= budget) return s;
  auto continuation = [](char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; };
  if (tail) {
    std::size_t start = s.size() - budget;
    while (start < s.size() && continuation(s[start])) ++start;
    return s.substr(start);
  }
  std::size_t end = budget;
  while (end > 0 && continuation(s[end])) --end;
  return s.substr(0, end);
}

// A spreadsheet's cells: each cell a segment whose context is its column's header and the
// nearest cells of its row (left and right in turn, nearest first), within kCellContextBytes.
// The whole row's text for every cell grew as cells² × value length (a 1.9 KB workbook took
// 1.4 GB); the window keeps what qualifies a value ("СНИЛС" in the header or the next cell).
// A row's values are counted against kSpreadsheetMaxCells (for the whole workbook) and
// kMaxTextBytes as they are read, before they are copied: a cell that repeats a long shared
// string costs its bytes each time.
class Grid {
 public:
  Grid(Document& doc, std::string sheet, std::size_t& workbook_cells)
      : doc_(doc), sheet_(std::move(sheet)), cells_(workbook_cells) {}

  // One cell of the current row (an empty value is not a cell).
  void cell(std::size_t col, std::string_view value) {
    if (value.empty()) return;
    admit(value.size());
    row_.emplace_back(col, std::string(value));
  }
  void cell(std::size_t col, std::string&& value) {
    if (value.empty()) return;
    admit(value.size());
    row_.emplace_back(col, std::move(value));
  }

  void end_row(std::size_t row_no) {
    if (!header_read_ && !row_.empty()) {
      for (const auto& [col, v] : row_) header_[col] = std::string(clip(v, kCellContextBytes, false));
      header_read_ = true;
    }
    // A cell's text moves into its segment; the contexts of the cells after it read it there.
    constexpr std::size_t kKept = static_cast<std::size_t>(-1);
    std::vector<std::size_t> segment_of(row_.size(), kKept);
    auto text_at = [&](std::size_t j) -> std::string_view {
      return segment_of[j] == kKept ? std::string_view(row_[j].second) : doc_.segments[segment_of[j]].text;
    };
    for (std::size_t i = 0; i < row_.size(); ++i) {
      std::string ctx;
      std::size_t budget = kCellContextBytes;
      auto append = [&](std::string_view piece, bool tail) {
        auto part = clip(piece, budget, tail);
        if (part.empty() && !piece.empty()) budget = 0;  // not even one character fits
        ctx += part;
        budget -= part.size();
        if (budget >= 3) {
          ctx += " | ";
          budget -= 3;
        } else {
          budget = 0;
        }
      };
      auto h = header_.find(row_[i].first);
      if (h != header_.end()) append(h->second, false);
      for (std::size_t d = 1; budget > 0 && (d <= i || i + d < row_.size()); ++d) {
        if (d <= i) append(text_at(i - d), true);
        if (budget > 0 && i + d < row_.size()) append(text_at(i + d), false);
      }
      std::size_t before = doc_.segments.size();
      std::size_t bytes = row_[i].second.size();
      add_segment(doc_, {"cell", column_name(row_[i].first) + std::to_string(row_no), sheet_},
                  std::move(row_[i].second), std::move(ctx));
      if (doc_.segments.size() > before) segment_of[i] = before;
      pending_ -= bytes;
    }
    row_.clear();
    pending_ = 0;
  }

 private:
  void admit(std::size_t bytes) {
    if (++cells_ > kSpreadsheetMaxCells)
      throw BadDocument("the workbook has more than " + std::to_string(kSpreadsheetMaxCells) + " non-empty cells");
    pending_ += bytes;
    if (doc_.text_bytes + pending_ > kMaxTextBytes)
      throw BadDocument("the document's text is larger than the " + std::to_string(kMaxTextBytes) + " bytes allowed");
  }

  Document& doc_;
  std::string sheet_;
  std::size_t& cells_;
  std::map<std::size_t, std::string> header_;  // column → the first row's value (clipped)
  bool header_read_ = false;
  std::vector<std::pair<std::size_t, std::string>> row_;
  std::size_t pending_ = 0;  // bytes of row_ not yet in a segment
};

std::size_t column_of(std::string_view ref) {  // "BC12" → 55
  std::size_t col = 0;
  for (char c : ref) {
    if (c < 'A' || c > 'Z') break;
    col = col * 26 + static_cast<std::size_t>(c - 'A' + 1);
    if (col > 16384) return 0;
  }
  return col;
}

std::size_t row_of(std::string_view ref) {
  std::size_t r = 0;
  for (char c : ref)
    if (c >= '0' && c <= '9') r = std::min<std::size_t>(r * 10 + static_cast<std::size_t>(c - '0'), 1u << 21);
  return r;
}

std::string resolve_target(std::string target, const std::string& base) {
  if (!target.empty() && target[0] == '/') return target.substr(1);
  return base + target;
}

void read_docx(Container& zip, Document& doc) {
  doc.type = "docx";
  std::size_t counter = 0;
  auto main = parse_xml(zip, "word/document.xml");
  paragraphs(doc, main.root(), "w:p", "w:t", "", "paragraph", counter);
  for (const auto& name : zip.names()) {
    bool extra = name.rfind("word/header", 0) == 0 || name.rfind("word/footer", 0) == 0 ||
                 name == "word/footnotes.xml" || name == "word/endnotes.xml" || name == "word/comments.xml";
    if (!extra || name.size() < 4 || name.substr(name.size() - 4) != ".xml") continue;
    std::size_t c = 0;
    auto part = parse_xml(zip, name);
    paragraphs(doc, part.root(), "w:p", "w:t", name.substr(5, name.size() - 9), "paragraph", c);
  }
}

void read_xlsx(Container& zip, Document& doc) {
  doc.type = "xlsx";
  std::vector<std::string> shared;
  if (zip.has("xl/sharedStrings.xml")) {
    auto sst = parse_xml(zip, "xl/sharedStrings.xml");
    for (auto si : sst.child("sst").children("si")) shared.push_back(text_of(si, "t"));
  }
  std::map<std::string, std::string> rels;
  if (zip.has("xl/_rels/workbook.xml.rels")) {
    auto r = parse_xml(zip, "xl/_rels/workbook.xml.rels");
    for (auto rel : r.child("Relationships").children("Relationship"))
      rels[rel.attribute("Id").value()] = resolve_target(rel.attribute("Target").value(), "xl/");
  }
  auto wb = parse_xml(zip, "xl/workbook.xml");
  std::size_t cells = 0;
  for (auto sheet : wb.child("workbook").child("sheets").children("sheet")) {
    auto it = rels.find(sheet.attribute("r:id").value());
    if (it == rels.end() || !zip.has(it->second)) continue;
    auto ws = parse_xml(zip, it->second);
    Grid grid(doc, sheet.attribute("name").value(), cells);
    for (auto row : ws.child("worksheet").child("sheetData").children("row")) {
      std::size_t row_no = row.attribute("r").as_ullong(0), next_col = 1;
      for (auto c : row.children("c")) {
        std::string ref = c.attribute("r").value();
        std::size_t col = ref.empty() ? next_col : column_of(ref);
        if (row_no == 0 && !ref.empty()) row_no = row_of(ref);
        next_col = col + 1;
        if (col == 0) continue;
        std::string_view t = c.attribute("t").value();
        if (t == "s") {
          // Counted before it is copied: thousands of cells may name one long string.
          auto idx = static_cast<std::size_t>(c.child("v").text().as_ullong(~0ULL));
          if (idx < shared.size()) grid.cell(col, std::string_view(shared[idx]));
        } else if (t == "inlineStr") {
          grid.cell(col, text_of(c.child("is"), "t"));
        } else {
          grid.cell(col, std::string_view(c.child("v").text().get()));
        }
      }
      grid.end_row(row_no);
    }
  }
}

void read_pptx(Container& zip, Document& doc) {
  doc.type = "pptx";
  std::vector<std::pair<std::size_t, std::string>> slides;
  for (const auto& name : zip.names()) {
    if (name.rfind("ppt/slides/slide", 0) != 0 || name.size() < 21 || name.substr(name.size() - 4) != ".xml") continue;
    std::string num = name.substr(16, name.size() - 20);
    if (num.empty() || num.find_first_not_of("0123456789") != std::string::npos || num.size() > 6) continue;
    slides.emplace_back(std::stoul(num), name);
  }
  std::sort(slides.begin(), slides.end());
  for (const auto& [n, name] : slides) {
    std::size_t c = 0;
    auto part = parse_xml(zip, name);
    paragraphs(doc, part.root(), "a:p", "a:t", "", "slide", c, false, std::to_string(n));
  }
}

void read_odt(Container& zip, Document& doc) {
  doc.type = "odt";
  std::size_t counter = 0;
  auto content = parse_xml(zip, "content.xml");
  paragraphs(doc, content.root(), "text:p", nullptr, "", "paragraph", counter);
}

// A presentation's slides are its draw:page elements (notes included), located by their number
// as PPTX slides are; text outside any page (none in a valid file) is not read.
void read_odp(Container& zip, Document& doc) {
  doc.type = "odp";
  auto content = parse_xml(zip, "content.xml");
  auto body = content.child("office:document-content").child("office:body").child("office:presentation");
  std::size_t slide = 0;
  for (auto page : body.children("draw:page")) {
    std::size_t c = 0;
    paragraphs(doc, page, "text:p", nullptr, "", "slide", c, false, std::to_string(++slide));
  }
}

void read_ods(Container& zip, Document& doc) {
  doc.type = "ods";
  auto content = parse_xml(zip, "content.xml");
  auto body = content.child("office:document-content").child("office:body").child("office:spreadsheet");
  std::size_t cells = 0;
  for (auto table : body.children("table:table")) {
    Grid grid(doc, table.attribute("table:name").value(), cells);
    std::size_t row_no = 0;
    walk(table, [&](pugi::xml_node row) {
      if (row.type() != pugi::node_element) return false;
      if (!is_name(row, "table:table-row")) return true;  // row groups, header rows
      std::size_t rows_repeat =
          std::clamp<std::size_t>(row.attribute("table:number-rows-repeated").as_ullong(1), 1, 1u << 20);
      ++row_no;
      std::size_t col = 1;
      for (auto cell : row.children()) {
        if (!is_name(cell, "table:table-cell") && !is_name(cell, "table:covered-table-cell")) continue;
        std::size_t repeat =
            std::clamp<std::size_t>(cell.attribute("table:number-columns-repeated").as_ullong(1), 1, 16384);
        std::string v;
        std::string vt = cell.attribute("office:value-type").value();
        std::string raw = cell.attribute("office:value").value();
        // A number's display text may be rounded ("1,12E+10"); its value attribute is exact.
        if ((vt == "float" || vt == "currency") && !raw.empty() &&
            raw.find_first_not_of("0123456789") == std::string::npos)
          v = raw;
        else
          for (auto p : cell.children("text:p")) v += (v.empty() ? "" : " ") + text_of(p, nullptr);
        // A repeated cell is read once, at its first column: repetition costs nothing.
        if (col <= 16384) grid.cell(col, std::move(v));
        col += repeat;
      }
      grid.end_row(row_no);
      row_no += rows_repeat - 1;
      return false;
    });
  }
}

}  // namespace

Document extract_office(std::string_view bytes, const Deadline& deadline) {
  Container zip(bytes, deadline);
  Document doc;
  if (zip.has("mimetype")) {
    std::string mt = zip.read("mimetype");
    if (mt == "application/vnd.oasis.opendocument.text") {
      read_odt(zip, doc);
    } else if (mt == "application/vnd.oasis.opendocument.presentation") {
      read_odp(zip, doc);
    } else if (mt == "application/vnd.oasis.opendocument.spreadsheet") {
      read_ods(zip, doc);
    } else {
      throw UnsupportedDocument("unsupported document type: an OpenDocument of type " + mt.substr(0, 80));
    }
  } else if (zip.has("word/document.xml")) {
    read_docx(zip, doc);
  } else if (zip.has("xl/workbook.xml")) {
    read_xlsx(zip, doc);
  } else if (zip.has("ppt/presentation.xml")) {
    read_pptx(zip, doc);
  } else {
    throw UnsupportedDocument("unsupported document type: a ZIP archive that is not an Office document");
  }
  return doc;
}

}  // namespace dozor::analyzer
