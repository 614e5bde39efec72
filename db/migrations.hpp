#pragma once
// Versioned schema migrations: db/migrations/NNNN_name.sql, applied in order, each recorded in
// schema_migrations with the sha256 of its text. Running twice is a no-op; two runners at once
// serialise on a named lock. A file that cannot be read, a statement that fails, or an applied
// migration whose file changed since stops the run with an error naming the file.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"

namespace dozor::db {

struct MigrationFile {
  int version;
  std::string name;
  std::string path;
};

// Files named NNNN_name.sql in `dir`, sorted by version; throws DbError on a malformed name
// or a duplicate version.
std::vector<MigrationFile> list_migrations(const std::string& dir);

// Splits a migration script into statements at ';' that end a line, outside quotes.
std::vector<std::string> split_statements(const std::string& script);

// The whole text of a migration file; throws DbError when it cannot be read or is empty.
std::string read_migration(const MigrationFile& m);

// Lowercase hex sha256 of `text`; throws DbError if OpenSSL fails.
std::string sha256_hex(const std::string& text);

// Problems with migrations already applied: `applied` maps version → stored checksum (nullopt
// for rows recorded before checksums existed). One line per changed file.
std::vector<std::string> changed_migrations(const std::map<int, std::optional<std::string>>& applied,
                                            const std::vector<MigrationFile>& files,
                                            const std::map<int, std::string>& file_checksums);

// Work a migration needs that SQL cannot do (Unicode normalisation, for one), run on the
// migration's connection after its file's statements and before it is recorded as applied.
// A hook that throws stops the run like a failing statement: the version stays unrecorded,
// so the file's statements must be safe to run again (IF NOT EXISTS) and the hook must check
// before it writes.
using MigrationHooks = std::map<int, std::function<void(Connection&)>>;

// Applies what is missing, in version order whatever the gaps (a version added below the
// highest applied one is applied on the next run); returns the versions applied now.
std::vector<int> migrate(Database& db, const std::string& dir, const MigrationHooks& hooks = {});

}  // namespace dozor::db
