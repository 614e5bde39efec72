#pragma once
// The vault's files on disk. Every call takes a VaultPath and works relative to directory fds
// opened with openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS) from the
// root's fd, then the *at calls on the last component: no path string is ever resolved from
// "/", a symlink anywhere in a path fails the call, and there is no check-then-use window.
//
// Layout under vault.root:  files/   what users see (nginx's internal location serves it)
//                           trash/<user id>/<trash id>   what a user deleted
//
// Writes are atomic: the new content goes into an unnamed O_TMPFILE inode in the target's
// directory, is fsync'ed, then linked in (link fails if the name exists: creation never
// replaces) or linked under a reserved temporary name and renamed over the old file; then the
// directory is fsync'ed. A killed process or a full disk leaves the old file as it was; only the
// moment between link and rename can leave a `.vault-tmp-*` name, which clean_temps() removes.
#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engines/vault/path.hpp"

namespace dozor::vault {

// An owned file descriptor.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd();
  Fd(Fd&& o) noexcept : fd_(o.release()) {}
  Fd& operator=(Fd&& o) noexcept;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  int release() {
    int f = fd_;
    fd_ = -1;
    return f;
  }
  explicit operator bool() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

struct Entry {
  std::string name;
  bool is_dir = false;
  std::int64_t size = 0;
  std::int64_t mtime = 0;  // seconds since the epoch
  // Filled by stat only: which file this is (a file replaced by any route is another inode, or
  // another size or mtime).
  std::uint64_t ino = 0;
  std::int64_t mtime_ns = 0;  // nanoseconds since the epoch
};

// A write larger than its limit (per-file size or quota).
struct TooLarge : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// The disk (or the file system's quota) is full.
struct NoSpace : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Store;

// A file being written. Nothing is visible until commit(); destroying it uncommitted leaves
// the vault as it was.
class PendingFile {
 public:
  PendingFile(PendingFile&&) noexcept = default;
  PendingFile& operator=(PendingFile&&) noexcept = default;
  ~PendingFile();  // uncommitted: the inode (or the fallback's named temp) goes away
  // Appends bytes; throws TooLarge past max_bytes, NoSpace on a full disk.
  void write(std::string_view data);
  std::int64_t size() const { return written_; }
  // Open for reading too (pread), so the malware check reads what was written before commit.
  int fd() const { return file_.get(); }
  // Makes the file visible at its path. replace=false: Conflict when the name exists.
  // Returns the size of the file it replaced (0 when none).
  std::int64_t commit(bool replace);

 private:
  friend class Store;
  PendingFile(Fd dir, Fd file, std::string name, bool named_temp, std::string temp_name, std::int64_t max_bytes);
  Fd dir_;
  Fd file_;
  std::string name_;
  bool named_temp_ = false;  // the O_TMPFILE fallback: a reserved name exists from the start
  std::string temp_name_;
  std::int64_t max_bytes_ = 0;
  std::int64_t written_ = 0;
  bool committed_ = false;
};

class Store {
 public:
  // Opens vault.root, creating it (0750) and files/ and trash/ when missing.
  explicit Store(const std::string& root);

  // nullopt when absent, or when it is neither a regular file nor a folder (symlinks included).
  std::optional<Entry> stat(const VaultPath& p) const;
  // Regular files and folders of a folder, names that are valid vault names only.
  // Throws NotFound when `dir` is not a folder.
  std::vector<Entry> list(const VaultPath& dir) const;
  // A regular file opened for reading (NotFound otherwise).
  Fd open_read(const VaultPath& p) const;
  // Conflict when the name exists; NotFound when the parent is not a folder.
  void make_dir(const VaultPath& p);
  // A new file at `p` (see PendingFile). NotFound when the parent is not a folder.
  PendingFile begin_write(const VaultPath& p, std::int64_t max_bytes);
  // Moves within the vault; never replaces (Conflict). NotFound when `from` is absent.
  void rename(const VaultPath& from, const VaultPath& to);
  // Moves `p` to trash/<user>/<id>; returns its size (a folder: the sum of its files).
  std::int64_t move_to_trash(const VaultPath& p, std::int64_t user_id, std::int64_t trash_id);
  // Links the file at `p` as trash/<user>/<id> too (a hard link: the name stays where it is);
  // returns its size. A replacing write then swaps the name in one rename, so the previous
  // version is kept without a moment when `p` is missing. NotFound when absent, Conflict for a folder.
  std::int64_t link_to_trash(const VaultPath& p, std::int64_t user_id, std::int64_t trash_id);
  // Moves trash/<user>/<id> back to `to` (Conflict when `to` exists, NotFound when gone).
  void restore(std::int64_t user_id, std::int64_t trash_id, const VaultPath& to);
  // Whether the trash item trash/<user>/<id> has a file or folder at `inner` (a path relative to
  // the item; the root is the item itself). A restore checks what it would bring back.
  bool trash_holds(std::int64_t user_id, std::int64_t trash_id, const VaultPath& inner) const;
  // Removes trash/<user>/<id> for good (absent is fine).
  void purge(std::int64_t user_id, std::int64_t trash_id);
  // Removes `.vault-tmp-*` names no live writer holds (flock); returns how many.
  int clean_temps();

  const std::string& root() const { return root_path_; }

 private:
  Fd open_dir(const VaultPath& p) const;  // NotFound when not a folder
  Fd trash_dir(std::int64_t user_id, bool create) const;

  std::string root_path_;
  Fd root_;   // vault.root
  Fd files_;  // vault.root/files
  Fd trash_;  // vault.root/trash
};

// Opens `path` beneath `dirfd` with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
// "" opens `dirfd` itself again. -1 with errno on failure.
int open_beneath(int dirfd, const std::string& path, int flags, mode_t mode = 0);
// The same without openat2 (used when it answers ENOSYS): component by component with
// O_NOFOLLOW, refusing absolute paths and "", "." and ".." components (EXDEV), symlinks (ELOOP).
// Sound for vault paths: no magic links live under the root, and renames cannot move a
// directory out of it.
int open_beneath_walk(int dirfd, const std::string& path, int flags, mode_t mode = 0);

}  // namespace dozor::vault
