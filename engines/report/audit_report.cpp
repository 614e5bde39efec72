#include "engines/report/audit_report.hpp"

#include <unicode/uidna.h>

#include <algorithm>
#include <array>
#include <boost/json/array.hpp>
#include <boost/json/string.hpp>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <utility>
#include <vector>

#include "engines/audit/finding.hpp"
#include "engines/audit/owasp_top10.hpp"
#include "engines/limits.hpp"
#include "engines/report/docx/package.hpp"
#include "engines/text/utc_time.hpp"

namespace dozor::report {
namespace {

namespace json = boost::json;
using docx::Align;
using docx::Cell;
using docx::Paragraph;
using docx::Run;
using docx::Style;
using docx::Table;

// --- the fixed texts, both languages side by side ---

struct Text {
  std::string_view ru;
  std::string_view en;
};

constexpr Text kReportTitle{"Отчёт об аудите безопасности", "Security audit report"};
constexpr Text kDate{"Дата проверки", "Audit date"};
constexpr Text kKind{"Вид проверки", "Audit type"};
constexpr Text kKindFull{"полный аудит", "full audit"};
constexpr Text kKindAudit{"аудит", "audit"};
constexpr Text kOwaspTitle{"Отчёт о сканировании OWASP Top 10", "OWASP Top 10 scan report"};
constexpr Text kKindOwasp{"активное сканирование OWASP Top 10", "OWASP Top 10 active scan"};
constexpr Text kOwaspCategories{"Находки по категориям OWASP Top 10 (2021)",
                                "Findings by OWASP Top 10 (2021) category"};
constexpr Text kCategory{"Категория", "Category"};
constexpr Text kAuditId{"Номер проверки", "Audit number"};
constexpr Text kDuration{"Длительность", "Duration"};
constexpr Text kSeconds{"с", "s"};
constexpr Text kGrade{"Оценка", "Grade"};
constexpr Text kScore{"баллов из 100", "points of 100"};
constexpr Text kSummary{"Краткие выводы", "Executive summary"};
constexpr Text kOverall{"Итоговая оценка", "Overall grade"};
constexpr Text kHeadersGrade{"Заголовки безопасности", "Security headers"};
constexpr Text kTlsGrade{"TLS", "TLS"};
constexpr Text kCountsCaption{"Найденные проблемы по уровню риска", "Findings by severity"};
constexpr Text kSeverity{"Уровень риска", "Severity"};
constexpr Text kCount{"Количество", "Count"};
constexpr Text kTotal{"Всего", "Total"};
constexpr Text kNoFindings{"Проблем безопасности не обнаружено.", "No security problems were found."};
constexpr Text kTopFindings{"Главные проблемы", "Top findings"};
constexpr Text kCrawl{"Просмотрено страниц: ", "Pages examined: "};
constexpr Text kRequests{", запросов: ", ", requests: "};
constexpr Text kCrawlStopped{", обход завершён: ", ", crawl ended: "};
constexpr Text kCrawlComplete{"полностью", "complete"};
constexpr Text kSomeFailed{"Часть проверок не выполнена — см. раздел «Проверки, завершившиеся ошибкой».",
                           "Some checks did not complete — see “Checks that failed”."};
constexpr Text kFindings{"Найденные проблемы", "Findings"};
constexpr Text kNumber{"№", "#"};
constexpr Text kTitle{"Проблема", "Finding"};
constexpr Text kConfidence{"Достоверность", "Confidence"};
constexpr Text kCheck{"Проверка", "Check"};
constexpr Text kEvidence{"Подтверждение", "Evidence"};
constexpr Text kRequest{"Запрос: ", "Request: "};
constexpr Text kResponse{"Ответ: ", "Response: "};
constexpr Text kMoreEvidence{"Ещё подтверждений: ", "More evidence records: "};
constexpr Text kRecommendation{"Рекомендация", "Recommendation"};
constexpr Text kRecommendations{"Рекомендации", "Recommendations"};
constexpr Text kReferences{"Ссылки", "References"};
constexpr Text kHeaders{"Заголовки безопасности HTTP", "HTTP security headers"};
constexpr Text kTest{"Тест", "Test"};
constexpr Text kResult{"Результат", "Result"};
constexpr Text kModifier{"Баллы", "Score modifier"};
constexpr Text kTechnologies{"Технологии", "Technologies"};
constexpr Text kName{"Название", "Name"};
constexpr Text kVersion{"Версия", "Version"};
constexpr Text kCategories{"Категории", "Categories"};
constexpr Text kTls{"TLS", "TLS"};
constexpr Text kServer{"Сервер", "Server"};
constexpr Text kProtocol{"Протокол", "Protocol"};
constexpr Text kOffered{"Поддерживается", "Offered"};
constexpr Text kCertificate{"Сертификат", "Certificate"};
constexpr Text kDetails{"Подробности", "Details"};
constexpr Text kField{"Параметр", "Field"};
constexpr Text kValue{"Значение", "Value"};
constexpr Text kCompliance{"Соответствие требованиям", "Compliance"};
constexpr Text kSetScore{"Оценка соответствия: ", "Compliance score: "};
constexpr Text kOf100{" из 100", " of 100"};
constexpr Text kRequirement{"Требование", "Requirement"};
constexpr Text kStatus{"Статус", "Status"};
constexpr Text kLegal{"Правовая норма", "Legal reference"};
constexpr Text kGeo{"Геолокация", "Geolocation"};
constexpr Text kDocuments{"Персональные данные в документах сайта", "Personal data in the site's documents"};
constexpr Text kDocumentsIntro{
    "Документы, опубликованные на сайте, прочитаны анализатором Dozor. Значения в отчёте замаскированы.",
    "The documents published on the site were read by Dozor's analyzer. Values in this report are masked."};
constexpr Text kDocument{"Документ", "Document"};
constexpr Text kType{"Тип", "Type"};
constexpr Text kRisk{"Риск", "Risk"};
constexpr Text kDataFound{"Найденные данные", "Personal data found"};
constexpr Text kNoneFound{"не найдены", "none found"};
constexpr Text kSpecialCategories{"Особые категории (ст. 10 152-ФЗ): ", "Special categories (152-FZ art. 10): "};
constexpr Text kErrors{"Проверки, завершившиеся ошибкой", "Checks that failed"};
constexpr Text kError{"Ошибка", "Error"};
constexpr Text kYes{"да", "yes"};
constexpr Text kNo{"нет", "no"};
constexpr Text kPage{"стр. ", "page "};
constexpr Text kPageOf{" из ", " of "};
constexpr Text kCreator{"Dozor", "Dozor"};

constexpr std::array<Text, 5> kSeverityNames = {Text{"Информация", "Info"}, Text{"Низкий", "Low"},
                                                Text{"Средний", "Medium"}, Text{"Высокий", "High"},
                                                Text{"Критический", "Critical"}};
// Fill and text colour of a severity cell, info … critical.
constexpr std::array<std::pair<const char*, const char*>, 5> kSeverityColours = {
    std::pair{"DDEBF7", "000000"}, std::pair{"FFF2CC", "000000"}, std::pair{"FFC000", "000000"},
    std::pair{"FF7C80", "000000"}, std::pair{"C00000", "FFFFFF"}};

struct Status {
  std::string_view id;
  Text name;
  const char* fill;
};
constexpr std::array<Status, 4> kStatuses = {Status{"passed", {"Выполнено", "Passed"}, "C6EFCE"},
                                             Status{"failed", {"Не выполнено", "Failed"}, "FFC7CE"},
                                             Status{"manual", {"Требует ручной проверки", "Manual check"}, "FFEB9C"},
                                             Status{"not_applicable", {"Неприменимо", "Not applicable"}, "EDEDED"}};

// Labels of fields that TLS and geolocation answers commonly carry; others are shown as named.
struct Label {
  std::string_view key;
  Text text;
};
constexpr std::array<Label, 28> kLabels = {
    Label{"host", {"Узел", "Host"}},
    Label{"port", {"Порт", "Port"}},
    Label{"grade", {"Оценка", "Grade"}},
    Label{"subject", {"Субъект", "Subject"}},
    Label{"issuer", {"Издатель", "Issuer"}},
    Label{"not_before", {"Действует с", "Valid from"}},
    Label{"not_after", {"Действует до", "Valid until"}},
    Label{"days_left", {"Дней до истечения", "Days left"}},
    Label{"expired", {"Истёк", "Expired"}},
    Label{"key_type", {"Тип ключа", "Key type"}},
    Label{"key_bits", {"Длина ключа, бит", "Key size, bits"}},
    Label{"signature_algorithm", {"Алгоритм подписи", "Signature algorithm"}},
    Label{"hostname_match", {"Имя узла совпадает", "Hostname matches"}},
    Label{"self_signed", {"Самоподписанный", "Self-signed"}},
    Label{"trusted", {"Доверенный", "Trusted"}},
    Label{"san", {"Альтернативные имена", "Alternative names"}},
    Label{"serial", {"Серийный номер", "Serial number"}},
    Label{"hsts", {"HSTS", "HSTS"}},
    Label{"weak_ciphers", {"Слабые шифры", "Weak ciphers"}},
    Label{"chain", {"Цепочка", "Chain"}},
    Label{"address", {"Адрес", "Address"}},
    Label{"addresses", {"Адреса", "Addresses"}},
    Label{"country", {"Страна", "Country"}},
    Label{"city", {"Город", "City"}},
    Label{"asn", {"ASN", "ASN"}},
    Label{"organization", {"Организация", "Organization"}},
    Label{"private", {"Частный адрес", "Private address"}},
    Label{"database", {"База данных", "Database"}},
};

class Tr {
 public:
  explicit Tr(Lang lang) : lang_(lang) {}
  std::string operator()(Text t) const { return std::string(lang_ == Lang::Ru ? t.ru : t.en); }
  Lang lang() const { return lang_; }

