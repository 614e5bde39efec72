#pragma once
// Stored audits, their findings and evidence (db/migrations/0015_audits.sql, docs/audit.md).
// Every read and write names the owner: a user never reaches another user's audits.
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"

namespace dozor::db::audits {

// Stored results come in two families that never stand in for each other: audits (kinds "audit"
// and "full": the grade, the DOCX audit report, the kiosk badge) and OWASP scans (kind "owasp":
// the OWASP report and summary). Retention counts each family apart.
enum class Family { Audit, Owasp };
Family family_of(const std::string& kind);

struct NewEvidence {
  std::string url;
  std::string excerpt;
  std::string note;
  std::optional<std::string> exchange_json;
};

struct NewFinding {
  std::string check;
  std::string title;
  std::string severity;  // info | low | medium | high | critical
  std::string confidence;
  std::optional<std::string> owasp;
  std::optional<int> cwe;
  std::string description;
  std::string recommendation;
  std::string refs_json = "[]";
  std::vector<NewEvidence> evidence;
};

struct NewAudit {
  std::int64_t user_id = 0;
  std::string target;
  std::string kind;
  std::optional<int> score;
  std::optional<std::string> grade;
  std::array<int, 5> counts{};  // info, low, medium, high, critical
  std::string started_at;       // "YYYY-MM-DD HH:MM:SS.mmm" UTC
  std::string finished_at;
  std::vector<NewFinding> findings;
};

// Builds the stored JSON once the ids are known (the audit's, and each finding's in order).
using Render = std::function<std::string(std::int64_t audit_id, const std::vector<std::int64_t>& finding_ids)>;

// One transaction: the audit, its findings and their evidence, the rendered result; then only the
// newest `keep` audits of that user, target and family remain (older ones go with their findings).
std::int64_t insert(Connection& c, const NewAudit& audit, const Render& render, std::size_t keep);

// The result JSON of the user's newest audit of `target` in `family`.
std::optional<std::string> latest_result(Connection& c, std::int64_t user_id, const std::string& target, Family family);
// The result JSONs of the user's newest `n` results of `target` in `family`, newest first.
std::vector<std::string> latest_results(Connection& c, std::int64_t user_id, const std::string& target, Family family,
                                        int n);

struct EvidenceRow {
  std::int64_t id = 0;
  std::int64_t finding_id = 0;
  std::int64_t audit_id = 0;
  std::string url;
  std::string excerpt;
  std::string note;
  std::optional<std::string> exchange_json;
  std::string created_at;  // ISO 8601 UTC
  std::string check;
  std::string title;
  std::string severity;
  std::string confidence;
  std::optional<std::string> owasp;
  std::optional<std::int64_t> cwe;
};

// The user's newest evidence for `target` across stored audits, newest first; `severities` a
// comma-separated list ("high,critical"), or empty for every severity.
std::vector<EvidenceRow> newest_evidence(Connection& c, std::int64_t user_id, const std::string& target,
                                         const std::string& severities, int limit);

// The grade line of a stored audit (the dashboard's and the kiosk's badge).
struct AuditSummary {
  std::int64_t id = 0;
  std::string target;
  std::optional<int> score;
  std::optional<std::string> grade;
  std::array<int, 5> counts{};  // info, low, medium, high, critical
  std::string finished_at;      // ISO 8601 UTC
};

// The user's newest audit (family Audit) of each target they have audited: one row per target.
std::vector<AuditSummary> latest_per_target(Connection& c, std::int64_t user_id);
// The user's newest audit (family Audit) of `target`, if any.
std::optional<AuditSummary> latest_summary(Connection& c, std::int64_t user_id, const std::string& target);

struct FindingTitle {
  std::int64_t id = 0;
  std::string title;
  std::string severity;
};
// The audit's high and critical findings, critical first, at most `limit`.
std::vector<FindingTitle> serious_findings(Connection& c, std::int64_t audit_id, int limit);

// How many results of `family` the user has stored for `target` (tests, retention).
std::int64_t count_for_target(Connection& c, std::int64_t user_id, const std::string& target, Family family);

}  // namespace dozor::db::audits
