#include "engines/audit/tls/check.hpp"

#include <openssl/ssl.h>

#include <algorithm>
#include <boost/json/array.hpp>
#include <boost/url/parse.hpp>

#include "engines/audit/tls/probe.hpp"
#include "engines/limits.hpp"
#include "engines/net/connect.hpp"
#include "engines/net/exchange_json.hpp"

namespace dozor::audit::tls {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

struct GroupSpec {
  const char* group;
  const char* list;
};
// OpenSSL cipher strings per weak group, offered over TLS 1.0 … 1.2 (TLS 1.3 has no weak suites).
constexpr GroupSpec kGroups[] = {
    {"null", "eNULL:@SECLEVEL=0"}, {"anonymous", "aNULL:!eNULL:@SECLEVEL=0"},
    {"export", "EXP:@SECLEVEL=0"}, {"rc4", "RC4:@SECLEVEL=0"},
    {"3des", "3DES:@SECLEVEL=0"},  {"cbc-sha1", "SHA1:!eNULL:!aNULL:!RC4:!3DES:!EXP:@SECLEVEL=0"},
};

constexpr int kVersions[] = {TLS1_VERSION, TLS1_1_VERSION, TLS1_2_VERSION, TLS1_3_VERSION};

// Each probe gets at most the scanner's request timeout and kTlsProbeTimeoutMs, and never more
// than is left before the deadline.
Clock::time_point probe_deadline(const TlsOptions& o, Clock::time_point deadline) {
  auto cap = std::min(o.scan.request_timeout, milliseconds(limits::kTlsProbeTimeoutMs));
  return std::min(deadline, Clock::now() + cap);
}

std::optional<bool> offered_of(const ProbeResult& p) {
  switch (p.outcome) {
    case ProbeResult::Outcome::Accepted: return true;
    case ProbeResult::Outcome::Refused: return false;
    default: return std::nullopt;
  }
}

void read_hsts(const std::string& target, const net::EgressPolicy& policy, const TlsOptions& o,
               Clock::time_point deadline, Hsts& out) {
  net::ScanOptions scan = o.scan;
  scan.max_body = limits::kTlsHstsBodyBytes;
  scan.request_timeout =
      std::max(milliseconds(1),
               std::min(scan.request_timeout, std::chrono::duration_cast<milliseconds>(deadline - Clock::now())));
  net::ScanSession session(policy, scan);
  net::FetchRequest req;
  req.url = target;
  req.max_redirects = 0;   // HSTS of the target's own answer
  req.verify_tls = false;  // the certificate is judged by the probes
  req.oversize_is_error = false;
  auto outcome = session.fetch(std::move(req));
  if (outcome.exchanges.empty() || !outcome.responded) {
    out.error = outcome.error.empty() ? "no answer" : outcome.error;
    return;
  }
  const auto& ex = outcome.exchanges.front();
  std::string value;
  if (auto v = net::first_header(ex.response_headers, "strict-transport-security")) value = *v;
  auto parsed = value.empty() ? Hsts{} : parse_hsts(value);
  parsed.exchange = ex;
  out = std::move(parsed);
}

}  // namespace

TlsReport check_tls(const std::string& target, const net::EgressPolicy& policy, const TlsOptions& o) {
  auto start = Clock::now();
  auto deadline = std::min(o.deadline, start + milliseconds(limits::kTlsCheckBudgetMs));
  TlsReport r;
  r.target = target;
  auto finish = [&]() -> TlsReport {
    r.grade = grade_of(r);
    r.duration_ms = std::chrono::duration_cast<milliseconds>(Clock::now() - start).count();
    return r;
  };
  auto url = boost::urls::parse_uri(target);
  if (!url) {
    r.error = "not a URL";
    return finish();
  }
  r.scheme = std::string(url->scheme());
  r.host = std::string(url->host_address());
  r.port = url->has_port() ? url->port_number() : (r.scheme == "https" ? 443 : 80);
  if (r.scheme != "https") {
    r.https = false;
    return finish();
  }
  ProbeTarget t;
  t.host = r.host;
  t.port = static_cast<std::uint16_t>(r.port);
  t.policy = &policy;
  t.ca_file = o.scan.ca_file;
  try {
    auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now());
    t.addresses = net::resolve_host(r.host, std::min(left, o.scan.request_timeout));
  } catch (const net::ConnectError& e) {
    r.error = e.what();
    return finish();
  }
  if (auto why = policy.refusal(t.addresses)) {
    r.error = *why;
    return finish();
  }
  for (const auto& a : t.addresses) r.addresses.push_back(a.to_string());

  // A client offering everything: does it speak TLS at all, and the chain.
  ProbeSpec all{TLS1_VERSION, TLS1_3_VERSION, "ALL:@SECLEVEL=0", true};
  auto first = probe(t, all, probe_deadline(o, deadline));
  if (first.outcome != ProbeResult::Outcome::Accepted) {
    r.error = "no TLS handshake with " + r.host + ":" + std::to_string(r.port) + ": " + first.error;
    return finish();
  }
  r.protocol = first.protocol;
  r.cipher = first.cipher;
  r.chain = std::move(first.chain);
  r.verified = first.verified;
  r.verify_error = first.verify_error;
  r.hostname_match = first.hostname_match;

  for (int v : kVersions) {
    auto p = probe(t, {v, v, "ALL:@SECLEVEL=0", false}, probe_deadline(o, deadline));
    r.protocols.push_back({version_name(v), offered_of(p), p.cipher, p.error});
  }
  bool legacy_spoken = std::any_of(r.protocols.begin(), r.protocols.begin() + 3,
                                   [](const ProtocolProbe& p) { return p.offered.value_or(false); });
  for (const auto& g : kGroups) {
    CipherProbe c{g.group, g.list, std::nullopt, "", ""};
    if (!legacy_spoken) {
      c.offered = false;
      c.note = "the server speaks only TLS 1.3, which has no such suites";
    } else {
      auto p = probe(t, {TLS1_VERSION, TLS1_2_VERSION, g.list, false}, probe_deadline(o, deadline));
      c.offered = offered_of(p);
      c.cipher = p.cipher;
      if (p.outcome == ProbeResult::Outcome::NotTestable)
        c.note = "not testable: this OpenSSL has no such suites";
      else if (p.outcome != ProbeResult::Outcome::Accepted)
        c.note = p.error;
    }
    r.ciphers.push_back(std::move(c));
  }
  read_hsts(target, policy, o, deadline, r.hsts);
  return finish();
}

