#pragma once
// dozor-analyzer's handlers: readiness, version and the analysis API (docs/analyzer.md).
// The route table that serves them, and the OpenAPI document made from it, are in
// fcgi/analyzer_routes.cpp.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "engines/analyzer/analyzer.hpp"
#include "engines/analyzer/malware.hpp"
#include "engines/analyzer/quota.hpp"
#include "engines/config/config.hpp"
#include "fcgi/request.hpp"
#include "fcgi/response.hpp"

namespace dozor::handlers::analyzer_api {

// The bearer token's claims (verified signature and expiry; see docs/analyzer.md on revocation).
struct Caller {
  std::int64_t id = 0;
  std::string name;
  bool admin = false;
};

// One worker process's analyzer: the model is loaded in the background after start, and until
// it is (and its self-test passed) every answer but /version says why it is not ready.
class Service {
 public:
  // What reads images when analyzer.ocr is on (the program wires Tesseract in; without a
  // factory an OCR configuration leaves the analyzer not ready, saying so).
  using OcrFactory = std::function<std::unique_ptr<const analyzer::Ocr>(const config::AnalyzerConfig&)>;

  explicit Service(config::Config cfg, OcrFactory make_ocr = {});

  // Loads the model (blocking); records the analyzer or the reason it failed.
  void load();

  std::shared_ptr<const analyzer::Analyzer> analyzer() const;
  // Set with the analyzer when analyzer.ocr is on (nullptr otherwise).
  const analyzer::Ocr* ocr() const { return ocr_.get(); }
  std::string not_ready_reason() const;

  const config::Config& config() const { return cfg_; }
  std::chrono::steady_clock::time_point started() const { return started_; }
  // The per-user hourly budgets shared by the workers (nullptr: not limited).
  analyzer::QuotaBoard* quotas() const { return quotas_; }
  // The vault's malware check (vault.clamav): loaded by the program before the workers fork,
  // nullptr when off, or when it failed to load (`error` says why).
  void set_malware_scanner(const analyzer::MalwareScanner* m, std::string error = {}) {
    malware_ = m;
    malware_error_ = std::move(error);
  }
  const analyzer::MalwareScanner* malware() const { return malware_; }
  const std::string& malware_error() const { return malware_error_; }

  std::atomic<std::uint64_t> analysed{0};  // documents answered with a report
  std::atomic<std::uint64_t> refused{0};   // documents answered 413/415/422
  std::atomic<std::int64_t> in_flight{0};  // analyses running now
  std::atomic<std::uint64_t> malware_scanned{0};
  std::atomic<std::uint64_t> malware_found{0};

 private:
  config::Config cfg_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  analyzer::QuotaBoard* quotas_;
  OcrFactory make_ocr_;
  const analyzer::MalwareScanner* malware_ = nullptr;
  std::string malware_error_;
  std::shared_ptr<const analyzer::Ocr> ocr_;  // written by load() before analyzer_ is published
  mutable std::mutex mu_;
  std::shared_ptr<const analyzer::Analyzer> analyzer_;
  std::string reason_ = "the model is loading";
};

http::Response health(Service& s, const http::Request& req, const Caller* caller);
http::Response version(Service& s, const http::Request& req, const Caller* caller);
http::Response analyze(Service& s, const http::Request& req, const Caller* caller);
// POST /api/v1/malware_scan: the body's bytes checked by ClamAV (docs/vault.md "Malware check").
http::Response malware_scan(Service& s, const http::Request& req, const Caller* caller);

// The JSON of a report; values masked unless `reveal`.
boost::json::object report_json(const analyzer::Report& r, bool reveal);

}  // namespace dozor::handlers::analyzer_api
