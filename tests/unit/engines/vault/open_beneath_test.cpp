#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <string>

#include "engines/vault/store.hpp"

using dozor::vault::open_beneath;
using dozor::vault::open_beneath_walk;

namespace {

// root/a/b/file, root/link-dir -> a, root/a/link-file -> b/file, root/out -> /etc.
struct Tree {
  std::filesystem::path root = std::filesystem::temp_directory_path() / ("dozor-beneath-" + std::to_string(getpid()));
  int fd = -1;
  Tree() {
    std::filesystem::remove_all(root);
    std::filesystem::create_directories(root / "a" / "b");
    std::ofstream(root / "a" / "b" / "file") << "x";
    std::filesystem::create_directory_symlink("a", root / "link-dir");
    std::filesystem::create_symlink("b/file", root / "a" / "link-file");
    std::filesystem::create_directory_symlink("/etc", root / "out");
    fd = open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  }
  ~Tree() {
    close(fd);
    std::filesystem::remove_all(root);
  }
};

using Opener = int (*)(int, const std::string&, int, mode_t);

// -1 and errno, or 0 when it opened (and closed) something.
int attempt(Opener open_fn, int dirfd, const std::string& path, int flags = O_RDONLY) {
  int fd = open_fn(dirfd, path, flags, 0);
  if (fd < 0) return errno;
  close(fd);
  return 0;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(open_beneath_rules)

// Both openers follow the same rules, so a sandbox without openat2 is as safe as one with it.
BOOST_AUTO_TEST_CASE(both_ways_open_plain_paths_and_refuse_symlinks_and_escapes) {
  Tree t;
  for (Opener fn : {Opener(&open_beneath), Opener(&open_beneath_walk)}) {
    BOOST_TEST(attempt(fn, t.fd, "a/b/file") == 0);
    BOOST_TEST(attempt(fn, t.fd, "a/b", O_RDONLY | O_DIRECTORY) == 0);
    BOOST_TEST(attempt(fn, t.fd, "", O_RDONLY | O_DIRECTORY) == 0);
    BOOST_TEST(attempt(fn, t.fd, "link-dir/b/file") == ELOOP);  // a symlink in the middle
    BOOST_TEST(attempt(fn, t.fd, "a/link-file") == ELOOP);      // a symlink at the end
    BOOST_TEST(attempt(fn, t.fd, "out/passwd") == ELOOP);       // a way out
    BOOST_TEST(attempt(fn, t.fd, "../etc/passwd") == EXDEV);
    BOOST_TEST(attempt(fn, t.fd, "/etc/passwd") == EXDEV);
    BOOST_TEST(attempt(fn, t.fd, "a/missing") == ENOENT);
  }
}

BOOST_AUTO_TEST_CASE(the_walk_creates_the_last_component_only) {
  Tree t;
  int fd = open_beneath_walk(t.fd, "a/b/new", O_WRONLY | O_CREAT | O_EXCL, 0600);
  BOOST_TEST_REQUIRE(fd >= 0);
  close(fd);
  BOOST_TEST(std::filesystem::is_regular_file(t.root / "a" / "b" / "new"));
  BOOST_TEST(attempt(&open_beneath_walk, t.fd, "a/nope/new", O_WRONLY | O_CREAT) == ENOENT);
  BOOST_TEST(attempt(&open_beneath_walk, t.fd, "a//b/file") == EXDEV);
}

BOOST_AUTO_TEST_SUITE_END()
