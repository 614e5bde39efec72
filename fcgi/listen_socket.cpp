#include "fcgi/listen_socket.hpp"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <utility>

namespace dozor::fcgi {
namespace {

std::string errno_text() { return std::strerror(errno); }

sockaddr_un address_of(const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof addr.sun_path)
    throw std::runtime_error("socket path empty or too long: " + path);
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  return addr;
}

// Whether a server accepts on the socket at `path`: connect() is refused only when nobody listens.
bool someone_listens(const sockaddr_un& addr) {
  int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (probe < 0) throw std::runtime_error("socket: " + errno_text());
  int rc = connect(probe, reinterpret_cast<const sockaddr*>(&addr), sizeof addr);
  int err = errno;
  close(probe);
  if (rc == 0) return true;
  if (err == ECONNREFUSED) return false;
  if (err == EAGAIN) return true;  // a full backlog: it is alive
  throw std::runtime_error(std::string("cannot probe ") + addr.sun_path + ": " + std::strerror(err));
}

void set_nonblocking(int fd) {
  // Non-blocking so that a worker that loses an accept race goes back to poll, not to sleep.
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
    throw std::runtime_error("fcntl O_NONBLOCK: " + errno_text());
}

}  // namespace

ListenSocket ListenSocket::open(const std::string& path, unsigned mode) {
  if (sd_listen_fds(1) >= 1) {
    ListenSocket s;
    s.fd_ = SD_LISTEN_FDS_START;
    s.path_ = path;
    set_nonblocking(s.fd_);
    return s;
  }
  return bind_path(path, mode);
}

ListenSocket ListenSocket::bind_path(const std::string& path, unsigned mode) {
  sockaddr_un addr = address_of(path);
  struct stat st {};
  if (lstat(path.c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode)) throw std::runtime_error(path + " exists and is not a socket: not replacing it");
    if (someone_listens(addr)) throw std::runtime_error(path + " is in use by another server");
    // A socket nobody accepts on is what a crashed master leaves behind.
    if (unlink(path.c_str()) != 0 && errno != ENOENT)
      throw std::runtime_error("cannot remove the stale socket " + path + ": " + errno_text());
    std::cerr << "dozor-fcgi: removed the stale socket " << path << "\n";
  } else if (errno != ENOENT) {
    throw std::runtime_error("cannot examine " + path + ": " + errno_text());
  }

  ListenSocket s;
  s.fd_ = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (s.fd_ < 0) throw std::runtime_error("socket: " + errno_text());
  // bind() fails with EADDRINUSE if another server took the path since the check: nothing is replaced.
  if (bind(s.fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
    throw std::runtime_error("bind " + path + ": " + errno_text());
  s.path_ = path;
  s.bound_here_ = true;
  if (lstat(path.c_str(), &st) != 0) throw std::runtime_error("stat " + path + ": " + errno_text());
  s.dev_ = st.st_dev;
  s.ino_ = st.st_ino;
  try {
    if (chmod(path.c_str(), mode) != 0) throw std::runtime_error("chmod " + path + ": " + errno_text());
    if (listen(s.fd_, 1024) != 0) throw std::runtime_error("listen " + path + ": " + errno_text());
    set_nonblocking(s.fd_);
  } catch (...) {
    s.close_and_unlink();  // the file this call created, and only that one
    throw;
  }
  return s;
}

ListenSocket::ListenSocket(ListenSocket&& other) noexcept { *this = std::move(other); }

ListenSocket& ListenSocket::operator=(ListenSocket&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
    bound_here_ = std::exchange(other.bound_here_, false);
    dev_ = other.dev_;
    ino_ = other.ino_;
  }
  return *this;
}

ListenSocket::~ListenSocket() {
  if (fd_ >= 0) close(fd_);
}

bool ListenSocket::path_is_ours() const {
  if (!bound_here_) return false;
  struct stat st {};
  if (lstat(path_.c_str(), &st) != 0) return false;
  return S_ISSOCK(st.st_mode) && st.st_dev == dev_ && st.st_ino == ino_;
}

bool ListenSocket::close_and_unlink() {
  bool removed = false;
  if (path_is_ours()) removed = unlink(path_.c_str()) == 0;
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
  bound_here_ = false;
  return removed;
}

}  // namespace dozor::fcgi
