#pragma once
// The master's listening socket, and the rule that a socket file is removed only when it is
// ours: the file we bound (same device and inode), never a live socket of another server, a
// file someone put at the path since, or anything that is not a socket.
#include <sys/types.h>

#include <string>

namespace dozor::fcgi {

class ListenSocket {
 public:
  // The socket systemd passed (socket activation), else bind_path().
  static ListenSocket open(const std::string& path, unsigned mode);
  // Binds a unix socket at `path`. A stale socket there (nobody accepts) is replaced; a live
  // one, or a file that is not a socket, is refused (std::runtime_error).
  static ListenSocket bind_path(const std::string& path, unsigned mode);

  ListenSocket() = default;
  ListenSocket(ListenSocket&& other) noexcept;
  ListenSocket& operator=(ListenSocket&& other) noexcept;
  ListenSocket(const ListenSocket&) = delete;
  ListenSocket& operator=(const ListenSocket&) = delete;
  ~ListenSocket();  // closes, never unlinks (forked workers exit without destructors anyway)

  int fd() const { return fd_; }
  const std::string& path() const { return path_; }
  bool bound_here() const { return bound_here_; }  // false for systemd's socket
  // The path still names the socket this object bound.
  bool path_is_ours() const;
  // Stops listening: closes the fd and removes the path if it is ours. Returns whether it removed it.
  bool close_and_unlink();

 private:
  int fd_ = -1;
  std::string path_;
  bool bound_here_ = false;
  dev_t dev_ = 0;
  ino_t ino_ = 0;
};

}  // namespace dozor::fcgi
