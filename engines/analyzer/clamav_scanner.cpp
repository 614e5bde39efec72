#include "engines/analyzer/clamav_scanner.hpp"

#include <clamav.h>

#include <filesystem>
#include <set>

#include "engines/limits.hpp"

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
  static const cl_error_t init_rc = cl_init(CL_INIT_DEFAULT);  // once per process, its result kept
  check(init_rc, "initialisation");
  engine_->ptr = cl_engine_new();
  if (!engine_->ptr) throw MalwareEngineError("ClamAV: cannot create an engine");
  // The bytecode signatures run in the interpreter: the JIT would need writable and executable
  // memory, which the analyzer's unit forbids (MemoryDenyWriteExecute).
  check(cl_engine_set_num(engine_->ptr, CL_ENGINE_BYTECODE_MODE, CL_BYTECODE_MODE_INTERPRETER), "bytecode mode");
  // What ClamAV reads of one file (an archive member included) and of all of them: it trims a
  // member over the first silently, so it is set far above the uploaded file's own bound, and
  // the scan time (an alert when exceeded) bounds the work instead.
  check(cl_engine_set_num(engine_->ptr, CL_ENGINE_MAX_FILESIZE, limits::analyzer::kMalwareMaxMemberBytes),
        "max file size");
  check(cl_engine_set_num(engine_->ptr, CL_ENGINE_MAX_SCANSIZE, limits::analyzer::kMalwareMaxScanBytes),
        "max scan size");
  // Under the vault's wait for a verdict (kVaultMalwareScanSeconds), so a scan ends first.
  check(cl_engine_set_num(engine_->ptr, CL_ENGINE_MAX_SCANTIME, limits::analyzer::kMalwareScanMillis), "max scan time");
  unsigned int sigs = 0;
  check(cl_load(database_dir.c_str(), engine_->ptr, &sigs, CL_DB_STDOPT), "loading " + database_dir);
  if (sigs == 0)
    throw MalwareEngineError("ClamAV: " + database_dir +
                             " holds no signatures (run freshclam, or point vault.clamav_database at a database)");
  check(cl_engine_compile(engine_->ptr), "compiling the signatures of " + database_dir);
  signatures_ = sigs;
  max_file_ = max_file;
}

ClamavScanner::~ClamavScanner() = default;

MalwareVerdict ClamavScanner::scan(std::string_view bytes) const {
  // ClamAV passes what is over its limits as clean; a file that is not read whole is no verdict.
  if (bytes.size() > static_cast<std::size_t>(max_file_))
    throw std::runtime_error("the file is larger than the malware check reads (" + std::to_string(max_file_) +
                             " bytes)");
  cl_fmap_t* map = cl_fmap_open_memory(bytes.data(), bytes.size());
  if (!map) throw std::runtime_error("ClamAV: cannot map the file for scanning");
  cl_scan_options options{};
  options.parse = ~0U;  // every format ClamAV can unpack (archives, office, PDF, mail, …)
  options.general = CL_SCAN_GENERAL_HEURISTICS;
  // What cannot be read through is a finding, never "clean": an archive member, a total or a
  // nesting over the limits (Heuristics.Limits.Exceeded.*), an encrypted archive or document
  // (Heuristics.Encrypted.*).
  options.heuristic =
      CL_SCAN_HEURISTIC_EXCEEDS_MAX | CL_SCAN_HEURISTIC_ENCRYPTED_ARCHIVE | CL_SCAN_HEURISTIC_ENCRYPTED_DOC;
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
