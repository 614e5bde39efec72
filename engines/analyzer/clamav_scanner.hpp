#pragma once
// MalwareScanner on libclamav. Linked only into dozor-analyzer and the tests (library
// dozor_clamav). One engine serves every thread; dozor-analyzer loads it in its master before
// the workers fork, so the signatures' memory (about 1 GiB with the full ClamAV database) is
// shared by the workers, not copied into each.
#include <memory>
#include <stdexcept>
#include <string>

#include "engines/analyzer/malware.hpp"

namespace dozor::analyzer {

struct MalwareEngineError : std::runtime_error {  // the engine cannot start
  using std::runtime_error::runtime_error;
};

class ClamavScanner : public MalwareScanner {
 public:
  // Loads every signature database in `database_dir` (freshclam's /var/lib/clamav, or a
  // directory of .cvd/.cld/.hdb/.ndb/… files); files up to `max_file` bytes are scanned whole.
  // Throws MalwareEngineError naming the problem, also when the directory holds no signature.
  ClamavScanner(const std::string& database_dir, std::int64_t max_file);
  ~ClamavScanner() override;
  ClamavScanner(const ClamavScanner&) = delete;
  ClamavScanner& operator=(const ClamavScanner&) = delete;

  MalwareVerdict scan(std::string_view bytes) const override;
  std::uint64_t signatures() const override { return signatures_; }
  std::string version() const override;

 private:
  struct Engine;
  std::unique_ptr<Engine> engine_;
  std::uint64_t signatures_ = 0;
  std::int64_t max_file_ = 0;
};

// How many ClamAV database files (.cvd, .cld, .hdb, .ndb, .ldb, … by their extension) are in
// `database_dir`, without loading them; 0 when none or the directory cannot be read.
int clamav_database_files(const std::string& database_dir);

}  // namespace dozor::analyzer
