#pragma once
// OpenAPI 3 and Swagger 2 documents, JSON or YAML (docs/scan.md "Endpoint discovery"): the
// operations they declare — method, full path (the document's base path or first server's path
// in front), parameters — read with Boost.JSON and yaml-cpp under explicit size and depth bounds.
// Local "$ref"s to parameters and schemas are followed one level.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dozor::endpoints {

struct ApiParam {
  std::string name;
  std::string in;  // query | path | header | cookie | body
  bool operator==(const ApiParam&) const = default;
};

struct ApiOperation {
  std::string method;  // upper case
  std::string path;    // "/api/v1/users/{id}": base path + the document's key
  std::vector<ApiParam> params;
  bool secured = false;  // a non-empty security requirement applies (operation or document)
};

struct ApiDoc {
  std::string spec;  // "openapi 3.0.3" | "swagger 2.0"
  std::string title;
  std::string base_path;  // "" or "/api/v1"
  std::vector<ApiOperation> operations;
  bool truncated = false;  // more operations than limits::endpoints::kOperations
};

// nullopt when the text is not an OpenAPI/Swagger document (not JSON/YAML, too large or too
// deep, no "openapi"/"swagger" version, no "paths" object). Never throws for any input.
std::optional<ApiDoc> parse_api_document(std::string_view text);

}  // namespace dozor::endpoints
