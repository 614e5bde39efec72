#pragma once
// Whether a crawl's target answered at all (docs/audit.md "A target that cannot be reached").
#include <optional>
#include <string>

#include "engines/crawl/crawler.hpp"

namespace dozor::crawl {

// When the target's own page (found_via "target") got no HTTP answer at all (net::never_answered),
// "could not reach host:port: reason"; nullopt when it answered (any status), was not asked, or the
// crawl was cancelled. The audits and scans built on a crawl answer that as an error
// (net::TargetUnreachable) instead of a result with nothing found.
std::optional<std::string> start_unreachable(const CrawlResult& result);

}  // namespace dozor::crawl
