#include "engines/analyzer/model.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <fstream>
#include <sstream>
#include <string_view>

#include "engines/analyzer/text.hpp"
#include "engines/limits.hpp"

namespace dozor::analyzer {
namespace {

namespace json = boost::json;
using limits::analyzer::kManifestMaxFileBytes;

// The files a model must have; the manifest may list no others.
constexpr std::array<std::string_view, 5> kRequiredFiles{"rules.json", "first_names.txt", "surnames.txt",
                                                         "special_categories.json", "samples.json"};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ModelError("model file " + path + " cannot be read");
  std::string out;
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    out.append(buf, static_cast<std::size_t>(in.gcount()));
    if (out.size() > kManifestMaxFileBytes) throw ModelError("model file " + path + " is larger than allowed");
  }
  return out;
}

json::value parse_json(const std::string& text, const std::string& name) {
  json::error_code ec;
  auto v = json::parse(text, ec);
  if (ec || !v.is_object()) throw ModelError("model file " + name + " is not a JSON object");
  return v;
}

std::string str(const json::object& o, const char* key, const std::string& file) {
  auto* v = o.if_contains(key);
  if (!v || !v->is_string()) throw ModelError("model file " + file + ": '" + key + "' must be a string");
  return std::string(v->get_string());
}

double num(const json::object& o, const char* key, const std::string& file) {
  auto* v = o.if_contains(key);
  if (!v || !v->is_number()) throw ModelError("model file " + file + ": '" + key + "' must be a number");
  double d = v->to_number<double>();
  if (d < 0 || d > 1) throw ModelError("model file " + file + ": '" + key + "' must be within 0..1");
  return d;
}

std::vector<std::string> folded_list(const json::value* v, const std::string& file, const char* what) {
  if (!v || !v->is_array()) throw ModelError("model file " + file + ": '" + what + "' must be a list");
  std::vector<std::string> out;
  for (const auto& e : v->get_array()) {
    if (!e.is_string() || e.get_string().empty())
      throw ModelError("model file " + file + ": '" + what + "' holds a non-string");
    out.push_back(text::fold(std::string(e.get_string())));
  }
  return out;
}

std::unordered_set<std::string> word_list(const std::string& body) {
  std::unordered_set<std::string> out;
  std::istringstream in(body);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) out.insert(text::fold(line));
  }
  return out;
}

}  // namespace

std::string sha256_hex(const std::string& bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), md, &len, EVP_sha256(), nullptr) != 1)
    throw ModelError("sha256 cannot be computed");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) {
    out += kHex[md[i] >> 4];
    out += kHex[md[i] & 15];
  }
  return out;
}

Model load_model(const std::string& dir) {
  Model m;
  const std::string manifest_text = read_file(dir + "/manifest.json");
  auto manifest = parse_json(manifest_text, "manifest.json");
  const auto& mo = manifest.get_object();
  m.name = str(mo, "name", "manifest.json");
  m.version = str(mo, "version", "manifest.json");
  m.checksum = sha256_hex(manifest_text);
  auto* files = mo.if_contains("files");
  if (!files || !files->is_object()) throw ModelError("manifest.json: 'files' must be an object");

  std::map<std::string, std::string> body;
  for (const auto& [key, hash] : files->get_object()) {
    std::string name(key);
    if (std::find(kRequiredFiles.begin(), kRequiredFiles.end(), name) == kRequiredFiles.end())
      throw ModelError("manifest.json lists an unknown file " + name);
    if (!hash.is_string()) throw ModelError("manifest.json: the sha256 of " + name + " must be a string");
    std::string path = dir;
    path += '/';
    path += name;
    std::string content = read_file(path);
    std::string actual = sha256_hex(content);
    if (actual != hash.get_string()) {
      std::string msg = "model file ";
      msg += name;
      msg += " was changed: sha256 ";
      msg += actual;
      msg += ", the manifest says ";
      msg += hash.get_string();
      throw ModelError(msg);
    }
    body[name] = std::move(content);
  }
  for (auto f : kRequiredFiles)
    if (!body.count(std::string(f))) throw ModelError("manifest.json does not list " + std::string(f));

  auto rules = parse_json(body["rules.json"], "rules.json");
  auto* list = rules.get_object().if_contains("rules");
  if (!list || !list->is_array() || list->get_array().empty()) throw ModelError("rules.json: 'rules' must be a list");
  for (const auto& item : list->get_array()) {
    if (!item.is_object()) throw ModelError("rules.json: a rule is not an object");
    const auto& o = item.get_object();
    Rule r;
    r.id = str(o, "id", "rules.json");
    r.category = str(o, "category", "rules.json");
    r.pattern = str(o, "pattern", "rules.json");
    r.validator = str(o, "validator", "rules.json");
    r.context = folded_list(o.if_contains("context"), "rules.json", "context");
    auto mode = str(o, "context_mode", "rules.json");
    if (mode == "none")
      r.context_mode = ContextMode::None;
    else if (mode == "boost")
      r.context_mode = ContextMode::Boost;
    else if (mode == "required")
      r.context_mode = ContextMode::Required;
    else
      throw ModelError("rules.json: rule " + r.id + " has an unknown context_mode " + mode);
    if (r.context_mode != ContextMode::None && r.context.empty())
      throw ModelError("rules.json: rule " + r.id + " needs context words");
    r.confidence = num(o, "confidence", "rules.json");
    r.confidence_context = num(o, "confidence_context", "rules.json");
    m.rules.push_back(std::move(r));
  }

  m.first_names = word_list(body["first_names.txt"]);
  m.surnames = word_list(body["surnames.txt"]);
  if (m.first_names.empty() || m.surnames.empty()) throw ModelError("the name dictionaries are empty");

  auto special = parse_json(body["special_categories.json"], "special_categories.json");
  auto* cats = special.get_object().if_contains("categories");
  if (!cats || !cats->is_object()) throw ModelError("special_categories.json: 'categories' must be an object");
  for (const auto& [cat, words] : cats->get_object())
    m.special[std::string(cat)] = folded_list(&words, "special_categories.json", "categories");

  auto samples = parse_json(body["samples.json"], "samples.json");
  auto* sl = samples.get_object().if_contains("samples");
  if (!sl || !sl->is_array() || sl->get_array().empty()) throw ModelError("samples.json: 'samples' must be a list");
  for (const auto& item : sl->get_array()) {
    if (!item.is_object()) throw ModelError("samples.json: a sample is not an object");
    Sample s;
    s.text = str(item.get_object(), "text", "samples.json");
    auto* ex = item.get_object().if_contains("expect");
    if (!ex || !ex->is_array()) throw ModelError("samples.json: 'expect' must be a list");
    for (const auto& c : ex->get_array())
      if (c.is_string()) s.expect.emplace_back(c.get_string());
    std::sort(s.expect.begin(), s.expect.end());
    m.samples.push_back(std::move(s));
  }
  return m;
}

}  // namespace dozor::analyzer
