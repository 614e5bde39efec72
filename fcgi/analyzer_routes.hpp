#pragma once
// dozor-analyzer's route table: method, path, access, handler, and what the OpenAPI document
// says of it. GET /api/v1/openapi.json is generated from this same table, so the document
// cannot describe a route that is not served, or miss one that is.
#include <boost/json/object.hpp>
#include <vector>

#include "fcgi/request.hpp"
#include "fcgi/response.hpp"
#include "fcgi/router.hpp"
#include "handlers/analyzer.hpp"

namespace dozor::http {

struct AnalyzerRoute {
  const char* method;
  const char* path;
  Access access;  // Public or User (the analyzer has no admin-only route; reveal is checked inside)
  Response (*handler)(handlers::analyzer_api::Service&, const Request&, const handlers::analyzer_api::Caller*);
  const char* operation_id;
  const char* summary;
  const char* ok_schema;            // components/schemas name of the 200 answer
  std::vector<int> error_statuses;  // documented non-200 answers
  bool document_body = false;       // takes a document (raw, multipart, or {"url"})
  bool reveal_parameter = false;    // ?reveal=true
  bool binary_body = false;         // takes raw bytes only (application/octet-stream)
};

const std::vector<AnalyzerRoute>& analyzer_routes();

// Route → bearer check → handler, every failure turned into its HTTP answer. Never throws.
Response analyzer_dispatch(handlers::analyzer_api::Service& s, const Request& req);

// The OpenAPI 3.1 document of analyzer_routes().
boost::json::object analyzer_openapi();

}  // namespace dozor::http
