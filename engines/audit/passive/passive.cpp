#include "engines/audit/passive/passive.hpp"

#include "engines/audit/passive/rules.hpp"
#include "engines/limits.hpp"

namespace dozor::audit::passive {

PassiveObserver::PassiveObserver(const Data& data) : data_(data), collector_(limits::kPassiveEvidencePerFinding) {}

void PassiveObserver::observe(const crawl::PageSeen& seen) {
  Page page = make_page(seen.url, seen.status, seen.exchanges, seen.html, seen.facts);
  cookie_rules(data_, page, collector_);
  disclosure_rules(data_, page, collector_);
  mixed_content_rules(page, collector_);
  link_rules(page, collector_);
  form_rules(data_, page, collector_);
  comment_rules(data_, page, collector_);
}

void PassiveObserver::finish(const crawl::CrawlResult&, AuditParts& out) {
  for (auto& f : collector_.take()) out.findings.push_back(std::move(f));
}

}  // namespace dozor::audit::passive
