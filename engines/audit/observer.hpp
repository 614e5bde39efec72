#pragma once
// The plug points of a full audit (engines/audit/full_audit.hpp, docs/audit.md "Full audit and
// scoring"): page observers read every page of the one crawl (passive rules, technologies,
// compliance); steps make their own requests (the header grade, TLS, exposures, geolocation).
// Each adds findings and/or a named part of the audit's JSON; a failing one adds to "errors"
// and the audit still completes.
#include <boost/json/object.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engines/audit/finding.hpp"
#include "engines/crawl/crawler.hpp"
#include "engines/net/egress_policy.hpp"
#include "engines/net/scan_client.hpp"

namespace dozor::audit {

struct AuditError {
  std::string check;
  std::string error;
};

// A check the audit did not run on purpose (issue 26 §2): the exposures and the probes of paths
// the site does not link are active work, run only with the scan permission for the target.
struct AuditSkip {
  std::string check;   // "exposures", "technology-probes"
  std::string reason;  // the permission's reason ("not_owned", "not_verified" …)
  std::string detail;  // for people: what was not asked, and how to get it asked
};

// What the checks of one audit add up to.
struct AuditParts {
  std::vector<Finding> findings;
  // Members of the audit JSON a check owns: "headers", "technologies", "tls", "compliance", "geo".
  boost::json::object parts;
  std::vector<AuditError> errors;
  std::vector<AuditSkip> skipped;
  std::optional<int> header_score;  // the header grade's score: where the overall score starts
};

// Reads pages as the crawl delivers them (on the crawling thread, in fetch order).
class PageObserver {
 public:
  virtual ~PageObserver() = default;
  virtual std::string name() const = 0;  // the "check" of its errors
  virtual void observe(const crawl::PageSeen& page) = 0;
  // A same-origin script the crawl fetched (its URL, the page that named it, its text).
  virtual void observe_script(const std::string& /*url*/, const std::string& /*page*/, std::string_view /*text*/) {}
  // After the crawl: adds what it found. `crawl` has the collected lists (forms, scripts …).
  virtual void finish(const crawl::CrawlResult& crawl, AuditParts& out) = 0;
};

// The observers of one crawl, fed together: one that throws loses the rest of its pages and says
// why in the errors; the others go on (one broken analysis must not cost the others their pages).
class ObserverSet {
 public:
  explicit ObserverSet(std::vector<std::unique_ptr<PageObserver>> list);
  void observe(const crawl::PageSeen& page);
  void observe_script(const std::string& url, const std::string& page, std::string_view text);
  // Adds what each still-working observer found, after the errors of those that failed.
  void finish(const crawl::CrawlResult& crawl, AuditParts& out);
  // The crawl did not run: each observer is an error saying `why`.
  void not_run(const std::string& why, AuditParts& out) const;

 private:
  // Feeds every still-working observer; one that throws is failed with its reason.
  void each(const std::function<void(PageObserver&)>& feed);
  std::vector<std::unique_ptr<PageObserver>> list_;
  std::vector<bool> failed_;
  std::vector<AuditError> errors_;
};

// What a step is given.
struct StepInput {
  const std::string& target;
  const std::string& kind;  // audit | full
  const net::EgressPolicy& policy;
  const net::ScanOptions& scan;  // request timeouts already cut to the audit's deadline
  std::chrono::steady_clock::time_point deadline;
  const crawl::CrawlResult* crawl = nullptr;  // null for steps that run before the crawl

  // At most `share` (0..1] of the time the audit has left, so one slow step cannot starve the
  // steps and the crawl after it.
  std::chrono::steady_clock::time_point share_of_time(double share) const {
    auto now = std::chrono::steady_clock::now();
    if (deadline <= now) return deadline;
    return now + std::chrono::duration_cast<std::chrono::steady_clock::duration>((deadline - now) * share);
  }
};

struct Step {
  std::string name;
  std::function<void(const StepInput&, AuditParts&)> run;  // throws to report an error
};

}  // namespace dozor::audit
