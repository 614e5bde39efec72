// dozor-analyzer: the document analyzer (component C) — its own FastCGI socket and process pool
// under the same supervisor as dozor-fcgi, no database, no network of its own when packaged.
#include <sysexits.h>

#include <iostream>
#include <string>
#include <thread>

#include "engines/analyzer/analyzer.hpp"
#include "engines/analyzer/clamav_scanner.hpp"
#include "engines/analyzer/quota.hpp"
#include "engines/analyzer/tesseract_ocr.hpp"
#include "engines/config/command_line.hpp"
#include "engines/config/config.hpp"
#include "engines/net/multi_fetch.hpp"
#include "fcgi/analyzer_routes.hpp"
#include "fcgi/supervisor.hpp"
#include "fcgi/worker.hpp"
#include "handlers/analyzer.hpp"

namespace {

constexpr const char* kUsage =
    "usage: dozor-analyzer [--config FILE] [--check-config]\n"
    "       dozor-analyzer --version | --help\n"
    "  --config FILE    configuration (default $DOZOR_CONFIG or /etc/dozor/dozor.toml)\n"
    "  --check-config   load the configuration and the model (manifest, checksums,\n"
    "                   self-test), look for ClamAV's database with vault.clamav, report, and\n"
    "                   exit: 0 when valid, 78 (EX_CONFIG) when not\n"
    "Without --check-config: run the master process on analyzer.socket (docs/analyzer.md).\n";

// The shared supervisor reads server.*: the analyzer's own keys take their place.
dozor::config::Config load_checked(const std::string& config_path) {
  // No JWT key: nginx asks dozor-fcgi who the caller is (docs/analyzer.md "Who the caller is"),
  // so a worker taken over by a hostile document holds nothing that mints a token.
  // Nor the database password or the document server's secret: the unit hides those files.
  auto cfg = dozor::config::load(config_path, dozor::config::Secrets::Skip);
  // Its own key from nginx, never dozor-fcgi's (the unit hides that one): a worker taken over by
  // a document cannot pass as nginx to dozor-fcgi.
  cfg.server.nginx_key_file = cfg.analyzer.nginx_key_file;
  cfg.server.nginx_key = dozor::config::read_nginx_key(cfg.analyzer.nginx_key_file, "analyzer.nginx_key_file");
  cfg.server.socket = cfg.analyzer.socket;
  cfg.server.socket_mode = cfg.analyzer.socket_mode;
  cfg.server.workers = cfg.analyzer.workers;
  cfg.server.threads = cfg.analyzer.threads;
  cfg.server.max_requests = 0;
  // Room for the multipart envelope around a document of max_document bytes.
  cfg.server.max_body = cfg.analyzer.max_document + (1 << 20);
  return cfg;
}

}  // namespace

int main(int argc, char** argv) {
  auto parsed = dozor::config::parse_command_line(argc, argv, "dozor-analyzer", kUsage);
  if (!parsed.line) return parsed.exit_status;
  const std::string config_path = parsed.line->config_path;
  dozor::config::Config cfg;
  try {
    cfg = load_checked(config_path);
  } catch (const std::exception& e) {
    std::cerr << "dozor-analyzer: " << e.what() << "\n";
    return EX_CONFIG;
  }
  if (parsed.line->check_only) {
    try {
      dozor::analyzer::Analyzer a(cfg.analyzer.model);
      if (cfg.analyzer.ocr) dozor::analyzer::TesseractOcr ocr(cfg.analyzer.ocr_languages);
      std::cout << "dozor-analyzer: configuration " << dozor::config::resolve_path(config_path) << " is valid; model "
                << a.model().name << " " << a.model().version << " (sha256:" << a.model().checksum
                << ") passed its self-test\n";
      // The signatures are looked for, not loaded: the unit's ExecReload runs this beside a
      // master that holds them (about 1 GiB with the full database) under one MemoryMax, and a
      // reload keeps the engine anyway.
      if (cfg.vault.clamav) {
        auto n = dozor::analyzer::clamav_database_files(cfg.vault.clamav_database);
        if (n == 0)
          throw std::runtime_error("vault.clamav is on but " + cfg.vault.clamav_database +
                                   " holds no ClamAV database file (run freshclam)");
        std::cout << "dozor-analyzer: ClamAV database: " << n << " files in " << cfg.vault.clamav_database
                  << " (loaded at start)\n";
      }
      return 0;
    } catch (const std::exception& e) {
      std::cerr << "dozor-analyzer: " << e.what() << "\n";
      return EX_CONFIG;
    }
  }
  // The per-user budgets are shared by every worker: mapped once, before the first fork.
  if (!dozor::analyzer::QuotaBoard::create())
    std::cerr << "dozor-analyzer: the shared quota table cannot be mapped; per-user budgets are not enforced\n";
  // ClamAV's signatures load here, before the first fork, so that the workers share one copy
  // (about 1 GiB with the full database). A failure leaves the analyzer up (documents are still
  // analysed) and the vault refusing uploads with the reason (docs/vault.md "Malware check").
  // A configuration reload keeps the engine: a signature update takes a restart.
  std::unique_ptr<dozor::analyzer::ClamavScanner> malware;
  std::string malware_error;
  if (cfg.vault.clamav) {
    try {
      malware = std::make_unique<dozor::analyzer::ClamavScanner>(cfg.vault.clamav_database, cfg.analyzer.max_document);
      std::cerr << "dozor-analyzer: ClamAV " << malware->version() << ": " << malware->signatures()
                << " signatures from " << cfg.vault.clamav_database << "\n";
    } catch (const std::exception& e) {
      malware_error = e.what();
      std::cerr << "dozor-analyzer: the malware check cannot run: " << malware_error << "\n";
    }
  }
  try {
    auto load = [&] { return load_checked(config_path); };
    auto worker = [&malware, &malware_error](int listen_fd, const dozor::config::Config& c) {
      dozor::net::global_init();
      dozor::handlers::analyzer_api::Service service(c, [](const dozor::config::AnalyzerConfig& a) {
        return std::make_unique<const dozor::analyzer::TesseractOcr>(a.ocr_languages);
      });
      service.set_malware_scanner(malware.get(), malware_error);
      // The model loads beside the accept loop: /health answers 503 with the reason until it
      // is loaded and self-tested, and keeps saying why if that fails.
      // Detached: run_worker ends the process with _exit, so the service outlives the loader and
      // a join after it would never run (ThreadSanitizer reported the unjoined thread).
      std::thread([&service] { service.load(); }).detach();
      dozor::fcgi::WorkerLimits limits;  // no streamed bodies: documents are read whole, bounded by max_body
      limits.threads = c.server.threads;
      limits.max_requests = c.server.max_requests;
      limits.max_body = c.server.max_body;
      limits.shutdown_timeout = c.server.shutdown_timeout;
      limits.nginx_key = c.server.nginx_key;
      return dozor::fcgi::run_worker(listen_fd, limits, [&](const dozor::http::Request& req) {
        return dozor::http::analyzer_dispatch(service, req);
      });
    };
    return dozor::fcgi::run_supervisor(load, worker);
  } catch (const std::exception& e) {
    std::cerr << "dozor-analyzer: " << e.what() << "\n";
    return 1;
  }
}
