#include "db/migrations.hpp"

#include <cppconn/connection.h>
#include <cppconn/exception.h>
#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>
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

std::vector<int> migrate(Database& db, const std::string& dir) {
  auto files = list_migrations(dir);
  auto conn = db.connect();
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
    std::set<int> done;
    std::unique_ptr<sql::ResultSet> rs(st->executeQuery("SELECT version FROM schema_migrations"));
    while (rs->next()) done.insert(rs->getInt("version"));
    for (const auto& m : files) {
      if (done.count(m.version)) continue;
      std::ifstream in(m.path);
      std::stringstream text;
      text << in.rdbuf();
      for (const auto& statement : split_statements(text.str())) st->execute(statement);
      auto& record = conn->prepare("INSERT INTO schema_migrations (version, name) VALUES (?, ?)");
      record.setInt(1, m.version);
      record.setString(2, m.name);
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
