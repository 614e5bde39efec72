#pragma once
// Compliance with 152-FZ, 8-FZ and the technical regulator's requirements over a crawl
// (docs/compliance.md). The engine reads pages as the crawler delivers them (observe), keeps
// only small facts per page — never bodies — and decides every item at finish(). The compliance
// route runs its own crawl (check()); the full audit feeds the engine from its one crawl.
#include <boost/json/object.hpp>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engines/audit/compliance/data.hpp"
#include "engines/audit/compliance/page_scan.hpp"
#include "engines/audit/finding.hpp"
#include "engines/crawl/crawler.hpp"

namespace dozor::audit::compliance {

enum class Profile { Auto, Gov, Commercial };
std::optional<Profile> profile_from(std::string_view name);  // auto | gov | commercial
std::string_view to_string(Profile p);

enum class Status { Passed, Failed, NotApplicable, Manual };
std::string_view to_string(Status s);

struct ItemEvidence {
  std::string url;
  std::string excerpt;  // at most kExcerptChars code points
};

struct ItemResult {
  const ItemSpec* spec = nullptr;
  Status status = Status::Manual;
  Severity severity = Severity::Info;  // the item's, or lower when only the lesser case was seen
  std::string confidence = "medium";   // high | medium | low
  std::string note;                    // why this status, for a human (English)
  std::vector<ItemEvidence> evidence;
};

struct SetResult {
  const SetSpec* spec = nullptr;
  std::optional<int> score;  // passed / (passed + failed) × 100, rounded; none without such items
  int passed = 0;
  int failed = 0;
  int manual = 0;
  int not_applicable = 0;
  std::vector<ItemResult> items;
};

struct Result {
  std::string target;
  Profile profile = Profile::Auto;
  bool governmental = false;     // 8-FZ applies
  std::string governmental_why;  // which signal said so (or the profile)
  std::vector<SetResult> sets;
  std::size_t pages_read = 0;  // answered in-scope pages observed
  std::optional<std::string> error;
};

inline constexpr std::size_t kExcerptChars = 300;
inline constexpr std::size_t kEvidencePerItem = 10;
inline constexpr std::size_t kFormsKept = 200;
inline constexpr int kNewsFreshDays = 60;

class Engine {
 public:
  // `today` (days since 1970-01-01, UTC) dates the news-freshness rule; tests pin it.
  Engine(const Data& data, std::string target, Profile profile, std::optional<std::int64_t> today = std::nullopt);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  void observe(const crawl::PageSeen& page);
  // The answer to the target's http:// form (redirect chain followed) when the target is https:
  // SEC-01 and PD-13 want HTTP to redirect. The full audit passes its header check's chain.
  void observe_http_probe(const net::CheckOutcome& outcome);
  Result finish();

 private:
  struct State;
  const Data& data_;
  std::unique_ptr<State> s_;
};

// SEC-01 and PD-13's probe: the target's http:// form (redirects followed), when it is https.
void probe_http_form(Engine& engine, const std::string& target, const net::EgressPolicy& policy,
                     const net::ScanOptions& scan);

// The findings of a result: one per failed item of severity medium or worse.
std::vector<Finding> findings_of(const Result& result);

// {"profile","governmental","sets":[…],"pages_read"} — the part the full audit stores as
// "compliance"; the route adds target, duration, findings and error.
boost::json::object to_json(const Result& result);

struct CheckReport {
  Result result;
  std::int64_t duration_ms = 0;
  std::vector<std::string> documents;  // the site's own documents the crawl found (documents::documents_of)
};

// Crawls `target` (options.on_page is replaced), probes its http:// form when it is https, and
// evaluates every set.
CheckReport check(const std::string& target, const net::EgressPolicy& policy, crawl::CrawlOptions options,
                  const Data& data, Profile profile);

}  // namespace dozor::audit::compliance
