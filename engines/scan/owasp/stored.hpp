#pragma once
// OWASP scans as stored per user (docs/scan.md "Stored OWASP reports"): a scan is kept in the audit
// store as a report of kind "owasp" (its own family: never mistaken for an audit), so its findings
// reach the evidence route and its DOCX comes from the audit report writer. The summary compares
// the newest scan with the one before it.
#include <boost/json/object.hpp>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"
#include "engines/audit/full_audit.hpp"
#include "engines/scan/owasp/owasp.hpp"

namespace dozor::owasp {

// The scan as an audit report: score 100 less the severity penalties (engines/audit/full_audit),
// its grade, the counts, findings worst first and bounded as an audit's.
audit::AuditReport as_audit_report(const OwaspResult& result, std::chrono::system_clock::time_point finished);

// Stores the scan and returns the stored JSON: the audit shape ("id", "kind": "owasp", "score",
// "grade", "counts", "findings" …) and "owasp": {stopped, pages, points, tested, requests,
// crawl_requests, by_category}.
boost::json::object save(db::Database& db, std::int64_t user_id, const OwaspResult& result);

// What a scan route and task answer: to_json(result) and the stored scan's "scan_id", "score",
// "grade" and "counts".
boost::json::object scan_answer(const OwaspResult& result, const boost::json::object& stored);

// The user's newest stored scans of `target`, newest first, at most `n`.
std::vector<boost::json::object> newest(db::Database& db, std::int64_t user_id, const std::string& target, int n);

// {"scan_id", "target", "finished_at", "score", "grade", "counts": {severity: n},
//  "categories": [{"id", "name", "total", "critical" … "info"}] (all ten, in order), "uncategorised",
//  "trend": null | {"previous_scan_id", "previous_finished_at", "previous_score", "score_change",
//  "new_findings", "resolved_findings", "direction": "improved" | "worsened" | "unchanged"}}
boost::json::object summary_json(const boost::json::object& latest, const boost::json::object* previous);

// The high and critical findings of `latest` that `previous` did not have (a finding is its check
// and its title, which names the place); every serious one when there is no previous scan.
std::vector<const boost::json::object*> new_serious(const boost::json::object& latest,
                                                    const boost::json::object* previous);

}  // namespace dozor::owasp
