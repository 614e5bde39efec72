#include "engines/report/audit_report.hpp"

#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>
#include <string>
#include <vector>

#include "engines/limits.hpp"
#include "engines/report/docx/package.hpp"
#include "tests/unit/support/docx_parts.hpp"

namespace d = dozor::report::docx;
namespace json = boost::json;
using namespace dozor::report;

namespace {

const char* kRich = R"({
  "id": 17, "target": "https://пример.рф/", "kind": "full", "lang": null,
  "started_at": "2026-11-23T10:00:00Z", "finished_at": "2026-11-23T10:00:01Z", "duration_ms": 812,
  "score": 58, "grade": "C",
  "counts": {"critical": 1, "high": 1, "medium": 0, "low": 0, "info": 1},
  "headers": {"score": 45, "grade": "D+", "tests": {"content-security-policy": {"pass": false,
     "result": "csp-not-implemented", "score_modifier": -25, "recommendation": "Add a CSP."}}},
  "technologies": [{"name": "1C-Bitrix", "version": "23.0", "confidence": 100, "categories": ["CMS"], "website": null}],
  "tls": {"host": "xn--e1afmkfd.xn--p1ai", "port": 443, "protocols": {"TLSv1.0": true, "TLSv1.3": true},
          "certificate": {"issuer": "CN=Test CA", "days_left": 39}, "grade": "B"},
  "compliance": {"sets": [{"id": "152-FZ", "title": "Персональные данные", "score": 60, "items": [
     {"id": "PD-03", "title": "Согласие в формах", "status": "failed", "severity": "high", "confidence": "firm",
      "legal_reference": "152-ФЗ, ст. 9", "evidence": [{"url": "https://пример.рф/f", "excerpt": "<form>"}],
      "recommendation": "Добавьте согласие."},
     {"id": "PD-01", "title": "Политика", "status": "passed", "severity": "high", "confidence": "firm",
      "legal_reference": "152-ФЗ, ст. 18.1", "evidence": [], "recommendation": ""}]}]},
  "geo": {"database": "GeoLite2", "addresses": [{"address": "203.0.113.10", "country": "RU"}]},
  "documents": {"found": 3, "analysed": 2, "with_personal_data": 1, "documents": [
     {"url": "https://пример.рф/staff.docx", "bytes": 9000, "type": "docx", "risk": "high",
      "counts": {"passport_rf": 2, "health": 1}, "special_categories": ["health"]},
     {"url": "https://пример.рф/price.pdf", "bytes": 900, "type": "pdf", "risk": "none", "counts": {},
      "special_categories": []},
     {"url": "https://пример.рф/big.pdf", "error": "larger than 20 MiB: not read"}]},
  "crawl": {"pages": 14, "stopped": "complete", "requests": 19},
  "findings": [
    {"id": 1, "check": "banner", "title": "Server banner", "severity": "info", "confidence": "certain",
     "owasp": null, "cwe": null, "description": "", "recommendation": "", "references": [], "evidence": []},
    {"id": 2, "check": "exposure-git-head", "title": "Git exposed", "severity": "critical", "confidence": "certain",
     "owasp": "A05:2021", "cwe": 538, "description": "The .git directory is served.",
     "recommendation": "Deny /.git.", "references": ["CVE-0000-0001"],
     "evidence": [{"url": "https://пример.рф/.git/HEAD", "excerpt": "ref: refs/heads/master", "note": "",
                   "exchange": {"url": "https://пример.рф/.git/HEAD", "request_line": "GET /.git/HEAD HTTP/1.1",
                                "request_headers": [], "status": 200, "status_line": "HTTP/1.1 200 OK",
                                "response_headers": [], "body_excerpt": ""}}]},
    {"id": 3, "check": "jquery-cve", "title": "jQuery уязвим", "severity": "high", "confidence": "firm",
     "owasp": "A06:2021", "cwe": 79, "description": "", "recommendation": "", "references": [], "evidence": []}],
  "errors": [{"check": "exposures", "error": "time budget exceeded"}]
})";

