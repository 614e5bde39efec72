#include "db/database.hpp"

#include <cppconn/connection.h>
#include <cppconn/driver.h>
#include <cppconn/exception.h>
#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>
#include <mysql_driver.h>

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>

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

constexpr int kStatementTimeout = 1969;  // MariaDB: max_statement_time exceeded

[[noreturn]] void rethrow_sql(const sql::SQLException& e) {
  if (e.getErrorCode() == 1062) throw DuplicateKey(e.what());
  if (e.getErrorCode() == 1452) throw MissingParent(e.what());
  if (e.getErrorCode() == kStatementTimeout) throw DbTimeout(e.what());
  if (is_connection_lost(e.getErrorCode())) throw DbUnavailable(e.what());
  throw DbError(std::string(e.what()) + " (MySQL error " + std::to_string(e.getErrorCode()) + ")");
}

// Connector/C++ needs threadInit() once in every thread that touches a connection; pooled
// connections move between threads, so each thread initialises itself before its first lease.
thread_local bool t_thread_initialised = false;
void ensure_thread_init() {
  if (t_thread_initialised) return;
  driver()->threadInit();
  t_thread_initialised = true;
}

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

std::string iso_ms_column(const char* column) {
  return std::string("CONCAT(LEFT(DATE_FORMAT(") + column + ", '%Y-%m-%dT%H:%i:%s.%f'), 23), 'Z')";
}

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

