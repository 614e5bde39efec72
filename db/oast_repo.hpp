#pragma once
// Out-of-band probes and their hits (db/migrations/0018_oast.sql, docs/scan.md "XXE and SSRF").
#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"
#include "engines/scan/oast/oast.hpp"

namespace dozor::db::oast {

// Stores the probes (valid for `ttl_seconds`) in one multi-row INSERT.
void insert_probes(Connection& c, const std::vector<dozor::oast::Probe>& probes, int ttl_seconds);

// The marker of a probe that has not expired, and whether it may still store a hit.
struct Live {
  std::string marker;
  bool can_store = false;
};
std::optional<Live> find_live(Connection& c, const std::string& token, int max_hits);

// Stores the hit if its probe is live and under `max_hits` (one transaction). False: not stored.
bool record_hit(Connection& c, const dozor::oast::Hit& hit, int max_hits);

// The hits of these tokens, oldest first.
std::vector<dozor::oast::Hit> hits_of(Connection& c, const std::vector<std::string>& tokens);

// Probes expired more than `days` ago, at most `chunk` (their hits go with them). Returns how many.
int purge(Connection& c, int days, int chunk);

}  // namespace dozor::db::oast
