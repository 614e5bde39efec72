#include "engines/audit/exposures/exposures.hpp"

#include <boost/json/array.hpp>
#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>
#include <random>

#include "engines/limits.hpp"
#include "engines/text/utf8.hpp"

namespace dozor::audit::exposures {
namespace {

std::string random_path() {
  std::random_device rd;
  std::uniform_int_distribution<unsigned> hex(0, 15);
  std::string s = "/dozor-not-found-";
  for (int i = 0; i < 20; ++i) s += "0123456789abcdef"[hex(rd)];
  return s;
}

Answer answer_of(net::CheckOutcome o) {
  Answer a;
  a.responded = o.responded;
  a.status = o.status;
  a.final_url = std::move(o.final_url);
  a.body = std::move(o.body);
  a.truncated = o.truncated;
  if (!o.exchanges.empty()) {
    a.exchange = std::move(o.exchanges.back());
    a.content_type = net::first_header(a.exchange->response_headers, "content-type").value_or("");
  }
  return a;
}

boost::json::object text_json(const Text& t) { return {{"en", t.en}, {"ru", t.ru}}; }

// The exchange as evidence: binary bodies shown as their first bytes, secrets masked.
net::Exchange evidence_exchange(const Probe& probe, const Answer& a) {
  net::Exchange x = *a.exchange;
  if (!probe.magic.empty() && !text::is_valid_utf8(a.body))
    x.body_excerpt =
        "[binary, " + std::to_string(a.body.size()) + (a.truncated ? "+" : "") + " bytes: " + hex_prefix(a.body) + "]";
  else if (probe.redact)
    x.body_excerpt = redact(x.body_excerpt);
  return x;
}

}  // namespace

std::string probe_url(const std::string& target, const std::string& path) {
  auto parsed = boost::urls::parse_uri(target);
  if (!parsed) throw std::runtime_error("exposures: the target is not a URL");
  boost::urls::url u(*parsed);
  u.remove_userinfo();
  u.remove_query();
  u.remove_fragment();
  u.set_encoded_path(path);
  return std::string(u.buffer());
}

Result evaluate(const Data& data, const std::string& guard_url, const Answer& guard,
                const std::map<std::string, Answer>& answers) {
  Result r;
  bool catch_all = guard.responded && guard.status >= 200 && guard.status < 300;
  const Answer* guard_page = catch_all ? &guard : nullptr;
  struct Group {
    std::size_t index = 0;  // in r.findings
    std::string title;      // the first probe's
    std::size_t matched = 0;
  };
  std::map<std::string, Group> groups;  // by check
  boost::json::array found, inconclusive;
  std::size_t answered = 0, unanswered = 0;
  for (const auto& probe : data.probes) {
    auto it = answers.find(probe.id);
    if (it == answers.end()) {
      ++unanswered;
      continue;
    }
    const Answer& a = it->second;
    if (a.responded) ++answered;
    auto j = judge(probe, a, guard_page);
    if (j.verdict == Verdict::Inconclusive) {
      inconclusive.push_back({{"id", probe.id}, {"path", probe.path}, {"reason", j.reason}});
      continue;
    }
    if (j.verdict != Verdict::Found) continue;
    found.push_back({{"id", probe.id},
                     {"path", probe.path},
                     {"check", probe.check()},
                     {"severity", to_string(probe.severity)},
                     {"title", text_json(probe.title)}});
    auto check = probe.check();
    auto [group, fresh] = groups.try_emplace(check);
    if (fresh) {
      group->second.index = r.findings.size();
      Finding f;
      f.check = check;
      f.title = probe.title.en;
      f.severity = probe.severity;
      f.confidence = probe.confidence;
      f.owasp = probe.owasp;
      f.cwe = probe.cwe;
      f.description = probe.description.en;
      f.recommendation = probe.recommendation.en;
      group->second.title = f.title;
      r.findings.push_back(std::move(f));
    }
    Finding& f = r.findings[group->second.index];
    // A group takes its worst probe's severity; its title says how many more paths it covers.
    f.severity = std::max(f.severity, probe.severity);
    if (++group->second.matched > 1)
      f.title = group->second.title + " (+" + std::to_string(group->second.matched - 1) + " more)";
    Evidence e;
    e.url = a.final_url.empty() ? probe.path : a.final_url;
    e.excerpt = j.excerpt;
    e.note = probe.absent ? "GET " + probe.path + ": not published"
                          : "GET " + probe.path + " answered " + std::to_string(a.status) + " with " +
                                std::to_string(a.body.size()) + (a.truncated ? "+" : "") + " bytes" +
                                (catch_all ? "; the site answers 2xx to any path, so only the content decided" : "");
    if (a.exchange) e.exchange = evidence_exchange(probe, a);
    f.evidence.push_back(std::move(e));
  }
  boost::json::value guard_status = guard.responded ? boost::json::value(guard.status) : boost::json::value(nullptr);
  r.part = {{"data_version", data.version},
            {"probes", data.probes.size()},
            {"answered", answered},
            {"guard", {{"url", guard_url}, {"status", guard_status}, {"catch_all", catch_all}}},
            {"found", std::move(found)},
            {"inconclusive", std::move(inconclusive)}};
  if (unanswered > 0)
    r.errors.push_back(std::to_string(unanswered) + " of " + std::to_string(data.probes.size()) +
                       " probes not answered before the time budget ran out");
  return r;
}

Result run(const std::string& target, const Data& data, const net::EgressPolicy& policy, net::ScanOptions scan,
           std::chrono::steady_clock::time_point deadline) {
  scan.max_body = std::min(scan.max_body, limits::kExposureBodyBytes);
  net::ScanSession session(policy, std::move(scan));
  auto request = [](std::string url) {
    net::FetchRequest r;
    r.url = std::move(url);
    r.oversize_is_error = false;  // the start of a large file is enough to judge it
    return r;
  };
  std::string guard_url = probe_url(target, random_path());
  Answer guard;
  std::map<std::string, Answer> answers;
  // The guard goes first in the queue; its answer is only needed when judging, after run().
  session.submit(request(guard_url), [&](net::CheckOutcome o) { guard = answer_of(std::move(o)); });
  for (const auto& probe : data.probes)
    session.submit(request(probe_url(target, probe.path)),
                   [&answers, id = probe.id](net::CheckOutcome o) { answers[id] = answer_of(std::move(o)); });
  session.run(deadline);
  bool any = guard.responded;
  for (const auto& [id, a] : answers) any = any || a.responded;
  if (!any)
    throw std::runtime_error(answers.empty() ? "exposures: no probe answered before the time budget ran out"
                                             : "exposures: the site did not answer any probe");
  return evaluate(data, guard_url, guard, answers);
}

Step step(const Data& data, net::OriginScope scope) {
  return {"exposures", [&data, scope = std::move(scope)](const StepInput& in, AuditParts& out) {
            auto scan = in.scan;
            scan.scope = scope;
            // Half of what is left: TLS, compliance and geolocation follow.
            auto r = run(in.target, data, in.policy, std::move(scan), in.share_of_time(0.5));
            for (auto& f : r.findings) out.findings.push_back(std::move(f));
            out.parts["exposures"] = std::move(r.part);
            for (auto& e : r.errors) out.errors.push_back({"exposures", std::move(e)});
          }};
}

}  // namespace dozor::audit::exposures
