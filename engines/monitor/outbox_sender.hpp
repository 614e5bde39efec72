#pragma once
// The hook through which dozord delivers notification outbox rows. engines/notify provides the
// senders (Telegram, SMTP); programs/dozord.cpp wires one in. dozord calls it from a thread of
// its own (OutboxPump), so a slow SMTP server never delays a check.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace dozor::monitor {

class OutboxSender {
 public:
  virtual ~OutboxSender() = default;
  // Claims and delivers due outbox rows; starts no send after `deadline`. Returns the number of
  // rows handled (delivered or rescheduled); 0 when none was due.
  virtual int deliver_pending(std::chrono::steady_clock::time_point deadline) = 0;
};

// Delivers nothing: the rows stay pending in the outbox for a dozord that has senders.
class NoOutboxSender final : public OutboxSender {
 public:
  int deliver_pending(std::chrono::steady_clock::time_point) override { return 0; }
};

// Runs sender.deliver_pending() in rounds on its own thread while alive: at once again after a
// round that handled rows, else after `idle`. Destruction stops and joins it (a round in
// progress ends at its deadline).
class OutboxPump {
 public:
  explicit OutboxPump(OutboxSender& sender, std::chrono::milliseconds idle = std::chrono::seconds(1),
                      std::chrono::milliseconds round = std::chrono::seconds(5));
  ~OutboxPump();
  OutboxPump(const OutboxPump&) = delete;
  OutboxPump& operator=(const OutboxPump&) = delete;

  long rounds() const;  // completed rounds (tests)

 private:
  void loop();

  OutboxSender& sender_;
  std::chrono::milliseconds idle_, round_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  long rounds_ = 0;
  std::thread thread_;
};

}  // namespace dozor::monitor
