#pragma once
// The vault's operations: each one decides rights on the canonical path it then hands to the
// Store, and writes an audit row for every mutating action (who, what, when, from where, and
// whether it was done or refused).
//
// Refusals: a path the caller may not see (no right on it, not on the way to a readable folder)
// is 404 whether it exists or not; a path it may see but lacks the needed right on is 403.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"
#include "db/users_repo.hpp"
#include "db/vault_repo.hpp"
#include "engines/config/config.hpp"
#include "engines/errors.hpp"
#include "engines/vault/multipart.hpp"
#include "engines/vault/rights.hpp"
#include "engines/vault/store.hpp"

namespace dozor::vault {

struct Actor {
  const db::users::User& user;
  std::string remote_addr;
};

struct Listing {
  VaultPath path;
  Rights rights;               // on the folder itself
  std::vector<Entry> entries;  // folders first, then files, each by name
};

struct FileRef {
  VaultPath path;
  std::int64_t size = 0;
  std::string mime;  // sniffed (view only)
};

struct TrashItem {
  std::int64_t id = 0;
  std::string original_path;
  bool is_dir = false;
  std::int64_t size = 0;
  std::int64_t trashed_at = 0;
};

struct Saved {
  VaultPath path;
  std::int64_t size = 0;
  bool replaced = false;
  std::string malware_check;  // what the malware check said ("clean", "not scanned: …"); empty when off
};

// An uploaded file the malware check found infected: refused, never given its name (422).
struct Infected : InvalidField {
  Infected(const std::string& name, std::string sig)
      : InvalidField("file", "'" + name + "' was refused: the malware check found " + sig), signature(std::move(sig)) {}
  std::string signature;
};

// The malware check of an upload (vault.clamav; handlers/vault_malware.cpp asks dozor-analyzer):
// reads the finished, not yet named file `fd` of `size` bytes; returns what it decided for the
// answer, throws Infected, or Unavailable when it cannot check (the file is then refused too).
using MalwareCheck = std::function<std::string(const Actor& a, const std::string& name, int fd, std::int64_t size)>;

class Vault;

// One upload request: a MultipartSink that writes each file part into the target folder as it
// arrives. Fields other than files are refused (the folder and overwrite flag come before the
// body, so rights are decided before any byte is written).
class Upload : public MultipartSink {
 public:
  Upload(Vault& v, const Actor& a, VaultPath folder, bool overwrite);
  void on_part(const PartHeaders& h) override;
  void on_data(std::string_view bytes) override;
  void on_part_end() override;
  const std::vector<Saved>& saved() const { return saved_; }

 private:
  Vault& vault_;
  const Actor& actor_;
  VaultPath folder_;
  bool overwrite_;
  Access access_;
  std::int64_t quota_left_;  // INT64_MAX without a quota
  std::optional<PendingFile> current_;
  VaultPath current_path_;
  bool current_exists_ = false;
  std::vector<Saved> saved_;
};

class Vault {
 public:
  Vault(db::Database& db, const config::VaultConfig& cfg);

  Access access_for(const db::users::User& u);

  Listing browse(const Actor& a, const VaultPath& p);
  // Where the vault opens for `u` (GET /vault): the home /home/<username>, made now if it is not
  // yet, when the user may read it; otherwise the top, which lists what the user may see.
  VaultPath start_folder(const db::users::User& u);
  FileRef open_for_download(const Actor& a, const VaultPath& p);
  FileRef open_for_view(const Actor& a, const VaultPath& p);
  // The whole file for an on-demand check (the analyzer's "check for personal data"; the read
  // right), when it holds at most `max_bytes`; nullopt when it is larger.
  std::optional<std::string> read_whole(const Actor& a, const VaultPath& p, std::int64_t max_bytes);
  // Creating (a folder, a file by save_file or upload, the destination of a rename or restore)
  // where the caller cannot read (a drop box) stores under a name of its own (`placed`): the
  // answer tells the path taken.
  VaultPath create_folder(const Actor& a, const VaultPath& p);
  // Replacing an existing file needs write and delete (as an upload's overwrite does); its
  // previous version goes to the actor's trash, as save_version's does.
  Saved save_file(const Actor& a, const VaultPath& p, std::string_view content);
  // A new version of an existing file from the document editor (write and delete): the new
  // content is written and fsynced first, the previous version goes to the actor's trash (where
  // restore brings it back), then the new one takes the name. The trash id of the previous
  // version is in `previous_trash_id` (0 when there was no file).
  Saved save_version(const Actor& a, const VaultPath& p, std::string_view content,
                     std::int64_t* previous_trash_id = nullptr);
  // `moved_to` (optional) receives the path taken (another name in a drop box).
  void rename(const Actor& a, const VaultPath& from, const VaultPath& to, VaultPath* moved_to = nullptr);
  std::int64_t remove(const Actor& a, const VaultPath& p);  // → the trash id
  VaultPath restore(const Actor& a, std::int64_t trash_id);
  std::vector<TrashItem> trash(const Actor& a);
  // Streams a multipart body (read() returns 0 at its end) into `folder`; files already
  // committed stay when a later part fails.
  std::vector<Saved> upload(const Actor& a, const VaultPath& folder, bool overwrite, const std::string& boundary,
                            const std::function<std::size_t(char*, std::size_t)>& read);

