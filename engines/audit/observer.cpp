#include "engines/audit/observer.hpp"

#include <exception>
#include <utility>

namespace dozor::audit {

ObserverSet::ObserverSet(std::vector<std::unique_ptr<PageObserver>> list)
    : list_(std::move(list)), failed_(list_.size(), false) {}

void ObserverSet::observe(const crawl::PageSeen& page) {
  for (std::size_t i = 0; i < list_.size(); ++i) {
    if (failed_[i]) continue;
    try {
      list_[i]->observe(page);
    } catch (const std::exception& e) {
      failed_[i] = true;
      errors_.push_back({list_[i]->name(), e.what()});
    }
  }
}

void ObserverSet::finish(const crawl::CrawlResult& crawl, AuditParts& out) {
  out.errors.insert(out.errors.end(), errors_.begin(), errors_.end());
  for (std::size_t i = 0; i < list_.size(); ++i) {
    if (failed_[i]) continue;
    try {
      list_[i]->finish(crawl, out);
    } catch (const std::exception& e) {
      out.errors.push_back({list_[i]->name(), e.what()});
    }
  }
}

void ObserverSet::not_run(const std::string& why, AuditParts& out) const {
  for (const auto& o : list_) out.errors.push_back({o->name(), why});
}

}  // namespace dozor::audit
