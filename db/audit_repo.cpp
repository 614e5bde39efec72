#include "db/audit_repo.hpp"

#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

namespace dozor::db::audits {
namespace {

constexpr const char* kTargetHash = "UNHEX(SHA2(?, 256))";

// A constant condition per family (no input reaches the text).
const char* family_clause(Family f) { return f == Family::Owasp ? " AND kind = 'owasp'" : " AND kind <> 'owasp'"; }

constexpr const char* kSummaryColumns =
    "a.id, a.target, a.score, a.grade, a.count_info, a.count_low, a.count_medium, a.count_high, a.count_critical,"
    " DATE_FORMAT(a.finished_at, '%Y-%m-%dT%H:%i:%s.%fZ')";

AuditSummary summary_row(sql::ResultSet& rs) {
  AuditSummary s;
  s.id = get_int(rs, 1);
  s.target = get_string(rs, 2);
  if (!rs.isNull(3)) s.score = rs.getInt(3);
  s.grade = opt_string(rs, 4);
  for (unsigned i = 0; i < 5; ++i) s.counts[i] = rs.getInt(5 + i);
  auto t = get_string(rs, 10);  // microseconds as MariaDB prints them: keep milliseconds
  s.finished_at = t.size() > 24 ? t.substr(0, 23) + "Z" : t;
  return s;
}

}  // namespace

Family family_of(const std::string& kind) { return kind == "owasp" ? Family::Owasp : Family::Audit; }

std::vector<AuditSummary> latest_per_target(Connection& c, std::int64_t user_id) {
  auto& st = c.prepare(std::string("SELECT ") + kSummaryColumns +
                       " FROM audits a JOIN (SELECT MAX(id) AS id FROM audits WHERE user_id = ?" +
                       family_clause(Family::Audit) +
                       " GROUP BY target_hash) n"
                       " ON n.id = a.id ORDER BY a.id");
  st.setInt64(1, user_id);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<AuditSummary> out;
  while (rs->next()) out.push_back(summary_row(*rs));
  return out;
}

std::optional<AuditSummary> latest_summary(Connection& c, std::int64_t user_id, const std::string& target) {
  auto& st = c.prepare(std::string("SELECT ") + kSummaryColumns +
                       " FROM audits a WHERE a.user_id = ? AND a.target_hash = " + kTargetHash +
                       family_clause(Family::Audit) + " ORDER BY a.id DESC LIMIT 1");
  st.setInt64(1, user_id);
  st.setString(2, target);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  if (!rs->next()) return std::nullopt;
  return summary_row(*rs);
}

std::vector<FindingTitle> serious_findings(Connection& c, std::int64_t audit_id, int limit) {
  auto& st = c.prepare(
      "SELECT id, title, severity FROM findings WHERE audit_id = ? AND severity IN ('critical', 'high')"
      " ORDER BY severity = 'critical' DESC, id LIMIT ?");
  st.setInt64(1, audit_id);
  st.setInt(2, limit);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<FindingTitle> out;
  while (rs->next()) out.push_back({get_int(*rs, 1), get_string(*rs, 2), get_string(*rs, 3)});
  return out;
}

std::int64_t insert(Connection& c, const NewAudit& a, const Render& render, std::size_t keep) {
  std::int64_t audit_id = 0;
  c.transaction([&] {
    auto& st = c.prepare(std::string("INSERT INTO audits (user_id, target, target_hash, kind, score, grade,"
                                     " count_info, count_low, count_medium, count_high, count_critical,"
                                     " started_at, finished_at, result) VALUES (?, ?, ") +
                         kTargetHash + ", ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '')");
    st.setInt64(1, a.user_id);
    st.setString(2, a.target);
    st.setString(3, a.target);
    st.setString(4, a.kind);
    bind_optional(st, 5, a.score);
    bind_optional(st, 6, a.grade);
    for (unsigned i = 0; i < 5; ++i) st.setInt(7 + i, a.counts[i]);
    st.setString(12, a.started_at);
    st.setString(13, a.finished_at);
    st.executeUpdate();
    audit_id = c.last_insert_id();

    std::vector<std::int64_t> finding_ids;
    for (const auto& f : a.findings) {
      auto& fs = c.prepare(
          "INSERT INTO findings (audit_id, check_id, title, severity, confidence, owasp, cwe, description,"
          " recommendation, refs) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
      fs.setInt64(1, audit_id);
      fs.setString(2, f.check);
      fs.setString(3, f.title);
      fs.setString(4, f.severity);
      fs.setString(5, f.confidence);
      bind_optional(fs, 6, f.owasp);
      bind_optional(fs, 7, f.cwe);
      fs.setString(8, f.description);
      fs.setString(9, f.recommendation);
      fs.setString(10, f.refs_json);
      fs.executeUpdate();
      std::int64_t finding_id = c.last_insert_id();
      finding_ids.push_back(finding_id);
      for (const auto& e : f.evidence) {
        auto& es = c.prepare(std::string("INSERT INTO evidence (finding_id, audit_id, user_id, target_hash, url,"
                                         " excerpt, note, exchange, created_at) VALUES (?, ?, ?, ") +
                             kTargetHash + ", ?, ?, ?, ?, ?)");
        es.setInt64(1, finding_id);
        es.setInt64(2, audit_id);
        es.setInt64(3, a.user_id);
        es.setString(4, a.target);
        es.setString(5, e.url);
        es.setString(6, e.excerpt);
        es.setString(7, e.note);
        bind_optional(es, 8, e.exchange_json);
        es.setString(9, a.finished_at);
        es.executeUpdate();
      }
    }

    auto& up = c.prepare("UPDATE audits SET result = ? WHERE id = ?");
    up.setString(1, render(audit_id, finding_ids));
    up.setInt64(2, audit_id);
    up.executeUpdate();

    // Retention: the newest `keep` stay; the one just stored is always among them.
    const char* family = family_clause(family_of(a.kind));
    auto& oldest_kept = c.prepare(std::string("SELECT id FROM audits WHERE user_id = ? AND target_hash = ") +
                                  kTargetHash + family + " ORDER BY id DESC LIMIT 1 OFFSET ?");
    oldest_kept.setInt64(1, a.user_id);
    oldest_kept.setString(2, a.target);
    oldest_kept.setInt64(3, static_cast<std::int64_t>(keep));
    std::unique_ptr<sql::ResultSet> rs(oldest_kept.executeQuery());
    if (rs->next()) {
      std::int64_t first_dropped = rs->getInt64(1);
      auto& del = c.prepare(std::string("DELETE FROM audits WHERE user_id = ? AND target_hash = ") + kTargetHash +
                            family + " AND id <= ?");
      del.setInt64(1, a.user_id);
      del.setString(2, a.target);
      del.setInt64(3, first_dropped);
      del.executeUpdate();
    }
  });
  return audit_id;
}

std::vector<std::string> latest_results(Connection& c, std::int64_t user_id, const std::string& target, Family family,
                                        int n) {
  auto& st = c.prepare(std::string("SELECT result FROM audits WHERE user_id = ? AND target_hash = ") + kTargetHash +
                       family_clause(family) + " ORDER BY id DESC LIMIT ?");
  st.setInt64(1, user_id);
  st.setString(2, target);
  st.setInt(3, n);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<std::string> out;
  while (rs->next()) out.push_back(get_string(*rs, 1));
  return out;
}

std::optional<std::string> latest_result(Connection& c, std::int64_t user_id, const std::string& target,
                                         Family family) {
  auto rows = latest_results(c, user_id, target, family, 1);
  if (rows.empty()) return std::nullopt;
  return std::move(rows.front());
}

std::vector<EvidenceRow> newest_evidence(Connection& c, std::int64_t user_id, const std::string& target,
                                         const std::string& severities, int limit) {
  auto& st = c.prepare(std::string("SELECT e.id, e.finding_id, e.audit_id, e.url, e.excerpt, e.note, e.exchange,"
                                   " DATE_FORMAT(e.created_at, '%Y-%m-%dT%H:%i:%sZ'), f.check_id, f.title, f.severity,"
                                   " f.confidence, f.owasp, f.cwe"
                                   " FROM evidence e JOIN findings f ON f.id = e.finding_id"
                                   " WHERE e.user_id = ? AND e.target_hash = ") +
                       kTargetHash + " AND (? = '' OR FIND_IN_SET(f.severity, ?) > 0) ORDER BY e.id DESC LIMIT ?");
  st.setInt64(1, user_id);
  st.setString(2, target);
  st.setString(3, severities);
  st.setString(4, severities);
  st.setInt(5, limit);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  std::vector<EvidenceRow> out;
  while (rs->next()) {
    EvidenceRow r;
    r.id = get_int(*rs, 1);
    r.finding_id = get_int(*rs, 2);
    r.audit_id = get_int(*rs, 3);
    r.url = get_string(*rs, 4);
    r.excerpt = get_string(*rs, 5);
    r.note = get_string(*rs, 6);
    r.exchange_json = opt_string(*rs, 7);
    r.created_at = get_string(*rs, 8);
    r.check = get_string(*rs, 9);
    r.title = get_string(*rs, 10);
    r.severity = get_string(*rs, 11);
    r.confidence = get_string(*rs, 12);
    r.owasp = opt_string(*rs, 13);
    r.cwe = opt_int(*rs, 14);
    out.push_back(std::move(r));
  }
  return out;
}

std::int64_t count_for_target(Connection& c, std::int64_t user_id, const std::string& target, Family family) {
  auto& st = c.prepare(std::string("SELECT COUNT(*) FROM audits WHERE user_id = ? AND target_hash = ") + kTargetHash +
                       family_clause(family));
  st.setInt64(1, user_id);
  st.setString(2, target);
  std::unique_ptr<sql::ResultSet> rs(st.executeQuery());
  return rs->next() ? rs->getInt64(1) : 0;
}

}  // namespace dozor::db::audits
