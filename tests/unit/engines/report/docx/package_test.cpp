#include "engines/report/docx/package.hpp"

#include <boost/test/unit_test.hpp>
#include <stdexcept>
#include <string>

#include "tests/unit/support/docx_parts.hpp"

namespace d = dozor::report::docx;
using dozor::test::docx_parts;
using dozor::test::docx_text;
using dozor::test::Xml;

namespace {

d::Document sample() {
  d::Document doc;
  doc.properties.title = "Отчёт <test> & \"co\"";
  doc.properties.creator = "Dozor";
  doc.properties.language = "ru-RU";
  doc.properties.created = "2026-11-23T10:00:00Z";
  doc.body.emplace_back(d::paragraph("Dozor", d::Style::Title));
  doc.body.emplace_back(d::paragraph("Краткие выводы", d::Style::Heading1));
  d::Run red("красный");
  red.color = "C00000";
  red.italic = true;
  doc.body.emplace_back(d::paragraph(std::vector<d::Run>{d::bold("жирный "), red}));
  doc.body.emplace_back(d::paragraph("пункт", d::Style::Bullet));
  doc.body.emplace_back(d::PageBreak{});
  d::Table t;
  t.widths = {1, 3};
  t.rows.push_back({d::cell("Уровень"), d::cell("Количество")});
  t.rows.push_back({d::cell("Критический", "C00000"), d::cell("1")});
  t.rows.push_back({d::cell("ragged")});  // one cell short: padded
  doc.body.emplace_back(std::move(t));
  doc.footer = {d::FooterPart("стр. "), d::FooterPart(d::Field::Page), d::FooterPart(" из "),
                d::FooterPart(d::Field::NumPages)};
  return doc;
}

std::string only_text(const std::string& text) {
  d::Document doc;
  doc.properties.created = "2026-11-23T10:00:00Z";
  doc.body.emplace_back(d::paragraph(text));
  return d::write_docx(doc);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(docx_package)

BOOST_AUTO_TEST_CASE(the_package_has_every_required_part_and_each_is_well_formed_xml) {
  auto parts = docx_parts(d::write_docx(sample()));
  for (const char* name : {"[Content_Types].xml", "_rels/.rels", "word/document.xml", "word/styles.xml",
                           "word/numbering.xml", "word/settings.xml", "word/_rels/document.xml.rels",
                           "word/footer1.xml", "docProps/core.xml", "docProps/app.xml"}) {
    BOOST_TEST_CONTEXT(name) {
      BOOST_REQUIRE(parts.count(name) == 1u);
      Xml xml(parts[name]);
      BOOST_TEST(xml.ok(), xml.result.description());
      BOOST_TEST(parts[name].rfind("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>", 0) == 0u);
    }
  }
  BOOST_TEST(parts.size() == 10u);
  // Every part but the package's own files is declared with its content type, and related.
  Xml types(parts["[Content_Types].xml"]);
  for (const char* part : {"/word/document.xml", "/word/styles.xml", "/word/numbering.xml", "/word/settings.xml",
                           "/word/footer1.xml", "/docProps/core.xml", "/docProps/app.xml"})
    BOOST_TEST(types.doc.select_node(("/Types/Override[@PartName='" + std::string(part) + "']").c_str()), part);
  Xml rels(parts["_rels/.rels"]);
  BOOST_TEST(rels.doc.select_node("//Relationship[@Target='word/document.xml']"));
  Xml wrels(parts["word/_rels/document.xml.rels"]);
  for (const char* target : {"styles.xml", "numbering.xml", "settings.xml", "footer1.xml"})
    BOOST_TEST(wrels.doc.select_node(("//Relationship[@Target='" + std::string(target) + "']").c_str()), target);
  Xml doc(parts["word/document.xml"]);
  const std::string footer_id =
      wrels.doc.select_node("//Relationship[@Target='footer1.xml']").node().attribute("Id").value();
  BOOST_TEST(doc.doc.select_node("//w:sectPr/w:footerReference").node().attribute("r:id").value() == footer_id);
}

BOOST_AUTO_TEST_CASE(styles_define_headings_title_bullets_table_grid_and_a_cyrillic_font) {
  auto parts = docx_parts(d::write_docx(sample()));
  Xml styles(parts["word/styles.xml"]);
  BOOST_REQUIRE(styles.ok());
  for (const char* id : {"Normal", "Title", "Subtitle", "Heading1", "Heading2", "Heading3", "ListBullet", "TableGrid"})
    BOOST_TEST(styles.doc.select_node(("//w:style[@w:styleId='" + std::string(id) + "']").c_str()), id);
  BOOST_TEST(std::string(
                 styles.doc.select_node("//w:style[@w:styleId='Heading2']/w:name").node().attribute("w:val").value()) ==
             "heading 2");
  BOOST_TEST(std::string(styles.doc.select_node("//w:rPrDefault//w:rFonts").node().attribute("w:ascii").value()) ==
             "Arial");
  BOOST_TEST(std::string(styles.doc.select_node("//w:rPrDefault//w:lang").node().attribute("w:val").value()) ==
             "ru-RU");
  Xml numbering(parts["word/numbering.xml"]);
  BOOST_TEST(std::string(numbering.doc.select_node("//w:lvl/w:numFmt").node().attribute("w:val").value()) == "bullet");
  BOOST_TEST(numbering.doc.select_node("//w:num[@w:numId='1']"));
}

BOOST_AUTO_TEST_CASE(body_carries_styles_runs_bullets_page_breaks_and_tables) {
  auto parts = docx_parts(d::write_docx(sample()));
  Xml xml(parts["word/document.xml"]);
  BOOST_REQUIRE(xml.ok());
  auto body = xml.doc.child("w:document").child("w:body");
  BOOST_TEST(docx_text(body.select_node("w:p[w:pPr/w:pStyle/@w:val='Title']").node()) == "Dozor");
  BOOST_TEST(docx_text(body.select_node("w:p[w:pPr/w:pStyle/@w:val='Heading1']").node()) == "Краткие выводы");
  auto red = body.select_node("//w:r[w:rPr/w:color/@w:val='C00000']").node();
  BOOST_TEST(docx_text(red) == "красный");
  BOOST_TEST(red.child("w:rPr").child("w:i"));
  BOOST_TEST(docx_text(body.select_node("//w:r[w:rPr/w:b]").node()) == "жирный ");
  BOOST_TEST(body.select_node("w:p[w:pPr/w:pStyle/@w:val='ListBullet']"));
  BOOST_TEST(body.select_node("w:p/w:r/w:br[@w:type='page']"));
  auto tbl = body.child("w:tbl");
  BOOST_REQUIRE(tbl);
  BOOST_TEST(std::string(tbl.select_node("w:tblPr/w:tblStyle").node().attribute("w:val").value()) == "TableGrid");
  BOOST_TEST(tbl.select_nodes("w:tblGrid/w:gridCol").size() == 2u);
  auto rows = tbl.select_nodes("w:tr");
  BOOST_REQUIRE(rows.size() == 3u);
  BOOST_TEST(rows[0].node().select_node("w:trPr/w:tblHeader"));  // repeated on each page
  BOOST_TEST(!rows[1].node().select_node("w:trPr/w:tblHeader"));
  BOOST_TEST(rows[0].node().select_node("w:tc/w:tcPr/w:shd[@w:fill]"));  // the header is shaded
  BOOST_TEST(rows[0].node().select_node("w:tc//w:r/w:rPr/w:b"));         // and bold
  BOOST_TEST(std::string(rows[1].node().select_node("w:tc/w:tcPr/w:shd").node().attribute("w:fill").value()) ==
             "C00000");
  BOOST_TEST(rows[2].node().select_nodes("w:tc").size() == 2u);      // the short row is padded
  BOOST_TEST(rows[2].node().select_nodes("w:tc/w:p").size() == 2u);  // every cell has a paragraph
  // A body that ends with a table is closed by a paragraph, then the section.
  BOOST_TEST(std::string(tbl.next_sibling().name()) == "w:p");
  BOOST_TEST(std::string(body.last_child().name()) == "w:sectPr");
}

BOOST_AUTO_TEST_CASE(the_footer_has_page_and_page_count_fields) {
  auto parts = docx_parts(d::write_docx(sample()));
  Xml footer(parts["word/footer1.xml"]);
  BOOST_REQUIRE(footer.ok());
  auto fields = footer.doc.select_nodes("//w:fldSimple");
  BOOST_REQUIRE(fields.size() == 2u);
  BOOST_TEST(std::string(fields[0].node().attribute("w:instr").value()) == " PAGE ");
  BOOST_TEST(std::string(fields[1].node().attribute("w:instr").value()) == " NUMPAGES ");
  BOOST_TEST(docx_text(footer.doc.root()) == "стр. 1 из 1");
}

BOOST_AUTO_TEST_CASE(without_a_footer_there_is_no_footer_part_or_reference) {
  auto parts = docx_parts(only_text("x"));
  BOOST_TEST(parts.count("word/footer1.xml") == 0u);
  BOOST_TEST(parts["[Content_Types].xml"].find("footer") == std::string::npos);
  BOOST_TEST(parts["word/_rels/document.xml.rels"].find("footer") == std::string::npos);
  BOOST_TEST(parts["word/document.xml"].find("footerReference") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(markup_characters_are_escaped_and_read_back_unchanged) {
  auto parts = docx_parts(only_text("<b>Tom & \"Jerry\"</b> it's"));
  const std::string& raw = parts["word/document.xml"];
  BOOST_TEST(raw.find("&lt;b&gt;Tom &amp;") != std::string::npos);
  BOOST_TEST(raw.find("<b>") == std::string::npos);
  Xml xml(raw);
  BOOST_REQUIRE(xml.ok());
  BOOST_TEST(docx_text(xml.doc.root()) == "<b>Tom & \"Jerry\"</b> it's");
  // Attributes and core properties too.
  Xml core(docx_parts(d::write_docx(sample()))["docProps/core.xml"]);
  BOOST_REQUIRE(core.ok());
  BOOST_TEST(std::string(core.doc.select_node("//dc:title").node().text().get()) == "Отчёт <test> & \"co\"");
}

BOOST_AUTO_TEST_CASE(control_characters_are_dropped_and_the_xml_stays_well_formed) {
  auto parts = docx_parts(only_text(std::string("a\x01\x02z\x0b\x1b[0m\x7f\xff end", 15)));
  Xml xml(parts["word/document.xml"]);
  BOOST_REQUIRE(xml.ok());
  BOOST_TEST(docx_text(xml.doc.root()) == "az[0m\xEF\xBF\xBD end");
  BOOST_TEST(parts["word/document.xml"].find("&#") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(newlines_and_tabs_become_breaks_and_tabs_in_the_run) {
  auto parts = docx_parts(only_text("one\r\ntwo\tthree"));
  Xml xml(parts["word/document.xml"]);
  BOOST_REQUIRE(xml.ok());
  auto run = xml.doc.select_node("//w:r").node();
  BOOST_TEST(run.select_nodes("w:t").size() == 3u);
  BOOST_TEST(run.child("w:br"));
  BOOST_TEST(run.child("w:tab"));
  BOOST_TEST(docx_text(run) == "one\ntwo\tthree");
  BOOST_TEST(std::string(run.child("w:t").attribute("xml:space").value()) == "preserve");
}

BOOST_AUTO_TEST_CASE(cyrillic_survives_in_text_and_properties) {
  const std::string text = "Согласие на обработку персональных данных — ёЁ";
  auto parts = docx_parts(only_text(text));
  Xml xml(parts["word/document.xml"]);
  BOOST_TEST(docx_text(xml.doc.root()) == text);
  BOOST_TEST(parts["word/document.xml"].find(text) != std::string::npos);  // UTF-8, not character references
}

BOOST_AUTO_TEST_CASE(output_is_deterministic_except_the_creation_date) {
  const auto a = d::write_docx(sample());
  BOOST_TEST((a == d::write_docx(sample())));
  auto later = sample();
  later.properties.created = "2027-01-02T03:04:05Z";
  const auto pa = docx_parts(a);
  const auto pb = docx_parts(d::write_docx(later));
  for (const auto& [name, data] : pa)
    if (name != "docProps/core.xml") BOOST_TEST((pb.at(name) == data), name);
  BOOST_TEST(pb.at("docProps/core.xml").find("2027-01-02T03:04:05Z") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(an_empty_created_is_now_and_a_malformed_one_is_refused) {
  d::Document doc;
  doc.body.emplace_back(d::paragraph("x"));
  Xml core(docx_parts(d::write_docx(doc))["docProps/core.xml"]);
  const std::string created = core.doc.select_node("//dcterms:created").node().text().get();
  BOOST_TEST(created.size() == 20u);
  BOOST_TEST(created.back() == 'Z');
  doc.properties.created = "2026-11-23T10:00:00.250Z";
  BOOST_CHECK_NO_THROW(d::write_docx(doc));
  for (const char* bad : {"2026-11-23", "2026-11-23T10:00:00+03:00", "2026-11-23T10:00:00.Z", "yesterday"}) {
    doc.properties.created = bad;
    BOOST_CHECK_THROW(d::write_docx(doc), std::invalid_argument);
  }
}

BOOST_AUTO_TEST_CASE(colours_that_are_not_hex_are_ignored) {
  d::Document doc;
  doc.properties.created = "2026-11-23T10:00:00Z";
  d::Run r("x");
  r.color = "red\"/><w:evil";
  doc.body.emplace_back(d::paragraph(std::vector<d::Run>{r}));
  d::Table t;
  t.rows.push_back({d::cell("h")});
  t.rows.push_back({d::cell("v", "#FF0000")});
  doc.body.emplace_back(std::move(t));
  auto parts = docx_parts(d::write_docx(doc));
  Xml xml(parts["word/document.xml"]);
  BOOST_REQUIRE(xml.ok());
  BOOST_TEST(!xml.doc.select_node("//w:color"));
  BOOST_TEST(xml.doc.select_nodes("//w:shd").size() == 1u);  // the header's own shading only
}

BOOST_AUTO_TEST_SUITE_END()
