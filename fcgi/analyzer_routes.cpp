#include "fcgi/analyzer_routes.hpp"

#include <charconv>
#include <map>
#include <optional>

#include "engines/errors.hpp"
#include "fcgi/error_mapping.hpp"
#include "fcgi/http_error.hpp"
#include "handlers/versions.hpp"

namespace dozor::http {
namespace {

namespace json = boost::json;
namespace api = handlers::analyzer_api;

Response openapi_handler(api::Service&, const Request&, const api::Caller*) {
  return Response::json(analyzer_openapi());
}

// The caller nginx's auth subrequest established (dozor-fcgi checked the bearer token, the
// account and its token version): the analyzer holds no key that could mint a token.
// DOZOR_* parameters are nginx's own; a client's headers arrive as HTTP_*.
std::optional<api::Caller> caller_from_nginx(const Request& req) {
  auto id = req.params.find("DOZOR_CALLER_ID");
  auto admin = req.params.find("DOZOR_CALLER_ADMIN");
  if (id == req.params.end() || admin == req.params.end() || id->second.empty()) return std::nullopt;
  api::Caller c;
  auto [end, ec] = std::from_chars(id->second.data(), id->second.data() + id->second.size(), c.id);
  if (ec != std::errc() || end != id->second.data() + id->second.size() || c.id <= 0) return std::nullopt;
  c.name = "user " + id->second;
  c.admin = admin->second == "1";
  return c;
}

const char* status_text(int s) {
  switch (s) {
    case 401: return "Missing, invalid or expired bearer token";
    case 403: return "reveal=true asked by a caller who is not an admin";
    case 413: return "The document is larger than analyzer.max_document";
    case 415: return "The document's type is not supported";
    case 422: return "Validation error: a malformed, encrypted or over-limit document, or a bad field";
    case 429: return "The caller's hourly budget (analyzer.user_*_per_hour) is spent; Retry-After says when it renews";
    case 503:
      return "The analyzer is not ready (model loading or its self-test failed), or the malware check is off or failed";
    default: return reason_phrase(s);
  }
}

json::object ref(const char* name) { return {{"$ref", std::string("#/components/schemas/") + name}}; }

json::object schemas() {
  auto str = [] { return json::object{{"type", "string"}}; };
  auto integer = [] { return json::object{{"type", "integer"}, {"minimum", 0}}; };
  json::object location{
      {"type", "object"},
      {"required", json::array{"kind", "ref"}},
      {"properties",
       json::object{{"kind", json::object{{"type", "string"},
                                          {"enum", json::array{"page", "paragraph", "cell", "slide", "line"}}}},
                    {"ref", str()},
                    {"part", str()}}}};
  json::object finding{
      {"type", "object"},
      {"required", json::array{"category", "value", "masked", "location", "confidence", "rule", "special"}},
      {"properties",
       json::object{
           {"category", str()},
           {"value", json::object{{"type", "string"}, {"description", "Masked unless reveal=true (admins)"}}},
           {"masked", json::object{{"type", "boolean"}}},
           {"location", ref("Location")},
           {"confidence", json::object{{"type", "number"}, {"minimum", 0}, {"maximum", 1}}},
           {"rule", str()},
           {"special", json::object{{"type", "boolean"}, {"description", "152-FZ art. 10/11 special category"}}}}}};
  json::object result{
      {"type", "object"},
      {"required", json::array{"document", "findings", "findings_total", "truncated", "summary", "model"}},
      {"properties",
       json::object{
           {"document", json::object{{"type", "object"},
                                     {"required", json::array{"type", "segments", "characters", "words", "bytes"}},
                                     {"properties", json::object{{"type", str()},
                                                                 {"charset", str()},
                                                                 {"pages", integer()},
                                                                 {"segments", integer()},
                                                                 {"characters", integer()},
                                                                 {"words", integer()},
                                                                 {"bytes", integer()},
                                                                 {"source", str()}}}}},
           {"findings", json::object{{"type", "array"}, {"items", ref("Finding")}}},
           {"findings_total", integer()},
           {"truncated", json::object{{"type", "boolean"}}},
           {"summary",
            json::object{
                {"type", "object"},
                {"required", json::array{"risk", "counts", "special_categories", "art10"}},
                {"properties",
                 json::object{
                     {"risk", json::object{{"type", "string"}, {"enum", json::array{"none", "low", "medium", "high"}}}},
                     {"counts", json::object{{"type", "object"}, {"additionalProperties", integer()}}},
                     {"special_categories", json::object{{"type", "array"}, {"items", str()}}},
                     {"art10", json::object{{"type", "boolean"}}}}}}},
           {"model",
            json::object{{"type", "object"}, {"properties", json::object{{"name", str()}, {"version", str()}}}}},
           {"elapsed_ms", integer()}}}};
  json::object health{
      {"type", "object"},
      {"required", json::array{"status", "ready", "uptime_seconds", "documents_analysed", "in_flight"}},
      {"properties",
       json::object{{"status", json::object{{"type", "string"}, {"enum", json::array{"ok", "not_ready"}}}},
                    {"ready", json::object{{"type", "boolean"}}},
                    {"reason", str()},
                    {"uptime_seconds", integer()},
                    {"documents_analysed", integer()},
                    {"documents_refused", integer()},
                    {"in_flight", integer()},
                    {"model", json::object{{"type", "object"}}}}}};
  json::object version{
      {"type", "object"},
      {"required", json::array{"name", "version", "build", "model"}},
      {"properties",
       json::object{
           {"name", str()},
           {"version", json::object{{"type", "string"}, {"description", "The analyzer's release (spec: 1.0.0)"}}},
           {"build", json::object{{"type", "string"}, {"description", "The build serving it"}}},
           {"model", json::object{{"type", json::array{"object", "null"}},
                                  {"properties", json::object{{"name", str()},
                                                              {"version", str()},
                                                              {"checksum", str()},
                                                              {"loaded_at", json::object{{"type", "string"},
                                                                                         {"format", "date-time"}}}}}}},
           {"reason", str()}}}};
  json::object error{
      {"type", "object"}, {"required", json::array{"detail"}}, {"properties", json::object{{"detail", str()}}}};
  json::object validation{
      {"type", "object"},
      {"required", json::array{"detail"}},
      {"properties",
       json::object{
           {"detail",
            json::object{
                {"type", "array"},
                {"items",
                 json::object{
                     {"type", "object"},
                     {"required", json::array{"type", "loc", "msg"}},
                     {"properties",
                      json::object{
                          {"type", str()},
                          {"loc", json::object{{"type", "array"},
                                               {"items", json::object{{"type", json::array{"string", "integer"}}}}}},
                          {"msg", str()},
                          {"input", json::object{}}}}}}}}}}};
  json::object openapi_doc{{"type", "object"}, {"description", "An OpenAPI 3.1 document"}};
  json::object verdict{
      {"type", "object"},
      {"required", json::array{"infected", "signature", "bytes", "engine", "signatures"}},
      {"properties",
       json::object{{"infected", json::object{{"type", "boolean"}}},
                    {"signature", json::object{{"type", json::array{"string", "null"}},
                                               {"description", "The matching signature's name when infected"}}},
                    {"bytes", integer()},
                    {"engine", str()},
                    {"signatures", integer()}}}};
  return {
      {"Location", location},     {"Finding", finding}, {"AnalysisResult", result},          {"Health", health},
      {"Version", version},       {"Error", error},     {"HTTPValidationError", validation}, {"OpenAPI", openapi_doc},
      {"MalwareVerdict", verdict}};
}

}  // namespace

const std::vector<AnalyzerRoute>& analyzer_routes() {
  static const std::vector<AnalyzerRoute> kRoutes{
      {"GET",
       "/health",
       Access::Public,
       api::health,
       "health",
       "Readiness: model loaded and self-tested",
       "Health",
       {503}},
      {"GET",
       "/version",
       Access::Public,
       api::version,
       "version",
       "Release and build versions; model name, version, checksum",
       "Version",
       {}},
      {"POST",
       "/api/v1/analyze",
       Access::User,
       api::analyze,
       "analyze",
       "Find personal data in one document (body, multipart field 'file', or JSON {\"url\": ...})",
       "AnalysisResult",
       {401, 403, 413, 415, 422, 429, 503},
       true,
       true},
      {"POST",
       "/api/v1/malware_scan",
       Access::User,
       api::malware_scan,
       "malware_scan",
       "Check one file (the body's bytes) with ClamAV: the vault's malware check (vault.clamav)",
       "MalwareVerdict",
       {401, 413, 422, 503},
       false,
       false,
       true},
      {"GET",
       "/api/v1/openapi.json",
       Access::Public,
       openapi_handler,
       "openapi",
       "This OpenAPI 3.1 document",
       "OpenAPI",
       {}},
  };
  return kRoutes;
}

Response analyzer_dispatch(api::Service& s, const Request& req) {
  Response r;
  try {
    const AnalyzerRoute* hit = nullptr;
    std::string allowed;
    std::string method = req.method == "HEAD" ? "GET" : req.method;
    for (const auto& route : analyzer_routes()) {
      if (req.raw_path != route.path) continue;
      if (method == route.method) hit = &route;
      allowed += (allowed.empty() ? "" : ", ") + std::string(route.method) +
                 (std::string(route.method) == "GET" ? ", HEAD" : "");
    }
    if (!hit) {
      if (allowed.empty()) throw HttpError(404, "Not Found");
      HttpError e(405, "Method Not Allowed");
      e.headers.emplace_back("Allow", allowed);
      throw e;
    }
    if (hit->access == Access::Public) {
      r = hit->handler(s, req, nullptr);
    } else {
      auto caller = caller_from_nginx(req);
      if (!caller) throw Unauthenticated("no caller");
      r = hit->handler(s, req, &*caller);
    }
  } catch (...) {
    r = response_for_current_exception();
  }
  r.head_only = req.method == "HEAD";
  return r;
}

json::object analyzer_openapi() {
  json::object paths;
  for (const auto& route : analyzer_routes()) {
    json::object responses{
        {"200", json::object{
                    {"description", "OK"},
                    {"content", json::object{{"application/json", json::object{{"schema", ref(route.ok_schema)}}}}}}}};
    for (int st : route.error_statuses) {
      const char* schema = st == 422 ? "HTTPValidationError" : "Error";
      const char* ok = st == 503 && std::string(route.ok_schema) == "Health" ? "Health" : schema;
      responses[std::to_string(st)] =
          json::object{{"description", status_text(st)},
                       {"content", json::object{{"application/json", json::object{{"schema", ref(ok)}}}}}};
    }
    std::string lower_method(route.method);
    for (auto& c : lower_method) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    json::object op{
        {"operationId", route.operation_id}, {"summary", route.summary}, {"responses", std::move(responses)}};
    if (route.access != Access::Public) op["security"] = json::array{json::object{{"bearerAuth", json::array{}}}};
    if (route.reveal_parameter)
      op["parameters"] = json::array{json::object{{"name", "reveal"},
                                                  {"in", "query"},
                                                  {"required", false},
                                                  {"description", "Answer the values unmasked (admins only)"},
                                                  {"schema", json::object{{"type", "boolean"}, {"default", false}}}}};
    if (route.binary_body)
      op["requestBody"] = json::object{
          {"required", true},
          {"content",
           json::object{{"application/octet-stream",
                         json::object{{"schema", json::object{{"type", "string"},
                                                              {"contentMediaType", "application/octet-stream"}}}}}}}};
    if (route.document_body) {
      json::object binary{
          {"schema", json::object{{"type", "string"}, {"contentMediaType", "application/octet-stream"}}}};
      op["requestBody"] = json::object{
          {"required", true},
          {"content",
           json::object{
               {"application/octet-stream", binary},
               {"application/pdf", binary},
               {"text/plain", binary},
               {"text/html", binary},
               {"multipart/form-data",
                json::object{
                    {"schema", json::object{{"type", "object"},
                                            {"required", json::array{"file"}},
                                            {"properties",
                                             json::object{{"file", json::object{{"type", "string"},
                                                                                {"contentMediaType",
                                                                                 "application/octet-stream"}}}}}}}}},
               {"application/json",
                json::object{{"schema", json::object{{"type", "object"},
                                                     {"required", json::array{"url"}},
                                                     {"properties",
                                                      json::object{{"url", json::object{{"type", "string"},
                                                                                        {"format", "uri"}}}}}}}}}}}};
    }
    auto& item = paths[route.path];
    if (!item.is_object()) item = json::object{};
    item.as_object()[lower_method] = std::move(op);
  }
  return json::object{
      {"openapi", "3.1.0"},
      {"info", json::object{{"title", "Dozor document analyzer"},
                            {"version", handlers::kDiagnosticsRelease},
                            {"description",
                             "Finds personal data (152-FZ) in documents. Served on the internal listener only."}}},
      {"paths", std::move(paths)},
      {"components",
       json::object{{"schemas", schemas()},
                    {"securitySchemes",
                     json::object{{"bearerAuth",
                                   json::object{{"type", "http"}, {"scheme", "bearer"}, {"bearerFormat", "JWT"}}}}}}}};
}

}  // namespace dozor::http
