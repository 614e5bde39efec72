#include "engines/vault/store.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sodium.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "engines/errors.hpp"

namespace dozor::vault {
namespace {

constexpr std::string_view kTempPrefix = ".vault-tmp-";
constexpr int kMaxTreeDepth = 256;  // removing or measuring a tree deeper than this refuses

[[noreturn]] void fail(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), "vault: " + what);
}

std::string temp_name() {
  unsigned char raw[12];
  randombytes_buf(raw, sizeof raw);
  char hex[sizeof raw * 2 + 1];
  sodium_bin2hex(hex, sizeof hex, raw, sizeof raw);
  return std::string(kTempPrefix) + hex;
}

void fsync_or_fail(int fd, const char* what) {
  if (fsync(fd) != 0) {
    if (errno == ENOSPC || errno == EDQUOT) throw NoSpace("the disk is full");
    fail(what);
  }
}

std::optional<struct stat> stat_at(int dirfd, const std::string& name) {
  struct stat st {};
  if (fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return std::nullopt;
  return st;
}

bool is_file_or_dir(const struct stat& st) { return S_ISREG(st.st_mode) || S_ISDIR(st.st_mode); }

// Calls fn(name) for every entry of the open directory `dirfd` but "." and "..".
template <typename Fn>
void each_entry(int dirfd, Fn&& fn) {
  int copy = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
  if (copy < 0) fail("dup");
  DIR* d = fdopendir(copy);
  if (!d) {
    close(copy);
    fail("fdopendir");
  }
  rewinddir(d);
  std::vector<std::string> names;
  while (dirent* e = readdir(d)) {
    std::string_view n = e->d_name;
    if (n != "." && n != "..") names.emplace_back(n);
  }
  closedir(d);
  for (const auto& n : names) fn(n);
}

std::int64_t tree_size(int dirfd, const std::string& name, int depth) {
  auto st = stat_at(dirfd, name);
  if (!st) return 0;
  if (S_ISREG(st->st_mode)) return st->st_size;
  if (!S_ISDIR(st->st_mode)) return 0;
  if (depth > kMaxTreeDepth) throw Conflict("the folder is nested too deeply");
  Fd sub(openat(dirfd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!sub) return 0;
  std::int64_t total = 0;
  each_entry(sub.get(), [&](const std::string& n) { total += tree_size(sub.get(), n, depth + 1); });
  return total;
}

void remove_tree(int dirfd, const std::string& name, int depth) {
  auto st = stat_at(dirfd, name);
  if (!st) return;
  if (S_ISDIR(st->st_mode)) {
    if (depth > kMaxTreeDepth) throw Conflict("the folder is nested too deeply");
    Fd sub(openat(dirfd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!sub) fail("open for removal");
    each_entry(sub.get(), [&](const std::string& n) { remove_tree(sub.get(), n, depth + 1); });
    if (unlinkat(dirfd, name.c_str(), AT_REMOVEDIR) != 0 && errno != ENOENT) fail("rmdir");
  } else if (unlinkat(dirfd, name.c_str(), 0) != 0 && errno != ENOENT) {
    fail("unlink");
  }
}

int clean_dir(int dirfd, int depth) {
  if (depth > kMaxTreeDepth) return 0;
  int removed = 0;
  each_entry(dirfd, [&](const std::string& n) {
    auto st = stat_at(dirfd, n);
    if (!st) return;
    if (S_ISDIR(st->st_mode)) {
      Fd sub(openat(dirfd, n.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
      if (sub) removed += clean_dir(sub.get(), depth + 1);
      return;
    }
    if (!S_ISREG(st->st_mode) || n.compare(0, kTempPrefix.size(), kTempPrefix) != 0) return;
    Fd f(openat(dirfd, n.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    // A writer holds its lock until it renamed the name away: only abandoned temps are removed.
    if (f && flock(f.get(), LOCK_EX | LOCK_NB) == 0 && unlinkat(dirfd, n.c_str(), 0) == 0) ++removed;
  });
  return removed;
}

}  // namespace

int open_beneath_walk(int dirfd, const std::string& path, int flags, mode_t mode) {
  if (path.empty()) return openat(dirfd, ".", flags | O_CLOEXEC, mode);
  if (path.front() == '/') {
    errno = EXDEV;  // what RESOLVE_BENEATH answers for an absolute path
    return -1;
  }
  int current = dirfd;
  std::size_t start = 0;
  for (;;) {
    auto slash = path.find('/', start);
    std::string part = path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (part.empty() || part == "." || part == "..") {
      if (current != dirfd) close(current);
      errno = EXDEV;
      return -1;
    }
    bool last = slash == std::string::npos;
    int fd = last ? openat(current, part.c_str(), flags | O_NOFOLLOW | O_CLOEXEC, mode)
                  : openat(current, part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int saved = errno;
    struct stat st {};
    // O_DIRECTORY | O_NOFOLLOW on a symlink says ENOTDIR; openat2 says ELOOP, and so do we.
    if (fd < 0 && saved == ENOTDIR && fstatat(current, part.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISLNK(st.st_mode))
      saved = ELOOP;
    if (current != dirfd) close(current);
    errno = saved;
    if (fd < 0 || last) return fd;
    current = fd;
    start = slash + 1;
  }
}

int open_beneath(int dirfd, const std::string& path, int flags, mode_t mode) {
  // systemd refuses openat2 with ENOSYS under RestrictSUIDSGID= (it cannot inspect open_how's
  // mode), and so does an older kernel: then the same rules, one component at a time.
  static std::atomic<bool> have_openat2{true};
  if (!have_openat2.load(std::memory_order_relaxed)) return open_beneath_walk(dirfd, path, flags, mode);
  open_how how{};
  how.flags = static_cast<std::uint64_t>(static_cast<unsigned>(flags | O_CLOEXEC));
  how.mode = mode;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  const char* p = path.empty() ? "." : path.c_str();
  long fd;
  do fd = syscall(SYS_openat2, dirfd, p, &how, sizeof how);
  while (fd < 0 && errno == EAGAIN);  // a concurrent rename elsewhere: the kernel asks to retry
  if (fd < 0 && errno == ENOSYS) {
    have_openat2.store(false, std::memory_order_relaxed);
    return open_beneath_walk(dirfd, path, flags, mode);
  }
  return static_cast<int>(fd);
}

Fd::~Fd() {
  if (fd_ >= 0) close(fd_);
}

Fd& Fd::operator=(Fd&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) close(fd_);
    fd_ = o.release();
  }
  return *this;
}

// ---- PendingFile

PendingFile::PendingFile(Fd dir, Fd file, std::string name, bool named_temp, std::string temp_name,
                         std::int64_t max_bytes)
    : dir_(std::move(dir)),
      file_(std::move(file)),
      name_(std::move(name)),
      named_temp_(named_temp),
      temp_name_(std::move(temp_name)),
      max_bytes_(max_bytes) {}

PendingFile::~PendingFile() {
  if (dir_ && named_temp_ && !committed_) unlinkat(dir_.get(), temp_name_.c_str(), 0);
}

void PendingFile::write(std::string_view data) {
  if (static_cast<std::int64_t>(data.size()) > max_bytes_ - written_)
    throw TooLarge("the file is larger than the limit");
  while (!data.empty()) {
    ssize_t n = ::write(file_.get(), data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == ENOSPC || errno == EDQUOT) throw NoSpace("the disk is full");
      fail("write");
    }
    data.remove_prefix(static_cast<std::size_t>(n));
    written_ += n;
  }
}

std::int64_t PendingFile::commit(bool replace) {
  fsync_or_fail(file_.get(), "fsync");
  std::int64_t old_size = 0;
  if (auto st = stat_at(dir_.get(), name_)) {
    if (!S_ISREG(st->st_mode)) throw Conflict("a folder or other entry with that name exists");
    if (!replace) throw Conflict("a file with that name exists");
    old_size = st->st_size;
  }
  if (named_temp_) {
    unsigned flags = replace ? 0 : RENAME_NOREPLACE;
    if (renameat2(dir_.get(), temp_name_.c_str(), dir_.get(), name_.c_str(), flags) != 0) {
      if (errno == EEXIST) throw Conflict("a file with that name exists");
      fail("rename");
    }
  } else {
    std::string proc = "/proc/self/fd/" + std::to_string(file_.get());
    if (!replace) {
      // link() refuses an existing name: creating never replaces, even against a racing writer.
      if (linkat(AT_FDCWD, proc.c_str(), dir_.get(), name_.c_str(), AT_SYMLINK_FOLLOW) != 0) {
        if (errno == EEXIST) throw Conflict("a file with that name exists");
        fail("link");
      }
    } else {
      temp_name_ = temp_name();
      if (linkat(AT_FDCWD, proc.c_str(), dir_.get(), temp_name_.c_str(), AT_SYMLINK_FOLLOW) != 0) fail("link");
      if (renameat(dir_.get(), temp_name_.c_str(), dir_.get(), name_.c_str()) != 0) {
        int e = errno;
        unlinkat(dir_.get(), temp_name_.c_str(), 0);
        errno = e;
        fail("rename");
      }
    }
  }
  committed_ = true;
  fsync_or_fail(dir_.get(), "fsync of the folder");
  return old_size;
}

// ---- Store

Store::Store(const std::string& root) : root_path_(root) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium cannot be initialised");
  std::error_code ec;
  if (!std::filesystem::exists(root, ec)) {
    std::filesystem::create_directories(root, ec);
    if (ec) throw std::runtime_error("vault.root " + root + ": " + ec.message());
    chmod(root.c_str(), 0750);
  }
  root_ = Fd(open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!root_) throw std::runtime_error("vault.root " + root + ": " + std::strerror(errno));
  // files/ is read by nginx (the internal location): 0755; trash/ only by dozor-fcgi.
  if (mkdirat(root_.get(), "files", 0755) != 0 && errno != EEXIST) fail("mkdir files");
  if (mkdirat(root_.get(), "trash", 0700) != 0 && errno != EEXIST) fail("mkdir trash");
  files_ = Fd(open_beneath(root_.get(), "files", O_RDONLY | O_DIRECTORY));
  trash_ = Fd(open_beneath(root_.get(), "trash", O_RDONLY | O_DIRECTORY));
  if (!files_ || !trash_) fail("open files/ or trash/ under " + root);
}

Fd Store::open_dir(const VaultPath& p) const {
  Fd d(open_beneath(files_.get(), p.relative(), O_RDONLY | O_DIRECTORY));
  if (!d) throw NotFound("Not found");
  return d;
}

std::optional<Entry> Store::stat(const VaultPath& p) const {
  if (p.is_root()) return Entry{"", true, 0, 0};
  Fd parent(open_beneath(files_.get(), p.parent().relative(), O_RDONLY | O_DIRECTORY));
  if (!parent) return std::nullopt;
  auto st = stat_at(parent.get(), p.name());
  if (!st || !is_file_or_dir(*st)) return std::nullopt;
  return Entry{p.name(),
               S_ISDIR(st->st_mode),
               S_ISREG(st->st_mode) ? st->st_size : 0,
               st->st_mtim.tv_sec,
               static_cast<std::uint64_t>(st->st_ino),
               static_cast<std::int64_t>(st->st_mtim.tv_sec) * 1000000000 + st->st_mtim.tv_nsec};
}

std::vector<Entry> Store::list(const VaultPath& dir) const {
  Fd d = open_dir(dir);
  std::vector<Entry> out;
  each_entry(d.get(), [&](const std::string& n) {
    try {
      if (VaultPath::parse_name(n) != n) return;  // not NFC, or reserved: no vault path reaches it
    } catch (const InvalidPath&) {
      return;
    }
    auto st = stat_at(d.get(), n);
    if (!st || !is_file_or_dir(*st)) return;  // symlinks, devices, sockets are never shown
    out.push_back({n, S_ISDIR(st->st_mode), S_ISREG(st->st_mode) ? st->st_size : 0, st->st_mtim.tv_sec});
  });
  return out;
}

Fd Store::open_read(const VaultPath& p) const {
  if (p.is_root()) throw NotFound("Not found");
  // O_NONBLOCK: opening a FIFO someone placed under the root must not hang the thread.
  Fd f(open_beneath(files_.get(), p.relative(), O_RDONLY | O_NONBLOCK | O_NOCTTY));
  struct stat st {};
  if (!f || fstat(f.get(), &st) != 0 || !S_ISREG(st.st_mode)) throw NotFound("Not found");
  return f;
}

void Store::make_dir(const VaultPath& p) {
  if (p.is_root()) throw Conflict("the folder exists");
  Fd parent = open_dir(p.parent());
  if (mkdirat(parent.get(), p.name().c_str(), 0755) != 0) {
    if (errno == EEXIST) throw Conflict("an entry with that name exists");
    if (errno == ENOSPC || errno == EDQUOT) throw NoSpace("the disk is full");
    fail("mkdir");
  }
  fsync_or_fail(parent.get(), "fsync of the folder");
}

PendingFile Store::begin_write(const VaultPath& p, std::int64_t max_bytes) {
  if (p.is_root()) throw Conflict("the root is a folder");
  Fd parent = open_dir(p.parent());
  Fd file(openat(parent.get(), ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0644));
  bool named = false;
  std::string temp;
  if (!file) {
    // File systems without O_TMPFILE: a reserved name from the start, removed on failure.
    if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) fail("create a temporary file");
    temp = temp_name();
    file = Fd(openat(parent.get(), temp.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
    if (!file) fail("create a temporary file");
    named = true;
  }
  // Held until the descriptor closes: clean_temps() leaves a locked temp alone.
  if (flock(file.get(), LOCK_EX) != 0) fail("flock");
  return PendingFile(std::move(parent), std::move(file), p.name(), named, temp, max_bytes);
}

void Store::rename(const VaultPath& from, const VaultPath& to) {
  if (from.is_root() || to.is_root()) throw Conflict("the root cannot be moved");
  if (to.starts_with(from)) throw Conflict("a folder cannot be moved into itself");
  Fd src = open_dir(from.parent());
  Fd dst = open_dir(to.parent());
  auto st = stat_at(src.get(), from.name());
  if (!st || !is_file_or_dir(*st)) throw NotFound("Not found");
  if (renameat2(src.get(), from.name().c_str(), dst.get(), to.name().c_str(), RENAME_NOREPLACE) != 0) {
    if (errno == EEXIST) throw Conflict("an entry with that name exists");
    if (errno == ENOENT) throw NotFound("Not found");
    if (errno == EINVAL) throw Conflict("a folder cannot be moved into itself");
    fail("rename");
  }
  fsync_or_fail(dst.get(), "fsync of the folder");
  fsync_or_fail(src.get(), "fsync of the folder");
}

Fd Store::trash_dir(std::int64_t user_id, bool create) const {
  std::string name = std::to_string(user_id);
  if (create && mkdirat(trash_.get(), name.c_str(), 0700) != 0 && errno != EEXIST) fail("mkdir trash");
  Fd d(open_beneath(trash_.get(), name, O_RDONLY | O_DIRECTORY));
  if (!d && create) fail("open trash");
  return d;
}

std::int64_t Store::move_to_trash(const VaultPath& p, std::int64_t user_id, std::int64_t trash_id) {
  if (p.is_root()) throw Conflict("the root cannot be deleted");
  Fd parent = open_dir(p.parent());
  auto st = stat_at(parent.get(), p.name());
  if (!st || !is_file_or_dir(*st)) throw NotFound("Not found");
  std::int64_t size = tree_size(parent.get(), p.name(), 0);
  Fd trash = trash_dir(user_id, true);
  std::string id = std::to_string(trash_id);
  if (renameat2(parent.get(), p.name().c_str(), trash.get(), id.c_str(), RENAME_NOREPLACE) != 0) {
    if (errno == ENOENT) throw NotFound("Not found");
    fail("move to trash");
  }
  fsync_or_fail(trash.get(), "fsync of the trash");
  fsync_or_fail(parent.get(), "fsync of the folder");
  return size;
}

std::int64_t Store::link_to_trash(const VaultPath& p, std::int64_t user_id, std::int64_t trash_id) {
  Fd parent = open_dir(p.parent());
  auto st = stat_at(parent.get(), p.name());
  if (!st) throw NotFound("Not found");
  if (!S_ISREG(st->st_mode)) throw Conflict("only a file keeps its previous version");
  Fd trash = trash_dir(user_id, true);
  std::string id = std::to_string(trash_id);
  if (linkat(parent.get(), p.name().c_str(), trash.get(), id.c_str(), 0) != 0) {
    if (errno == ENOENT) throw NotFound("Not found");
    fail("link to trash");
  }
  fsync_or_fail(trash.get(), "fsync of the trash");
  return static_cast<std::int64_t>(st->st_size);
}

void Store::restore(std::int64_t user_id, std::int64_t trash_id, const VaultPath& to) {
  Fd trash = trash_dir(user_id, false);
  if (!trash) throw NotFound("Not found");
  Fd dst = open_dir(to.parent());
  std::string id = std::to_string(trash_id);
  if (renameat2(trash.get(), id.c_str(), dst.get(), to.name().c_str(), RENAME_NOREPLACE) != 0) {
    if (errno == EEXIST) throw Conflict("an entry with that name exists");
    if (errno == ENOENT) throw NotFound("Not found");
    fail("restore");
  }
  fsync_or_fail(dst.get(), "fsync of the folder");
  fsync_or_fail(trash.get(), "fsync of the trash");
}

bool Store::trash_holds(std::int64_t user_id, std::int64_t trash_id, const VaultPath& inner) const {
  Fd trash = trash_dir(user_id, false);
  if (!trash) return false;
  std::string item = std::to_string(trash_id);
  if (inner.is_root()) {
    auto st = stat_at(trash.get(), item);
    return st && is_file_or_dir(*st);
  }
  VaultPath dir = inner.parent();
  Fd parent(open_beneath(trash.get(), dir.is_root() ? item : item + "/" + dir.relative(), O_RDONLY | O_DIRECTORY));
  if (!parent) return false;
  auto st = stat_at(parent.get(), inner.name());
  return st && is_file_or_dir(*st);
}

void Store::purge(std::int64_t user_id, std::int64_t trash_id) {
  Fd trash = trash_dir(user_id, false);
  if (!trash) return;
  remove_tree(trash.get(), std::to_string(trash_id), 0);
}

int Store::clean_temps() { return clean_dir(files_.get(), 0); }

}  // namespace dozor::vault
