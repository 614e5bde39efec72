#include "db/rollups_repo.hpp"

#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

#include <algorithm>
#include <ctime>

#include "db/batch.hpp"

namespace dozor::db::rollups {
namespace {

const char* table_name(Table t) { return t == Table::Hourly ? "rollup_hourly" : "rollup_daily"; }

std::string sql_time(std::int64_t epoch) {
  auto secs = static_cast<std::time_t>(epoch);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
  return buf;
}

}  // namespace

std::map<Key, Row> lock(Connection& c, Table t, const std::vector<Key>& keys) {
  std::map<Key, Row> out;
  std::vector<Key> sorted(keys.begin(), keys.end());
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  // Rows are created first, so the locking read below finds every key: a locking read of a
  // missing key would lock the gap around it, and two dozords opening the same hour's rows
  // would then deadlock on each other's gaps. Ascending order: writers queue, not deadlock.
  std::size_t done = 0;
  for (std::size_t chunk : chunk_sizes(sorted.size())) {
    auto& ins = c.prepare(std::string("INSERT INTO ") + table_name(t) + " (service_id, bucket_start, rt_hist) VALUES " +
                          repeat_rows("(?, ?, '')", chunk) + " ON DUPLICATE KEY UPDATE service_id = service_id");
    unsigned i = 1;
    for (std::size_t k = 0; k < chunk; ++k) {
      ins.setInt64(i++, sorted[done + k].first);
      ins.setString(i++, sql_time(sorted[done + k].second));
    }
    ins.executeUpdate();
    // Each key an equality on the whole primary key: the read locks those records, no gaps.
    auto& sel = c.prepare(
        std::string("SELECT service_id, CAST(UNIX_TIMESTAMP(bucket_start) AS SIGNED), checks, failures, observed_ms,"
                    " down_ms, rt_count, rt_sum_ms, rt_max_ms, rt_p95_ms, rt_hist FROM ") +
        table_name(t) + " WHERE " + repeat_rows("(service_id = ? AND bucket_start = ?)", chunk, " OR ") +
        " FOR UPDATE");
    i = 1;
    for (std::size_t k = 0; k < chunk; ++k) {
      sel.setInt64(i++, sorted[done + k].first);
      sel.setString(i++, sql_time(sorted[done + k].second));
    }
    done += chunk;
    std::unique_ptr<sql::ResultSet> rs(sel.executeQuery());
    while (rs->next()) {
      Row r;
      r.service_id = get_int(*rs, 1);
      r.bucket_start = get_int(*rs, 2);
      r.checks = get_int(*rs, 3);
      r.failures = get_int(*rs, 4);
      r.observed_ms = get_int(*rs, 5);
      r.down_ms = get_int(*rs, 6);
      r.rt_count = get_int(*rs, 7);
      r.rt_sum_ms = get_int(*rs, 8);
      r.rt_max_ms = opt_int(*rs, 9);
      r.rt_p95_ms = opt_int(*rs, 10);
      r.rt_hist = get_string(*rs, 11);
      out.emplace(Key{r.service_id, r.bucket_start}, std::move(r));
    }
  }
  return out;
}

void write(Connection& c, Table t, const std::vector<Row>& rows) {
  std::size_t done = 0;
  for (std::size_t chunk : chunk_sizes(rows.size())) {
    std::string q = std::string("INSERT INTO ") + table_name(t) +
                    " (service_id, bucket_start, checks, failures, observed_ms, down_ms, rt_count, rt_sum_ms,"
                    " rt_max_ms, rt_p95_ms, rt_hist) VALUES " +
                    repeat_rows("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", chunk) +
                    " ON DUPLICATE KEY UPDATE checks = VALUES(checks), failures = VALUES(failures),"
                    " observed_ms = VALUES(observed_ms), down_ms = VALUES(down_ms), rt_count = VALUES(rt_count),"
                    " rt_sum_ms = VALUES(rt_sum_ms), rt_max_ms = VALUES(rt_max_ms), rt_p95_ms = VALUES(rt_p95_ms),"
                    " rt_hist = VALUES(rt_hist)";
    auto& st = c.prepare(q);
    unsigned i = 1;
    for (std::size_t k = 0; k < chunk; ++k) {
      const Row& r = rows[done + k];
      st.setInt64(i++, r.service_id);
      st.setString(i++, sql_time(r.bucket_start));
      st.setInt64(i++, r.checks);
      st.setInt64(i++, r.failures);
      st.setInt64(i++, r.observed_ms);
      st.setInt64(i++, r.down_ms);
      st.setInt64(i++, r.rt_count);
      st.setInt64(i++, r.rt_sum_ms);
      bind_optional(st, i++, r.rt_max_ms);
      bind_optional(st, i++, r.rt_p95_ms);
      st.setString(i++, r.rt_hist);
    }
    st.executeUpdate();
    done += chunk;
  }
}

int purge(Connection& c, Table t, int days, int limit) {
  auto& st = c.prepare(std::string("DELETE FROM ") + table_name(t) +
                       " WHERE bucket_start < UTC_TIMESTAMP() - INTERVAL ? DAY LIMIT ?");
  st.setInt(1, days);
  st.setInt(2, limit);
  return st.executeUpdate();
}

}  // namespace dozor::db::rollups
