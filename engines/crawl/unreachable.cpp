#include "engines/crawl/unreachable.hpp"

#include "engines/net/unreachable.hpp"

namespace dozor::crawl {

std::optional<std::string> start_unreachable(const CrawlResult& result) {
  if (result.stopped == "cancelled") return std::nullopt;
  for (const auto& page : result.pages) {
    if (page.found_via != "target") continue;
    if (page.status != 0 || !net::never_answered(page.error_kind, page.error)) return std::nullopt;
    return net::unreachable_detail(page.url, net::no_answer_reason(page.error_kind, page.error));
  }
  return std::nullopt;
}

}  // namespace dozor::crawl
