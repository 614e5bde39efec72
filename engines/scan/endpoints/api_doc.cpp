#include "engines/scan/endpoints/api_doc.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <boost/url/parse.hpp>

#include "engines/limits.hpp"

namespace dozor::endpoints {
namespace {

namespace json = boost::json;
namespace L = limits::endpoints;

// yaml-cpp recurses on nesting: texts whose brackets or indentation nest deeper than the bound
// are refused before it sees them.
bool yaml_shallow_enough(std::string_view text) {
  std::size_t depth = 0;
  for (char c : text) {
    if (c == '[' || c == '{') {
      if (++depth > L::kDocumentDepth) return false;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  std::size_t line_start = 0;
  while (line_start < text.size()) {
    auto end = text.find('\n', line_start);
    if (end == std::string_view::npos) end = text.size();
    std::size_t indent = 0;
    while (line_start + indent < end && (text[line_start + indent] == ' ' || text[line_start + indent] == '-'))
      ++indent;
    if (indent > L::kDocumentDepth * 4) return false;
    line_start = end + 1;
  }
  return true;
}

std::optional<json::value> from_yaml(const YAML::Node& n, std::size_t depth, std::size_t& nodes) {
  if (depth > L::kDocumentDepth || ++nodes > 200000) return std::nullopt;
  switch (n.Type()) {
    case YAML::NodeType::Scalar: return json::value(n.Scalar());
    case YAML::NodeType::Sequence: {
      json::array a;
      for (const auto& item : n) {
        auto v = from_yaml(item, depth + 1, nodes);
        if (!v) return std::nullopt;
        a.push_back(std::move(*v));
      }
      return json::value(std::move(a));
    }
    case YAML::NodeType::Map: {
      json::object o;
      for (const auto& kv : n) {
        if (!kv.first.IsScalar()) continue;
        auto v = from_yaml(kv.second, depth + 1, nodes);
        if (!v) return std::nullopt;
        o[kv.first.Scalar()] = std::move(*v);
      }
      return json::value(std::move(o));
    }
    default: return json::value(nullptr);
  }
}

std::optional<json::value> parse_tree(std::string_view text) {
  if (text.size() > L::kDocumentBytes) return std::nullopt;
  auto first = text.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  if (first == std::string_view::npos) return std::nullopt;
  if (text[first] == '{') {
    json::parse_options opt;
    opt.max_depth = L::kDocumentDepth;
    std::error_code ec;
    auto v = json::parse(text, ec, {}, opt);
    if (ec) return std::nullopt;
    return v;
  }
  if (!yaml_shallow_enough(text)) return std::nullopt;
  try {
    auto root = YAML::Load(std::string(text));
    std::size_t nodes = 0;
    return from_yaml(root, 0, nodes);
  } catch (const YAML::Exception&) {
    return std::nullopt;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::string str(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  if (!v) return {};
  if (v->is_string()) return std::string(v->as_string());
  if (v->is_double()) return std::to_string(v->as_double());  // "swagger: 2.0" unquoted in JSON
  return {};
}

// A local reference ("#/components/schemas/User") inside the document, or null.
const json::value* resolve(const json::value& root, std::string_view ref) {
  if (ref.substr(0, 2) != "#/") return nullptr;
  const json::value* at = &root;
  std::string_view rest = ref.substr(2);
  while (!rest.empty()) {
    auto slash = rest.find('/');
    std::string token(rest.substr(0, slash));
    for (std::size_t p; (p = token.find("~1")) != std::string::npos;) token.replace(p, 2, "/");
    for (std::size_t p; (p = token.find("~0")) != std::string::npos;) token.replace(p, 2, "~");
    const auto* o = at->if_object();
    if (!o) return nullptr;
    at = o->if_contains(token);
    if (!at) return nullptr;
    rest = slash == std::string_view::npos ? std::string_view{} : rest.substr(slash + 1);
  }
  return at;
}

// `v`, or what its "$ref" names (one level).
const json::object* deref(const json::value& root, const json::value& v) {
  const auto* o = v.if_object();
  if (!o) return nullptr;
  if (const auto* ref = o->if_contains("$ref"); ref && ref->is_string()) {
    const auto* target = resolve(root, ref->as_string());
    return target ? target->if_object() : nullptr;
  }
  return o;
}

void add_param(std::vector<ApiParam>& out, ApiParam p) {
  if (p.name.empty() || out.size() >= L::kParameters) return;
  if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(std::move(p));
}

void schema_properties(const json::value& root, const json::value& schema, std::vector<ApiParam>& out) {
  const auto* s = deref(root, schema);
  if (!s) return;
  if (const auto* props = s->if_contains("properties"); props && props->is_object())
    for (const auto& kv : props->as_object()) add_param(out, {std::string(kv.key()), "body"});
}

void parameters(const json::value& root, const json::value* list, std::vector<ApiParam>& out) {
  if (!list || !list->is_array()) return;
  for (const auto& item : list->as_array()) {
    const auto* p = deref(root, item);
    if (!p) continue;
    std::string in = str(*p, "in");
    if (in == "body") {  // Swagger 2: the body's schema names the fields
      if (const auto* schema = p->if_contains("schema")) schema_properties(root, *schema, out);
      continue;
    }
    if (in == "formData") in = "body";
    if (in.empty()) continue;
    add_param(out, {str(*p, "name"), in});
  }
}

void request_body(const json::value& root, const json::value* body, std::vector<ApiParam>& out) {
  if (!body) return;
  const auto* b = deref(root, *body);
  if (!b) return;
  const auto* content = b->if_contains("content");
  if (!content || !content->is_object()) return;
  for (const auto& kv : content->as_object()) {
    const auto* media = kv.value().if_object();
    if (!media) continue;
    if (const auto* schema = media->if_contains("schema")) schema_properties(root, *schema, out);
  }
}

bool non_empty_security(const json::value* v) {
  if (!v || !v->is_array()) return false;
  return std::any_of(v->as_array().begin(), v->as_array().end(),
                     [](const json::value& req) { return req.is_object() && !req.as_object().empty(); });
}

std::string base_path_of(const json::object& doc, bool v3) {
  std::string base;
  if (v3) {
    const auto* servers = doc.if_contains("servers");
    if (servers && servers->is_array() && !servers->as_array().empty() && servers->as_array()[0].is_object()) {
      std::string url = str(servers->as_array()[0].as_object(), "url");
      if (auto u = boost::urls::parse_uri(url))
        base = std::string(u->encoded_path());
      else if (!url.empty() && url[0] == '/')
        base = url;
    }
  } else {
    base = str(doc, "basePath");
  }
  if (base.empty() || base[0] != '/' || base.find_first_of("{} ") != std::string::npos) return "";
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base;
}

}  // namespace

std::optional<ApiDoc> parse_api_document(std::string_view text) {
  auto tree = parse_tree(text);
  if (!tree || !tree->is_object()) return std::nullopt;
  const auto& doc = tree->as_object();
  std::string openapi = str(doc, "openapi"), swagger = str(doc, "swagger");
  if (openapi.empty() && swagger.empty()) return std::nullopt;
  const auto* paths = doc.if_contains("paths");
  if (!paths || !paths->is_object()) return std::nullopt;
  bool v3 = !openapi.empty();
  ApiDoc out;
  out.spec = v3 ? "openapi " + openapi : "swagger " + swagger;
  if (const auto* info = doc.if_contains("info"); info && info->is_object())
    out.title = str(info->as_object(), "title");
  out.base_path = base_path_of(doc, v3);
  bool secured_default = non_empty_security(doc.if_contains("security"));
  static constexpr std::array<std::string_view, 8> kMethods = {"get",     "put",  "post",  "delete",
                                                               "options", "head", "patch", "trace"};
  for (const auto& [key, item_value] : paths->as_object()) {
    const auto* item = deref(*tree, item_value);
    if (!item || key.empty() || key[0] != '/') continue;
    std::vector<ApiParam> shared;
    parameters(*tree, item->if_contains("parameters"), shared);
    for (auto method : kMethods) {
      const auto* op_value = item->if_contains(method);
      if (!op_value || !op_value->is_object()) continue;
      if (out.operations.size() >= L::kOperations) {
        out.truncated = true;
        return out;
      }
      const auto& op = op_value->as_object();
      ApiOperation o;
      o.method = std::string(method);
      std::transform(o.method.begin(), o.method.end(), o.method.begin(),
                     [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
      o.path = out.base_path + std::string(key);
      o.params = shared;
      parameters(*tree, op.if_contains("parameters"), o.params);
      request_body(*tree, op.if_contains("requestBody"), o.params);
      const auto* security = op.if_contains("security");
      o.secured = security ? non_empty_security(security) : secured_default;
      out.operations.push_back(std::move(o));
    }
  }
  return out;
}

}  // namespace dozor::endpoints
