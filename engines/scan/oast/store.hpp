#pragma once
// Where probes are registered and hits read back (docs/scan.md "XXE and SSRF"). The scanner sees
// this interface only: DbStore keeps them in MariaDB (db/oast_repo), tests use a fake.
#include <string>
#include <vector>

#include "engines/scan/oast/oast.hpp"

namespace dozor::db {
class Database;
}

namespace dozor::oast {

class Store {
 public:
  virtual ~Store() = default;
  // Stored before any of these probes is sent.
  virtual void add(const std::vector<Probe>& probes) = 0;
  virtual std::vector<Hit> hits(const std::vector<std::string>& tokens) = 0;
};

class DbStore : public Store {
 public:
  explicit DbStore(db::Database& database) : db_(database) {}
  // Purges long-expired probes (limits::oast::kRetentionDays), then stores these.
  void add(const std::vector<Probe>& probes) override;
  std::vector<Hit> hits(const std::vector<std::string>& tokens) override;

 private:
  db::Database& db_;
};

// The /oast/{token} side: records the interaction when its token names a live probe.
struct Answer {
  bool known = false;   // false: 404, nothing stored
  bool stored = false;  // false for a probe past limits::oast::kHitsPerProbe (answered all the same)
  std::string marker;   // the body of the answer
};
Answer record(db::Database& database, const Hit& hit);

}  // namespace dozor::oast
