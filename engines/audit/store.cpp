#include "engines/audit/store.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <unordered_map>

#include "db/audit_repo.hpp"
#include "db/services_repo.hpp"
#include "engines/net/exchange_json.hpp"
#include "engines/net/url_check.hpp"
#include "engines/secrets.hpp"
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

boost::json::object save(db::Database& db, std::int64_t user_id, const AuditReport& report,
                         const boost::json::object& extra) {
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
      ne.excerpt = bounded(secrets::redact_text(e.excerpt), limits::kEvidenceExcerptChars);
      ne.note = bounded(e.note, 255);
      if (e.exchange) ne.exchange_json = boost::json::serialize(net::to_json(redacted(*e.exchange)));
      nf.evidence.push_back(std::move(ne));
    }
    a.findings.push_back(std::move(nf));
  }
  boost::json::object json = to_json(report);
  for (const auto& [key, value] : extra) json[key] = value;
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

std::optional<boost::json::object> latest(db::Database& db, std::int64_t user_id, const std::string& target,
                                          db::audits::Family family) {
  std::optional<std::string> raw;
  db.run([&](db::Connection& c) { raw = db::audits::latest_result(c, user_id, target, family); },
         db::Retry::OnLostConnection);
  if (!raw) return std::nullopt;
  return boost::json::parse(*raw).as_object();
}

boost::json::object latest_or_run(db::Database& db, std::int64_t user_id, const std::string& target,
                                  const std::function<AuditReport()>& run) {
  if (auto stored = latest(db, user_id, target)) return std::move(*stored);
  return save(db, user_id, run());
}

boost::json::object summary_json(const db::audits::AuditSummary& s) {
  boost::json::object counts;
  for (std::size_t i = 0; i < s.counts.size(); ++i) counts[to_string(static_cast<Severity>(i))] = s.counts[i];
  return {{"audit_id", s.id},
          {"grade", s.grade ? boost::json::value(*s.grade) : boost::json::value(nullptr)},
          {"score", s.score ? boost::json::value(*s.score) : boost::json::value(nullptr)},
          {"counts", std::move(counts)},
          {"finished_at", s.finished_at}};
}

std::optional<std::string> service_target(const std::string& service_url) {
  if (net::check_http_url(service_url)) return std::nullopt;
  return net::normalize_http_url(service_url);
}

boost::json::array service_grades(db::Database& db, std::int64_t user_id) {
  std::vector<db::services::Service> services;
  std::vector<db::audits::AuditSummary> latest;
  db.run(
      [&](db::Connection& c) {
        services = db::services::list_by_user(c, user_id);
        latest = db::audits::latest_per_target(c, user_id);
      },
      db::Retry::OnLostConnection);
  std::unordered_map<std::string, const db::audits::AuditSummary*> by_target;
  for (const auto& a : latest) by_target[a.target] = &a;
  boost::json::array out;
  out.reserve(services.size());
  for (const auto& s : services) {
    auto target = service_target(s.url);
    const db::audits::AuditSummary* found = nullptr;
    if (target)
      if (auto it = by_target.find(*target); it != by_target.end()) found = it->second;
    out.push_back({{"service_id", s.id},
                   {"target", target ? boost::json::value(*target) : boost::json::value(nullptr)},
                   {"audit", found ? boost::json::value(summary_json(*found)) : boost::json::value(nullptr)}});
  }
  return out;
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
    if (r.exchange_json) {
      exchange = boost::json::parse(*r.exchange_json);
      // Rows stored before every excerpt was redacted are redacted on the way out.
      if (auto* body = exchange.is_object() ? exchange.as_object().if_contains("body_excerpt") : nullptr;
          body && body->is_string())
        *body = secrets::redact_text(body->as_string());
    }
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
                   {"excerpt", secrets::redact_text(r.excerpt)},
                   {"note", r.note},
                   {"exchange", std::move(exchange)},
                   {"created_at", r.created_at}});
  }
  return out;
}

}  // namespace dozor::audit::store
