#pragma once
// The document server's keys of vault files (migration 0021): one current key per path, and
// the keys closed by a save (replays of their callback write nothing).
#include <cstdint>
#include <optional>
#include <string>

#include "db/database.hpp"

namespace dozor::db::vault_docedit {

// What a file was when its key was issued: a key is reused, and its callback writes, only while
// the file at the path is still this one.
struct FileIdentity {
  std::uint64_t ino = 0;
  std::int64_t size = 0;
  std::int64_t mtime_ns = 0;
  friend bool operator==(const FileIdentity&, const FileIdentity&) = default;
};

struct KeyRow {
  std::string path;
  std::string doc_key;
  std::int64_t version = 0;
  std::int64_t opened_by = 0;        // the last opener with the write right; 0 when none
  std::optional<FileIdentity> file;  // nullopt for a key issued before migration 0022
};

std::optional<KeyRow> find_by_path(Connection& c, const std::string& path);
std::optional<KeyRow> find_by_key(Connection& c, const std::string& doc_key);
// Inserts the path's first key (`user_id` 0: no writer yet); false when a racing request
// inserted one first.
bool insert_key(Connection& c, const std::string& path, const std::string& doc_key, std::int64_t user_id,
                const FileIdentity& file);
void set_opened_by(Connection& c, const std::string& path, std::int64_t user_id);
// The file changed since `old_key` was issued: the path gets `new_key` for `file` (version
// bumped, `user_id` as the writer, 0 for none). `old_key` is forgotten, not closed: its callbacks
// are refused. False when `old_key` is no longer the path's.
bool replace_key(Connection& c, const std::string& path, const std::string& old_key, const std::string& new_key,
                 const FileIdentity& file, std::int64_t user_id);
// The file a key's own save wrote: its session goes on with the new file.
void set_identity(Connection& c, const std::string& doc_key, const FileIdentity& file);
// A force-save (status 6) of `doc_key` whose url and changesurl hash to `digest`: true the first
// time, false for a replay. unclaim_forcesave undoes it after a failed write.
bool claim_forcesave(Connection& c, const std::string& doc_key, const std::string& digest);
void unclaim_forcesave(Connection& c, const std::string& doc_key, const std::string& digest);
// Closes `old_key` and gives the path `new_key` (version bumped) in one transaction; false,
// with nothing changed, when `old_key` is no longer the path's (another callback closed it).
bool rotate_key(Connection& c, const std::string& path, const std::string& old_key, const std::string& new_key);
// Undoes rotate_key after a failed write: `old_key` is current again and no longer closed.
void reopen_key(Connection& c, const std::string& path, const std::string& new_key, const std::string& old_key);
bool is_closed(Connection& c, const std::string& doc_key);

}  // namespace dozor::db::vault_docedit
