#include "engines/scan/owasp/oob.hpp"

#include <algorithm>
#include <map>
#include <thread>

#include "engines/scan/owasp/replay.hpp"

namespace dozor::owasp {

oast::Probe Oob::make(const char* kind, std::string& url) const {
  auto probe = oast::new_probe(kind);
  url = oast::probe_url(options_.base_url, probe.token);
  return probe;
}

bool Oob::add(const oast::Probe& probe) {
  if (!enabled()) return false;
  try {
    options_.store->add({probe});
  } catch (const std::exception&) {
    return false;  // no stored probe, no probe sent: a hit could not be tied to it
  }
  ++probes_;
  return true;
}

void Oob::expect(const oast::Probe& probe, const FindingText& text, std::string where, const net::FetchRequest& request,
                 const net::CheckOutcome& answer) {
  pending_.push_back({probe, &text, std::move(where),
                      evidence_of(request, answer, "status " + std::to_string(answer.status),
                                  "The probe sent; its token is " + probe.token + ".")});
}

audit::Evidence hit_evidence(const oast::Probe& probe, const oast::Hit& hit) {
  audit::Evidence e;
  e.url = probe.url;
  std::string agent;
  for (const auto& [name, value] : hit.headers)
    if (name == "user-agent" || name == "User-Agent") agent = value;
  e.excerpt = hit.method + " " + hit.path + " from " + hit.source + " at " + hit.received_at +
              (agent.empty() ? "" : " (User-Agent: " + agent + ")");
  // The interaction as Dozor's endpoint saw it: the target's request and the answer it got.
  net::Exchange x;
  x.url = hit.path;
  x.request_line = hit.method + " " + hit.path + " HTTP/1.1";
  for (const auto& [name, value] : hit.headers) x.request_headers.push_back({name, value});
  x.status = 200;
  x.status_line = "HTTP/1.1 200 OK";
  x.body_excerpt = probe.marker;
  e.exchange = std::move(x);
  e.note = "Dozor's interaction endpoint received a request for the token " + probe.token +
           ", which was sent only in this probe (" + (probe.param.empty() ? "XML body" : "parameter " + probe.param) +
           " of " + probe.url + "): the target fetched the URL it was given.";
  return e;
}

void add_or_merge(std::vector<audit::Finding>& findings, const FindingText& text, const std::string& confidence,
                  const std::string& where, std::vector<audit::Evidence> evidence) {
  auto title = std::string(text.title) + ": " + where;
  auto it = std::find_if(findings.begin(), findings.end(),
                         [&](const auto& f) { return f.check == text.check && f.title == title; });
  if (it == findings.end()) {
    findings.push_back(make_finding(text, confidence, where));
    it = std::prev(findings.end());
  }
  it->confidence = confidence == "certain" ? confidence : it->confidence;
  if (confidence == "certain") it->severity = std::max(it->severity, text.severity);
  for (auto& e : evidence) it->evidence.push_back(std::move(e));
}

std::vector<OobHit> Oob::finish(Scan& scan) {
  std::vector<OobHit> out;
  if (pending_.empty() || !enabled()) return out;
  std::vector<std::string> tokens;
  for (const auto& p : pending_) tokens.push_back(p.probe.token);
  std::map<std::string, oast::Hit> first_hit;  // token → its first hit
  auto until = std::chrono::steady_clock::now() + options_.wait;
  while (true) {
    try {
      for (auto& h : options_.store->hits(tokens)) first_hit.emplace(h.token, std::move(h));
    } catch (const std::exception&) {
      break;  // the store is gone: no out-of-band proof this time
    }
    if (first_hit.size() == tokens.size() || std::chrono::steady_clock::now() >= until || scan.prober.stopped()) break;
    std::this_thread::sleep_for(options_.poll);
  }
  for (auto& p : pending_) {
    auto it = first_hit.find(p.probe.token);
    if (it == first_hit.end()) continue;
    auto hit = hit_evidence(p.probe, it->second);
    hit.replay = p.sent.replay;  // repeating the probe makes the target call again
    // The probe's request is evidence already when it proved the flaw in-band too.
    auto title = std::string(p.text->title) + ": " + p.where;
    bool shown = std::any_of(scan.findings.begin(), scan.findings.end(), [&](const audit::Finding& f) {
      return f.title == title && std::any_of(f.evidence.begin(), f.evidence.end(),
                                             [&](const audit::Evidence& e) { return e.replay == p.sent.replay; });
    });
    std::vector<audit::Evidence> evidence;
    if (!shown) evidence.push_back(std::move(p.sent));
    evidence.push_back(std::move(hit));
    add_or_merge(scan.findings, *p.text, "certain", p.where, std::move(evidence));
    out.push_back({p.probe, it->second});
  }
  pending_.clear();
  return out;
}

}  // namespace dozor::owasp
