#pragma once
// Delivery of the notification outbox (migration 0005): due rows are claimed with a lease
// (SKIP LOCKED, so several senders never take one row), sent, then marked sent — or scheduled
// again with exponential backoff, so a channel that is down gets its messages once it is back.
// docs/notifications.md.
#include <chrono>
#include <string>

#include "db/database.hpp"
#include "engines/notify/message.hpp"
#include "engines/notify/send.hpp"

namespace dozor::notify {

struct OutboxOptions {
  std::string owner;  // the claiming process
  Language language = Language::En;
  SendContext send;
  int batch = 20;
  int lease_seconds = 120;  // longer than one send's timeout
};

// Seconds before attempt n+1 after n failed ones: 15 s doubling, at most an hour.
long backoff_seconds(int failed_attempts);
constexpr int kMaxAttempts = 60;  // about two days of retries; then the row is 'failed'

struct DeliveryStats {
  int sent = 0;
  int failed = 0;
};

// One pass over the due rows (at most opts.batch).
DeliveryStats deliver_pending(db::Database& db, const OutboxOptions& opts);

}  // namespace dozor::notify
