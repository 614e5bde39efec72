#pragma once
// The shipped share/audit data, loaded once by the loader dozor-fcgi's master uses, for every unit
// test that runs an engine against the real rules, fingerprints and probes.
#include <string>

#include "dozor_source_dir.hpp"
#include "engines/audit/data.hpp"

namespace dozor::test {

inline const audit::AuditData& shipped_audit_data() {
  static const auto data = audit::load_audit_data(std::string(DOZOR_SOURCE_DIR) + "/share/audit");
  return *data;
}

}  // namespace dozor::test
