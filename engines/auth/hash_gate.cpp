#include "engines/auth/hash_gate.hpp"

namespace dozor::auth {

HashGate::HashGate(int permits, int queue_limit, std::chrono::milliseconds max_wait)
    : permits_(permits < 1 ? 1 : permits), queue_limit_(queue_limit < 0 ? 0 : queue_limit), max_wait_(max_wait) {}

HashGate::Permit::~Permit() {
  if (gate_) gate_->release();
}

std::optional<HashGate::Permit> HashGate::enter() {
  std::unique_lock lock(mutex_);
  if (running_ < permits_ && waiting_ == 0) {
    ++running_;
    return Permit(this);
  }
  if (waiting_ >= queue_limit_) return std::nullopt;
  ++waiting_;
  bool got = freed_.wait_for(lock, max_wait_, [&] { return running_ < permits_; });
  --waiting_;
  if (!got) return std::nullopt;
  ++running_;
  return Permit(this);
}

void HashGate::release() {
  {
    std::lock_guard lock(mutex_);
    --running_;
  }
  freed_.notify_one();
}

bool HashGate::full() const {
  std::lock_guard lock(mutex_);
  return running_ >= permits_ && waiting_ >= queue_limit_;
}

int HashGate::running() const {
  std::lock_guard lock(mutex_);
  return running_;
}

int HashGate::waiting() const {
  std::lock_guard lock(mutex_);
  return waiting_;
}

}  // namespace dozor::auth