boost::json::object to_json(const TlsReport& r) {
  using boost::json::value;
  auto opt_bool = [](const std::optional<bool>& b) { return b ? value(*b) : value(nullptr); };
  auto text_or_null = [](const std::string& s) { return s.empty() ? value(nullptr) : value(s); };
  boost::json::object protocols;
  boost::json::array probes, ciphers, chain, addresses;
  for (const auto& p : r.protocols) {
    protocols[p.name] = opt_bool(p.offered);
    probes.push_back({{"protocol", p.name},
                      {"offered", opt_bool(p.offered)},
                      {"cipher", text_or_null(p.cipher)},
                      {"error", text_or_null(p.error)}});
  }
  for (const auto& c : r.ciphers)
    ciphers.push_back({{"group", c.group},
                       {"openssl_ciphers", c.openssl_list},
                       {"offered", opt_bool(c.offered)},
                       {"cipher", text_or_null(c.cipher)},
                       {"note", text_or_null(c.note)}});
  for (const auto& c : r.chain) chain.push_back(to_json(c));
  for (const auto& a : r.addresses) addresses.push_back(value(a));
  value certificate = nullptr;
  if (!r.chain.empty()) {
    auto leaf = to_json(r.chain.front());
    leaf["hostname_match"] = opt_bool(r.hostname_match);
    leaf["verified"] = opt_bool(r.verified);
    leaf["verify_error"] = text_or_null(r.verify_error);
    leaf["chain"] = std::move(chain);
    certificate = std::move(leaf);
  }
  value hsts = nullptr;
  if (r.https && !r.error) {
    const auto& h = r.hsts;
    boost::json::object o{{"present", h.present},
                          {"value", text_or_null(h.value)},
                          {"max_age", h.max_age ? value(*h.max_age) : value(nullptr)},
                          {"include_subdomains", h.include_subdomains},
                          {"preload", h.preload},
                          {"error", text_or_null(h.error)}};
    hsts = std::move(o);
  }
  return {{"target", r.target},
          {"host", r.host},
          {"port", r.port},
          {"https", r.https},
          // "offered" / "not offered"; null when an https target could not be told (unreachable …).
          {"tls", !r.https             ? value("not offered")
                  : r.protocol.empty() ? value(nullptr)
                                       : value("offered")},
          {"note", r.https ? value(nullptr)
                           : value("an http:// target has no TLS to probe; check https://" + r.host + "/ for its TLS")},
          {"error", r.error ? value(*r.error) : value(nullptr)},
          {"grade", text_or_null(r.grade)},
          {"addresses", std::move(addresses)},
          {"protocol", text_or_null(r.protocol)},
          {"cipher", text_or_null(r.cipher)},
          {"protocols", std::move(protocols)},
          {"protocol_probes", std::move(probes)},
          {"weak_ciphers", std::move(ciphers)},
          {"certificate", std::move(certificate)},
          {"hsts", std::move(hsts)},
          {"duration_ms", r.duration_ms}};
}

Step tls_step() {
  return {"tls", [](const StepInput& in, AuditParts& out) {
            TlsOptions o;
            o.scan = in.scan;
            o.deadline = in.deadline;
            auto report = check_tls(in.target, in.policy, o);
            out.parts["tls"] = to_json(report);
            for (auto& f : findings_of(report, false)) out.findings.push_back(std::move(f));
            if (report.error) out.errors.push_back({"tls", *report.error});
          }};
}

}  // namespace dozor::audit::tls