const char* kEmpty = R"({
  "id": 1, "target": "https://example.com/", "kind": "audit", "lang": null,
  "started_at": "2026-11-23T10:00:00Z", "finished_at": null, "duration_ms": 100, "score": 100, "grade": "A+",
  "counts": {"critical": 0, "high": 0, "medium": 0, "low": 0, "info": 0},
  "headers": null, "technologies": [], "tls": null, "compliance": {"sets": []}, "geo": null,
  "crawl": null, "findings": [], "errors": []
})";

json::object parse(const char* text) { return json::parse(text).as_object(); }

ReportOptions options(Lang lang) { return {lang, "2026-11-23T12:00:00Z"}; }

std::string text_of(const d::Paragraph& p) {
  std::string out;
  for (const auto& r : p.runs) out += r.text;
  return out;
}

std::vector<std::string> paragraphs(const d::Document& doc, d::Style style) {
  std::vector<std::string> out;
  for (const auto& block : doc.body)
    if (const auto* p = std::get_if<d::Paragraph>(&block); p && p->style == style) out.push_back(text_of(*p));
  return out;
}

std::vector<const d::Table*> tables(const d::Document& doc) {
  std::vector<const d::Table*> out;
  for (const auto& block : doc.body)
    if (const auto* t = std::get_if<d::Table>(&block)) out.push_back(t);
  return out;
}

std::string cell_text(const d::Cell& c) {
  std::string out;
  for (const auto& p : c.paragraphs) out += text_of(p);
  return out;
}

// The table whose header row starts with `first`.
const d::Table* table_starting(const d::Document& doc, const std::string& first) {
  for (const auto* t : tables(doc))
    if (!t->rows.empty() && cell_text(t->rows[0].at(0)) == first) return t;
  return nullptr;
}

