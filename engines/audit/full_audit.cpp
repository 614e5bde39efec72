#include "engines/audit/full_audit.hpp"

#include <algorithm>
#include <boost/json/array.hpp>
#include <ctime>

#include "engines/audit/headers/check.hpp"
#include "engines/audit/headers/observatory.hpp"
#include "engines/audit/passive/passive.hpp"
#include "engines/crawl/unreachable.hpp"
#include "engines/net/unreachable.hpp"

namespace dozor::audit {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr const char* kTimeBudget = "time budget (scanner.audit_seconds) ran out before this check started";
constexpr const char* kCancelled = "cancelled before this check started";

milliseconds remaining(Clock::time_point deadline) {
  return std::chrono::duration_cast<milliseconds>(deadline - Clock::now());
}

void run_step(const Step& step, const std::string& target, const AuditOptions& options, const net::EgressPolicy& policy,
              Clock::time_point deadline, const crawl::CrawlResult* crawl, AuditParts& parts) {
  if (options.scan.cancel.cancelled()) {
    parts.errors.push_back({step.name, kCancelled});
    return;
  }
  auto left = remaining(deadline);
  if (left <= milliseconds(0)) {
    parts.errors.push_back({step.name, kTimeBudget});
    return;
  }
  if (options.on_progress) options.on_progress(step.name);
  net::ScanOptions scan = options.scan;
  scan.request_timeout = std::min(scan.request_timeout, left);
  StepInput in{target, options.kind, policy, scan, deadline, crawl};
  try {
    step.run(in, parts);
  } catch (const std::exception& e) {
    parts.errors.push_back({step.name, e.what()});
  }
}

}  // namespace

std::string iso_utc(std::chrono::system_clock::time_point t) {
  auto ms = std::chrono::duration_cast<milliseconds>(t.time_since_epoch()).count();
  std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms % 1000));
  return buf;
}

std::optional<int> overall_score(std::optional<int> header_score, const std::vector<Finding>& findings) {
  if (!header_score) return std::nullopt;
  long score = *header_score;
  for (const auto& f : findings) score -= kSeverityPenalty.at(static_cast<std::size_t>(f.severity));
  return static_cast<int>(std::clamp(score, 0L, 100L));
}

std::string overall_grade(int score) { return headers::grade_for_score(score); }

Step header_step() {
  return {"headers", [](const StepInput& in, AuditParts& out) {
            auto report = headers::check_headers(in.target, in.policy, in.scan);
            out.parts["headers"] = headers::to_json(report);
            if (report.error)
              out.errors.push_back({"headers", *report.error});
            else
              out.header_score = report.grade.score;
          }};
}

AuditPlan standard_plan(const passive::Data& data) {
  AuditPlan plan;
  plan.before_crawl.push_back(header_step());
  plan.observers.push_back(std::make_unique<passive::PassiveObserver>(data));
  return plan;
}

std::string skipped_detail(const std::string& what, const std::string& reason) {
  return what +
         " not asked: probing paths the site does not link is active work and needs the scan permission for this"
         " target (" +
         reason +
         "). Prove control of the site (POST /api/v1/scan-verifications) or ask an admin for a scan grant, then"
         " audit again";
}

boost::json::array skipped_json(const std::vector<AuditSkip>& skipped) {
  boost::json::array out;
  for (const auto& s : skipped) out.push_back({{"check", s.check}, {"reason", s.reason}, {"detail", s.detail}});
  return out;
}

