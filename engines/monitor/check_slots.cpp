#include "engines/monitor/check_slots.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <stdexcept>

#include "engines/errors.hpp"

namespace dozor::monitor {
namespace {

// Byte offsets in the slots file: global slots first, then a block of kMaxPerUser bytes per
// user. User ids are sequential, so a user's block is unique up to kUserBlocks users; past
// that two users share a block, which only makes the bound stricter for both.
constexpr off_t kUserBase = 1 << 16;
constexpr std::int64_t kUserBlocks = 1 << 20;

bool try_lock(int fd, off_t offset) {
  struct flock fl {};
  fl.l_type = F_WRLCK;
  fl.l_whence = SEEK_SET;
  fl.l_start = offset;
  fl.l_len = 1;
  if (fcntl(fd, F_OFD_SETLK, &fl) == 0) return true;
  if (errno == EAGAIN || errno == EACCES) return false;
  throw std::runtime_error(std::string("check slots: lock failed: ") + std::strerror(errno));
}

bool is_locked(int fd, off_t offset) {
  struct flock fl {};
  fl.l_type = F_WRLCK;
  fl.l_whence = SEEK_SET;
  fl.l_start = offset;
  fl.l_len = 1;
  if (fcntl(fd, F_OFD_GETLK, &fl) != 0)
    throw std::runtime_error(std::string("check slots: lock query failed: ") + std::strerror(errno));
  return fl.l_type != F_UNLCK;
}

// Takes the first free byte in [first, first + count); false when all are held.
bool take_one(int fd, off_t first, int count) {
  for (int i = 0; i < count; ++i)
    if (try_lock(fd, first + i)) return true;
  return false;
}

int open_slots_file(const std::string& path) {
  // Each lease opens the file anew: OFD locks belong to the open file description, so two
  // leases in one process must not share one.
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) throw std::runtime_error("check slots: cannot open " + path + ": " + std::strerror(errno));
  return fd;
}

}  // namespace

CheckSlots::CheckSlots(std::string path, SlotLimits limits, SlotRefusal refusal)
    : path_(std::move(path)), limits_(limits), refusal_(std::move(refusal)) {
  limits_.per_user = std::clamp(limits_.per_user, 1, kMaxPerUser);
  limits_.global = std::clamp(limits_.global, 1, static_cast<int>(kUserBase));
  limits_.per_process = std::max(1, limits_.per_process);
  int fd = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd >= 0) {
    ::close(fd);
    return;
  }
  // No shared file (a config without a writable server.state_dir): the bounds still hold within
  // this process, on an anonymous file reopened through /proc (a new description per lease).
  std::cerr << "check slots: cannot open " << path_ << " (" << std::strerror(errno)
            << "); slots are bounded per process only — set server.state_dir to a writable directory\n";
  private_fd_ = memfd_create("dozor-check-slots", MFD_CLOEXEC);
  if (private_fd_ < 0) throw std::runtime_error(std::string("check slots: memfd_create: ") + std::strerror(errno));
  path_ = "/proc/self/fd/" + std::to_string(private_fd_);
}

CheckSlots::~CheckSlots() {
  if (private_fd_ >= 0) ::close(private_fd_);
}

int CheckSlots::global_in_use() {
  int fd = open_slots_file(path_);
  int used = 0;
  for (int i = 0; i < limits_.global; ++i) used += is_locked(fd, i);
  ::close(fd);
  return used;
}

CheckSlots::Lease CheckSlots::acquire(std::int64_t user_id) {
  {
    std::lock_guard lock(mutex_);
    if (in_process_ >= limits_.per_process) throw TooManyAttempts(refusal_.all_busy, refusal_.retry_after);
    ++in_process_;
  }
  int fd = -1;
  try {
    fd = open_slots_file(path_);
    off_t user_block = kUserBase + static_cast<off_t>(user_id % kUserBlocks) * kMaxPerUser;
    // The first slot of a user is always open to them; more only while half the global slots
    // are free, so under load every user still gets one.
    int allowed = limits_.per_user;
    if (allowed > 1 && is_locked(fd, user_block) && global_in_use() * 2 >= limits_.global) allowed = 1;
    if (!take_one(fd, user_block, allowed)) throw TooManyAttempts(refusal_.user_busy, refusal_.retry_after);
    if (!take_one(fd, 0, limits_.global)) throw TooManyAttempts(refusal_.all_busy, refusal_.retry_after);
    return Lease(*this, fd);
  } catch (...) {
    release(fd);
    throw;
  }
}

void CheckSlots::release(int fd) {
  if (fd >= 0) ::close(fd);  // closing the description drops its locks
  std::lock_guard lock(mutex_);
  --in_process_;
}

}  // namespace dozor::monitor
