#pragma once
// A small counting semaphore in front of argon2 (per process): at most `permits` hashes run at
// once, at most `queue_limit` callers wait for one, each at most `max_wait`. Anything beyond is
// refused at once, before any hashing, so a login flood costs queue slots, not CPU and memory
// (each argon2id verification takes 19 MiB).
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>

namespace dozor::auth {

class HashGate {
 public:
  HashGate(int permits, int queue_limit, std::chrono::milliseconds max_wait);
  HashGate(const HashGate&) = delete;
  HashGate& operator=(const HashGate&) = delete;

  class Permit {
   public:
    explicit Permit(HashGate* g) : gate_(g) {}
    Permit(Permit&& o) noexcept : gate_(o.gate_) { o.gate_ = nullptr; }
    Permit& operator=(Permit&&) = delete;
    Permit(const Permit&) = delete;
    ~Permit();

   private:
    HashGate* gate_;
  };

  // A permit, or nullopt when the queue is full or the wait passed max_wait.
  std::optional<Permit> enter();
  // True when enter() would refuse now (every permit taken and the queue full): lets a caller
  // refuse before doing any other work.
  bool full() const;

  int running() const;
  int waiting() const;

 private:
  void release();

  const int permits_;
  const int queue_limit_;
  const std::chrono::milliseconds max_wait_;
  mutable std::mutex mutex_;
  std::condition_variable freed_;
  int running_ = 0;
  int waiting_ = 0;
};

}  // namespace dozor::auth
