#include "engines/report/docx/package.hpp"

#include <zip.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <memory>
#include <numeric>
#include <pugixml.hpp>
#include <sstream>
#include <utility>

#include "engines/text/utc_time.hpp"

namespace dozor::report::docx {
namespace {

constexpr const char* kW = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
constexpr const char* kR = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
constexpr const char* kRelTypes = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/";
constexpr const char* kPackageRels = "http://schemas.openxmlformats.org/package/2006/relationships";
constexpr const char* kMainType = "application/vnd.openxmlformats-officedocument.wordprocessingml.";

// Arial and Courier New are what Word has everywhere; fontconfig maps them to the metric-compatible
// Liberation Sans/Mono (fonts-liberation2), which, like the originals, cover Cyrillic.
constexpr const char* kFont = "Arial";
constexpr const char* kMonoFont = "Courier New";

// A4 with 2 cm margins, in twentieths of a point.
constexpr int kPageWidth = 11906;
constexpr int kPageHeight = 16838;
constexpr int kMargin = 1134;
constexpr int kTextWidth = kPageWidth - 2 * kMargin;
constexpr const char* kHeaderFill = "D9E2F3";

bool is_hex_colour(const std::string& c) {
  return c.size() == 6 && std::all_of(c.begin(), c.end(), [](char ch) {
           return (ch >= '0' && ch <= '9') || (ch >= 'A' && ch <= 'F') || (ch >= 'a' && ch <= 'f');
         });
}

// "2026-11-23T10:00:00Z" (fractions allowed): dcterms W3CDTF as Word writes it.
bool is_w3cdtf_utc(const std::string& s) {
  static constexpr std::string_view kShape = "dddd-dd-ddTdd:dd:dd";
  if (s.size() < kShape.size() + 1 || s.back() != 'Z') return false;
  for (std::size_t i = 0; i < kShape.size(); ++i) {
    const bool digit = s[i] >= '0' && s[i] <= '9';
    if (kShape[i] == 'd' ? !digit : s[i] != kShape[i]) return false;
  }
  const std::string_view rest(s.data() + kShape.size(), s.size() - kShape.size() - 1);
  if (rest.empty()) return true;
  return rest.size() > 1 && rest[0] == '.' &&
         std::all_of(rest.begin() + 1, rest.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
}

std::string now_w3cdtf() { return text::utc_now(text::kUtcIso); }

// --- XML helpers (pugixml escapes & < > " itself; xml_text removes what XML cannot carry) ---

struct StringWriter : pugi::xml_writer {
  std::string out;
  void write(const void* data, std::size_t size) override { out.append(static_cast<const char*>(data), size); }
};

pugi::xml_document new_xml() {
  pugi::xml_document doc;
  auto decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";
  decl.append_attribute("standalone") = "yes";
  return doc;
}

std::string serialise(const pugi::xml_document& doc) {
  StringWriter w;
  doc.save(w, "", pugi::format_raw, pugi::encoding_utf8);
  return std::move(w.out);
}

pugi::xml_node child(pugi::xml_node parent, const char* name) { return parent.append_child(name); }

// <name w:val="value"/>
pugi::xml_node val(pugi::xml_node parent, const char* name, const std::string& value) {
  auto n = parent.append_child(name);
  n.append_attribute("w:val") = value.c_str();
  return n;
}

void attr(pugi::xml_node n, const char* name, const std::string& value) { n.append_attribute(name) = value.c_str(); }

void text_node(pugi::xml_node parent, const char* name, const std::string& text) {
  parent.append_child(name).text().set(xml_text(text).c_str());
}

// --- document.xml ---

const char* style_id(Style s) {
  switch (s) {
    case Style::Normal: return nullptr;
    case Style::Title: return "Title";
    case Style::Subtitle: return "Subtitle";
    case Style::Heading1: return "Heading1";
    case Style::Heading2: return "Heading2";
    case Style::Heading3: return "Heading3";
    case Style::Bullet: return "ListBullet";
  }
  return nullptr;
}

void write_run(pugi::xml_node p, const Run& run) {
  auto r = child(p, "w:r");
  auto rpr = child(r, "w:rPr");
  if (run.mono) {
    auto fonts = child(rpr, "w:rFonts");
    for (const char* a : {"w:ascii", "w:hAnsi", "w:cs", "w:eastAsia"}) attr(fonts, a, kMonoFont);
  }
  if (run.bold) child(rpr, "w:b");
  if (run.italic) child(rpr, "w:i");
  if (is_hex_colour(run.color)) val(rpr, "w:color", run.color);
  if (run.half_points > 0) {
    val(rpr, "w:sz", std::to_string(run.half_points));
    val(rpr, "w:szCs", std::to_string(run.half_points));
  }
  if (rpr.first_child().empty()) r.remove_child(rpr);
  // Line breaks and tabs are elements of their own inside a run.
  const std::string text = xml_text(run.text);
  std::size_t start = 0;
  auto flush = [&](std::size_t end) {
    if (end == start) return;
    auto t = child(r, "w:t");
    attr(t, "xml:space", "preserve");
    t.text().set(text.substr(start, end - start).c_str());
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\n' && text[i] != '\t') continue;
    flush(i);
    child(r, text[i] == '\n' ? "w:br" : "w:tab");
    start = i + 1;
  }
  flush(text.size());
}

void write_paragraph(pugi::xml_node parent, const Paragraph& para) {
  auto p = child(parent, "w:p");
  const char* id = style_id(para.style);
  if (id || para.align != Align::Start || para.keep_next) {
    auto ppr = child(p, "w:pPr");
    if (id) val(ppr, "w:pStyle", id);
    if (para.keep_next) child(ppr, "w:keepNext");
    if (para.align != Align::Start) val(ppr, "w:jc", para.align == Align::Center ? "center" : "right");
  }
  for (const auto& run : para.runs) write_run(p, run);
}

std::vector<int> column_twips(const Table& table, std::size_t columns) {
  std::vector<int> weights = table.widths;
  if (weights.size() != columns || std::any_of(weights.begin(), weights.end(), [](int w) { return w <= 0; }))
    weights.assign(columns, 1);
  const long total = std::accumulate(weights.begin(), weights.end(), 0L);
  std::vector<int> twips;
  twips.reserve(weights.size());
  for (int w : weights) twips.push_back(static_cast<int>(static_cast<long>(w) * kTextWidth / total));
  return twips;
}

void write_table(pugi::xml_node body, const Table& table) {
  std::size_t columns = 0;
  for (const auto& row : table.rows) columns = std::max(columns, row.size());
  if (columns == 0) return;
  const auto twips = column_twips(table, columns);
  auto tbl = child(body, "w:tbl");
  auto tblpr = child(tbl, "w:tblPr");
  val(tblpr, "w:tblStyle", "TableGrid");
  auto tblw = child(tblpr, "w:tblW");
  attr(tblw, "w:w", std::to_string(kTextWidth));
  attr(tblw, "w:type", "dxa");
  attr(child(tblpr, "w:tblLayout"), "w:type", "fixed");
  auto look = val(tblpr, "w:tblLook", "04A0");
  attr(look, "w:firstRow", "1");
  attr(look, "w:lastRow", "0");
  attr(look, "w:firstColumn", "0");
  attr(look, "w:lastColumn", "0");
  attr(look, "w:noHBand", "1");
  attr(look, "w:noVBand", "1");
  auto grid = child(tbl, "w:tblGrid");
  for (int w : twips) attr(child(grid, "w:gridCol"), "w:w", std::to_string(w));
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    const bool header = r == 0;
    auto tr = child(tbl, "w:tr");
    auto trpr = child(tr, "w:trPr");
    child(trpr, "w:cantSplit");
    if (header) child(trpr, "w:tblHeader");
    for (std::size_t c = 0; c < columns; ++c) {
      static const Cell kEmpty;
      const Cell& cell = c < table.rows[r].size() ? table.rows[r][c] : kEmpty;
      auto tc = child(tr, "w:tc");
      auto tcpr = child(tc, "w:tcPr");
      auto tcw = child(tcpr, "w:tcW");
      attr(tcw, "w:w", std::to_string(twips[c]));
      attr(tcw, "w:type", "dxa");
      const std::string fill = is_hex_colour(cell.fill) ? cell.fill : header ? kHeaderFill : "";
      if (!fill.empty()) {
        auto shd = val(tcpr, "w:shd", "clear");
        attr(shd, "w:color", "auto");
        attr(shd, "w:fill", fill);
      }
      if (cell.paragraphs.empty()) child(tc, "w:p");
      for (const auto& para : cell.paragraphs) {
        if (!header) {
          write_paragraph(tc, para);
          continue;
        }
        Paragraph strong = para;
        for (auto& run : strong.runs) run.bold = true;
        write_paragraph(tc, strong);
      }
    }
  }
}

std::string document_xml(const Document& doc) {
  auto xml = new_xml();
  auto root = xml.append_child("w:document");
  attr(root, "xmlns:w", kW);
  attr(root, "xmlns:r", kR);
  auto body = child(root, "w:body");
  bool ends_with_table = false;
  for (const auto& block : doc.body) {
    ends_with_table = false;
    if (const auto* p = std::get_if<Paragraph>(&block)) {
      write_paragraph(body, *p);
    } else if (const auto* t = std::get_if<Table>(&block)) {
      write_table(body, *t);
      ends_with_table = !t->rows.empty();
    } else {
      attr(child(child(child(body, "w:p"), "w:r"), "w:br"), "w:type", "page");
    }
  }
  // A table is closed by a paragraph, as Word itself keeps it.
  if (ends_with_table) child(body, "w:p");
  auto sect = child(body, "w:sectPr");
  if (!doc.footer.empty()) {
    auto ref = child(sect, "w:footerReference");
    attr(ref, "w:type", "default");
    attr(ref, "r:id", "rIdFooter1");
  }
  auto size = child(sect, "w:pgSz");
  attr(size, "w:w", std::to_string(kPageWidth));
  attr(size, "w:h", std::to_string(kPageHeight));
  auto mar = child(sect, "w:pgMar");
  for (const char* side : {"w:top", "w:right", "w:bottom", "w:left"}) attr(mar, side, std::to_string(kMargin));
  attr(mar, "w:header", "567");
  attr(mar, "w:footer", "567");
  attr(mar, "w:gutter", "0");
  return serialise(xml);
}

std::string footer_xml(const Document& doc) {
  auto xml = new_xml();
  auto root = xml.append_child("w:ftr");
  attr(root, "xmlns:w", kW);
  attr(root, "xmlns:r", kR);
  auto p = child(root, "w:p");
  val(child(p, "w:pPr"), "w:pStyle", "Footer");
  for (const auto& part : doc.footer) {
    if (part.field == Field::None) {
      write_run(p, Run(part.text));
      continue;
    }
    // A simple field; the cached "1" is what a reader that does not compute fields shows.
    auto fld = child(p, "w:fldSimple");
    attr(fld, "w:instr", part.field == Field::Page ? " PAGE " : " NUMPAGES ");
    write_run(fld, Run("1"));
  }
  return serialise(xml);
}

// --- styles.xml ---

void run_props(pugi::xml_node rpr, bool strong, int half_points, const char* colour) {
  if (strong) child(rpr, "w:b");
  if (colour) val(rpr, "w:color", colour);
  val(rpr, "w:sz", std::to_string(half_points));
  val(rpr, "w:szCs", std::to_string(half_points));
}

struct ParaStyle {
  const char* id;
  const char* name;
  int before = 0;
  int after = 100;
  bool keep_next = false;
  bool bullet = false;
  const char* jc = nullptr;
  int outline = -1;
  bool strong = false;
  int half_points = 20;
  const char* colour = nullptr;
};

// Children in the schema's order (CT_Style, CT_PPr, CT_RPr): Word rejects a file that breaks it.
void paragraph_style(pugi::xml_node styles, const ParaStyle& st) {
  auto s = child(styles, "w:style");
  attr(s, "w:type", "paragraph");
  attr(s, "w:styleId", st.id);
  val(s, "w:name", st.name);
  val(s, "w:basedOn", "Normal");
  val(s, "w:next", st.bullet ? st.id : "Normal");
  child(s, "w:qFormat");
  auto ppr = child(s, "w:pPr");
  if (st.keep_next) {
    child(ppr, "w:keepNext");
    child(ppr, "w:keepLines");
  }
  if (st.bullet) {
    auto numpr = child(ppr, "w:numPr");
    val(numpr, "w:ilvl", "0");
    val(numpr, "w:numId", "1");
  }
  auto spacing = child(ppr, "w:spacing");
  attr(spacing, "w:before", std::to_string(st.before));
  attr(spacing, "w:after", std::to_string(st.after));
  if (st.jc) val(ppr, "w:jc", st.jc);
  if (st.outline >= 0) val(ppr, "w:outlineLvl", std::to_string(st.outline));
  run_props(child(s, "w:rPr"), st.strong, st.half_points, st.colour);
}

std::string styles_xml(const Document& doc) {
  auto xml = new_xml();
  auto styles = xml.append_child("w:styles");
  attr(styles, "xmlns:w", kW);
  auto defaults = child(styles, "w:docDefaults");
  auto rpr = child(child(defaults, "w:rPrDefault"), "w:rPr");
  auto fonts = child(rpr, "w:rFonts");
  for (const char* a : {"w:ascii", "w:hAnsi", "w:cs", "w:eastAsia"}) attr(fonts, a, kFont);
  val(rpr, "w:sz", "20");
  val(rpr, "w:szCs", "20");
  auto lang = val(rpr, "w:lang", xml_text(doc.properties.language));
  attr(lang, "w:eastAsia", "en-US");
  attr(lang, "w:bidi", "ar-SA");
  auto pspacing = child(child(child(defaults, "w:pPrDefault"), "w:pPr"), "w:spacing");
  attr(pspacing, "w:after", "100");
  attr(pspacing, "w:line", "264");
  attr(pspacing, "w:lineRule", "auto");

  auto normal = child(styles, "w:style");
  attr(normal, "w:type", "paragraph");
  attr(normal, "w:default", "1");
  attr(normal, "w:styleId", "Normal");
  val(normal, "w:name", "Normal");
  child(normal, "w:qFormat");

  // Built-in names in Word's lower-case spelling, so Word and LibreOffice map them to their own
  // Heading/Title styles (navigation pane, outline).
  paragraph_style(styles, {.id = "Heading1",
                           .name = "heading 1",
                           .before = 360,
                           .after = 120,
                           .keep_next = true,
                           .outline = 0,
                           .strong = true,
                           .half_points = 32,
                           .colour = "1F3864"});
  paragraph_style(styles, {.id = "Heading2",
                           .name = "heading 2",
                           .before = 280,
                           .after = 120,
                           .keep_next = true,
                           .outline = 1,
                           .strong = true,
                           .half_points = 26,
                           .colour = "2F5496"});
  paragraph_style(styles, {.id = "Heading3",
                           .name = "heading 3",
                           .before = 200,
                           .after = 80,
                           .keep_next = true,
                           .outline = 2,
                           .strong = true,
                           .half_points = 22,
                           .colour = "2F5496"});
  paragraph_style(styles, {.id = "Title",
                           .name = "Title",
                           .before = 2400,
                           .after = 240,
                           .jc = "center",
                           .strong = true,
                           .half_points = 56,
                           .colour = "1F3864"});
  paragraph_style(
      styles,
      {.id = "Subtitle", .name = "Subtitle", .after = 480, .jc = "center", .half_points = 32, .colour = "404040"});
  paragraph_style(styles, {.id = "ListBullet", .name = "List Bullet", .after = 60, .bullet = true});
  paragraph_style(
      styles, {.id = "Footer", .name = "footer", .after = 0, .jc = "center", .half_points = 16, .colour = "595959"});

  auto table = child(styles, "w:style");
  attr(table, "w:type", "table");
  attr(table, "w:styleId", "TableGrid");
  val(table, "w:name", "Table Grid");
  auto cellp = child(table, "w:pPr");
  auto cellspacing = child(cellp, "w:spacing");
  attr(cellspacing, "w:before", "0");
  attr(cellspacing, "w:after", "0");
  val(child(table, "w:rPr"), "w:sz", "18");
  auto tblpr = child(table, "w:tblPr");
  auto borders = child(tblpr, "w:tblBorders");
  for (const char* side : {"w:top", "w:left", "w:bottom", "w:right", "w:insideH", "w:insideV"}) {
    auto b = val(borders, side, "single");
    attr(b, "w:sz", "4");
    attr(b, "w:space", "0");
    attr(b, "w:color", "A6A6A6");
  }
  auto margins = child(tblpr, "w:tblCellMar");
  for (const char* side : {"w:top", "w:left", "w:bottom", "w:right"}) {
    auto m = child(margins, side);
    attr(m, "w:w", side == std::string_view("w:left") || side == std::string_view("w:right") ? "85" : "28");
    attr(m, "w:type", "dxa");
  }
  return serialise(xml);
}

// --- the other parts ---

std::string numbering_xml() {
  auto xml = new_xml();
  auto root = xml.append_child("w:numbering");
  attr(root, "xmlns:w", kW);
  auto abs = child(root, "w:abstractNum");
  attr(abs, "w:abstractNumId", "0");
  val(abs, "w:multiLevelType", "singleLevel");
  auto lvl = child(abs, "w:lvl");
  attr(lvl, "w:ilvl", "0");
  val(lvl, "w:start", "1");
  val(lvl, "w:numFmt", "bullet");
  val(lvl, "w:lvlText", "\u2022");
  val(lvl, "w:lvlJc", "left");
  auto ind = child(child(lvl, "w:pPr"), "w:ind");
  attr(ind, "w:left", "720");
  attr(ind, "w:hanging", "360");
  auto fonts = child(child(lvl, "w:rPr"), "w:rFonts");
  attr(fonts, "w:ascii", kFont);
  attr(fonts, "w:hAnsi", kFont);
  auto num = child(root, "w:num");
  attr(num, "w:numId", "1");
  val(num, "w:abstractNumId", "0");
  return serialise(xml);
}

std::string settings_xml(const Document& doc) {
  auto xml = new_xml();
  auto root = xml.append_child("w:settings");
  attr(root, "xmlns:w", kW);
  attr(child(root, "w:zoom"), "w:percent", "100");
  val(root, "w:defaultTabStop", "709");
  val(root, "w:characterSpacingControl", "doNotCompress");
  auto compat = child(root, "w:compat");
  auto mode = child(compat, "w:compatSetting");
  attr(mode, "w:name", "compatibilityMode");
  attr(mode, "w:uri", "http://schemas.microsoft.com/office/word");
  attr(mode, "w:val", "15");
  val(root, "w:themeFontLang", xml_text(doc.properties.language));
  return serialise(xml);
}

std::string content_types_xml(bool footer) {
  auto xml = new_xml();
  auto root = xml.append_child("Types");
  attr(root, "xmlns", "http://schemas.openxmlformats.org/package/2006/content-types");
  auto def = [&](const char* ext, const char* type) {
    auto d = child(root, "Default");
    attr(d, "Extension", ext);
    attr(d, "ContentType", type);
  };
  def("rels", "application/vnd.openxmlformats-package.relationships+xml");
  def("xml", "application/xml");
  auto over = [&](const char* part, const std::string& type) {
    auto o = child(root, "Override");
    attr(o, "PartName", part);
    attr(o, "ContentType", type);
  };
  over("/word/document.xml", std::string(kMainType) + "document.main+xml");
  over("/word/styles.xml", std::string(kMainType) + "styles+xml");
  over("/word/numbering.xml", std::string(kMainType) + "numbering+xml");
  over("/word/settings.xml", std::string(kMainType) + "settings+xml");
  if (footer) over("/word/footer1.xml", std::string(kMainType) + "footer+xml");
  over("/docProps/core.xml", "application/vnd.openxmlformats-package.core-properties+xml");
  over("/docProps/app.xml", "application/vnd.openxmlformats-officedocument.extended-properties+xml");
  return serialise(xml);
}

std::string relationships_xml(const std::vector<std::pair<std::string, std::string>>& rels) {
  auto xml = new_xml();
  auto root = xml.append_child("Relationships");
  attr(root, "xmlns", kPackageRels);
  int n = 0;
  for (const auto& [type, target] : rels) {
    auto r = child(root, "Relationship");
    attr(r, "Id", target == "footer1.xml" ? "rIdFooter1" : "rId" + std::to_string(++n));
    attr(r, "Type", type);
    attr(r, "Target", target);
  }
  return serialise(xml);
}

std::string core_xml(const Properties& props) {
  std::string created = props.created.empty() ? now_w3cdtf() : props.created;
  if (!is_w3cdtf_utc(created)) throw std::invalid_argument("docx: created is not a UTC W3CDTF time: " + created);
  auto xml = new_xml();
  auto root = xml.append_child("cp:coreProperties");
  attr(root, "xmlns:cp", "http://schemas.openxmlformats.org/package/2006/metadata/core-properties");
  attr(root, "xmlns:dc", "http://purl.org/dc/elements/1.1/");
  attr(root, "xmlns:dcterms", "http://purl.org/dc/terms/");
  attr(root, "xmlns:dcmitype", "http://purl.org/dc/dcmitype/");
  attr(root, "xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance");
  text_node(root, "dc:title", props.title);
  if (!props.subject.empty()) text_node(root, "dc:subject", props.subject);
  text_node(root, "dc:creator", props.creator);
  text_node(root, "cp:lastModifiedBy", props.creator);
  text_node(root, "dc:language", props.language);
  for (const char* name : {"dcterms:created", "dcterms:modified"}) {
    auto n = child(root, name);
    attr(n, "xsi:type", "dcterms:W3CDTF");
    n.text().set(created.c_str());
  }
  return serialise(xml);
}

std::string app_xml() {
  auto xml = new_xml();
  auto root = xml.append_child("Properties");
  attr(root, "xmlns", "http://schemas.openxmlformats.org/officeDocument/2006/extended-properties");
  attr(root, "xmlns:vt", "http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes");
  root.append_child("Application").text().set("Dozor");
  root.append_child("DocSecurity").text().set("0");
  root.append_child("LinksUpToDate").text().set("false");
  root.append_child("SharedDoc").text().set("false");
  root.append_child("HyperlinksChanged").text().set("false");
  return serialise(xml);
}

// --- the zip ---

class ZipWriter {
 public:
  ZipWriter() {
    zip_error_init(&error_);
    source_ = zip_source_buffer_create(nullptr, 0, 0, &error_);
    if (!source_) fail("cannot create the buffer");
    zip_ = zip_open_from_source(source_, ZIP_TRUNCATE, &error_);
    if (!zip_) {
      zip_source_free(source_);
      fail("cannot open the archive");
    }
    zip_source_keep(source_);  // the bytes are read from it after zip_close
  }
  ZipWriter(const ZipWriter&) = delete;
  ZipWriter& operator=(const ZipWriter&) = delete;
  ~ZipWriter() {
    if (zip_) zip_discard(zip_);
    zip_source_free(source_);
    zip_error_fini(&error_);
  }

