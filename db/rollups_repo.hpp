#pragma once
// rollup_hourly and rollup_daily rows (migration 0007; engines/monitor/rollup says what the
// figures mean). Call inside a transaction: lock the rows a batch touches, merge, write back.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "db/database.hpp"

namespace dozor::db::rollups {

enum class Table { Hourly, Daily };

struct Row {
  std::int64_t service_id = 0;
  std::int64_t bucket_start = 0;  // Unix seconds, UTC
  std::int64_t checks = 0;
  std::int64_t failures = 0;
  std::int64_t observed_ms = 0;
  std::int64_t down_ms = 0;
  std::int64_t rt_count = 0;
  std::int64_t rt_sum_ms = 0;
  std::optional<std::int64_t> rt_max_ms;
  std::optional<std::int64_t> rt_p95_ms;
  std::string rt_hist;
};

using Key = std::pair<std::int64_t, std::int64_t>;  // (service id, bucket start)

// The rows of `keys` (created empty where missing), locked until the transaction ends. Keys
// are taken in ascending order, so two writers touching the same rows queue, not deadlock.
// Every service in `keys` must exist (the caller holds its check rows' foreign-key lock).
std::map<Key, Row> lock(Connection& c, Table t, const std::vector<Key>& keys);

// Inserts or replaces rows (multi-row INSERT … ON DUPLICATE KEY UPDATE). Rows of services
// deleted meanwhile are the caller's to leave out (the foreign key refuses them).
void write(Connection& c, Table t, const std::vector<Row>& rows);

// Deletes rows whose bucket started more than `days` ago, at most `limit`. Returns the count.
int purge(Connection& c, Table t, int days, int limit);

}  // namespace dozor::db::rollups