 private:
  Lang lang_;
};

// --- reading the stored JSON: missing and null are the same, wrong types count as missing ---

const json::value* field(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  return v && !v->is_null() ? v : nullptr;
}

const json::object* object_at(const json::object& o, std::string_view key) {
  const auto* v = field(o, key);
  return v ? v->if_object() : nullptr;
}

const json::array* array_at(const json::object& o, std::string_view key) {
  const auto* v = field(o, key);
  return v ? v->if_array() : nullptr;
}

std::string number_text(const json::value& v) {
  if (v.is_int64()) return std::to_string(v.get_int64());
  if (v.is_uint64()) return std::to_string(v.get_uint64());
  if (v.is_double()) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v.get_double());
    return buf;
  }
  return {};
}

std::optional<std::int64_t> integer(const json::value* v) {
  if (!v) return std::nullopt;
  if (v->is_int64()) return v->get_int64();
  if (v->is_uint64()) return static_cast<std::int64_t>(std::min<std::uint64_t>(v->get_uint64(), INT64_MAX));
  if (v->is_double()) return static_cast<std::int64_t>(v->get_double());
  return std::nullopt;
}

// A string or a number as text; "" for anything else.
std::string str(const json::object& o, std::string_view key) {
  const auto* v = field(o, key);
  if (!v) return {};
  if (v->is_string()) return std::string(v->get_string());
  return number_text(*v);
}

