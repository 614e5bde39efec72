#pragma once
// The document server's keys of vault files (migration 0021): one current key per path, and
// the keys closed by a save (replays of their callback write nothing).
#include <cstdint>
#include <optional>
#include <string>

#include "db/database.hpp"

namespace dozor::db::vault_docedit {

struct KeyRow {
  std::string path;
  std::string doc_key;
  std::int64_t version = 0;
  std::int64_t opened_by = 0;  // 0 when unknown
};

std::optional<KeyRow> find_by_path(Connection& c, const std::string& path);
std::optional<KeyRow> find_by_key(Connection& c, const std::string& doc_key);
// Inserts the path's first key; false when a racing request inserted one first.
bool insert_key(Connection& c, const std::string& path, const std::string& doc_key, std::int64_t user_id);
void set_opened_by(Connection& c, const std::string& path, std::int64_t user_id);
// Closes `old_key` and gives the path `new_key` (version bumped) in one transaction; false,
// with nothing changed, when `old_key` is no longer the path's (another callback closed it).
bool rotate_key(Connection& c, const std::string& path, const std::string& old_key, const std::string& new_key);
// Undoes rotate_key after a failed write: `old_key` is current again and no longer closed.
void reopen_key(Connection& c, const std::string& path, const std::string& new_key, const std::string& old_key);
bool is_closed(Connection& c, const std::string& doc_key);

}  // namespace dozor::db::vault_docedit
