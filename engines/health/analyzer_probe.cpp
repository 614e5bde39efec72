#include "engines/health/analyzer_probe.hpp"

#include <boost/json.hpp>

#include "engines/analyzer/remote.hpp"

namespace dozor::health {
namespace {

namespace json = boost::json;

std::int64_t int_field(const json::object& o, const char* key) {
  const auto* v = o.if_contains(key);
  return v && v->is_int64() ? v->as_int64() : 0;
}

std::string string_field(const json::object& o, const char* key) {
  const auto* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->as_string()) : std::string();
}

}  // namespace

AnalyzerFigures probe_analyzer(const std::string& listen, std::chrono::milliseconds timeout) {
  AnalyzerFigures a;
  std::string base = analyzer::remote::base_url(listen);
  if (base.empty()) {
    a.configured = false;
    return a;
  }
  a.url = base + "/health";
  auto answer = analyzer::remote::get(a.url, timeout);
  a.status = answer.status;
  if (!answer.answered) {
    a.reason = answer.error;
    return a;
  }
  const auto* o = answer.body.if_object();
  // nginx answered for it: the listener's allow list (403) or no analyzer behind it (503, 504).
  if (!o || !o->if_contains("ready")) {
    a.reason =
        "HTTP " + std::to_string(answer.status) +
        (answer.status == 403 ? " (the listener's allow list refuses dozor-fcgi)" : " without the analyzer's answer");
    return a;
  }
  a.reachable = true;
  const auto& ready = o->at("ready");
  a.ready = answer.status == 200 && ready.is_bool() && ready.as_bool();
  a.reason = string_field(*o, "reason");
  a.uptime_seconds = int_field(*o, "uptime_seconds");
  a.documents_analysed = int_field(*o, "documents_analysed");
  a.in_flight = int_field(*o, "in_flight");
  if (const auto* m = o->if_contains("model"); m && m->is_object()) {
    a.model_name = string_field(m->as_object(), "name");
    a.model_version = string_field(m->as_object(), "version");
  }
  return a;
}

}  // namespace dozor::health