  void add(const std::string& name, std::string data) {
    parts_.push_back(std::make_unique<std::string>(std::move(data)));
    const auto& bytes = *parts_.back();
    zip_source_t* s = zip_source_buffer(zip_, bytes.data(), bytes.size(), 0);
    if (!s) fail_zip("cannot add " + name);
    const zip_int64_t index = zip_file_add(zip_, name.c_str(), s, ZIP_FL_ENC_UTF_8);
    if (index < 0) {
      zip_source_free(s);
      fail_zip("cannot add " + name);
    }
    const auto i = static_cast<zip_uint64_t>(index);
    // 1980-01-01 00:00 in DOS format: the same bytes whatever the clock and the time zone.
    if (zip_file_set_dostime(zip_, i, 0, (0 << 9) | (1 << 5) | 1, 0) != 0 ||
        zip_set_file_compression(zip_, i, ZIP_CM_DEFLATE, 9) != 0)
      fail_zip("cannot set up " + name);
  }

  std::string finish() {
    if (zip_close(zip_) != 0) fail_zip("cannot write the archive");
    zip_ = nullptr;
    if (zip_source_open(source_) != 0) fail("cannot reopen the archive");
    std::string out;
    char buf[65536];
    zip_int64_t n = 0;
    while ((n = zip_source_read(source_, buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
    zip_source_close(source_);
    if (n < 0) fail("cannot read the archive");
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& what) {
    throw PackageError("docx: " + what + ": " + zip_error_strerror(&error_));
  }
  [[noreturn]] void fail_zip(const std::string& what) {
    throw PackageError("docx: " + what + ": " + zip_strerror(zip_));
  }

  zip_error_t error_{};
  zip_source_t* source_ = nullptr;
  zip_t* zip_ = nullptr;
  std::vector<std::unique_ptr<std::string>> parts_;  // zip_source_buffer reads them at zip_close
};

}  // namespace

std::string write_docx(const Document& doc) {
  const bool footer = !doc.footer.empty();
  const std::string rel = kRelTypes;
  std::vector<std::pair<std::string, std::string>> word_rels = {
      {rel + "styles", "styles.xml"}, {rel + "numbering", "numbering.xml"}, {rel + "settings", "settings.xml"}};
  if (footer) word_rels.emplace_back(rel + "footer", "footer1.xml");

  ZipWriter zip;
  zip.add("[Content_Types].xml", content_types_xml(footer));
  zip.add("_rels/.rels",
          relationships_xml({{rel + "officeDocument", "word/document.xml"},
                             {"http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties",
                              "docProps/core.xml"},
                             {rel + "extended-properties", "docProps/app.xml"}}));
  zip.add("docProps/core.xml", core_xml(doc.properties));
  zip.add("docProps/app.xml", app_xml());
  zip.add("word/document.xml", document_xml(doc));
  zip.add("word/styles.xml", styles_xml(doc));
  zip.add("word/numbering.xml", numbering_xml());
  zip.add("word/settings.xml", settings_xml(doc));
  if (footer) zip.add("word/footer1.xml", footer_xml(doc));
  zip.add("word/_rels/document.xml.rels", relationships_xml(word_rels));
  return zip.finish();
}

}  // namespace dozor::report::docx
