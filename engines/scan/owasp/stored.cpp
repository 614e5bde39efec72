#include "engines/scan/owasp/stored.hpp"

#include <algorithm>
#include <boost/json/array.hpp>
#include <boost/json/parse.hpp>
#include <set>

#include "db/audit_repo.hpp"
#include "engines/audit/owasp_top10.hpp"
#include "engines/audit/store.hpp"

namespace dozor::owasp {
namespace json = boost::json;

namespace {

const json::array* findings_of(const json::object& scan) {
  const auto* v = scan.if_contains("findings");
  return v && v->is_array() ? &v->as_array() : nullptr;
}

std::string field(const json::object& o, const char* key) {
  const auto* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->as_string()) : std::string();
}

std::optional<std::int64_t> number(const json::object& o, const char* key) {
  const auto* v = o.if_contains(key);
  if (!v || !v->is_number()) return std::nullopt;
  return v->to_number<std::int64_t>();
}

// What makes two scans' findings "the same": the rule and its title, which names the place
// ("…: parameter q of http://site/search"). Not the evidence URL: it carries a fresh canary per scan.
std::string identity(const json::object& finding) { return field(finding, "check") + '\n' + field(finding, "title"); }

std::set<std::string> identities(const json::object* scan) {
  std::set<std::string> out;
  if (!scan) return out;
  if (const auto* fs = findings_of(*scan))
    for (const auto& f : *fs)
      if (f.is_object()) out.insert(identity(f.as_object()));
  return out;
}

bool serious(const json::object& finding) {
  auto s = field(finding, "severity");
  return s == "high" || s == "critical";
}

}  // namespace

audit::AuditReport as_audit_report(const OwaspResult& r, std::chrono::system_clock::time_point finished) {
  audit::AuditReport report;
  report.target = r.target;
  report.kind = "owasp";
  report.finished_at = audit::iso_utc(finished);
  report.started_at = audit::iso_utc(finished - std::chrono::milliseconds(r.duration_ms));
  report.duration_ms = r.duration_ms;
  auto& findings = report.parts.findings;
  findings = r.findings;
  std::stable_sort(findings.begin(), findings.end(),
                   [](const auto& a, const auto& b) { return a.severity > b.severity; });
  if (findings.size() > limits::kAuditFindings) findings.resize(limits::kAuditFindings);
  for (auto& f : findings) {
    if (f.evidence.size() > limits::kAuditEvidencePerFinding) f.evidence.resize(limits::kAuditEvidencePerFinding);
    report.counts.at(static_cast<std::size_t>(f.severity))++;
  }
  report.score = audit::overall_score(100, findings);
  if (report.score) report.grade = audit::overall_grade(*report.score);
  report.crawl.pages = r.pages;
  report.crawl.requests = r.crawl_requests;
  report.crawl.stopped = r.stopped;
  return report;
}

json::object save(db::Database& db, std::int64_t user_id, const OwaspResult& result) {
  auto report = as_audit_report(result, std::chrono::system_clock::now());
  auto details = to_json(result);
  details.erase("findings");  // stored once, in the common shape
  details.erase("target");
  return audit::store::save(db, user_id, report, {{"owasp", std::move(details)}});
}

json::object scan_answer(const OwaspResult& result, const json::object& stored) {
  auto body = to_json(result);
  for (const char* key : {"score", "grade", "counts"})
    if (const auto* v = stored.if_contains(key)) body[key] = *v;
  body["scan_id"] = stored.contains("id") ? stored.at("id") : json::value(nullptr);
  return body;
}

std::vector<json::object> newest(db::Database& db, std::int64_t user_id, const std::string& target, int n) {
  std::vector<std::string> rows;
  db.run(
      [&](db::Connection& c) { rows = db::audits::latest_results(c, user_id, target, db::audits::Family::Owasp, n); },
      db::Retry::OnLostConnection);
  std::vector<json::object> out;
  out.reserve(rows.size());
  for (const auto& raw : rows) out.push_back(json::parse(raw).as_object());
  return out;
}

json::object summary_json(const json::object& latest, const json::object* previous) {
  json::array categories;
  std::int64_t uncategorised = 0;
  const auto* fs = findings_of(latest);
  for (const auto& cat : audit::kOwaspTop10) {
    json::object row{{"id", cat.id}, {"name", cat.en}, {"total", 0}};
    for (int s = 4; s >= 0; --s) row[audit::to_string(static_cast<audit::Severity>(s))] = 0;
    categories.push_back(std::move(row));
  }
  if (fs)
    for (const auto& v : *fs) {
      if (!v.is_object()) continue;
      const auto& f = v.as_object();
      auto it = std::find_if(audit::kOwaspTop10.begin(), audit::kOwaspTop10.end(),
                             [&](const auto& c) { return c.id == field(f, "owasp"); });
      if (it == audit::kOwaspTop10.end()) {
        ++uncategorised;
        continue;
      }
      auto& row = categories.at(static_cast<std::size_t>(it - audit::kOwaspTop10.begin())).as_object();
      row["total"] = row["total"].as_int64() + 1;
      if (auto* n = row.if_contains(field(f, "severity"))) *n = n->as_int64() + 1;
    }

  json::value trend = nullptr;
  if (previous) {
    auto now = identities(&latest);
    auto before = identities(previous);
    std::int64_t added = 0, resolved = 0;
    for (const auto& id : now) added += before.count(id) == 0 ? 1 : 0;
    for (const auto& id : before) resolved += now.count(id) == 0 ? 1 : 0;
    auto score = number(latest, "score");
    auto previous_score = number(*previous, "score");
    json::value change = nullptr;
    std::int64_t delta = 0;
    if (score && previous_score) {
      delta = *score - *previous_score;
      change = delta;
    } else {
      delta = resolved - added;
    }
    trend = json::object{{"previous_scan_id", previous->contains("id") ? previous->at("id") : nullptr},
                         {"previous_finished_at", field(*previous, "finished_at")},
                         {"previous_score", previous_score ? json::value(*previous_score) : json::value(nullptr)},
                         {"score_change", std::move(change)},
                         {"new_findings", added},
                         {"resolved_findings", resolved},
                         {"direction", delta > 0   ? "improved"
                                       : delta < 0 ? "worsened"
                                                   : "unchanged"}};
  }
  auto copy = [&](const char* key) { return latest.contains(key) ? latest.at(key) : json::value(nullptr); };
  return {{"scan_id", copy("id")},
          {"target", copy("target")},
          {"finished_at", copy("finished_at")},
          {"score", copy("score")},
          {"grade", copy("grade")},
          {"counts", copy("counts")},
          {"categories", std::move(categories)},
          {"uncategorised", uncategorised},
          {"trend", std::move(trend)}};
}

std::vector<const json::object*> new_serious(const json::object& latest, const json::object* previous) {
  auto before = identities(previous);
  std::vector<const json::object*> out;
  if (const auto* fs = findings_of(latest))
    for (const auto& v : *fs)
      if (v.is_object() && serious(v.as_object()) && before.count(identity(v.as_object())) == 0)
        out.push_back(&v.as_object());
  return out;
}

}  // namespace dozor::owasp
