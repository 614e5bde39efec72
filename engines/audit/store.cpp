#include "engines/audit/store.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "db/audit_repo.hpp"
#include "engines/net/exchange_json.hpp"
#include "engines/text/utf8.hpp"

namespace dozor::audit::store {
namespace {

// "2026-11-23T10:00:00.123Z" → "2026-11-23 10:00:00.123" (DATETIME(3), UTC).
std::string db_time(std::string iso) {
  if (auto t = iso.find('T'); t != std::string::npos) iso[t] = ' ';
  if (!iso.empty() && iso.back() == 'Z') iso.pop_back();
  return iso;
}

std::string bounded(const std::string& s, std::size_t chars) { return text::utf8_prefix(s, chars); }

}  // namespace

boost::json::object save(db::Database& db, std::int64_t user_id, const AuditReport& report) {
  db::audits::NewAudit a;
  a.user_id = user_id;
  a.target = report.target;
  a.kind = report.kind;
  a.score = report.score;
  a.grade = report.grade;
  a.counts = report.counts;
  a.started_at = db_time(report.started_at);
  a.finished_at = db_time(report.finished_at);
  for (const auto& f : report.parts.findings) {
    db::audits::NewFinding nf;
    nf.check = bounded(f.check, 100);
    nf.title = bounded(f.title, 255);
    nf.severity = std::string(to_string(f.severity));
    nf.confidence = bounded(f.confidence, 16);
    if (!f.owasp.empty()) nf.owasp = bounded(f.owasp, 16);
    if (f.cwe != 0) nf.cwe = f.cwe;
    nf.description = f.description;
    nf.recommendation = f.recommendation;
    boost::json::array refs;
    for (const auto& r : f.references) refs.push_back(boost::json::string(r));
    nf.refs_json = boost::json::serialize(refs);
    for (const auto& e : f.evidence) {
      db::audits::NewEvidence ne;
      ne.url = bounded(e.url, limits::kUrlLength);
      ne.excerpt = bounded(e.excerpt, limits::kEvidenceExcerptChars);
      ne.note = bounded(e.note, 255);
      if (e.exchange) ne.exchange_json = boost::json::serialize(net::to_json(*e.exchange));
      nf.evidence.push_back(std::move(ne));
    }
    a.findings.push_back(std::move(nf));
  }
  boost::json::object json = to_json(report);
  db.run(
      [&](db::Connection& c) {
        // Ids are known only inside the transaction; the stored JSON carries them.
        auto id = db::audits::insert(
            c, a,
            [&](std::int64_t audit_id, const std::vector<std::int64_t>& finding_ids) {
              json["id"] = audit_id;
              auto& findings = json["findings"].as_array();
              for (std::size_t i = 0; i < findings.size() && i < finding_ids.size(); ++i)
                findings[i].as_object()["id"] = finding_ids[i];
              return boost::json::serialize(json);
            },
            limits::kAuditsKeptPerTarget);
        json["id"] = id;
      },
      db::Retry::Never);
  return json;
}

std::optional<boost::json::object> latest(db::Database& db, std::int64_t user_id, const std::string& target) {
  std::optional<std::string> raw;
  db.run([&](db::Connection& c) { raw = db::audits::latest_result(c, user_id, target); }, db::Retry::OnLostConnection);
  if (!raw) return std::nullopt;
  return boost::json::parse(*raw).as_object();
}

boost::json::array evidence(db::Database& db, std::int64_t user_id, const std::string& target,
                            const std::vector<Severity>& severities, int limit) {
  std::string csv;
  for (auto s : severities) {
    if (!csv.empty()) csv += ',';
    csv += to_string(s);
  }
  std::vector<db::audits::EvidenceRow> rows;
  db.run([&](db::Connection& c) { rows = db::audits::newest_evidence(c, user_id, target, csv, limit); },
         db::Retry::OnLostConnection);
  boost::json::array out;
  for (const auto& r : rows) {
    boost::json::value exchange = nullptr;
    if (r.exchange_json) exchange = boost::json::parse(*r.exchange_json);
    out.push_back({{"id", r.id},
                   {"audit_id", r.audit_id},
                   {"finding_id", r.finding_id},
                   {"check", r.check},
                   {"title", r.title},
                   {"severity", r.severity},
                   {"confidence", r.confidence},
                   {"owasp", r.owasp ? boost::json::value(*r.owasp) : boost::json::value(nullptr)},
                   {"cwe", r.cwe ? boost::json::value(*r.cwe) : boost::json::value(nullptr)},
                   {"url", r.url},
                   {"excerpt", r.excerpt},
                   {"note", r.note},
                   {"exchange", std::move(exchange)},
                   {"created_at", r.created_at}});
  }
  return out;
}

}  // namespace dozor::audit::store