// Any value as one line of text (nested values compactly).
std::string scalar_text(const json::value& v, const Tr& tr, int depth = 0) {
  if (v.is_string()) return std::string(v.get_string());
  if (v.is_bool()) return tr(v.get_bool() ? kYes : kNo);
  if (v.is_null()) return "—";
  if (v.is_number()) return number_text(v);
  if (depth > 3) return "…";
  std::string out;
  if (const auto* a = v.if_array()) {
    for (const auto& e : *a) out += (out.empty() ? "" : ", ") + scalar_text(e, tr, depth + 1);
    return out;
  }
  for (const auto& [k, e] : v.get_object())
    out += (out.empty() ? "" : "; ") + std::string(k) + ": " + scalar_text(e, tr, depth + 1);
  return out;
}

std::string label(std::string_view key, const Tr& tr) {
  for (const auto& l : kLabels)
    if (l.key == key) return tr(l.text);
  std::string out(key);
  std::replace(out.begin(), out.end(), '_', ' ');
  return out;
}

audit::Severity severity_of(const json::object& o) {
  return audit::severity_from(str(o, "severity")).value_or(audit::Severity::Info);
}

std::size_t index(audit::Severity s) { return static_cast<std::size_t>(s); }

Cell severity_cell(audit::Severity s, const Tr& tr) {
  const auto& [fill, colour] = kSeverityColours.at(index(s));
  Run r(tr(kSeverityNames.at(index(s))));
  r.bold = true;
  r.color = colour;
  return docx::cell({docx::paragraph(std::vector<Run>{std::move(r)})}, fill);
}

const char* grade_colour(std::string_view grade) {
  if (grade.empty()) return "404040";
  switch (grade.front()) {
    case 'A': return "00803C";
    case 'B': return "5B9B00";
    case 'C': return "B8860B";
    case 'D': return "D35400";
    default: return "C00000";
  }
}

// "2026-11-23T10:00:00Z" → "23.11.2026 10:00 UTC" (ru) / "2026-11-23 10:00 UTC" (en); other text as is.
std::string human_time(const std::string& iso, const Tr& tr) {
  if (iso.size() < 16 || iso[4] != '-' || iso[7] != '-' || iso[10] != 'T' || iso[13] != ':') return iso;
  const std::string day =
      tr.lang() == Lang::Ru ? iso.substr(8, 2) + "." + iso.substr(5, 2) + "." + iso.substr(0, 4) : iso.substr(0, 10);
  return day + " " + iso.substr(11, 5) + " UTC";
}

// --- building blocks ---

class Builder {
 public:
  Builder(docx::Document& doc, const Tr& tr) : doc_(doc), tr_(tr) {}

  void heading(int level, std::string text) {
    doc_.body.emplace_back(docx::paragraph(std::move(text), level == 1   ? Style::Heading1
                                                            : level == 2 ? Style::Heading2
                                                                         : Style::Heading3));
  }
  void para(std::string text) {
    if (!text.empty()) doc_.body.emplace_back(docx::paragraph(std::move(text)));
  }
  void para(std::vector<Run> runs, Align align = Align::Start) {
    auto p = docx::paragraph(std::move(runs));
    p.align = align;
    doc_.body.emplace_back(std::move(p));
  }
  void bullet(std::vector<Run> runs) { doc_.body.emplace_back(docx::paragraph(std::move(runs), Style::Bullet)); }
  // A table without data rows is left out; the paragraph before one (its caption) stays with it.
  void table(Table t) {
    if (t.rows.size() < 2) return;
    if (auto* caption = doc_.body.empty() ? nullptr : std::get_if<Paragraph>(&doc_.body.back()))
      caption->keep_next = true;
    doc_.body.emplace_back(std::move(t));
  }
  void styled(std::string text, Style style) {
    auto p = docx::paragraph(std::move(text), style);
    doc_.body.emplace_back(std::move(p));
  }
  void page_break() { doc_.body.emplace_back(docx::PageBreak{}); }

  Table key_value_table(const std::vector<std::pair<std::string, std::string>>& rows) const {
    Table t;
    t.widths = {2, 5};
    t.rows.push_back({docx::cell(tr_(kField)), docx::cell(tr_(kValue))});
    for (const auto& [k, v] : rows) t.rows.push_back({docx::cell(k), docx::cell(v)});
    return t;
  }

 private:
  docx::Document& doc_;
  const Tr& tr_;
};

Run text_run(std::string text, bool strong = false, bool italic = false, bool mono = false) {
  Run r(std::move(text));
  r.bold = strong;
  r.italic = italic;
  r.mono = mono;
  return r;
}

// Scalars and nested objects of `o` as labelled rows; arrays of objects go to `lists`.
void flatten(const json::object& o, const std::string& prefix, const Tr& tr,
             std::vector<std::pair<std::string, std::string>>& rows,
             std::vector<std::pair<std::string, const json::array*>>& lists, int depth = 0) {
  for (const auto& [k, v] : o) {
    const std::string name = prefix.empty() ? label(k, tr) : prefix + " · " + label(k, tr);
    if (v.is_null()) continue;
    if (const auto* nested = v.if_object(); nested && depth < 2) {
      flatten(*nested, name, tr, rows, lists, depth + 1);
    } else if (const auto* a = v.if_array(); a && !a->empty() && a->front().is_object()) {
      lists.emplace_back(name, a);
    } else if (!(v.is_array() && v.get_array().empty())) {
      rows.emplace_back(name, scalar_text(v, tr));
    }
  }
}

