#pragma once
// Public status pages (docs/status-pages.md): a published group's services with their state,
// 90 daily uptime bars and recent incidents — no ids, and no URLs or failure causes unless the
// owner shows them. Built from four queries and kept for a few seconds per worker, so a crowd
// refreshing during an outage costs the database one build per worker every kStatusPageTtl.
#include <boost/json/value.hpp>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "db/database.hpp"

namespace dozor::monitor {

constexpr int kStatusPageDays = 90;
constexpr int kStatusPageIncidents = 50;
constexpr auto kStatusPageTtl = std::chrono::seconds(10);
constexpr std::size_t kStatusPageCacheEntries = 1000;

// Throws NotFound when no public page has this slug.
boost::json::value build_status_page(db::Database& db, const std::string& slug);

// A bounded per-process cache of built pages (unknown slugs too, so probing costs no query).
class StatusPageCache {
 public:
  using Clock = std::chrono::steady_clock;
  // The page for `slug`, built at most once per TTL; nullopt when there is none.
  std::optional<boost::json::value> get(db::Database& db, const std::string& slug);

 private:
  struct Entry {
    Clock::time_point built;
    std::optional<boost::json::value> page;
  };
  std::mutex mutex_;
  std::map<std::string, Entry> entries_;
};

}  // namespace dozor::monitor
