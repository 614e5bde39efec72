#pragma once
// The passive rules as a page observer of the full audit (ZAP-like; docs/audit.md "Passive rules").
#include "engines/audit/observer.hpp"
#include "engines/audit/passive/collector.hpp"
#include "engines/audit/passive/data.hpp"

namespace dozor::audit::passive {

class PassiveObserver : public PageObserver {
 public:
  explicit PassiveObserver(const Data& data);
  std::string name() const override { return "passive"; }
  void observe(const crawl::PageSeen& page) override;
  void finish(const crawl::CrawlResult& crawl, AuditParts& out) override;

  std::vector<Finding> take() { return collector_.take(); }  // for tests

 private:
  const Data& data_;
  Collector collector_;
};

}  // namespace dozor::audit::passive
