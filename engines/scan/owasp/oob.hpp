#pragma once
// The out-of-band side of a scan (docs/scan.md "XXE and SSRF"): probes are registered in the
// OAST store before they are sent, the answers kept; once every probe is out, the scan waits at
// most limits::oast::kWaitMs for hits and turns each probe that was hit into a finding (or adds
// the hit as evidence to the in-band finding of the same place).
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "engines/scan/oast/store.hpp"
#include "engines/scan/owasp/scan_context.hpp"

namespace dozor::owasp {

struct OobOptions {
  std::string base_url;          // scanner.oast_base_url; empty: out-of-band proofs off
  oast::Store* store = nullptr;  // null: off
  std::chrono::milliseconds wait{limits::oast::kWaitMs};
  std::chrono::milliseconds poll{limits::oast::kPollMs};
};

// A probe that was hit, for the result ("oast": {"hits": [...]}).
struct OobHit {
  oast::Probe probe;
  oast::Hit hit;
};

class Oob {
 public:
  explicit Oob(OobOptions options) : options_(std::move(options)) {}
  bool enabled() const { return options_.store && !options_.base_url.empty(); }

  // A fresh probe of `kind` and the URL the target must fetch for it (call only when enabled()).
  oast::Probe make(const char* kind, std::string& url) const;
  // Stores the probe (with its request filled in) before it is sent. False: the store failed and
  // the probe must not be sent.
  bool add(const oast::Probe& probe);
  // The probe was sent with this request and got this answer; a hit will prove `text` at `where`.
  void expect(const oast::Probe& probe, const FindingText& text, std::string where, const net::FetchRequest& request,
              const net::CheckOutcome& answer);

  // Waits for hits (bounded by the options' wait, the prober's deadline and cancellation) and adds
  // the findings. Returns the hits that matched a probe of this scan.
  std::vector<OobHit> finish(Scan& scan);

  std::size_t probes() const { return probes_; }

 private:
  struct Pending {
    oast::Probe probe;
    const FindingText* text;
    std::string where;
    audit::Evidence sent;
  };
  OobOptions options_;
  std::vector<Pending> pending_;
  std::size_t probes_ = 0;
};

// The evidence a hit adds: who fetched the probe's URL, when, and how.
audit::Evidence hit_evidence(const oast::Probe& probe, const oast::Hit& hit);

// One finding per (check, place): the hit joins a finding already made in-band, else makes one.
void add_or_merge(std::vector<audit::Finding>& findings, const FindingText& text, const std::string& confidence,
                  const std::string& where, std::vector<audit::Evidence> evidence);

}  // namespace dozor::owasp