bool contains(const std::vector<std::string>& list, const std::string& s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

json::object finding(const std::string& severity, int evidence_records) {
  json::array ev;
  for (int i = 0; i < evidence_records; ++i)
    ev.push_back(json::object{
        {"url", "https://e.test/" + std::to_string(i)}, {"excerpt", "x"}, {"note", ""}, {"exchange", nullptr}});
  return {{"title", "f-" + severity}, {"severity", severity}, {"evidence", std::move(ev)}};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(audit_report)

BOOST_AUTO_TEST_CASE(languages_are_ru_and_en_only) {
  BOOST_TEST((lang_from("ru") == Lang::Ru));
  BOOST_TEST((lang_from("en") == Lang::En));
  BOOST_TEST(!lang_from("RU"));
  BOOST_TEST(!lang_from("de"));
  BOOST_TEST(to_string(Lang::Ru) == "ru");
}

BOOST_AUTO_TEST_CASE(a_rich_audit_has_every_section_in_order_in_russian) {
  auto doc = audit_document(parse(kRich), options(Lang::Ru));
  BOOST_TEST(paragraphs(doc, d::Style::Title) == std::vector<std::string>{"Dozor"});
  const std::vector<std::string> h1 = {"Краткие выводы",
                                       "Найденные проблемы",
                                       "Заголовки безопасности HTTP",
                                       "Технологии",
                                       "TLS",
                                       "Соответствие требованиям",
                                       "Персональные данные в документах сайта",
                                       "Геолокация",
                                       "Проверки, завершившиеся ошибкой"};
  BOOST_TEST(paragraphs(doc, d::Style::Heading1) == h1, boost::test_tools::per_element());
  const auto h2 = paragraphs(doc, d::Style::Heading2);
  BOOST_TEST(contains(h2, "1. Git exposed"));  // most severe first
  BOOST_TEST(contains(h2, "2. jQuery уязвим"));
  BOOST_TEST(contains(h2, "3. Server banner"));
  BOOST_TEST(contains(h2, "Персональные данные (152-FZ)"));
  BOOST_TEST(contains(h2, "Сертификат"));
  BOOST_TEST(doc.properties.language == "ru-RU");
  BOOST_TEST(doc.properties.title == "Dozor: Отчёт об аудите безопасности — https://пример.рф/");
  // The footer names the host in Unicode.
  BOOST_TEST(doc.footer.at(0).text == "Dozor · пример.рф · стр. ");
}

BOOST_AUTO_TEST_CASE(the_same_audit_in_english_uses_english_texts) {
  auto doc = audit_document(parse(kRich), options(Lang::En));
  const auto h1 = paragraphs(doc, d::Style::Heading1);
  BOOST_TEST(h1.front() == "Executive summary");
  BOOST_TEST(contains(h1, "Findings"));
  BOOST_TEST(contains(h1, "Compliance"));
  BOOST_TEST(contains(h1, "Checks that failed"));
  const auto* findings = table_starting(doc, "#");
  BOOST_REQUIRE(findings);
  BOOST_TEST(cell_text(findings->rows[1][1]) == "Critical");
  BOOST_TEST(doc.properties.language == "en-US");
}

BOOST_AUTO_TEST_CASE(the_documents_section_lists_each_document_with_its_risk_and_categories) {
  auto doc = audit_document(parse(kRich), options(Lang::En));
  BOOST_TEST(contains(paragraphs(doc, d::Style::Heading1), "Personal data in the site's documents"));
  const auto* t = table_starting(doc, "Document");
  BOOST_REQUIRE(t);
  BOOST_REQUIRE_EQUAL(t->rows.size(), 4u);
  BOOST_TEST(cell_text(t->rows[1][0]) == "https://пример.рф/staff.docx");
  BOOST_TEST(cell_text(t->rows[1][1]) == "docx");
  BOOST_TEST(cell_text(t->rows[1][2]) == "high");
  BOOST_TEST(t->rows[1][2].fill == "FFC7CE");
  BOOST_TEST(cell_text(t->rows[1][3]) == "passport_rf × 2, health × 1Special categories (152-FZ art. 10): health");
  BOOST_TEST(cell_text(t->rows[2][3]) == "none found");
  BOOST_TEST(cell_text(t->rows[3][3]) == "Error: larger than 20 MiB: not read");
  // No documents part (an audit stored before the analyzer read documents): no section.
  auto empty = audit_document(parse(kEmpty), options(Lang::En));
  BOOST_TEST(!contains(paragraphs(empty, d::Style::Heading1), "Personal data in the site's documents"));
}

BOOST_AUTO_TEST_CASE(the_title_page_shows_the_stored_time_with_milliseconds_as_a_day_and_minute) {
  // The audit store writes "…T10:00:01.123Z"; the file name takes its day.
  json::object audit{{"target", "https://example.com/"}, {"finished_at", "2026-11-23T10:00:01.123Z"}};
  auto doc = audit_document(audit, options(Lang::Ru));
  bool found = false;
  for (const auto& block : doc.body)
    if (const auto* p = std::get_if<d::Paragraph>(&block))
      found = found || text_of(*p) == "Дата проверки: 23.11.2026 10:00 UTC";
  BOOST_TEST(found);
  BOOST_TEST(report_filename(audit).ascii == "dozor-audit-example.com-2026-11-23.docx");
}

BOOST_AUTO_TEST_CASE(the_findings_table_is_sorted_by_severity_with_coloured_cells_owasp_and_cwe) {
  auto doc = audit_document(parse(kRich), options(Lang::Ru));
  const auto* t = table_starting(doc, "№");
  BOOST_REQUIRE(t);
  BOOST_REQUIRE(t->rows.size() == 4u);
  BOOST_TEST(cell_text(t->rows[0][3]) == "OWASP");
  BOOST_TEST(cell_text(t->rows[1][1]) == "Критический");
  BOOST_TEST(t->rows[1][1].fill == "C00000");
  BOOST_TEST(cell_text(t->rows[1][2]) == "Git exposed");
  BOOST_TEST(cell_text(t->rows[1][3]) == "A05:2021");
  BOOST_TEST(cell_text(t->rows[1][4]) == "CWE-538");
  BOOST_TEST(cell_text(t->rows[2][1]) == "Высокий");
  BOOST_TEST(cell_text(t->rows[3][1]) == "Информация");
  BOOST_TEST(cell_text(t->rows[3][4]).empty());  // no CWE
  BOOST_TEST(t->rows[1][1].fill != t->rows[2][1].fill);
}

BOOST_AUTO_TEST_CASE(a_finding_shows_its_evidence_exchange_and_recommendation) {
  auto doc = audit_document(parse(kRich), options(Lang::En));
  std::string all;
  for (const auto& block : doc.body)
    if (const auto* p = std::get_if<d::Paragraph>(&block)) all += text_of(*p) + "\n";
  BOOST_TEST(all.find("https://пример.рф/.git/HEAD\n") != std::string::npos);
  BOOST_TEST(all.find("ref: refs/heads/master\n") != std::string::npos);
  BOOST_TEST(all.find("Request: GET /.git/HEAD HTTP/1.1\n") != std::string::npos);
  BOOST_TEST(all.find("Response: HTTP/1.1 200 OK\n") != std::string::npos);
  BOOST_TEST(all.find("Deny /.git.\n") != std::string::npos);
  BOOST_TEST(all.find("CVE-0000-0001\n") != std::string::npos);
  const auto h3 = paragraphs(doc, d::Style::Heading3);
  // Evidence/Recommendation/References only for the finding that has them.
  BOOST_TEST(std::count(h3.begin(), h3.end(), "Evidence") == 1);
  BOOST_TEST(std::count(h3.begin(), h3.end(), "Recommendation") == 1);
  BOOST_TEST(std::count(h3.begin(), h3.end(), "References") == 1);
}

BOOST_AUTO_TEST_CASE(compliance_tables_have_status_colours_legal_references_evidence_and_the_score) {
  auto doc = audit_document(parse(kRich), options(Lang::Ru));
  const d::Table* t = nullptr;
  for (const auto* candidate : tables(doc))
    if (candidate->rows[0].size() == 5 && cell_text(candidate->rows[0][1]) == "Требование") t = candidate;
  BOOST_REQUIRE(t);
  BOOST_REQUIRE(t->rows.size() == 3u);
  BOOST_TEST(cell_text(t->rows[1][0]) == "PD-03");
  BOOST_TEST(cell_text(t->rows[1][2]) == "Не выполнено");
  BOOST_TEST(t->rows[1][2].fill == "FFC7CE");
  BOOST_TEST(cell_text(t->rows[1][3]) == "152-ФЗ, ст. 9");
  BOOST_TEST(cell_text(t->rows[1][4]) == "https://пример.рф/f<form>");
  BOOST_TEST(cell_text(t->rows[2][2]) == "Выполнено");
  BOOST_TEST(t->rows[2][2].fill == "C6EFCE");
  bool score = false, advice = false;
  for (const auto& block : doc.body)
    if (const auto* p = std::get_if<d::Paragraph>(&block)) {
      score = score || text_of(*p) == "Оценка соответствия: 60 из 100";
      advice = advice || text_of(*p) == "PD-03: Добавьте согласие.";
    }
  BOOST_TEST(score);
  BOOST_TEST(advice);
}

BOOST_AUTO_TEST_CASE(summary_counts_come_from_the_stored_counts_with_coloured_severities) {
  auto doc = audit_document(parse(kRich), options(Lang::En));
  const auto* t = table_starting(doc, "Severity");
  BOOST_REQUIRE(t);
  BOOST_REQUIRE(t->rows.size() == 7u);  // header, five severities, total
  BOOST_TEST(cell_text(t->rows[1][0]) == "Critical");
  BOOST_TEST(cell_text(t->rows[1][1]) == "1");
  BOOST_TEST(cell_text(t->rows[3][1]) == "0");  // medium as stored
  BOOST_TEST(cell_text(t->rows[6][1]) == "3");
  // Without stored counts the findings are counted.
  auto audit = parse(kRich);
  audit.erase("counts");
  doc = audit_document(audit, options(Lang::En));
  t = table_starting(doc, "Severity");
  BOOST_REQUIRE(t);
  BOOST_TEST(cell_text(t->rows[6][1]) == "3");
}

BOOST_AUTO_TEST_CASE(null_and_empty_parts_are_omitted_with_their_headings) {
  auto doc = audit_document(parse(kEmpty), options(Lang::En));
  BOOST_TEST(paragraphs(doc, d::Style::Heading1) == std::vector<std::string>{"Executive summary"},
             boost::test_tools::per_element());
  BOOST_TEST(paragraphs(doc, d::Style::Heading2).empty());
  BOOST_TEST(paragraphs(doc, d::Style::Heading3).empty());
  BOOST_TEST(tables(doc).empty());
  bool none = false;
  for (const auto& block : doc.body)
    if (const auto* p = std::get_if<d::Paragraph>(&block))
      none = none || text_of(*p) == "No security problems were found.";
  BOOST_TEST(none);
  // A part that is present but holds nothing useful is omitted too.
  auto audit = parse(kEmpty);
  audit["tls"] = json::object{};
  audit["geo"] = json::object{};
  audit["compliance"] = json::object{{"sets", json::array{}}};
  audit["headers"] = json::object{{"tests", json::object{}}};
  BOOST_TEST(paragraphs(audit_document(audit, options(Lang::En)), d::Style::Heading1).size() == 1u);
  // Missing fields altogether (an audit still running) render the title page and summary only.
  auto bare = audit_document(json::object{{"target", "https://example.com/"}}, options(Lang::Ru));
  BOOST_TEST(paragraphs(bare, d::Style::Heading1).size() == 1u);
}

BOOST_AUTO_TEST_CASE(the_top_findings_list_stops_at_its_limit_and_skips_info) {
  json::object audit{{"target", "https://example.com/"}};
  json::array list;
  for (std::size_t i = 0; i < dozor::limits::report::kTopFindings + 1; ++i) list.push_back(finding("high", 0));
  list.push_back(finding("info", 0));
  audit["findings"] = list;
  auto doc = audit_document(audit, options(Lang::En));
  BOOST_TEST(paragraphs(doc, d::Style::Bullet).size() == dozor::limits::report::kTopFindings);
  audit["findings"] = json::array{finding("info", 0)};
  doc = audit_document(audit, options(Lang::En));
  BOOST_TEST(!contains(paragraphs(doc, d::Style::Heading2), "Top findings"));
}

BOOST_AUTO_TEST_CASE(evidence_per_finding_is_shown_up_to_the_limit_and_the_rest_counted) {
  const auto n = static_cast<int>(dozor::limits::report::kEvidencePerFinding);
  auto more_line = [](const d::Document& doc) {
    std::string found;
    for (const auto& block : doc.body)
      if (const auto* p = std::get_if<d::Paragraph>(&block); p && text_of(*p).starts_with("More evidence"))
        found = text_of(*p);
    return found;
  };
  auto urls = [](const d::Document& doc) {
    std::size_t count = 0;
    for (const auto& block : doc.body)
      if (const auto* p = std::get_if<d::Paragraph>(&block); p && text_of(*p).starts_with("https://e.test/")) ++count;
    return count;
  };
  json::object audit{{"target", "https://example.com/"}, {"findings", json::array{finding("low", n)}}};
  auto doc = audit_document(audit, options(Lang::En));
  BOOST_TEST(urls(doc) == static_cast<std::size_t>(n));
  BOOST_TEST(more_line(doc).empty());
  audit["findings"] = json::array{finding("low", n + 1)};
  doc = audit_document(audit, options(Lang::En));
  BOOST_TEST(urls(doc) == static_cast<std::size_t>(n));
  BOOST_TEST(more_line(doc) == "More evidence records: 1");
}

BOOST_AUTO_TEST_CASE(the_rendered_docx_is_a_well_formed_package_with_the_russian_text) {
  const std::string bytes = render_audit_docx(parse(kRich), options(Lang::Ru));
  auto parts = dozor::test::docx_parts(bytes);
  dozor::test::Xml xml(parts.at("word/document.xml"));
  BOOST_REQUIRE(xml.ok());
  const std::string text = dozor::test::docx_text(xml.doc.root());
  BOOST_TEST(text.find("Отчёт об аудите безопасности") != std::string::npos);
  BOOST_TEST(text.find("Согласие в формах") != std::string::npos);
  BOOST_TEST(parts.at("docProps/core.xml").find("2026-11-23T12:00:00Z") != std::string::npos);
  BOOST_TEST((bytes == render_audit_docx(parse(kRich), options(Lang::Ru))));
}

BOOST_AUTO_TEST_CASE(content_disposition_of_a_cyrillic_idn_host) {
  const std::string expected =
      "attachment; filename=\"dozor-audit-xn--e1afmkfd.xn--p1ai-2026-11-23.docx\"; "
      "filename*=UTF-8''dozor-audit-%D0%BF%D1%80%D0%B8%D0%BC%D0%B5%D1%80.%D1%80%D1%84-2026-11-23.docx";
  BOOST_TEST(content_disposition(report_filename("https://пример.рф/", "2026-11-23T10:00:01Z")) == expected);
  // The A-label spelling of the same host, upper case, a port and user info: the same name.
  BOOST_TEST(content_disposition(report_filename("https://u@XN--E1AFMKFD.XN--P1AI:8443/a?b#c", "2026-11-23")) ==
             expected);
  auto name = report_filename(parse(kRich));
  BOOST_TEST(name.utf8 == "dozor-audit-пример.рф-2026-11-23.docx");
  BOOST_TEST(name.ascii == "dozor-audit-xn--e1afmkfd.xn--p1ai-2026-11-23.docx");
}

BOOST_AUTO_TEST_CASE(content_disposition_of_plain_and_hostile_hosts) {
  BOOST_TEST(content_disposition(report_filename("https://example.com/", "2026-11-23")) ==
             "attachment; filename=\"dozor-audit-example.com-2026-11-23.docx\"; "
             "filename*=UTF-8''dozor-audit-example.com-2026-11-23.docx");
  BOOST_TEST(report_filename("http://[2001:db8::1]:8080/", "2026-11-23").ascii ==
             "dozor-audit-2001_db8__1-2026-11-23.docx");
  // Quotes, backslashes, separators and controls never reach the header.
  auto hostile = report_filename("https://a\"b\\c;d\r\ne/", "2026-11-23");
  const std::string header = content_disposition(hostile);
  BOOST_TEST(header.find('\\') == std::string::npos);
  BOOST_TEST(header.find('\r') == std::string::npos);
  BOOST_TEST(header.find("filename=\"dozor-audit-a_b_c_d") != std::string::npos);
  BOOST_TEST(std::count(header.begin(), header.end(), '"') == 2);
  // No usable date: today's (UTC) day in its place; no host: "site".
  auto undated = report_filename("https://example.com/", "soon");
  BOOST_TEST(undated.ascii.size() == std::string("dozor-audit-example.com-2026-11-23.docx").size());
  BOOST_TEST(report_filename("", "2026-11-23").ascii == "dozor-audit-site-2026-11-23.docx");
}

BOOST_AUTO_TEST_SUITE_END()
