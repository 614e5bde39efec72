#include "engines/monitor/outbox_sender.hpp"

#include <exception>
#include <iostream>

namespace dozor::monitor {

OutboxPump::OutboxPump(OutboxSender& sender, std::chrono::milliseconds idle, std::chrono::milliseconds round)
    : sender_(sender), idle_(idle), round_(round), thread_([this] { loop(); }) {}

OutboxPump::~OutboxPump() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

long OutboxPump::rounds() const {
  std::lock_guard lock(mutex_);
  return rounds_;
}

void OutboxPump::loop() {
  std::unique_lock lock(mutex_);
  while (!stop_) {
    lock.unlock();
    int handled = 0;
    try {
      // The one place dozord delivers notifications.
      handled = sender_.deliver_pending(std::chrono::steady_clock::now() + round_);
    } catch (const std::exception& e) {
      std::cerr << "dozord: delivering notifications: " << e.what() << "\n";
    }
    lock.lock();
    ++rounds_;
    if (handled == 0) wake_.wait_for(lock, idle_, [this] { return stop_; });
  }
}

}  // namespace dozor::monitor
