#pragma once
// A full audit of one target (docs/audit.md "Full audit and scoring"): steps that make their own
// requests before the crawl (the header grade), one crawl feeding every page observer (passive
// rules now; technologies and compliance plug in the same way), then steps after the crawl (TLS,
// exposures, geolocation when wired). One time budget for all of it: what has not started when
// it runs out is recorded in "errors" as "time budget". The overall score starts at the header
// grade's score and loses points per finding by severity.
#include <array>
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engines/audit/observer.hpp"
#include "engines/audit/passive/data.hpp"

namespace dozor::audit {

struct AuditOptions {
  std::string kind = "audit";  // audit | full
  int depth = limits::kCrawlDepthDefault;
  int max_pages = limits::kCrawlPagesDefault;
  net::ScanOptions scan;
  std::chrono::milliseconds time_budget{60000};   // scanner.audit_seconds: the whole audit
  std::chrono::milliseconds crawl_budget{60000};  // scanner.crawl_seconds: at most this for the crawl
  // Called with a step's name ("crawl" for the crawl) as it starts: a task's phase. Cancelling
  // scan.cancel stops the crawl and every step not yet started (recorded as "cancelled").
  std::function<void(const std::string& phase)> on_progress;
};

struct AuditPlan {
  std::vector<Step> before_crawl;
  std::vector<std::unique_ptr<PageObserver>> observers;
  std::vector<Step> after_crawl;
  std::vector<AuditSkip> skipped;  // checks left out of the plan, and why (the audit's "skipped")
};

// Whether an audit may ask paths the site does not link (exposures, the fingerprints' probes):
// that is active work, so it needs what an active scan of the target needs (engines/scan/access
// decides; docs/audit.md "What a passive audit asks"). Not allowed by default.
struct Probing {
  bool allowed = false;
  std::string reason = "not_owned";  // the decision's reason
  net::OriginScope scope = {};       // the origins those probes may reach (a redirect elsewhere is decided too)
};

// The text of a skipped check for people, and the "skipped" member of an answer.
std::string skipped_detail(const std::string& what, const std::string& reason);
boost::json::array skipped_json(const std::vector<AuditSkip>& skipped);

struct CrawlSummary {
  std::size_t pages = 0;
  std::string stopped;  // the crawl's stats.stopped; "not_run" when the budget was gone before it
  std::size_t requests = 0;
};

struct AuditReport {
  std::string target;
  std::string kind;
  std::string started_at;  // ISO 8601 UTC with milliseconds
  std::string finished_at;
  std::int64_t duration_ms = 0;
  std::optional<int> score;  // null when the site could not be graded at all
  std::optional<std::string> grade;
  std::array<int, 5> counts{};  // by Severity
  AuditParts parts;             // findings worst first, at most limits::kAuditFindings
  CrawlSummary crawl;
};

// Deductions of the overall score per finding (docs/audit.md).
inline constexpr std::array<int, 5> kSeverityPenalty = {0, 2, 8, 20, 40};  // info low medium high critical

// Starts at the header score (bonuses included), subtracts the penalties, clamps to 0..100;
// nullopt without a header score.
std::optional<int> overall_score(std::optional<int> header_score, const std::vector<Finding>& findings);
// Observatory's bands (engines/audit/headers/observatory.hpp): A+ at 100, then steps of 5 … F.
std::string overall_grade(int score);

AuditReport run_audit(const std::string& target, const net::EgressPolicy& policy, const AuditOptions& options,
                      AuditPlan plan);

// The header grade as a step (part "headers"; its score starts the overall score).
Step header_step();
// What every audit runs today: the header grade, then the crawl with the passive rules. The
// other engines' observers and steps are added to it where the audit is composed.
AuditPlan standard_plan(const passive::Data& data);

// The audit JSON of docs/audit.md with "id": null and findings without ids (the store adds them).
boost::json::object to_json(const AuditReport& report);

std::string iso_utc(std::chrono::system_clock::time_point t);  // "2026-11-23T10:00:00.123Z"

}  // namespace dozor::audit
