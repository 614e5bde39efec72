#include "engines/monitor/rollup_store.hpp"

#include "db/rollups_repo.hpp"

namespace dozor::monitor {
namespace {

rollup::Figures from_row(const db::rollups::Row& r) {
  rollup::Figures f;
  f.checks = r.checks;
  f.failures = r.failures;
  f.observed_ms = r.observed_ms;
  f.down_ms = r.down_ms;
  f.rt_count = r.rt_count;
  f.rt_sum_ms = r.rt_sum_ms;
  f.rt_max_ms = r.rt_max_ms;
  f.hist = rollup::Histogram::decode(r.rt_hist);
  return f;
}

db::rollups::Row to_row(const rollup::Key& key, const rollup::Figures& f) {
  db::rollups::Row r;
  r.service_id = key.first;
  r.bucket_start = key.second;
  r.checks = f.checks;
  r.failures = f.failures;
  r.observed_ms = f.observed_ms;
  r.down_ms = f.down_ms;
  r.rt_count = f.rt_count;
  r.rt_sum_ms = f.rt_sum_ms;
  r.rt_max_ms = f.rt_max_ms;
  r.rt_p95_ms = f.p95();
  r.rt_hist = f.hist.encode();
  return r;
}

void store_table(db::Connection& c, db::rollups::Table table, const std::vector<rollup::Sample>& samples,
                 std::int64_t bucket_seconds) {
  rollup::Buckets buckets;
  rollup::accumulate(buckets, samples, bucket_seconds);
  if (buckets.empty()) return;
  std::vector<db::rollups::Key> keys;
  keys.reserve(buckets.size());
  for (const auto& [key, figures] : buckets) keys.push_back(key);
  auto stored = db::rollups::lock(c, table, keys);
  std::vector<db::rollups::Row> rows;
  rows.reserve(buckets.size());
  for (const auto& [key, figures] : buckets) {
    auto it = stored.find(key);
    rollup::Figures merged = it != stored.end() ? from_row(it->second) : rollup::Figures{};
    merged.merge(figures);
    rows.push_back(to_row(key, merged));
  }
  db::rollups::write(c, table, rows);
}

}  // namespace

void store_rollups(db::Connection& c, const std::vector<rollup::Sample>& samples) {
  if (samples.empty()) return;
  // Hourly before daily, in every writer: one lock order.
  store_table(c, db::rollups::Table::Hourly, samples, rollup::kHour);
  store_table(c, db::rollups::Table::Daily, samples, rollup::kDay);
}

}  // namespace dozor::monitor
