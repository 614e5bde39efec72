#pragma once
// Per-user hourly budgets of dozor-analyzer (docs/analyzer.md "Quotas"): the documents, bytes,
// PDF pages and analysis seconds one user may spend in an hour, shared by every worker process
// through one anonymous mapping the master creates before it forks (as the web pool's
// scoreboard is). A process-shared robust mutex guards the table, so a worker killed while it
// holds the lock leaves the table usable: the next locker takes it over.
#include <pthread.h>

#include <cstdint>
#include <optional>
#include <string>

#include "engines/limits.hpp"

namespace dozor::analyzer {

// One user's budget per hour; 0 is unlimited.
struct Budget {
  std::int64_t documents = 0;
  std::int64_t bytes = 0;
  std::int64_t pages = 0;
  std::int64_t seconds = 0;
};

struct QuotaRefusal {
  std::string budget;            // documents | bytes | pages | seconds
  std::int64_t limit = 0;        // that budget's value
  std::int64_t retry_after = 0;  // seconds until the user's hour ends (at least 1)
};

class QuotaBoard {
 public:
  static constexpr std::int64_t kWindowMs = 3600LL * 1000;

  // Maps a fresh table shared with every process forked afterwards; nullptr when mmap or the
  // mutex fails (the analyzer then runs without quotas). The table lives until the process exits.
  static QuotaBoard* create();
  // The table this process created or inherited; nullptr without one.
  static QuotaBoard* process();

  // Before a document is read (or fetched): refused when a budget of the user's current hour
  // is spent; otherwise the document is charged at once (so concurrent documents cannot
  // overshoot together).
  std::optional<QuotaRefusal> admit(std::int64_t user, const Budget& budget, std::int64_t now_ms);
  // Once its size is known: refused when these bytes would pass the byte budget, else charged.
  std::optional<QuotaRefusal> add_bytes(std::int64_t user, std::int64_t bytes, const Budget& budget,
                                        std::int64_t now_ms);
  // After the document, answered or refused: the pages it had and the time it took.
  void charge(std::int64_t user, std::int64_t pages, std::int64_t elapsed_ms, std::int64_t now_ms);

 private:
  struct Slot {
    std::int64_t user = 0;  // 0: free
    std::int64_t window_start_ms = 0;
    std::int64_t documents = 0;
    std::int64_t bytes = 0;
    std::int64_t pages = 0;
    std::int64_t elapsed_ms = 0;
  };
  class Lock;
  static QuotaRefusal refusal(const Slot& s, const char* budget, std::int64_t limit, std::int64_t now_ms);
  // The user's slot with its hour rolled over when it ended; a new user takes a free slot,
  // else one whose hour ended, else the one whose hour started first.
  Slot& slot_for(std::int64_t user, std::int64_t now_ms);

  pthread_mutex_t mu_;
  Slot slots_[limits::analyzer::kQuotaUsers];
};

}  // namespace dozor::analyzer
