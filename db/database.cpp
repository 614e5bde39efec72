#include "db/database.hpp"

#include <cppconn/connection.h>
#include <cppconn/driver.h>
#include <cppconn/exception.h>
#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>
#include <mysql_driver.h>

namespace dozor::db {
namespace {

// Client-side error codes that mean "the connection is gone", not "the query was wrong".
bool is_connection_lost(int code) {
  return code == 2006 /* gone away */ || code == 2013 /* lost during query */ ||
         code == 2002 /* can't connect (socket) */ || code == 2003 /* can't connect (TCP) */ ||
         code == 2055 /* lost, system error */ || code == 1927 /* connection killed */ ||
         code == 4031 /* disconnected: inactivity */;
}

sql::mysql::MySQL_Driver* driver() {
  static sql::mysql::MySQL_Driver* d = sql::mysql::get_mysql_driver_instance();
  return d;
}

[[noreturn]] void rethrow_sql(const sql::SQLException& e) {
  if (e.getErrorCode() == 1062) throw DuplicateKey(e.what());
  if (is_connection_lost(e.getErrorCode())) throw DbUnavailable(e.what());
  throw DbError(std::string(e.what()) + " (MySQL error " + std::to_string(e.getErrorCode()) + ")");
}

thread_local std::unique_ptr<Connection> t_connection;
thread_local bool t_thread_initialised = false;

}  // namespace

void init_driver() { driver(); }

std::optional<std::int64_t> opt_int(sql::ResultSet& rs, unsigned column) {
  if (rs.isNull(column)) return std::nullopt;
  return rs.getInt64(column);
}
std::optional<std::string> opt_string(sql::ResultSet& rs, unsigned column) {
  if (rs.isNull(column)) return std::nullopt;
  return std::string(rs.getString(column));
}
std::string get_string(sql::ResultSet& rs, unsigned column) { return std::string(rs.getString(column)); }
std::int64_t get_int(sql::ResultSet& rs, unsigned column) { return rs.getInt64(column); }
bool get_bool(sql::ResultSet& rs, unsigned column) { return rs.getInt(column) != 0; }

void bind_optional(sql::PreparedStatement& st, unsigned index, const std::optional<std::int64_t>& v) {
  if (v)
    st.setInt64(index, *v);
  else
    st.setNull(index, sql::DataType::BIGINT);
}
void bind_optional(sql::PreparedStatement& st, unsigned index, const std::optional<int>& v) {
  if (v)
    st.setInt(index, *v);
  else
    st.setNull(index, sql::DataType::INTEGER);
}
void bind_optional(sql::PreparedStatement& st, unsigned index, const std::optional<bool>& v) {
  if (v)
    st.setBoolean(index, *v);
  else
    st.setNull(index, sql::DataType::TINYINT);
}
void bind_optional(sql::PreparedStatement& st, unsigned index, const std::optional<std::string>& v) {
  if (v)
    st.setString(index, *v);
  else
    st.setNull(index, sql::DataType::VARCHAR);
}

std::size_t utf8_length(const std::string& s) {
  std::size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

std::string utf8_prefix(const std::string& s, std::size_t max_chars) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && chars++ == max_chars) return s.substr(0, i);
  }
  return s;
}

Connection::Connection(std::unique_ptr<sql::Connection> raw) : raw_(std::move(raw)) {}
Connection::~Connection() {
  statements_.clear();  // statements must close before their connection
  try {
    if (raw_) raw_->close();
  } catch (...) {
  }
}

sql::PreparedStatement& Connection::prepare(const std::string& sql_text) {
  auto it = statements_.find(sql_text);
  if (it == statements_.end()) {
    it = statements_.emplace(sql_text, std::unique_ptr<sql::PreparedStatement>(raw_->prepareStatement(sql_text))).first;
  }
  it->second->clearParameters();
  return *it->second;
}

std::int64_t Connection::last_insert_id() {
  std::unique_ptr<sql::ResultSet> rs(prepare("SELECT LAST_INSERT_ID()").executeQuery());
  rs->next();
  return rs->getInt64(1);
}

