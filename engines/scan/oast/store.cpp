#include "engines/scan/oast/store.hpp"

#include "db/database.hpp"
#include "db/oast_repo.hpp"
#include "engines/limits.hpp"

namespace dozor::oast {

void DbStore::add(const std::vector<Probe>& probes) {
  db_.run(
      [&](db::Connection& c) {
        db::oast::purge(c, limits::oast::kRetentionDays, limits::oast::kPurgeChunk);
        db::oast::insert_probes(c, probes, limits::oast::kProbeTtlSeconds);
      },
      db::Retry::Never);
}

std::vector<Hit> DbStore::hits(const std::vector<std::string>& tokens) {
  std::vector<Hit> out;
  db_.run([&](db::Connection& c) { out = db::oast::hits_of(c, tokens); }, db::Retry::OnLostConnection);
  return out;
}

Answer record(db::Database& database, const Hit& hit) {
  Answer a;
  database.run(
      [&](db::Connection& c) {
        auto live = db::oast::find_live(c, hit.token, limits::oast::kHitsPerProbe);
        if (!live) return;
        a.known = true;
        a.marker = live->marker;
        if (live->can_store) a.stored = db::oast::record_hit(c, hit, limits::oast::kHitsPerProbe);
      },
      db::Retry::Never);
  return a;
}

}  // namespace dozor::oast
