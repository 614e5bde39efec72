#include "engines/analyzer/clamav_scanner.hpp"

#include <clamav.h>

#include <filesystem>
#include <mutex>
#include <set>

namespace dozor::analyzer {

struct ClamavScanner::Engine {
  cl_engine* ptr = nullptr;
  ~Engine() {
    if (ptr) cl_engine_free(ptr);
  }
};

namespace {

void check(cl_error_t rc, const std::string& what) {
  if (rc != CL_SUCCESS) throw MalwareEngineError("ClamAV: " + what + ": " + cl_strerror(rc));
}

}  // namespace

ClamavScanner::ClamavScanner(const std::string& database_dir, std::int64_t max_file)
    : engine_(std::make_unique<Engine>()) {
  static std::once_flag init;
  cl_error_t init_rc = CL_SUCCESS;
  std::call_once(init, [&] { init_rc = cl_init(CL_INIT_DEFAULT); });
  check(init_rc, "initialisation");
  engine_->ptr = cl_engine_new();
  if (!engine_->ptr) throw MalwareEngineError("ClamAV: cannot create an engine");
  // The bytecode signatures run in the interpreter: the JIT would need writable and executable
  // memory, which the analyzer's unit forbids (MemoryDenyWriteExecute).
  check(cl_engine_set_num(engine_->ptr, CL_ENGINE_BYTECODE_MODE, CL_BYTECODE_MODE_INTERPRETER), "bytecode mode");
  auto max = static_cast<long long>(max_file);
  check(cl_engine_set_num(engine_->ptr, CL_ENGINE_MAX_FILESIZE, max), "max file size");
  // Archives unpack to more than the file: the total read per file, ClamAV's default ratio.
  check(cl_engine_set_num(engine_->ptr, CL_ENGINE_MAX_SCANSIZE, max * 4), "max scan size");
  unsigned int sigs = 0;
  check(cl_load(database_dir.c_str(), engine_->ptr, &sigs, CL_DB_STDOPT), "loading " + database_dir);
  if (sigs == 0)
    throw MalwareEngineError("ClamAV: " + database_dir +
                             " holds no signatures (run freshclam, or point vault.clamav_database at a database)");
  check(cl_engine_compile(engine_->ptr), "compiling the signatures of " + database_dir);
  signatures_ = sigs;
}

ClamavScanner::~ClamavScanner() = default;

MalwareVerdict ClamavScanner::scan(std::string_view bytes) const {
  cl_fmap_t* map = cl_fmap_open_memory(bytes.data(), bytes.size());
  if (!map) throw std::runtime_error("ClamAV: cannot map the file for scanning");
  cl_scan_options options{};
  options.parse = ~0U;  // every format ClamAV can unpack (archives, office, PDF, mail, …)
  options.general = CL_SCAN_GENERAL_HEURISTICS;
  const char* name = nullptr;
  unsigned long scanned = 0;
  cl_error_t rc = cl_scanmap_callback(map, nullptr, &name, &scanned, engine_->ptr, &options, nullptr);
  cl_fmap_close(map);
  if (rc == CL_VIRUS) return {true, name ? name : "unnamed signature"};
  if (rc == CL_CLEAN) return {};
  throw std::runtime_error(std::string("ClamAV could not scan the file: ") + cl_strerror(rc));
}

std::string ClamavScanner::version() const { return cl_retver(); }

int clamav_database_files(const std::string& database_dir) {
  // The extensions cl_load reads (signature databases, containers, allow lists, bytecode).
  static const std::set<std::string> kExtensions{".cvd", ".cld", ".cud", ".hdb", ".hsb",  ".hdu", ".hsu",  ".mdb",
                                                 ".msb", ".mdu", ".msu", ".ndb", ".ndu",  ".ldb", ".ldu",  ".cdb",
                                                 ".idb", ".fp",  ".sfp", ".ign", ".ign2", ".pdb", ".gdb",  ".wdb",
                                                 ".ftm", ".cfg", ".crb", ".cat", ".cbc",  ".yar", ".yara", ".imp"};
  std::error_code ec;
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(database_dir, ec))
    if (e.is_regular_file(ec) && kExtensions.count(e.path().extension().string())) ++n;
  return n;
}

}  // namespace dozor::analyzer
