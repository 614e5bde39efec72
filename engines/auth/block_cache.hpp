#pragma once
// Per-process memory of throttle waits already decided from the database: while a counter's
// wait runs, attempts that would be counted in it are refused here, without a query. A wait
// only ends by time (an attempt that could shorten it is itself refused), so the memory is
// never more lenient than the database, which stays the only place attempts are counted.
// Bounded: past kMaxEntries the expired entries go, and if that is not enough, all of them
// (the database answers again, as before).
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

namespace dozor::auth {

class BlockCache {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::size_t kMaxEntries = 10000;

  void remember(const std::string& key, std::int64_t wait_ms, Clock::time_point now = Clock::now());
  // Milliseconds still to wait for `key`, 0 when none is known.
  std::int64_t wait_ms(const std::string& key, Clock::time_point now = Clock::now()) const;
  std::size_t size() const;

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Clock::time_point> until_;
};

}  // namespace dozor::auth
