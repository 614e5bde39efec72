#include "engines/analyzer/quota.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <new>

namespace dozor::analyzer {
namespace {
QuotaBoard* g_board = nullptr;
}  // namespace

class QuotaBoard::Lock {
 public:
  explicit Lock(pthread_mutex_t& mu) : mu_(mu) {
    // EOWNERDEAD: a worker died holding it. The table holds only counters, each written whole,
    // so the state it left is usable as it is.
    if (pthread_mutex_lock(&mu_) == EOWNERDEAD) pthread_mutex_consistent(&mu_);
  }
  ~Lock() { pthread_mutex_unlock(&mu_); }
  Lock(const Lock&) = delete;
  Lock& operator=(const Lock&) = delete;

 private:
  pthread_mutex_t& mu_;
};

QuotaBoard* QuotaBoard::create() {
  void* mem = mmap(nullptr, sizeof(QuotaBoard), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) return nullptr;
  auto* board = new (mem) QuotaBoard();
  pthread_mutexattr_t attr;
  bool ok = pthread_mutexattr_init(&attr) == 0 && pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED) == 0 &&
            pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST) == 0 &&
            pthread_mutex_init(&board->mu_, &attr) == 0;
  pthread_mutexattr_destroy(&attr);
  if (!ok) {
    munmap(mem, sizeof(QuotaBoard));
    return nullptr;
  }
  g_board = board;
  return board;
}

QuotaBoard* QuotaBoard::process() { return g_board; }

QuotaBoard::Slot& QuotaBoard::slot_for(std::int64_t user, std::int64_t now_ms) {
  auto ended = [&](const Slot& s) { return now_ms - s.window_start_ms >= kWindowMs; };
  Slot* pick = nullptr;
  for (auto& s : slots_) {
    if (s.user == user) {
      pick = &s;
      break;
    }
  }
  if (!pick) {
    auto free_or_ended =
        std::find_if(std::begin(slots_), std::end(slots_), [&](const Slot& s) { return s.user == 0 || ended(s); });
    pick = free_or_ended != std::end(slots_)
               ? &*free_or_ended
               : &*std::min_element(std::begin(slots_), std::end(slots_),
                                    [](const Slot& a, const Slot& b) { return a.window_start_ms < b.window_start_ms; });
    *pick = Slot{user, now_ms, 0, 0, 0, 0};
  } else if (ended(*pick)) {
    *pick = Slot{user, now_ms, 0, 0, 0, 0};
  }
  return *pick;
}

QuotaRefusal QuotaBoard::refusal(const Slot& s, const char* budget, std::int64_t limit, std::int64_t now_ms) {
  std::int64_t left_ms = s.window_start_ms + kWindowMs - now_ms;
  return {budget, limit, std::max<std::int64_t>(1, (left_ms + 999) / 1000)};
}

std::optional<QuotaRefusal> QuotaBoard::admit(std::int64_t user, const Budget& budget, std::int64_t now_ms) {
  Lock lock(mu_);
  Slot& s = slot_for(user, now_ms);
  if (budget.documents && s.documents >= budget.documents) return refusal(s, "documents", budget.documents, now_ms);
  if (budget.bytes && s.bytes >= budget.bytes) return refusal(s, "bytes", budget.bytes, now_ms);
  if (budget.pages && s.pages >= budget.pages) return refusal(s, "pages", budget.pages, now_ms);
  if (budget.seconds && s.elapsed_ms >= budget.seconds * 1000) return refusal(s, "seconds", budget.seconds, now_ms);
  ++s.documents;
  return std::nullopt;
}

std::optional<QuotaRefusal> QuotaBoard::add_bytes(std::int64_t user, std::int64_t bytes, const Budget& budget,
                                                  std::int64_t now_ms) {
  Lock lock(mu_);
  Slot& s = slot_for(user, now_ms);
  if (budget.bytes && s.bytes + bytes > budget.bytes) return refusal(s, "bytes", budget.bytes, now_ms);
  s.bytes += bytes;
  return std::nullopt;
}

void QuotaBoard::charge(std::int64_t user, std::int64_t pages, std::int64_t elapsed_ms, std::int64_t now_ms) {
  Lock lock(mu_);
  Slot& s = slot_for(user, now_ms);
  s.pages += pages;
  s.elapsed_ms += elapsed_ms;
}

}  // namespace dozor::analyzer
