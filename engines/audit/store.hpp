#pragma once
// Audits as stored per user (db/audit_repo.hpp): the report becomes rows and the stored JSON
// gains its ids; the evidence route reads the newest evidence back.
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "db/audit_repo.hpp"
#include "db/database.hpp"
#include "engines/audit/full_audit.hpp"

namespace dozor::audit::store {

// Stores the report (one transaction, then retention) and returns the stored JSON: the audit's
// "id" and every finding's "id" filled in, and the members of `extra` beside them (what a kind
// adds to the common shape, e.g. the OWASP scan's tested parameters).
boost::json::object save(db::Database& db, std::int64_t user_id, const AuditReport& report,
                         const boost::json::object& extra = {});

std::optional<boost::json::object> latest(db::Database& db, std::int64_t user_id, const std::string& target,
                                          db::audits::Family family = db::audits::Family::Audit);

// The user's newest stored audit of `target`; when there is none, `run` makes one and it is stored
// first, so a report download and the audit history agree.
boost::json::object latest_or_run(db::Database& db, std::int64_t user_id, const std::string& target,
                                  const std::function<AuditReport()>& run);

// {"audit_id", "grade", "score", "counts": {severity: n}, "finished_at"}: a stored audit's badge.
boost::json::object summary_json(const db::audits::AuditSummary& s);

// The audit target a service's URL is stored under (the batch audits it under this name), or
// nullopt for a service that is no web site (tcp://).
std::optional<std::string> service_target(const std::string& service_url);

// One row per service of the user: {"service_id", "target", "audit": summary_json | null}, by id.
boost::json::array service_grades(db::Database& db, std::int64_t user_id);

// [{"id", "audit_id", "finding_id", "check", "title", "severity", "confidence", "owasp", "cwe", "url",
//   "excerpt", "note", "exchange", "created_at"}], newest first.
boost::json::array evidence(db::Database& db, std::int64_t user_id, const std::string& target,
                            const std::vector<Severity>& severities, int limit);

}  // namespace dozor::audit::store
