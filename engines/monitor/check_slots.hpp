#pragma once
// Bounds the checks one worker process runs at once, overall and per user. A check holds its
// thread for up to monitor.timeout; without a bound, one user's slow targets would take every
// thread and stall the whole API (health included).
#include <cstdint>
#include <map>
#include <mutex>

namespace dozor::monitor {

class CheckSlots {
 public:
  CheckSlots(int max_total, int max_per_user) : max_total_(max_total), max_per_user_(max_per_user) {}

  // Holds one slot while alive.
  class Lease {
   public:
    Lease(CheckSlots& owner, std::int64_t user_id) : owner_(&owner), user_id_(user_id) {}
    Lease(Lease&& other) noexcept : owner_(other.owner_), user_id_(other.user_id_) { other.owner_ = nullptr; }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    Lease& operator=(Lease&&) = delete;
    ~Lease() {
      if (owner_) owner_->release(user_id_);
    }

   private:
    CheckSlots* owner_;
    std::int64_t user_id_;
  };

  // Throws TooManyAttempts (429, Retry-After 1) when either bound is reached.
  Lease acquire(std::int64_t user_id);

 private:
  void release(std::int64_t user_id);

  int max_total_;
  int max_per_user_;
  std::mutex mutex_;
  int total_ = 0;
  std::map<std::int64_t, int> per_user_;
};

}  // namespace dozor::monitor
