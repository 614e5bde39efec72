#pragma once
// Every data file the audit engines read (share/audit, paths.audit_data), loaded and validated in
// one place. dozor-fcgi's master loads it before it forks (programs/dozor_fcgi.cpp), so a bad file
// fails the start with a clear error and workers inherit the compiled data instead of each
// compiling it again: a worker restart stays fast however large the fingerprint sets grow.
#include <memory>
#include <string>

#include "engines/audit/compliance/data.hpp"
#include "engines/audit/exposures/data.hpp"
#include "engines/audit/passive/data.hpp"
#include "engines/audit/tech/fingerprints.hpp"
#include "engines/audit/tech/vuln_libraries.hpp"
#include "engines/scan/api/jwt.hpp"
#include "engines/scan/auth/default_credentials.hpp"
#include "engines/scan/endpoints/paths.hpp"
#include "engines/scan/owasp/sql_errors.hpp"

namespace dozor::audit {

struct AuditData {
  passive::Data passive;            // <dir>/passive/rules.json
  compliance::Data compliance;      // <dir>/compliance/*.toml (docs/compliance.md)
  tech::Fingerprints tech;          // <dir>/tech/categories.json, <dir>/tech/technologies/*.json
  tech::VulnLibraries vulnlibs;     // <dir>/vulnlibs/libraries.json
  exposures::Data exposures;        // <dir>/exposures/exposures.json
  owasp::SqlErrors sql_errors;      // <dir>/owasp/sql_errors.json (docs/scan.md)
  endpoints::Paths endpoint_paths;  // <dir>/endpoints/paths.json (docs/scan.md "Endpoint discovery")
  api::JwtSecrets jwt_secrets;      // <dir>/api/jwt-secrets.txt (docs/scan.md "API check")

  // <dir>/auth/default-credentials.json (docs/scan.md "Auth scan")
  authscan::DefaultCredentials default_credentials;
};

// Reads and validates everything under `dir`; throws with the file's name on any error.
std::shared_ptr<const AuditData> load_audit_data(const std::string& dir);

// The process's copy: loaded by the first call for `dir` (again when `dir` or `reload` changes it),
// then shared. The master calls it before fork; workers get the inherited copy at no cost.
std::shared_ptr<const AuditData> shared_audit_data(const std::string& dir, bool reload = false);

}  // namespace dozor::audit