void Connection::set_statement_timeout(int seconds) {
  std::unique_ptr<sql::Statement> st(raw_->createStatement());
  st->execute("SET SESSION max_statement_time = " + std::to_string(std::max(0, seconds)));
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

Database::Database(ConnectionParams params) : params_(std::move(params)) {
  params_.pool_size = std::max(1, params_.pool_size);
}

Database::~Database() {
  std::lock_guard lock(mutex_);
  idle_.clear();
}

std::unique_ptr<Connection> Database::connect() const {
  ensure_thread_init();
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
  // The server aborts a statement past statement_timeout; the client gives up a little later,
  // so a frozen server (not just a slow statement) cannot hold a request either.
  int io_timeout = params_.statement_timeout > 0 ? params_.statement_timeout + 2 : 30;
  opts["OPT_READ_TIMEOUT"] = io_timeout;
  opts["OPT_WRITE_TIMEOUT"] = io_timeout;
  opts["OPT_RECONNECT"] = false;  // a silent reconnect would drop session state; we do it ourselves
  opts["OPT_CHARSET_NAME"] = sql::SQLString("utf8mb4");
  try {
    auto raw = std::unique_ptr<sql::Connection>(driver()->connect(opts));
    std::unique_ptr<sql::Statement> st(raw->createStatement());
    st->execute("SET time_zone = '+00:00'");
    auto conn = std::make_unique<Connection>(std::move(raw));
    conn->set_statement_timeout(params_.statement_timeout);
    return conn;
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

namespace {
// Connector/C++ keeps the host of the connection being opened in process-wide static storage
// (sql::mysql::MySQL_Uri::Host), read by mysql_real_connect all through the handshake, so two
// threads connecting at once race (ThreadSanitizer shows it). Connecting is rare — the pool keeps
// connections — so they are opened one at a time, process-wide.
// A gate, not a timed mutex: ThreadSanitizer does not follow pthread_mutex_clocklock, and a
// waiter must be able to give up.
std::mutex connect_gate_mutex;
std::condition_variable connect_gate_free;
bool connect_gate_busy = false;
std::uint64_t failed_connects = 0;  // guarded by connect_gate_mutex
}  // namespace

std::unique_ptr<Connection> Database::connect_serialised(std::chrono::steady_clock::time_point deadline) const {
  std::unique_lock gate(connect_gate_mutex);
  std::uint64_t failures_before = failed_connects;
  // A frozen server holds each attempt for the whole handshake timeout: waiting in line behind
  // attempts that are bound to fail would multiply it, so a waiter gives up at the pool's
  // deadline (at least one connect timeout) or as soon as an attempt made while it waited failed.
  auto wait_until =
      std::max(deadline, std::chrono::steady_clock::now() + std::chrono::seconds(params_.connect_timeout));
  if (!connect_gate_free.wait_until(gate, wait_until, [] { return !connect_gate_busy; }))
    throw DbUnavailable("another connection to the database is still being opened");
  if (failed_connects != failures_before) throw DbUnavailable("the database refused a connection opened a moment ago");
  connect_gate_busy = true;
  gate.unlock();
  std::unique_ptr<Connection> conn;
  std::exception_ptr failure;
  try {
    conn = connect();
  } catch (...) {
    failure = std::current_exception();
  }
  gate.lock();
  connect_gate_busy = false;
  if (failure) ++failed_connects;
  gate.unlock();
  connect_gate_free.notify_all();
  if (failure) std::rethrow_exception(failure);
  return conn;
}

std::unique_ptr<Connection> Database::acquire() {
  std::unique_lock lock(mutex_);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(params_.pool_wait_ms);
  while (idle_.empty() && open_ >= params_.pool_size) {
    if (freed_.wait_until(lock, deadline) == std::cv_status::timeout && idle_.empty() && open_ >= params_.pool_size)
      throw DbBusy("every database connection stayed busy for " + std::to_string(params_.pool_wait_ms) + " ms");
  }
  if (!idle_.empty()) {
    auto c = std::move(idle_.back());
    idle_.pop_back();
    return c;
  }
  ++open_;  // a slot is ours; the connection is opened outside the lock
  lock.unlock();
  try {
    return connect_serialised(deadline);
  } catch (...) {
    release(nullptr);
    throw;
  }
}

void Database::release(std::unique_ptr<Connection> c) {
  {
    std::lock_guard lock(mutex_);
    if (c)
      idle_.push_back(std::move(c));
    else
      --open_;
  }
  freed_.notify_one();
}

void Database::drop_lost(std::unique_ptr<Connection> lost) {
  // One lost connection usually means the server restarted: its idle siblings are dead too,
  // and a retry must not pick one of them.
  std::vector<std::unique_ptr<Connection>> stale;
  {
    std::lock_guard lock(mutex_);
    stale.swap(idle_);
    open_ -= static_cast<int>(stale.size()) + (lost ? 1 : 0);
  }
  freed_.notify_all();
}

int Database::open_connections() const {
  std::lock_guard lock(mutex_);
  return open_;
}

void Database::run(const std::function<void(Connection&)>& fn, Retry retry) {
  ensure_thread_init();
  for (int attempt = 0;; ++attempt) {
    std::unique_ptr<Connection> conn;
    try {
      conn = acquire();
      // Work that must not run twice gets no retry, so it first makes sure the connection is
      // alive (one ping) rather than learn it mid-way, after a server restart.
      if (retry == Retry::Never && !conn->raw().isValid()) {
        drop_lost(std::move(conn));
        conn = acquire();
      }
      fn(*conn);
      release(std::move(conn));
      note_success();
      return;
    } catch (const DbBusy&) {
      throw;  // the server is fine, only this process's pool is saturated
    } catch (const DbUnavailable&) {
      if (conn) drop_lost(std::move(conn));
      last_success_ms_.store(0);
      throw;
    } catch (const sql::SQLException& e) {
      bool lost = is_connection_lost(e.getErrorCode());
      if (conn) lost ? drop_lost(std::move(conn)) : release(std::move(conn));
      if (!lost) rethrow_sql(e);
      last_success_ms_.store(0);
      if (attempt > 0 || retry == Retry::Never) throw DbUnavailable(e.what());
    } catch (...) {
      if (conn) release(std::move(conn));  // an error of fn's own: the connection is fine
      throw;
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
    run(
        [](Connection& c) {
          std::unique_ptr<sql::ResultSet> rs(c.prepare("SELECT 1 AS ok").executeQuery());
          rs->next();
        },
        Retry::OnLostConnection);
    return true;
  } catch (const DbError&) {
    return false;
  }
}

}  // namespace dozor::db
