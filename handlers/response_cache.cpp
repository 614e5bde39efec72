#include "handlers/response_cache.hpp"

namespace dozor::handlers {

http::Response ResponseCache::get_or_make(const std::string& key, std::int64_t version,
                                          const std::function<http::Response()>& make) {
  {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(key);
    if (it != entries_.end() && it->second.version == version) return *it->second.response;
  }
  auto fresh = std::make_shared<const http::Response>(make());
  if (fresh->status != 200) return *fresh;
  std::lock_guard lock(mutex_);
  if (entries_.size() >= max_entries_) entries_.clear();  // simple bound; a miss costs one query
  entries_[key] = {version, fresh};
  return *fresh;
}

}  // namespace dozor::handlers
