#include "engines/monitor/check_slots.hpp"

#include "engines/errors.hpp"

namespace dozor::monitor {

CheckSlots::Lease CheckSlots::acquire(std::int64_t user_id) {
  std::lock_guard lock(mutex_);
  int& mine = per_user_[user_id];
  if (total_ >= max_total_ || mine >= max_per_user_) {
    if (mine == 0) per_user_.erase(user_id);
    throw TooManyAttempts("Too many checks in progress; try again shortly", 1);
  }
  ++total_;
  ++mine;
  return Lease(*this, user_id);
}

void CheckSlots::release(std::int64_t user_id) {
  std::lock_guard lock(mutex_);
  --total_;
  if (--per_user_[user_id] <= 0) per_user_.erase(user_id);
}

}  // namespace dozor::monitor
