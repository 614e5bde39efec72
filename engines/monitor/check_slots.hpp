#pragma once
// Bounds the one-shot checks running at once: per worker process, across all worker processes,
// and per user. A check holds a request thread for up to monitor.timeout; without bounds, a few
// users' slow targets would take every thread and stall the whole API (health included).
//
// Cross-process slots are one-byte open-file-description locks (F_OFD_SETLK) in a shared file:
// no coordinator, nothing to clean up, and the kernel releases a dead worker's slots with its
// file descriptors.
#include <cstdint>
#include <mutex>
#include <string>

namespace dozor::monitor {

struct SlotLimits {
  int global = 16;      // all worker processes together
  int per_user = 2;     // one user, everywhere; beyond the first only while half the global is free
  int per_process = 8;  // one worker process (keeps threads for the rest of the API)
};

// Users are told to retry after this many seconds when every slot they may take is held.
inline constexpr long kSlotRetryAfterSeconds = 2;

// What a refusal says (429 with Retry-After): the one-shot checks' words by default; another
// kind of work bounded the same way (the vault's check for personal data) names itself.
struct SlotRefusal {
  std::string user_busy = "Too many checks in progress; try again shortly";  // the user's own slots held
  std::string all_busy = "Too many checks in progress; try again shortly";   // the process's or all slots held
  long retry_after = kSlotRetryAfterSeconds;
};

class CheckSlots {
 public:
  static constexpr long kRetryAfterSeconds = kSlotRetryAfterSeconds;
  static constexpr int kMaxPerUser = 16;

  CheckSlots(std::string path, SlotLimits limits, SlotRefusal refusal = {});
  ~CheckSlots();
  CheckSlots(const CheckSlots&) = delete;
  CheckSlots& operator=(const CheckSlots&) = delete;

  // Holds its slots while alive.
  class Lease {
   public:
    Lease(CheckSlots& owner, int fd) : owner_(&owner), fd_(fd) {}
    Lease(Lease&& other) noexcept : owner_(other.owner_), fd_(other.fd_) { other.owner_ = nullptr; }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    Lease& operator=(Lease&&) = delete;
    ~Lease() {
      if (owner_) owner_->release(fd_);
    }

   private:
    CheckSlots* owner_;
    int fd_;
  };

  // Throws TooManyAttempts (429 with Retry-After) when a bound is reached.
  Lease acquire(std::int64_t user_id);

  // Global slots held right now by all processes (for tests and metrics).
  int global_in_use();

 private:
  void release(int fd);

  std::string path_;
  SlotLimits limits_;
  SlotRefusal refusal_;
  std::mutex mutex_;
  int in_process_ = 0;
  int private_fd_ = -1;  // the fallback when the shared file cannot be opened
};

}  // namespace dozor::monitor