// An array of objects as a table: one column per key, in the order keys first appear.
Table list_table(const json::array& items, const Tr& tr) {
  std::vector<std::string> keys;
  for (const auto& item : items)
    if (const auto* o = item.if_object())
      for (const auto& [k, v] : *o)
        if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.emplace_back(k);
  Table t;
  std::vector<Cell> header;
  header.reserve(keys.size());
  for (const auto& k : keys) header.push_back(docx::cell(label(k, tr)));
  t.rows.push_back(std::move(header));
  for (const auto& item : items) {
    const auto* o = item.if_object();
    if (!o) continue;
    std::vector<Cell> row;
    for (const auto& k : keys) {
      const auto* v = o->if_contains(k);
      row.push_back(docx::cell(v ? scalar_text(*v, tr) : ""));
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

// Whatever a part holds that has no dedicated rendering: a field table, then a table per list.
void generic_part(Builder& b, const json::object& o, const Tr& tr, int list_heading_level) {
  std::vector<std::pair<std::string, std::string>> rows;
  std::vector<std::pair<std::string, const json::array*>> lists;
  flatten(o, "", tr, rows, lists);
  if (!rows.empty()) b.table(b.key_value_table(rows));
  for (const auto& [name, list] : lists) {
    b.heading(list_heading_level, name);
    b.table(list_table(*list, tr));
  }
}

// --- the sections ---

std::vector<const json::object*> findings_by_severity(const json::object& audit) {
  std::vector<const json::object*> out;
  if (const auto* a = array_at(audit, "findings"))
    for (const auto& v : *a)
      if (const auto* o = v.if_object()) out.push_back(o);
  std::stable_sort(out.begin(), out.end(),
                   [](const json::object* x, const json::object* y) { return severity_of(*x) > severity_of(*y); });
  return out;
}

std::string audit_time(const json::object& audit) {
  std::string t = str(audit, "finished_at");
  return t.empty() ? str(audit, "started_at") : t;
}

bool is_owasp(const json::object& audit) { return str(audit, "kind") == "owasp"; }

std::string report_title(const json::object& audit, const Tr& tr) {
  return tr(is_owasp(audit) ? kOwaspTitle : kReportTitle);
}

void title_page(Builder& b, const json::object& audit, const Tr& tr) {
  b.styled("Dozor", Style::Title);
  b.styled(report_title(audit, tr), Style::Subtitle);
  b.para({text_run(str(audit, "target"), true)}, Align::Center);
  if (const std::string grade = str(audit, "grade"); !grade.empty()) {
    Run g(grade);
    g.bold = true;
    g.color = grade_colour(grade);
    g.half_points = 96;
    b.para({text_run(tr(kGrade) + ": "), std::move(g)}, Align::Center);
    if (const std::string score = str(audit, "score"); !score.empty())
      b.para({text_run(score + " " + tr(kScore))}, Align::Center);
  }
  auto line = [&](Text name, const std::string& value) {
    if (!value.empty()) b.para({text_run(tr(name) + ": ", true), text_run(value)}, Align::Center);
  };
  line(kDate, human_time(audit_time(audit), tr));
  const std::string kind = str(audit, "kind");
  line(kKind, kind == "full"    ? tr(kKindFull)
              : kind == "audit" ? tr(kKindAudit)
              : kind == "owasp" ? tr(kKindOwasp)
                                : kind);
  line(kAuditId, str(audit, "id"));
  if (auto ms = integer(field(audit, "duration_ms"))) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(*ms) / 1000.0);
    line(kDuration, std::string(buf) + " " + tr(kSeconds));
  }
  b.page_break();
}

void summary(Builder& b, const json::object& audit, const std::vector<const json::object*>& findings, const Tr& tr) {
  b.heading(1, tr(kSummary));
  if (const std::string grade = str(audit, "grade"); !grade.empty()) {
    Run g(grade);
    g.bold = true;
    g.color = grade_colour(grade);
    std::vector<Run> runs{text_run(tr(kOverall) + ": "), std::move(g)};
    if (const std::string score = str(audit, "score"); !score.empty())
      runs.push_back(text_run(" (" + score + " " + tr(kScore) + ")"));
    b.para(std::move(runs));
  }
  for (const auto& [key, name] : {std::pair{"headers", kHeadersGrade}, std::pair{"tls", kTlsGrade}}) {
    const auto* part = object_at(audit, key);
    if (!part || str(*part, "grade").empty()) continue;
    std::string line = tr(name) + ": " + str(*part, "grade");
    if (const std::string score = str(*part, "score"); !score.empty()) line += " (" + score + " " + tr(kScore) + ")";
    b.para(line);
  }
  // Counts as stored (the audit counts every finding); the findings list may be shorter.
  std::array<std::int64_t, 5> counts{};
  bool have_counts = false;
  if (const auto* c = object_at(audit, "counts")) {
    for (std::size_t i = 0; i < counts.size(); ++i)
      if (auto n = integer(field(*c, audit::to_string(static_cast<audit::Severity>(i))))) {
        counts.at(i) = *n;
        have_counts = true;
      }
  }
  if (!have_counts)
    for (const auto* f : findings) ++counts.at(index(severity_of(*f)));
  std::int64_t total = 0;
  for (auto n : counts) total += n;
  if (total == 0) {
    b.para(tr(kNoFindings));
  } else {
    b.para({text_run(tr(kCountsCaption), true)});
    Table t;
    t.widths = {3, 2};
    t.rows.push_back({docx::cell(tr(kSeverity)), docx::cell(tr(kCount))});
    for (std::size_t i = counts.size(); i-- > 0;)
      t.rows.push_back({severity_cell(static_cast<audit::Severity>(i), tr), docx::cell(std::to_string(counts.at(i)))});
    t.rows.push_back({docx::cell(tr(kTotal), "", true), docx::cell(std::to_string(total), "", true)});
    b.table(std::move(t));
  }
  // The most severe findings above "info", as the reader's first to-do list.
  std::vector<const json::object*> top;
  for (const auto* f : findings)
    if (severity_of(*f) > audit::Severity::Info && top.size() < limits::report::kTopFindings) top.push_back(f);
  if (!top.empty()) {
    b.heading(2, tr(kTopFindings));
    for (const auto* f : top)
      b.bullet({text_run(tr(kSeverityNames.at(index(severity_of(*f)))) + ": ", true), text_run(str(*f, "title"))});
  }
  if (const auto* crawl = object_at(audit, "crawl"); crawl && field(*crawl, "pages")) {
    std::string line = tr(kCrawl) + str(*crawl, "pages");
    if (const std::string n = str(*crawl, "requests"); !n.empty()) line += tr(kRequests) + n;
    if (const std::string stop = str(*crawl, "stopped"); !stop.empty())
      line += tr(kCrawlStopped) + (stop == "complete" ? tr(kCrawlComplete) : stop);
    b.para(line + ".");
  }
  if (const auto* errors = array_at(audit, "errors"); errors && !errors->empty()) b.para(tr(kSomeFailed));
}

std::string cwe_text(const json::object& f) {
  const std::string cwe = str(f, "cwe");
  return cwe.empty() || cwe == "0" ? "" : "CWE-" + cwe;
}

void evidence(Builder& b, const json::array& records, const Tr& tr) {
  std::size_t shown = 0;
  for (const auto& v : records) {
    const auto* e = v.if_object();
    if (!e) continue;
    if (shown == limits::report::kEvidencePerFinding) {
      b.para(tr(kMoreEvidence) + std::to_string(records.size() - shown));
      break;
    }
    ++shown;
    std::vector<Run> head{text_run(str(*e, "url"), false, false, true)};
    if (const std::string note = str(*e, "note"); !note.empty()) head.push_back(text_run(" — " + note, false, true));
    b.bullet(std::move(head));
    if (const std::string excerpt = str(*e, "excerpt"); !excerpt.empty())
      b.para({text_run(excerpt, false, false, true)});
    if (const auto* x = object_at(*e, "exchange")) {
      if (const std::string req = str(*x, "request_line"); !req.empty())
        b.para({text_run(tr(kRequest), true), text_run(req, false, false, true)});
      std::string status = str(*x, "status_line");
      if (status.empty() && !str(*x, "status").empty() && str(*x, "status") != "0") status = str(*x, "status");
      if (!status.empty()) b.para({text_run(tr(kResponse), true), text_run(status, false, false, true)});
    }
  }
}

void findings_section(Builder& b, const std::vector<const json::object*>& findings, const Tr& tr) {
  if (findings.empty()) return;
  b.heading(1, tr(kFindings));
  Table t;
  t.widths = {1, 3, 9, 2, 2};
  t.rows.push_back({docx::cell(tr(kNumber)), docx::cell(tr(kSeverity)), docx::cell(tr(kTitle)), docx::cell("OWASP"),
                    docx::cell("CWE")});
  std::size_t n = 0;
  for (const auto* f : findings)
    t.rows.push_back({docx::cell(std::to_string(++n)), severity_cell(severity_of(*f), tr), docx::cell(str(*f, "title")),
                      docx::cell(str(*f, "owasp")), docx::cell(cwe_text(*f))});
  b.table(std::move(t));

  n = 0;
  for (const auto* f : findings) {
    b.heading(2, std::to_string(++n) + ". " + str(*f, "title"));
    const auto sev = severity_of(*f);
    Run sev_run(tr(kSeverityNames.at(index(sev))));
    sev_run.bold = true;
    sev_run.color = sev == audit::Severity::Critical ? kSeverityColours.at(index(sev)).first : "000000";
    std::vector<Run> meta{text_run(tr(kSeverity) + ": "), std::move(sev_run)};
    if (const std::string c = str(*f, "confidence"); !c.empty())
      meta.push_back(text_run(" · " + tr(kConfidence) + ": " + c));
    if (const std::string o = str(*f, "owasp"); !o.empty()) meta.push_back(text_run(" · OWASP " + o));
    if (const std::string c = cwe_text(*f); !c.empty()) meta.push_back(text_run(" · " + c));
    if (const std::string c = str(*f, "check"); !c.empty()) meta.push_back(text_run(" · " + tr(kCheck) + ": " + c));
    b.para(std::move(meta));
    if (const std::string d = str(*f, "description"); !d.empty()) b.para(d);
    if (const auto* ev = array_at(*f, "evidence"); ev && !ev->empty()) {
      b.heading(3, tr(kEvidence));
      evidence(b, *ev, tr);
    }
    if (const std::string r = str(*f, "recommendation"); !r.empty()) {
      b.heading(3, tr(kRecommendation));
      b.para(r);
    }
    if (const auto* refs = array_at(*f, "references"); refs && !refs->empty()) {
      b.heading(3, tr(kReferences));
      for (const auto& r : *refs)
        if (r.is_string()) b.bullet({text_run(std::string(r.get_string()), false, false, true)});
    }
  }
}

void headers_section(Builder& b, const json::object& audit, const Tr& tr) {
  const auto* h = object_at(audit, "headers");
  const auto* tests = h ? object_at(*h, "tests") : nullptr;
  if (!h || ((!tests || tests->empty()) && str(*h, "grade").empty())) return;
  b.heading(1, tr(kHeaders));
  if (const std::string grade = str(*h, "grade"); !grade.empty()) {
    Run g(grade);
    g.bold = true;
    g.color = grade_colour(grade);
    b.para({text_run(tr(kGrade) + ": "), std::move(g), text_run(" (" + str(*h, "score") + " " + tr(kScore) + ")")});
  }
  if (!tests) return;
  Table t;
  t.widths = {4, 4, 2, 7};
  t.rows.push_back(
      {docx::cell(tr(kTest)), docx::cell(tr(kResult)), docx::cell(tr(kModifier)), docx::cell(tr(kRecommendation))});
  for (const auto& [name, v] : *tests) {
    const auto* test = v.if_object();
    if (!test) continue;
    const auto* pass = field(*test, "pass");
    const char* fill = pass && pass->is_bool() ? (pass->get_bool() ? "C6EFCE" : "FFC7CE") : "";
    t.rows.push_back({docx::cell(std::string(name)), docx::cell(str(*test, "result"), fill),
                      docx::cell(str(*test, "score_modifier")), docx::cell(str(*test, "recommendation"))});
  }
  b.table(std::move(t));
}

void technologies_section(Builder& b, const json::object& audit, const Tr& tr) {
  const auto* techs = array_at(audit, "technologies");
  if (!techs || techs->empty()) return;
  b.heading(1, tr(kTechnologies));
  Table t;
  t.widths = {4, 2, 5, 3};
  t.rows.push_back(
      {docx::cell(tr(kName)), docx::cell(tr(kVersion)), docx::cell(tr(kCategories)), docx::cell(tr(kConfidence))});
  for (const auto& v : *techs) {
    const auto* tech = v.if_object();
    if (!tech) continue;
    const auto* cats = field(*tech, "categories");
    t.rows.push_back({docx::cell(str(*tech, "name")), docx::cell(str(*tech, "version")),
                      docx::cell(cats ? scalar_text(*cats, tr) : ""), docx::cell(str(*tech, "confidence"))});
  }
  b.table(std::move(t));
}

void tls_section(Builder& b, const json::object& audit, const Tr& tr) {
  const auto* tls = object_at(audit, "tls");
  if (!tls || tls->empty()) return;
  b.heading(1, tr(kTls));
  if (const std::string host = str(*tls, "host"); !host.empty()) {
    const std::string port = str(*tls, "port");
    b.para({text_run(tr(kServer) + ": ", true), text_run(port.empty() ? host : host + ":" + port)});
  }
  if (const std::string grade = str(*tls, "grade"); !grade.empty()) {
    Run g(grade);
    g.bold = true;
    g.color = grade_colour(grade);
    b.para({text_run(tr(kGrade) + ": "), std::move(g)});
  }
  if (const auto* protocols = object_at(*tls, "protocols"); protocols && !protocols->empty()) {
    Table t;
    t.widths = {1, 1};
    t.rows.push_back({docx::cell(tr(kProtocol)), docx::cell(tr(kOffered))});
    for (const auto& [name, v] : *protocols) {
      const bool offered = v.is_bool() && v.get_bool();
      // Offering TLS 1.0/1.1 (or SSL) is the problem; offering 1.2/1.3 is what is wanted.
      const bool legacy = name.starts_with("SSL") || name == "TLSv1.0" || name == "TLSv1.1" || name == "TLSv1";
      const char* fill = !v.is_bool() ? "" : offered ? (legacy ? "FFC7CE" : "C6EFCE") : "EDEDED";
      t.rows.push_back({docx::cell(std::string(name)), docx::cell(scalar_text(v, tr), fill)});
    }
    b.table(std::move(t));
  }
  if (const auto* cert = object_at(*tls, "certificate"); cert && !cert->empty()) {
    b.heading(2, tr(kCertificate));
    generic_part(b, *cert, tr, 3);
  }
  json::object rest;
  for (const auto& [k, v] : *tls)
    if (k != "host" && k != "port" && k != "grade" && k != "protocols" && k != "certificate" && !v.is_null())
      rest.emplace(k, v);
  if (!rest.empty()) {
    b.heading(2, tr(kDetails));
    generic_part(b, rest, tr, 3);
  }
}

const Status* status_of(std::string_view id) {
  for (const auto& s : kStatuses)
    if (s.id == id) return &s;
  return nullptr;
}

void compliance_section(Builder& b, const json::object& audit, const Tr& tr) {
  const auto* compliance = object_at(audit, "compliance");
  const auto* sets = compliance ? array_at(*compliance, "sets") : nullptr;
  if (!sets || sets->empty()) return;
  b.heading(1, tr(kCompliance));
  for (const auto& sv : *sets) {
    const auto* set = sv.if_object();
    if (!set) continue;
    const std::string id = str(*set, "id");
    const std::string title = str(*set, "title");
    std::string heading = title.empty() ? id : title;
    if (!title.empty() && !id.empty()) heading.append(" (").append(id).append(")");
    b.heading(2, std::move(heading));
    if (const std::string score = str(*set, "score"); !score.empty())
      b.para({text_run(tr(kSetScore)), text_run(score + tr(kOf100), true)});
    const auto* items = array_at(*set, "items");
    if (!items) continue;
    Table t;
    t.widths = {2, 6, 3, 4, 6};
    t.rows.push_back({docx::cell(tr(kNumber)), docx::cell(tr(kRequirement)), docx::cell(tr(kStatus)),
                      docx::cell(tr(kLegal)), docx::cell(tr(kEvidence))});
    std::vector<std::pair<std::string, std::string>> advice;
    for (const auto& iv : *items) {
      const auto* item = iv.if_object();
      if (!item) continue;
      const std::string status = str(*item, "status");
      const Status* st = status_of(status);
      std::vector<Paragraph> proof;
      if (const auto* ev = array_at(*item, "evidence")) {
        for (const auto& e : *ev) {
          const auto* eo = e.if_object();
          if (!eo || proof.size() >= 2 * limits::report::kEvidencePerFinding) continue;
          if (const std::string url = str(*eo, "url"); !url.empty())
            proof.push_back(docx::paragraph({text_run(url, false, false, true)}));
          if (const std::string ex = str(*eo, "excerpt"); !ex.empty())
            proof.push_back(docx::paragraph({text_run(ex, false, true)}));
        }
      }
      t.rows.push_back({docx::cell(str(*item, "id")), docx::cell(str(*item, "title")),
                        docx::cell(st ? tr(st->name) : status, st ? st->fill : ""),
                        docx::cell(str(*item, "legal_reference")), docx::cell(std::move(proof))});
      if (const std::string r = str(*item, "recommendation"); !r.empty() && (status == "failed" || status == "manual"))
        advice.emplace_back(str(*item, "id"), r);
    }
    b.table(std::move(t));
    if (!advice.empty()) {
      b.heading(3, tr(kRecommendations));
      for (auto& [item_id, text] : advice) b.bullet({text_run(item_id + ": ", true), text_run(std::move(text))});
    }
  }
}

// The documents step's part (engines/audit/documents): every document read, its risk and the
// categories found; the findings section carries the masked samples.
void documents_section(Builder& b, const json::object& audit, const Tr& tr) {
  const auto* documents = object_at(audit, "documents");
  const auto* rows = documents ? array_at(*documents, "documents") : nullptr;
  if (!rows || rows->empty()) return;
  b.heading(1, tr(kDocuments));
  b.para({text_run(tr(kDocumentsIntro))});
  Table t;
  t.widths = {6, 2, 2, 6};
  t.rows.push_back(
      {docx::cell(tr(kDocument)), docx::cell(tr(kType)), docx::cell(tr(kRisk)), docx::cell(tr(kDataFound))});
  for (const auto& v : *rows) {
    const auto* row = v.if_object();
    if (!row) continue;
    std::vector<Paragraph> found;
    if (const std::string error = str(*row, "error"); !error.empty()) {
      found.push_back(docx::paragraph({text_run(tr(kError) + ": " + error, false, true)}));
    } else if (const auto* counts = object_at(*row, "counts"); counts && !counts->empty()) {
      std::string list;
      for (const auto& [cat, n] : *counts)
        list += (list.empty() ? "" : ", ") + std::string(cat) + " × " + scalar_text(n, tr);
      found.push_back(docx::paragraph({text_run(list)}));
      if (const auto* special = array_at(*row, "special_categories"); special && !special->empty())
        found.push_back(docx::paragraph(
            {text_run(tr(kSpecialCategories), true), text_run(scalar_text(json::value(*special), tr))}));
    } else {
      found.push_back(docx::paragraph({text_run(tr(kNoneFound))}));
    }
    const std::string risk = str(*row, "risk");
    const char* fill = risk == "high" ? "FFC7CE" : risk == "medium" ? "FFEB9C" : "";
    t.rows.push_back(
        {docx::cell(std::vector<Paragraph>{docx::paragraph({text_run(str(*row, "url"), false, false, true)})}),
         docx::cell(str(*row, "type")), docx::cell(risk, fill), docx::cell(std::move(found))});
  }
  b.table(std::move(t));
}

void geo_section(Builder& b, const json::object& audit, const Tr& tr) {
  const auto* geo = object_at(audit, "geo");
  if (!geo || geo->empty()) return;
  b.heading(1, tr(kGeo));
  generic_part(b, *geo, tr, 2);
}

// An OWASP scan's findings counted per Top 10 category, all ten listed.
void owasp_section(Builder& b, const std::vector<const json::object*>& findings, const Tr& tr) {
  b.heading(1, tr(kOwaspCategories));
  Table t;
  t.widths = {1, 4, 1};
  t.rows.push_back({docx::cell(tr(kCategory)), docx::cell(""), docx::cell(tr(kCount))});
  for (const auto& c : audit::kOwaspTop10) {
    auto n = std::count_if(findings.begin(), findings.end(), [&](const auto* f) { return str(*f, "owasp") == c.id; });
    t.rows.push_back({docx::cell(std::string(c.id.substr(0, 3))),
                      docx::cell(std::string(tr.lang() == Lang::Ru ? c.ru : c.en)), docx::cell(std::to_string(n))});
  }
  b.table(std::move(t));
}

void errors_section(Builder& b, const json::object& audit, const Tr& tr) {
  const auto* errors = array_at(audit, "errors");
  if (!errors || errors->empty()) return;
  b.heading(1, tr(kErrors));
  Table t;
  t.widths = {1, 3};
  t.rows.push_back({docx::cell(tr(kCheck)), docx::cell(tr(kError))});
  for (const auto& v : *errors)
    if (const auto* e = v.if_object()) t.rows.push_back({docx::cell(str(*e, "check")), docx::cell(str(*e, "error"))});
  b.table(std::move(t));
}

// The host of an absolute URL (no userinfo, no port, no brackets), lower-cased ASCII.
std::string url_host(std::string_view target) {
  auto scheme = target.find("://");
  std::string_view rest = scheme == std::string_view::npos ? target : target.substr(scheme + 3);
  rest = rest.substr(0, std::min(rest.find_first_of("/?#"), rest.size()));
  if (auto at = rest.rfind('@'); at != std::string_view::npos) rest = rest.substr(at + 1);
  if (!rest.empty() && rest.front() == '[') {
    rest = rest.substr(1, std::min(rest.find(']'), rest.size()) - 1);
  } else if (auto colon = rest.rfind(':'); colon != std::string_view::npos) {
    rest = rest.substr(0, colon);
  }
  std::string host(rest);
  for (auto& c : host)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return host;
}

// UTS #46 conversion of a host name; nullopt when ICU finds it invalid.
std::optional<std::string> idna(const std::string& host, bool to_unicode) {
  UErrorCode err = U_ZERO_ERROR;
  UIDNA* uts46 = uidna_openUTS46(UIDNA_NONTRANSITIONAL_TO_ASCII | UIDNA_NONTRANSITIONAL_TO_UNICODE, &err);
  if (U_FAILURE(err)) return std::nullopt;
  std::string out(host.size() * 4 + 64, '\0');
  UIDNAInfo info = UIDNA_INFO_INITIALIZER;
  const auto len = static_cast<int32_t>(host.size());
  const auto cap = static_cast<int32_t>(out.size());
  const int32_t n = to_unicode ? uidna_nameToUnicodeUTF8(uts46, host.data(), len, out.data(), cap, &info, &err)
                               : uidna_nameToASCII_UTF8(uts46, host.data(), len, out.data(), cap, &info, &err);
  uidna_close(uts46);
  if (U_FAILURE(err) || info.errors != 0 || n < 0) return std::nullopt;
  out.resize(static_cast<std::size_t>(n));
  return out;
}

bool ascii_safe(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
}

// A file name part from a host: no path separators, quotes, controls or ':' (Windows).
std::string unicode_safe(std::string_view s) {
  std::string out = docx::xml_text(s);
  for (auto& c : out)
    if (static_cast<unsigned char>(c) < 0x80 && !ascii_safe(c)) c = '_';
  return out;
}

std::string today_utc() { return text::utc_now(text::kUtcDay); }

std::string day_of(std::string_view date) {
  static constexpr std::string_view kShape = "dddd-dd-dd";
  if (date.size() < kShape.size()) return today_utc();
  for (std::size_t i = 0; i < kShape.size(); ++i) {
    const bool digit = date[i] >= '0' && date[i] <= '9';
    if (kShape[i] == 'd' ? !digit : date[i] != kShape[i]) return today_utc();
  }
  return std::string(date.substr(0, kShape.size()));
}

}  // namespace

