#include "engines/audit/data.hpp"

#include <filesystem>
#include <mutex>

namespace dozor::audit {

std::shared_ptr<const AuditData> load_audit_data(const std::string& dir) {
  return std::make_shared<const AuditData>(AuditData{
      passive::Data::load(dir),
      compliance::load_data(std::filesystem::path(dir) / "compliance"),
      tech::Fingerprints::load(dir),
      tech::VulnLibraries::load(dir),
      exposures::Data::load(dir),
      owasp::SqlErrors::load(dir),
      endpoints::Paths::load(dir),
      api::JwtSecrets::load(dir),
      authscan::DefaultCredentials::load(dir),
  });
}

std::shared_ptr<const AuditData> shared_audit_data(const std::string& dir, bool reload) {
  static std::mutex mutex;
  static std::string loaded_dir;
  static std::shared_ptr<const AuditData> data;
  std::lock_guard lock(mutex);
  if (!data || reload || loaded_dir != dir) {
    data = load_audit_data(dir);
    loaded_dir = dir;
  }
  return data;
}

}  // namespace dozor::audit
