#include "engines/auth/block_cache.hpp"

#include <iterator>

namespace dozor::auth {

void BlockCache::remember(const std::string& key, std::int64_t wait_ms, Clock::time_point now) {
  if (wait_ms <= 0) return;
  auto until = now + std::chrono::milliseconds(wait_ms);
  std::lock_guard lock(mutex_);
  if (until_.size() >= kMaxEntries && !until_.count(key)) {
    for (auto it = until_.begin(); it != until_.end();) it = it->second <= now ? until_.erase(it) : std::next(it);
    if (until_.size() >= kMaxEntries) until_.clear();
  }
  auto& slot = until_[key];
  if (slot < until) slot = until;
}

std::int64_t BlockCache::wait_ms(const std::string& key, Clock::time_point now) const {
  std::lock_guard lock(mutex_);
  auto it = until_.find(key);
  if (it == until_.end() || it->second <= now) return 0;
  return std::chrono::duration_cast<std::chrono::milliseconds>(it->second - now).count() + 1;
}

std::size_t BlockCache::size() const {
  std::lock_guard lock(mutex_);
  return until_.size();
}

}  // namespace dozor::auth
