#include "engines/report/docx/document.hpp"

#include <boost/test/unit_test.hpp>
#include <string>

using dozor::report::docx::xml_text;

BOOST_AUTO_TEST_SUITE(docx_document)

BOOST_AUTO_TEST_CASE(controls_xml_forbids_are_removed_but_tab_and_newline_kept) {
  BOOST_TEST(xml_text(std::string("a\x01"
                                  "b\x0b"
                                  "c\x0c"
                                  "d\x1f"
                                  "e\x7f"
                                  "f",
                                  11)) == "abcdef");
  BOOST_TEST(xml_text(std::string("nul\0here", 8)) == "nulhere");
  BOOST_TEST(xml_text("tab\there\nline") == "tab\there\nline");
  // C1 controls (U+0080..U+009F) and the non-characters U+FFFE/U+FFFF go too.
  BOOST_TEST(xml_text("x\xC2\x85y\xC2\x9Fz") == "xyz");
  BOOST_TEST(xml_text("x\xEF\xBF\xBEy\xEF\xBF\xBFz") == "xyz");
}

BOOST_AUTO_TEST_CASE(line_ends_become_newlines) {
  BOOST_TEST(xml_text("a\r\nb\rc\n") == "a\nb\nc\n");
  BOOST_TEST(xml_text("\r") == "\n");
}

BOOST_AUTO_TEST_CASE(invalid_utf8_becomes_replacement_characters_and_valid_text_is_kept) {
  BOOST_TEST(xml_text("a\xFF"
                      "b") ==
             "a\xEF\xBF\xBD"
             "b");
  BOOST_TEST(xml_text("\xC0\xAF") == "\xEF\xBF\xBD\xEF\xBF\xBD");  // an overlong '/'
  const std::string keep = "Проверка ёЁ — «кавычки» 漢字 \xF0\x9F\x94\x92 <>&\"'";
  BOOST_TEST(xml_text(keep) == keep);
}

BOOST_AUTO_TEST_CASE(builders_make_the_runs_and_cells_they_name) {
  namespace d = dozor::report::docx;
  auto p = d::paragraph("Заголовок", d::Style::Heading2);
  BOOST_TEST((p.style == d::Style::Heading2));
  BOOST_TEST(p.runs.size() == 1u);
  BOOST_TEST(!p.runs[0].bold);
  BOOST_TEST(d::bold("x").bold);
  auto c = d::cell("v", "C00000", true);
  BOOST_TEST(c.fill == "C00000");
  BOOST_TEST(c.paragraphs.at(0).runs.at(0).bold);
  BOOST_TEST(d::cell(std::vector<d::Paragraph>{}).paragraphs.empty());
}

BOOST_AUTO_TEST_SUITE_END()