std::optional<Lang> lang_from(std::string_view code) {
  if (code == "ru") return Lang::Ru;
  if (code == "en") return Lang::En;
  return std::nullopt;
}

std::string_view to_string(Lang lang) { return lang == Lang::Ru ? "ru" : "en"; }

docx::Document audit_document(const json::object& audit, const ReportOptions& options) {
  const Tr tr(options.lang);
  docx::Document doc;
  const std::string target = str(audit, "target");
  doc.properties.title = "Dozor: " + report_title(audit, tr) + (target.empty() ? "" : " — " + target);
  doc.properties.subject = target;
  doc.properties.creator = tr(kCreator);
  doc.properties.language = options.lang == Lang::Ru ? "ru-RU" : "en-US";
  doc.properties.created = options.created;
  const std::string host = url_host(target);
  const std::string shown_host = idna(host, true).value_or(host);
  doc.footer = {docx::FooterPart("Dozor" + (shown_host.empty() ? "" : " · " + shown_host) + " · " + tr(kPage)),
                docx::FooterPart(docx::Field::Page), docx::FooterPart(tr(kPageOf)),
                docx::FooterPart(docx::Field::NumPages)};

  Builder b(doc, tr);
  const auto findings = findings_by_severity(audit);
  title_page(b, audit, tr);
  summary(b, audit, findings, tr);
  if (is_owasp(audit)) owasp_section(b, findings, tr);
  findings_section(b, findings, tr);
  headers_section(b, audit, tr);
  technologies_section(b, audit, tr);
  tls_section(b, audit, tr);
  compliance_section(b, audit, tr);
  documents_section(b, audit, tr);
  geo_section(b, audit, tr);
  errors_section(b, audit, tr);
  return doc;
}

