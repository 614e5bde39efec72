#pragma once
// Versioned schema migrations: db/migrations/NNNN_name.sql, applied in order, each recorded in
// schema_migrations. Running twice is a no-op; two runners at once serialise on a named lock.
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

// Applies what is missing; returns the versions applied now.
std::vector<int> migrate(Database& db, const std::string& dir);

}  // namespace dozor::db