AuditReport run_audit(const std::string& target, const net::EgressPolicy& policy, const AuditOptions& options,
                      AuditPlan plan) {
  AuditReport report;
  report.target = target;
  report.kind = options.kind;
  auto wall_start = std::chrono::system_clock::now();
  auto start = Clock::now();
  auto deadline = start + options.time_budget;
  report.started_at = iso_utc(wall_start);
  AuditParts& parts = report.parts;
  parts.skipped = std::move(plan.skipped);

  for (const auto& step : plan.before_crawl) run_step(step, target, options, policy, deadline, nullptr, parts);

  // The crawl gets at most crawl_budget and, when steps follow it, two thirds of what is left, so
  // they are not starved by a large site.
  auto left = remaining(deadline);
  auto crawl_budget = std::min(options.crawl_budget, plan.after_crawl.empty() ? left : left * 2 / 3);
  crawl::CrawlResult crawl;
  ObserverSet observers(std::move(plan.observers));
  if (crawl_budget > milliseconds(0) && !options.scan.cancel.cancelled()) {
    if (options.on_progress) options.on_progress("crawl");
    crawl::CrawlOptions co;
    co.depth = options.depth;
    co.max_pages = options.max_pages;
    co.scan = options.scan;
    co.time_budget = crawl_budget;
    co.on_page = [&](const crawl::PageSeen& page) { observers.observe(page); };
    co.on_script = [&](const std::string& url, const std::string& page, std::string_view text) {
      observers.observe_script(url, page, text);
    };
    crawl = crawl::crawl(target, policy, co);
    // No answer from the target's own page: nothing was audited, and a result would read as
    // "no findings" (docs/audit.md "A target that cannot be reached").
    if (auto unreachable = crawl::start_unreachable(crawl); unreachable && !options.scan.cancel.cancelled())
      throw net::TargetUnreachable(*unreachable);
    report.crawl = {crawl.pages.size(), crawl.stopped, crawl.requests};
    observers.finish(crawl, parts);
  } else {
    const char* why = options.scan.cancel.cancelled() ? kCancelled : kTimeBudget;
    report.crawl.stopped = "not_run";
    parts.errors.push_back({"crawl", why});
    observers.not_run(why, parts);
  }

  for (const auto& step : plan.after_crawl) run_step(step, target, options, policy, deadline, &crawl, parts);

  // Worst first, bounded: the store keeps what the report shows.
  std::stable_sort(parts.findings.begin(), parts.findings.end(),
                   [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
  if (parts.findings.size() > limits::kAuditFindings) {
    parts.errors.push_back({"audit", std::to_string(parts.findings.size() - limits::kAuditFindings) +
                                         " findings of lowest severity not kept (limit " +
                                         std::to_string(limits::kAuditFindings) + ")"});
    parts.findings.resize(limits::kAuditFindings);
  }
  for (auto& f : parts.findings) {
    if (f.evidence.size() > limits::kAuditEvidencePerFinding) f.evidence.resize(limits::kAuditEvidencePerFinding);
    report.counts.at(static_cast<std::size_t>(f.severity))++;
  }
  report.score = overall_score(parts.header_score, parts.findings);
  if (report.score) report.grade = overall_grade(*report.score);
  report.finished_at = iso_utc(std::chrono::system_clock::now());
  report.duration_ms = std::chrono::duration_cast<milliseconds>(Clock::now() - start).count();
  return report;
}

boost::json::object to_json(const AuditReport& r) {
  using boost::json::value;
  boost::json::object counts;
  for (std::size_t i = 0; i < r.counts.size(); ++i) counts[to_string(static_cast<Severity>(i))] = r.counts[i];
  boost::json::array findings, errors;
  for (const auto& f : r.parts.findings) findings.push_back(to_json(f));
  for (const auto& e : r.parts.errors) errors.push_back({{"check", e.check}, {"error", e.error}});
  auto part = [&](const char* name, const value& fallback) {
    const auto* v = r.parts.parts.if_contains(name);
    return v ? *v : fallback;
  };
  return {{"id", nullptr},
          {"target", r.target},
          {"kind", r.kind},
          {"lang", nullptr},
          {"started_at", r.started_at},
          {"finished_at", r.finished_at},
          {"duration_ms", r.duration_ms},
          {"score", r.score ? value(*r.score) : value(nullptr)},
          {"grade", r.grade ? value(*r.grade) : value(nullptr)},
          {"counts", std::move(counts)},
          {"headers", part("headers", nullptr)},
          {"technologies", part("technologies", boost::json::array{})},
          {"tls", part("tls", nullptr)},
          {"compliance", part("compliance", nullptr)},
          {"geo", part("geo", nullptr)},
          {"exposures", part("exposures", nullptr)},
          {"documents", part("documents", nullptr)},
          {"crawl", {{"pages", r.crawl.pages}, {"stopped", r.crawl.stopped}, {"requests", r.crawl.requests}}},
          {"findings", std::move(findings)},
          {"errors", std::move(errors)},
          {"skipped", skipped_json(r.parts.skipped)}};
}

}  // namespace dozor::audit
