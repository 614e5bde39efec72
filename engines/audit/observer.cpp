#include "engines/audit/observer.hpp"

#include <exception>
#include <utility>

namespace dozor::audit {

ObserverSet::ObserverSet(std::vector<std::unique_ptr<PageObserver>> list)
    : list_(std::move(list)), failed_(list_.size(), false) {}

void ObserverSet::each(const std::function<void(PageObserver&)>& feed) {
  for (std::size_t i = 0; i < list_.size(); ++i) {
    if (failed_[i]) continue;
    try {
      feed(*list_[i]);
    } catch (const std::exception& e) {
      failed_[i] = true;
      errors_.push_back({list_[i]->name(), e.what()});
    }
  }
}

void ObserverSet::observe(const crawl::PageSeen& page) {
  each([&](PageObserver& o) { o.observe(page); });
}

void ObserverSet::observe_script(const std::string& url, const std::string& page, std::string_view text) {
  each([&](PageObserver& o) { o.observe_script(url, page, text); });
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
