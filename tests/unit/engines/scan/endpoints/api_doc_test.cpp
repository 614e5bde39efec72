// OpenAPI 3 / Swagger 2 documents (engines/scan/endpoints/api_doc.hpp), JSON and YAML.
#include "engines/scan/endpoints/api_doc.hpp"

#include <boost/test/unit_test.hpp>
#include <string>

using dozor::endpoints::ApiOperation;
using dozor::endpoints::ApiParam;
using dozor::endpoints::parse_api_document;

namespace {

const ApiOperation* find(const std::vector<ApiOperation>& ops, const std::string& method, const std::string& path) {
  for (const auto& o : ops)
    if (o.method == method && o.path == path) return &o;
  return nullptr;
}

bool has(const ApiOperation& o, const std::string& name, const std::string& in) {
  for (const auto& p : o.params)
    if (p.name == name && p.in == in) return true;
  return false;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(endpoints_api_doc)

BOOST_AUTO_TEST_CASE(openapi3_json_operations_parameters_refs_and_server_path) {
  auto doc = parse_api_document(R"({
    "openapi": "3.0.3", "info": {"title": "Shop"},
    "servers": [{"url": "https://api.example.com/api/v3/"}],
    "security": [{"bearer": []}],
    "components": {
      "schemas": {"User": {"properties": {"name": {}, "email": {}}}},
      "parameters": {"Limit": {"name": "limit", "in": "query"}}},
    "paths": {
      "/users": {
        "get": {"parameters": [{"$ref": "#/components/parameters/Limit"}], "security": []},
        "post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/User"}}}}}},
      "/users/{id}": {"parameters": [{"name": "id", "in": "path"}], "delete": {}, "x-extension": {}},
      "not-a-path": {"get": {}}
    }})");
  BOOST_REQUIRE(doc);
  BOOST_TEST(doc->spec == "openapi 3.0.3");
  BOOST_TEST(doc->title == "Shop");
  BOOST_TEST(doc->base_path == "/api/v3");
  BOOST_TEST(doc->operations.size() == 3u);
  const auto* get = find(doc->operations, "GET", "/api/v3/users");
  BOOST_REQUIRE(get);
  BOOST_TEST(has(*get, "limit", "query"));
  BOOST_TEST(!get->secured);  // "security": [] opts out
  const auto* post = find(doc->operations, "POST", "/api/v3/users");
  BOOST_REQUIRE(post);
  BOOST_TEST(has(*post, "name", "body"));
  BOOST_TEST(has(*post, "email", "body"));
  BOOST_TEST(post->secured);
  const auto* del = find(doc->operations, "DELETE", "/api/v3/users/{id}");
  BOOST_REQUIRE(del);
  BOOST_TEST(has(*del, "id", "path"));
}

BOOST_AUTO_TEST_CASE(swagger2_yaml_with_base_path_body_and_form_parameters) {
  auto doc = parse_api_document(R"(swagger: "2.0"
info:
  title: Legacy
basePath: /v1/
definitions:
  Order:
    properties:
      item: {type: string}
      qty: {type: integer}
paths:
  /orders:
    post:
      parameters:
        - in: body
          name: body
          schema:
            $ref: '#/definitions/Order'
  /login:
    post:
      parameters:
        - {in: formData, name: user}
        - {in: header, name: X-Token}
)");
  BOOST_REQUIRE(doc);
  BOOST_TEST(doc->spec == "swagger 2.0");
  BOOST_TEST(doc->base_path == "/v1");
  const auto* orders = find(doc->operations, "POST", "/v1/orders");
  BOOST_REQUIRE(orders);
  BOOST_TEST(has(*orders, "item", "body"));
  BOOST_TEST(has(*orders, "qty", "body"));
  const auto* login = find(doc->operations, "POST", "/v1/login");
  BOOST_REQUIRE(login);
  BOOST_TEST(has(*login, "user", "body"));
  BOOST_TEST(has(*login, "X-Token", "header"));
}

BOOST_AUTO_TEST_CASE(other_documents_and_hostile_input_are_not_api_documents) {
  BOOST_TEST(!parse_api_document(""));
  BOOST_TEST(!parse_api_document("<html><body>catch-all</body></html>"));
  BOOST_TEST(!parse_api_document(R"({"name": "package.json", "version": "1.0"})"));
  BOOST_TEST(!parse_api_document(R"({"openapi": "3.0.0"})"));  // no paths
  BOOST_TEST(!parse_api_document(R"({"openapi": "3.0.0", "paths": [)"));
  BOOST_TEST(!parse_api_document("openapi: [unclosed"));
  BOOST_TEST(!parse_api_document(std::string(100000, '[')));
  BOOST_TEST(
      !parse_api_document("{\"openapi\":\"3\",\"paths\":" + std::string(1000, '[') + std::string(1000, ']') + "}"));
  // A self-referencing $ref is followed one level only.
  auto loop = parse_api_document(R"({"openapi": "3.1.0", "paths": {"/a": {"$ref": "#/paths/~1a"}}})");
  BOOST_REQUIRE(loop);
  BOOST_TEST(loop->operations.empty());
}

BOOST_AUTO_TEST_SUITE_END()
