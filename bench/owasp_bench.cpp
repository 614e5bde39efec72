// bench/scan's program: one OWASP scan of a target with engines/scan/owasp, timed, then one JSON
// line on stdout — the findings (check, category, CWE, URL, title), requests and seconds. Not
// part of the product. The egress policy allows private targets (the fixture is on loopback);
// no OAST store: XXE and SSRF are proved in-band only, as wapiti's modules that would call out
// are left out of the comparison too. Everything else is the product's default, but for the
// per-origin rate when RATE (requests per second) is given.
//
//   owasp_bench URL AUDIT_DATA_DIR [RATE]
#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>
#include <chrono>
#include <iostream>
#include <string>
#include <utility>

#include "engines/audit/data.hpp"
#include "engines/net/egress_policy.hpp"
#include "engines/net/multi_fetch.hpp"
#include "engines/scan/owasp/owasp.hpp"

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    std::cerr << "usage: owasp_bench URL AUDIT_DATA_DIR [RATE]\n";
    return 2;
  }
  dozor::net::global_init();
  const dozor::net::EgressPolicy policy(true);
  auto data = dozor::audit::load_audit_data(argv[2]);
  auto t0 = std::chrono::steady_clock::now();
  dozor::owasp::OwaspOptions options;
  if (argc == 4) options.requests_per_second = std::stoi(argv[3]);
  auto r = dozor::owasp::scan(argv[1], policy, data->sql_errors, std::move(options));
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  boost::json::array findings;
  for (const auto& f : r.findings)
    findings.push_back({{"check", f.check},
                        {"owasp", f.owasp},
                        {"cwe", f.cwe},
                        {"title", f.title},
                        {"url", f.evidence.empty() ? std::string() : f.evidence.front().url}});
  boost::json::object out{{"findings", std::move(findings)},
                          {"requests", r.requests + r.crawl_requests},
                          {"stopped", r.stopped},
                          {"seconds", seconds}};
  std::cout << boost::json::serialize(out) << "\n";
  return 0;
}
