#pragma once
// Audits of many targets at once (POST /api/audit/batch; docs/audit.md "Batch"): at most
// `concurrency` audits in flight, each on a thread of its own (an audit is one blocking crawl
// loop), none started once the batch's deadline has passed.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engines/audit/full_audit.hpp"

namespace dozor::audit {

struct BatchItem {
  std::int64_t service_id = 0;
  std::string name;
  std::string url;
};

struct BatchOutcome {
  std::optional<AuditReport> report;
  std::string error;  // why there is no report
};

// Outcomes in the order of `items`. `audit` runs on worker threads; an exception it throws
// becomes that item's error; items not started before `deadline` get a "time budget" error.
std::vector<BatchOutcome> run_batch(const std::vector<BatchItem>& items, std::size_t concurrency,
                                    std::chrono::steady_clock::time_point deadline,
                                    const std::function<AuditReport(const BatchItem&)>& audit);

}  // namespace dozor::audit