void Connection::transaction(const std::function<void()>& fn) {
  if (depth_ > 0) {  // inside another transaction: its commit or rollback covers this work
    fn();
    return;
  }
  // A deadlock or lock wait timeout rolls the whole transaction back, so running it again is
  // safe; writers also take the owner's user row first (db/services_repo.cpp) to avoid them.
  for (int attempt = 1;; ++attempt) {
    raw_->setAutoCommit(false);
    ++depth_;
    try {
      fn();
      raw_->commit();
      --depth_;
      raw_->setAutoCommit(true);
      return;
    } catch (const sql::SQLException& e) {
      --depth_;
      abandon();
      bool lock_conflict = e.getErrorCode() == 1213 || e.getErrorCode() == 1205;
      if (!lock_conflict || attempt >= 3) throw;
    } catch (...) {
      --depth_;
      abandon();
      throw;
    }
  }
}

void Connection::abandon() noexcept {
  try {
    raw_->rollback();
  } catch (...) {
  }
  try {
    raw_->setAutoCommit(true);
  } catch (...) {
  }
}

Database::Database(ConnectionParams params) : params_(std::move(params)) {}

std::unique_ptr<Connection> Database::connect() const {
  if (!t_thread_initialised) {
    driver()->threadInit();
    t_thread_initialised = true;
  }
  sql::ConnectOptionsMap opts;
  if (params_.host.empty()) {
    opts["hostName"] = sql::SQLString("localhost");
    opts["socket"] = sql::SQLString(params_.socket);
  } else {
    opts["hostName"] = sql::SQLString(params_.host);
    opts["port"] = params_.port;
  }
  opts["userName"] = sql::SQLString(params_.user);
  opts["password"] = sql::SQLString(params_.password);
  opts["schema"] = sql::SQLString(params_.name);
  opts["OPT_CONNECT_TIMEOUT"] = params_.connect_timeout;
  opts["OPT_READ_TIMEOUT"] = 30;
  opts["OPT_WRITE_TIMEOUT"] = 30;
  opts["OPT_RECONNECT"] = false;  // a silent reconnect would drop session state; we do it ourselves
  opts["OPT_CHARSET_NAME"] = sql::SQLString("utf8mb4");
  try {
    auto raw = std::unique_ptr<sql::Connection>(driver()->connect(opts));
    std::unique_ptr<sql::Statement> st(raw->createStatement());
    st->execute("SET time_zone = '+00:00'");
    return std::make_unique<Connection>(std::move(raw));
  } catch (const sql::SQLException& e) {
    // Connect failures of any kind (down, refused, bad credentials) make the DB unavailable.
    throw DbUnavailable(std::string("cannot connect to the database: ") + e.what());
  }
}

namespace {
std::int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
}  // namespace

void Database::note_success() { last_success_ms_.store(steady_ms(), std::memory_order_relaxed); }

void Database::run(const std::function<void(Connection&)>& fn, bool idempotent) {
  for (int attempt = 0;; ++attempt) {
    try {
      // Work that must not run twice gets no retry, so it first makes sure the connection is
      // alive (one ping) rather than learn it mid-way, after a server restart.
      if (t_connection && !idempotent && !t_connection->raw().isValid()) t_connection.reset();
      if (!t_connection) t_connection = connect();
      fn(*t_connection);
      note_success();
      return;
    } catch (const DbUnavailable&) {
      last_success_ms_.store(0);
      throw;
    } catch (const sql::SQLException& e) {
      if (!is_connection_lost(e.getErrorCode())) rethrow_sql(e);
      t_connection.reset();
      last_success_ms_.store(0);
      if (attempt > 0 || !idempotent) throw DbUnavailable(e.what());
    }
  }
}

bool Database::healthy(std::chrono::milliseconds max_age) {
  auto last = last_success_ms_.load(std::memory_order_relaxed);
  if (last != 0 && steady_ms() - last < max_age.count()) return true;
  return ping();
}

bool Database::ping() {
  try {
    run([](Connection& c) {
      std::unique_ptr<sql::ResultSet> rs(c.prepare("SELECT 1 AS ok").executeQuery());
      rs->next();
    });
    return true;
  } catch (const DbError&) {
    return false;
  }
}

}  // namespace dozor::db