std::string render_audit_docx(const json::object& audit, const ReportOptions& options) {
  return docx::write_docx(audit_document(audit, options));
}

ReportFilename report_filename(std::string_view target, std::string_view date, std::string_view prefix) {
  const std::string host = url_host(target);
  const std::string day = day_of(date);
  std::string unicode_host = unicode_safe(idna(host, true).value_or(host));
  std::string ascii_host = idna(host, false).value_or(host);
  for (auto& c : ascii_host)
    if (!ascii_safe(c)) c = '_';
  if (unicode_host.empty()) unicode_host = "site";
  if (ascii_host.empty()) ascii_host = "site";
  const std::string lead = std::string(prefix) + "-";
  return {lead + unicode_host + "-" + day + ".docx", lead + ascii_host + "-" + day + ".docx"};
}

ReportFilename report_filename(const json::object& audit) {
  return report_filename(str(audit, "target"), audit_time(audit), is_owasp(audit) ? "dozor-owasp" : "dozor-audit");
}

std::string content_disposition(const ReportFilename& name) {
  // RFC 5987 attr-char is sent as is, every other byte of the UTF-8 name percent-encoded.
  static constexpr std::string_view kAttrChar = "!#$&+-.^_`|~";
  std::string encoded;
  for (char c : name.utf8) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x80 && std::isalnum(u)) || kAttrChar.find(c) != std::string_view::npos) {
      encoded += c;
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", u);
      encoded += buf;
    }
  }
  std::string fallback;
  for (char c : name.ascii) fallback += ascii_safe(c) ? c : '_';
  return "attachment; filename=\"" + fallback + "\"; filename*=UTF-8''" + encoded;
}

}  // namespace dozor::report
