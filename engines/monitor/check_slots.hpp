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

class CheckSlots {
 public:
  // Users are told to retry after this many seconds when every slot they may take is held.
  static constexpr long kRetryAfterSeconds = 2;
  static constexpr int kMaxPerUser = 16;

  CheckSlots(std::string path, SlotLimits limits);
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
  std::mutex mutex_;
  int in_process_ = 0;
  int private_fd_ = -1;  // the fallback when the shared file cannot be opened
};

}  // namespace dozor::monitor
