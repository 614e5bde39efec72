#pragma once
// MySQL/MariaDB access through Connector/C++ 1.1: a bounded pool of connections per Database
// object, prepared statements cached per connection, every statement bounded in time, and a
// reconnect-and-retry on a lost connection only for work the caller declares repeatable.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "db/errors.hpp"

namespace sql {
class Connection;
class PreparedStatement;
class ResultSet;
}  // namespace sql

namespace dozor::db {

struct ConnectionParams {
  std::string socket;  // used when host is empty
  std::string host;
  int port = 3306;
  std::string name;
  std::string user;
  std::string password;
  int connect_timeout = 3;
  int pool_size = 8;           // connections this process may hold open at once
  int pool_wait_ms = 2000;     // how long a caller may wait for a free one: then DbBusy (503)
  int statement_timeout = 10;  // seconds; a statement past it is aborted by the server
};

// Whether Database::run may run the work a second time after the connection was lost midway.
// There is no default: every call site says which one it is.
enum class Retry {
  Never,             // writes: a lost connection may have committed them; never repeat
  OnLostConnection,  // reads and idempotent work: reconnect and run once more
};

// Column readers by 1-based position: Connector/C++ looks names up with a case-folding copy
// per call, which dominated the cost of listing rows.
std::optional<std::int64_t> opt_int(sql::ResultSet& rs, unsigned column);
std::optional<std::string> opt_string(sql::ResultSet& rs, unsigned column);
std::string get_string(sql::ResultSet& rs, unsigned column);
std::int64_t get_int(sql::ResultSet& rs, unsigned column);
bool get_bool(sql::ResultSet& rs, unsigned column);

// A DATETIME(3) column as ISO 8601 UTC with milliseconds ("2026-11-23T10:00:00.123Z"; the session's
// time zone is UTC), NULL staying NULL: the SQL expression to SELECT.
std::string iso_ms_column(const char* column);

// Binds a NULL-able parameter: the value, or SQL NULL.
void bind_optional(sql::PreparedStatement& st, unsigned index, const std::optional<std::int64_t>& v);
void bind_optional(sql::PreparedStatement& st, unsigned index, const std::optional<int>& v);
void bind_optional(sql::PreparedStatement& st, unsigned index, const std::optional<bool>& v);
void bind_optional(sql::PreparedStatement& st, unsigned index, const std::optional<std::string>& v);

// At most `max_chars` UTF-8 characters of `s`, never cut inside a character (a VARCHAR(n)
// counts characters, and a split sequence is an invalid string to MariaDB).

class Connection {
 public:
  explicit Connection(std::unique_ptr<sql::Connection> raw);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  void set_statement_timeout(int seconds);  // 0 = none (migrations)

  // Returns this connection's cached statement for `sql_text`, parameters cleared.
  sql::PreparedStatement& prepare(const std::string& sql_text);
  std::int64_t last_insert_id();
  // Runs fn inside a transaction: commit on return, rollback on exception; retried (up to 3
  // times) after a deadlock; nested calls join the outer transaction.
  void transaction(const std::function<void()>& fn);
  sql::Connection& raw() { return *raw_; }

 private:
  void abandon() noexcept;  // rollback and back to autocommit, ignoring a dead connection

  std::unique_ptr<sql::Connection> raw_;
  std::map<std::string, std::unique_ptr<sql::PreparedStatement>> statements_;
  int depth_ = 0;
};

class Database {
 public:
  explicit Database(ConnectionParams params);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // Runs fn on a connection leased from this object's pool (waiting at most pool_wait_ms, then
  // DbBusy). On a lost connection (2006/2013) it reconnects and runs fn once more with
  // Retry::OnLostConnection; with Retry::Never it pings first and never repeats fn, and a lost
  // connection surfaces as DbUnavailable. Other SQL errors become DbError/DuplicateKey; a
  // statement past the statement timeout becomes DbTimeout.
  void run(const std::function<void(Connection&)>& fn, Retry retry);

  // A cheap round trip; false when the server cannot be reached.
  bool ping();

  // True when any statement of this process succeeded within `max_age` and none failed for a
  // lost connection since; otherwise a real ping(). Health checks read it on every request,
  // so it must not cost a round trip each time.
  bool healthy(std::chrono::milliseconds max_age);

  // Opens a fresh connection outside the pool — for tools like migrations.
  std::unique_ptr<Connection> connect() const;
  std::unique_ptr<Connection> connect_serialised(std::chrono::steady_clock::time_point deadline) const;

  // Connections open now (idle and leased): never more than pool_size.
  int open_connections() const;

 private:
  std::unique_ptr<Connection> acquire();
  void release(std::unique_ptr<Connection> c);       // nullptr: the connection was dropped
  void drop_lost(std::unique_ptr<Connection> lost);  // and every idle one with it
  void note_success();

  ConnectionParams params_;
  std::atomic<std::int64_t> last_success_ms_{0};  // steady clock; 0 after a lost connection
  mutable std::mutex mutex_;
  std::condition_variable freed_;
  std::vector<std::unique_ptr<Connection>> idle_;
  int open_ = 0;  // idle + leased
};

// Must be called once before threads start (Connector/C++ requirement).
void init_driver();

}  // namespace dozor::db
