// engines/vault/store on real file systems: a write that runs out of space (research/vault.md
// test 15) leaves the old file and no name behind and answers 507; the per-file bound refuses
// its first byte too many (413); clean_temps() removes the temporary names no writer holds.
#include "engines/vault/store.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <unistd.h>

#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fcgi/error_mapping.hpp"

namespace fs = std::filesystem;
using dozor::vault::NoSpace;
using dozor::vault::Store;
using dozor::vault::TooLarge;
using dozor::vault::VaultPath;

namespace {

// A fresh folder for one test, removed with everything in it.
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& tag) {
    path = fs::temp_directory_path() / ("dozor-store-" + tag + "-" + std::to_string(getpid()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// A small tmpfs mounted on a fresh folder, so that a write can really hit ENOSPC.
struct TinyTmpfs {
  TempDir dir{"tmpfs"};
  bool mounted = false;
  std::string why;
  explicit TinyTmpfs(const std::string& size) {
    std::string opts = "size=" + size + ",mode=0755";
    if (::mount("tmpfs", dir.path.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, opts.c_str()) == 0)
      mounted = true;
    else
      why = std::strerror(errno);
  }
  ~TinyTmpfs() {
    if (mounted) ::umount2(dir.path.c_str(), MNT_DETACH);
  }
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> names_under(const fs::path& root) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(root)) out.push_back(e.path().filename().string());
  return out;
}

void create(Store& s, const std::string& path, const std::string& content) {
  auto f = s.begin_write(VaultPath::parse(path), 1 << 20);
  f.write(content);
  f.commit(false);
}

// Runs fn, which must throw; answers the HTTP response that failure becomes.
template <typename Fn>
dozor::http::Response answer_of(Fn&& fn) {
  try {
    fn();
  } catch (...) {
    return dozor::http::response_for(std::current_exception());
  }
  BOOST_FAIL("expected a failure");
  return dozor::http::Response{};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(vault_store)

BOOST_AUTO_TEST_CASE(a_full_disk_is_507_and_keeps_the_old_file_and_no_name) {
  TinyTmpfs disk("256k");
  if (!disk.mounted) {
    BOOST_TEST_MESSAGE("skipped: cannot mount a tmpfs to fill (" + disk.why + "); run the unit tests as root");
    return;
  }
  Store s(disk.dir.path.string());
  const std::string old = "the old content\n";
  create(s, "/doc.txt", old);

  // Replacing it with more than the disk holds: the write fails midway with ENOSPC.
  std::string chunk(64 * 1024, 'x');
  bool hit = false;
  auto r = answer_of([&] {
    auto f = s.begin_write(VaultPath::parse("/doc.txt"), std::int64_t{1} << 30);
    try {
      for (int i = 0; i < 64; ++i) f.write(chunk);
    } catch (const NoSpace&) {
      hit = true;
      throw;
    }
    f.commit(true);
  });
  BOOST_TEST(hit);
  BOOST_TEST(r.status == 507);
  BOOST_TEST(boost::json::parse(r.body) == boost::json::parse(R"({"detail":"the disk is full"})"));

  auto files = disk.dir.path / "files";
  BOOST_TEST(slurp(files / "doc.txt") == old);
  BOOST_TEST(names_under(files) == std::vector<std::string>{"doc.txt"});
  // The unnamed inode went with its descriptor: the space is free again for the next write.
  create(s, "/after.txt", std::string(128 * 1024, 'y'));
  BOOST_TEST(fs::file_size(files / "after.txt") == 128u * 1024u);
}

BOOST_AUTO_TEST_CASE(a_new_file_that_fills_the_disk_leaves_nothing) {
  TinyTmpfs disk("128k");
  if (!disk.mounted) {
    BOOST_TEST_MESSAGE("skipped: cannot mount a tmpfs to fill (" + disk.why + "); run the unit tests as root");
    return;
  }
  Store s(disk.dir.path.string());
  s.make_dir(VaultPath::parse("/in"));
  auto r = answer_of([&] {
    auto f = s.begin_write(VaultPath::parse("/in/big.bin"), std::int64_t{1} << 30);
    std::string chunk(16 * 1024, 'z');
    for (int i = 0; i < 64; ++i) f.write(chunk);
    f.commit(false);
  });
  BOOST_TEST(r.status == 507);
  BOOST_TEST(names_under(disk.dir.path / "files") == std::vector<std::string>{"in"});
}

BOOST_AUTO_TEST_CASE(the_size_bound_admits_n_bytes_and_refuses_n_plus_one_with_413) {
  TempDir d("bound");
  Store s(d.path.string());
  const std::int64_t n = 1000;
  {
    auto f = s.begin_write(VaultPath::parse("/exact.bin"), n);
    f.write(std::string(n - 1, 'a'));
    f.write("b");  // the n-th byte
    f.commit(false);
  }
  BOOST_TEST(fs::file_size(d.path / "files" / "exact.bin") == static_cast<std::uintmax_t>(n));

  auto r = answer_of([&] {
    auto f = s.begin_write(VaultPath::parse("/over.bin"), n);
    f.write(std::string(n, 'a'));
    f.write("b");  // one byte too many
    f.commit(false);
  });
  BOOST_TEST(r.status == 413);
  BOOST_TEST(boost::json::parse(r.body) == boost::json::parse(R"({"detail":"the file is larger than the limit"})"));
  BOOST_CHECK_THROW(s.begin_write(VaultPath::parse("/over2.bin"), n).write(std::string(n + 1, 'a')), TooLarge);
  BOOST_TEST(names_under(d.path / "files") == std::vector<std::string>{"exact.bin"});
}

BOOST_AUTO_TEST_CASE(clean_temps_removes_abandoned_temporary_names_and_keeps_a_held_one) {
  TempDir d("clean");
  auto files = d.path / "files";
  {
    Store s(d.path.string());  // creates files/ and trash/
    s.make_dir(VaultPath::parse("/sub"));
    create(s, "/keep.txt", "kept");
  }
  auto put = [](const fs::path& p) { std::ofstream(p) << "left behind"; };
  put(files / ".vault-tmp-0123abcd");          // a worker killed between link and rename
  put(files / "sub" / ".vault-tmp-4567ef01");  // the same in a subfolder
  put(files / ".vault-tmp-held");              // a writer still between link and rename
  int held = ::open((files / ".vault-tmp-held").c_str(), O_RDONLY | O_CLOEXEC);
  BOOST_TEST_REQUIRE(held >= 0);
  BOOST_TEST_REQUIRE(::flock(held, LOCK_EX) == 0);

  Store s(d.path.string());
  BOOST_TEST(s.clean_temps() == 2);
  BOOST_TEST(!fs::exists(files / ".vault-tmp-0123abcd"));
  BOOST_TEST(!fs::exists(files / "sub" / ".vault-tmp-4567ef01"));
  BOOST_TEST(fs::exists(files / ".vault-tmp-held"));
  BOOST_TEST(slurp(files / "keep.txt") == "kept");

  // Once its writer lets go, the name is abandoned and the next start removes it.
  ::close(held);
  BOOST_TEST(s.clean_temps() == 1);
  BOOST_TEST(!fs::exists(files / ".vault-tmp-held"));
  BOOST_TEST(fs::exists(files / "keep.txt"));
}

BOOST_AUTO_TEST_SUITE_END()