  // ---- Homes (docs/vault.md "Homes"; engines/vault/homes.cpp)
  // Makes the account's home /home/<username> if it is not made yet: for an account new since
  // migration 0023, whatever lies at the name is archived first and other users' rules on it
  // older than the account are removed. True when the home is the account's now; false (logged)
  // when it cannot be made at this moment (another process holds the claim, the disk, the
  // database) — the account then holds no right there yet.
  bool ensure_home(const db::users::User& u);
  // ensure_home for the accounts whose home is not made yet (a bounded batch); how many were made.
  int ensure_homes();
  // After an account is deleted: every rule on its home and beneath is removed and the folder
  // goes to /home-archive/<name>~<id>~<time>, so no later account of the name inherits either.
  // Audited as `archive_home`; a failure is logged (ensure_home archives it later).
  void archive_home(const Actor& admin, const db::users::User& gone);

  // Rules (admins): the path is canonical; the user must exist.
  std::vector<db::vault::RuleRow> rules();
  std::int64_t grant(const Actor& admin, std::int64_t user_id, const VaultPath& p, Rights r);
  bool revoke(const Actor& admin, std::int64_t user_id, const VaultPath& p);
  std::vector<db::vault::AuditRow> audit_log(std::int64_t before_id, int limit);

  // Set once by the composition root (handlers/app.cpp) when vault.clamav is on.
  void set_malware_check(MalwareCheck check) { malware_check_ = std::move(check); }

  void audit(const Actor& a, const std::string& action, const std::string& path, const std::string& target,
             const std::string& outcome);
  // dozord's sweep of every user's trash (docs/vault.md "Trash"): at most `limit` items past
  // vault.trash_days, files first, then their rows. Returns how many went.
  int purge_expired_all(int limit);

  Store& store() { return store_; }
  const config::VaultConfig& config() const { return cfg_; }
  db::Database& db() { return db_; }

 private:
  // Bytes one write may have: vault.max_upload, and the room left in the user's quota with
  // `freed` bytes (the file it replaces) given back.
  std::int64_t write_limit(const Actor& a, std::int64_t freed);
  // The malware check of a finished, unnamed file (when set): what it said, or Infected after
  // the audit row (`action`, the path, the signature, "infected") is written.
  std::string check_malware(const Actor& a, const std::string& action, const VaultPath& p, const PendingFile& file);
  // Forbidden when a rule beneath `p` whose path exists withholds a right of `need`.
  void require_subtree(const Access& a, const VaultPath& p, Rights need);
  // Forbidden when a rule beneath `to` withholds write and `holds(its path)` says the content
  // moving to `to` has something there.
  void require_destination(const Access& a, const VaultPath& to, const std::function<bool(const VaultPath&)>& holds);
  // Where a new entry wanted at `wanted` goes: there, or, when the caller cannot read it, beside
  // it under the same name with a random tag.
  VaultPath placed(const Access& a, const VaultPath& wanted);
  // The new content of `p`; replace: the file there (judged by the caller) goes to the actor's
  // trash first and the new one takes its name; otherwise the name must still be free.
  Saved write_version(const Actor& a, const std::string& action, const VaultPath& p, bool replace,
                      std::string_view content, std::int64_t* previous_trash_id);
  // Conflict when `p` is /home or an existing account's home: those are never moved or deleted.
  void require_movable(const VaultPath& p);
  // The existing account whose home `p` is (/home/<its username>), if any.
  std::optional<db::users::User> owner_of_home(const VaultPath& p);
  // Moves a home to /home-archive under archived_home_name(); returns where it went.
  VaultPath archive(const VaultPath& home, const std::string& label);
  void ensure_dir(const VaultPath& p);  // make_dir, an existing folder being fine
  // A made ('ready') home: made again (empty) when someone removed it by hand. True.
  bool keep_home(const db::users::User& u);
  friend class Upload;
  void purge_expired(std::int64_t user_id);
  void purge_rows(const std::vector<db::vault::TrashRow>& rows);

  db::Database& db_;
  config::VaultConfig cfg_;
  Store store_;
  MalwareCheck malware_check_;
};

// The name of an archived home: "<name>~<label>~<stamp>" (label: the deleted account's id, or
// "found" for what a new account found at its name; stamp: UTC, 20261127T101500Z).
std::string archived_home_name(const std::string& name, const std::string& label, const std::string& stamp);

// Rules and the audit log need no files: dozorctl uses these without opening vault.root.
std::vector<db::vault::RuleRow> list_rules(db::Database& db);
std::int64_t grant_rule(db::Database& db, const Actor& admin, std::int64_t user_id, const VaultPath& p, Rights r);
bool revoke_rule(db::Database& db, const Actor& admin, std::int64_t user_id, const VaultPath& p);  // NotFound
void write_audit(db::Database& db, const Actor& a, const std::string& action, const std::string& path,
                 const std::string& target, const std::string& outcome);

// Throws NotFound or Forbidden unless `a` holds every right of `need` on `p`.
void require(const Access& a, const VaultPath& p, Rights need);

}  // namespace dozor::vault
