#include "db/migrations.hpp"

#include <cppconn/connection.h>
#include <cppconn/exception.h>
#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>
#include <openssl/evp.h>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace dozor::db {

std::vector<MigrationFile> list_migrations(const std::string& dir) {
  static const std::regex kName(R"((\d{4})_([a-z0-9_]+)\.sql)");
  std::vector<MigrationFile> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    std::string file = entry.path().filename().string();
    if (entry.path().extension() != ".sql") continue;
    std::smatch m;
    if (!std::regex_match(file, m, kName)) throw DbError("migration file with a malformed name: " + file);
    out.push_back({std::stoi(m[1].str()), m[2].str(), entry.path().string()});
  }
  if (ec) throw DbError("cannot read migrations directory " + dir + ": " + ec.message());
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.version < b.version; });
  for (std::size_t i = 1; i < out.size(); ++i)
    if (out[i].version == out[i - 1].version)
      throw DbError("two migrations with version " + std::to_string(out[i].version));
  return out;
}

std::vector<std::string> split_statements(const std::string& script) {
  std::vector<std::string> out;
  std::string current;
  char quote = 0;
  bool line_comment = false;
  for (std::size_t i = 0; i < script.size(); ++i) {
    char c = script[i];
    if (line_comment) {
      if (c == '\n') line_comment = false;
      continue;
    }
    if (quote) {
      current += c;
      if (c == '\\' && i + 1 < script.size())
        current += script[++i];
      else if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '-' && i + 1 < script.size() && script[i + 1] == '-') {
      line_comment = true;
      continue;
    }
    if (c == '\'' || c == '"' || c == '`') quote = c;
    if (c == ';') {
      auto first = current.find_first_not_of(" \t\r\n");
      if (first != std::string::npos) out.push_back(current.substr(first));
      current.clear();
      continue;
    }
    current += c;
  }
  auto first = current.find_first_not_of(" \t\r\n");
  if (first != std::string::npos) out.push_back(current.substr(first));
  return out;
}

std::string read_migration(const MigrationFile& m) {
  std::ifstream in(m.path, std::ios::binary);
  if (!in) throw DbError("cannot read migration " + m.path);
  std::stringstream text;
  text << in.rdbuf();
  // A directory or an I/O error reads as nothing: never record such a file as applied.
  if (in.bad() || text.str().find_first_not_of(" \t\r\n") == std::string::npos)
    throw DbError("cannot read migration " + m.path + " (unreadable or empty)");
  if (split_statements(text.str()).empty()) throw DbError("migration " + m.path + " contains no statement");
  return text.str();
}

std::string sha256_hex(const std::string& text) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(text.data(), text.size(), digest, &len, EVP_sha256(), nullptr) != 1 || len != 32)
    throw DbError("sha256 failed");
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned i = 0; i < len; ++i) {
    out += hex[digest[i] >> 4];
    out += hex[digest[i] & 0xF];
  }
  return out;
}

std::vector<std::string> changed_migrations(const std::map<int, std::optional<std::string>>& applied,
                                            const std::vector<MigrationFile>& files,
                                            const std::map<int, std::string>& file_checksums) {
  std::vector<std::string> out;
  for (const auto& f : files) {
    auto a = applied.find(f.version);
    if (a == applied.end() || !a->second) continue;
    auto sum = file_checksums.find(f.version);
    if (sum != file_checksums.end() && sum->second != *a->second)
      out.push_back("migration " + f.path + " was changed after it was applied (sha256 recorded " + *a->second +
                    ", file now " + sum->second + "); restore it and add a new migration instead");
  }
  return out;
}

std::vector<int> migrate(Database& db, const std::string& dir, const MigrationHooks& hooks) {
  auto files = list_migrations(dir);
  // Every file is read and hashed before anything runs: an unreadable one stops the run here.
  std::map<int, std::string> texts, sums;
  for (const auto& m : files) {
    texts[m.version] = read_migration(m);
    sums[m.version] = sha256_hex(texts[m.version]);
  }
  auto conn = db.connect();
  conn->set_statement_timeout(0);  // a migration may legitimately take long
  std::unique_ptr<sql::Statement> st(conn->raw().createStatement());
  std::vector<int> applied_now;
  try {
    // Serialise concurrent runners (two hosts upgrading at once).
    std::unique_ptr<sql::ResultSet> lock(st->executeQuery("SELECT GET_LOCK('dozor_migrate', 60) AS got"));
    if (!lock->next() || lock->getInt("got") != 1) throw DbError("could not take the migration lock");
    st->execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INT NOT NULL PRIMARY KEY, name VARCHAR(255) NOT NULL,"
        " applied_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3))"
        " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4");
    st->execute("ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum CHAR(64) NULL");
    std::map<int, std::optional<std::string>> done;
    std::unique_ptr<sql::ResultSet> rs(st->executeQuery("SELECT version, checksum FROM schema_migrations"));
    while (rs->next()) done[rs->getInt(1)] = opt_string(*rs, 2);
    auto changed = changed_migrations(done, files, sums);
    if (!changed.empty()) {
      std::string all;
      for (const auto& line : changed) all += (all.empty() ? "" : "\n") + line;
      throw DbError(all);
    }
    // Rows from before checksums were kept get the current file's: trusted on first sight.
    for (const auto& [version, sum] : done) {
      if (sum || !sums.count(version)) continue;
      auto& fill = conn->prepare("UPDATE schema_migrations SET checksum = ? WHERE version = ?");
      fill.setString(1, sums[version]);
      fill.setInt(2, version);
      fill.executeUpdate();
    }
    for (const auto& m : files) {
      if (done.count(m.version)) continue;
      auto statements = split_statements(texts[m.version]);
      for (std::size_t i = 0; i < statements.size(); ++i) {
        try {
          st->execute(statements[i]);
        } catch (const sql::SQLException& e) {
          throw DbError("migration " + m.path + " failed at statement " + std::to_string(i + 1) + " of " +
                        std::to_string(statements.size()) + ": " + e.what() + " (not recorded as applied)");
        }
      }
      if (auto hook = hooks.find(m.version); hook != hooks.end()) {
        try {
          hook->second(*conn);
        } catch (const std::exception& e) {
          throw DbError("migration " + m.path + " failed: " + e.what() + " (not recorded as applied)");
        }
      }
      auto& record = conn->prepare("INSERT INTO schema_migrations (version, name, checksum) VALUES (?, ?, ?)");
      record.setInt(1, m.version);
      record.setString(2, m.name);
      record.setString(3, sums[m.version]);
      record.executeUpdate();
      applied_now.push_back(m.version);
    }
    st->execute("DO RELEASE_LOCK('dozor_migrate')");
  } catch (const sql::SQLException& e) {
    throw DbError(std::string("migration failed: ") + e.what());
  }
  return applied_now;
}

}  // namespace dozor::db
