#include "engines/audit/batch.hpp"

#include <algorithm>
#include <atomic>
#include <thread>

namespace dozor::audit {

std::vector<BatchOutcome> run_batch(const std::vector<BatchItem>& items, std::size_t concurrency,
                                    std::chrono::steady_clock::time_point deadline,
                                    const std::function<AuditReport(const BatchItem&)>& audit) {
  std::vector<BatchOutcome> out(items.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < items.size(); i = next++) {
      if (std::chrono::steady_clock::now() >= deadline) {
        out[i].error = "time budget (scanner.audit_seconds) ran out before this audit started";
        continue;
      }
      try {
        out[i].report = audit(items[i]);
      } catch (const std::exception& e) {
        out[i].error = e.what();
      }
    }
  };
  std::size_t threads = std::min(std::max<std::size_t>(concurrency, 1), items.size());
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();  // the calling thread is one of them
  for (auto& t : pool) t.join();
  return out;
}

}  // namespace dozor::audit
