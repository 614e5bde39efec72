#include "handlers/analyzer.hpp"

#include <unistd.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "dozor_source_dir.hpp"
#include "engines/analyzer/model.hpp"
#include "fcgi/analyzer_routes.hpp"

using namespace dozor;
using handlers::analyzer_api::Service;

namespace {

config::Config cfg_with_model(const std::string& dir) {
  config::Config c;
  c.analyzer.model = dir;
  return c;
}

http::Request get(const std::string& path) {
  http::Request r;
  r.method = "GET";
  r.raw_target = r.raw_path = path;
  return r;
}

boost::json::object body_of(const http::Response& r) { return boost::json::parse(r.body).as_object(); }

std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_all(const std::filesystem::path& p, const std::string& s) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << s;
}

// A copy of share/analyzer whose first sample ("СНИЛС 112-233-445 95", a SNILS) is expected to
// be an INN, with the manifest's sha256 of samples.json recomputed (as scripts/analyzer-manifest
// does), so the bundle loads and only its self-test can fail. Removed with the object.
struct ModelWithAWrongSample {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("dozor-model-wrong-sample-" + std::to_string(::getpid()));
  ModelWithAWrongSample() {
    namespace fs = std::filesystem;
    fs::remove_all(dir);
    fs::copy(fs::path(DOZOR_SOURCE_DIR) / "share" / "analyzer", dir, fs::copy_options::recursive);
    auto samples = boost::json::parse(read_all(dir / "samples.json")).as_object();
    auto& first = samples.at("samples").as_array().at(0).as_object();
    BOOST_REQUIRE(first.at("text").as_string() == "СНИЛС 112-233-445 95");
    first["expect"] = boost::json::array{"inn"};
    std::string text = boost::json::serialize(samples);
    write_all(dir / "samples.json", text);
    auto manifest = boost::json::parse(read_all(dir / "manifest.json")).as_object();
    manifest.at("files").as_object()["samples.json"] = analyzer::sha256_hex(text);
    write_all(dir / "manifest.json", boost::json::serialize(manifest));
  }
  ~ModelWithAWrongSample() { std::filesystem::remove_all(dir); }
  ModelWithAWrongSample(const ModelWithAWrongSample&) = delete;
  ModelWithAWrongSample& operator=(const ModelWithAWrongSample&) = delete;
};

// What nginx hands the analyzer for an admin (the caller dozor-fcgi named).
std::map<std::string, std::string> admin_caller() { return {{"DOZOR_CALLER_ID", "1"}, {"DOZOR_CALLER_ADMIN", "1"}}; }

}  // namespace

BOOST_AUTO_TEST_SUITE(analyzer_service)

BOOST_AUTO_TEST_CASE(health_is_503_with_the_reason_until_the_model_loads) {
  Service s(cfg_with_model(std::string(DOZOR_SOURCE_DIR) + "/share/analyzer"));
  auto before = http::analyzer_dispatch(s, get("/health"));
  BOOST_TEST(before.status == 503);
  BOOST_TEST(body_of(before).at("reason").as_string() == "the model is loading");
  s.load();
  auto after = http::analyzer_dispatch(s, get("/health"));
  BOOST_TEST(after.status == 200);
  BOOST_TEST(body_of(after).at("ready").as_bool());
}

BOOST_AUTO_TEST_CASE(a_broken_model_keeps_health_503_and_says_why) {
  Service s(cfg_with_model("/nonexistent/model"));
  s.load();
  auto r = http::analyzer_dispatch(s, get("/health"));
  BOOST_TEST(r.status == 503);
  BOOST_TEST(std::string(body_of(r).at("reason").as_string()).find("manifest.json") != std::string::npos);
  auto v = http::analyzer_dispatch(s, get("/version"));
  BOOST_TEST(v.status == 200);
  BOOST_TEST(body_of(v).at("model").is_null());
}

BOOST_AUTO_TEST_CASE(a_failed_self_test_keeps_health_503_and_analyze_refuses) {
  ModelWithAWrongSample model;
  Service s(cfg_with_model(model.dir.string()));
  s.load();
  const std::string reason = "model self-test failed: sample 1: expected [inn], found [snils]";
  auto r = http::analyzer_dispatch(s, get("/health"));
  BOOST_TEST(r.status == 503);
  auto body = body_of(r);
  BOOST_TEST(!body.at("ready").as_bool());
  BOOST_TEST(body.at("status").as_string() == "not_ready");
  // The bundle itself loaded (not a checksum refusal): the self-test is what failed.
  BOOST_TEST(std::string(body.at("reason").as_string()).rfind(reason, 0) == 0, body.at("reason"));
  BOOST_TEST(!body.contains("model"));
  // A second load fails the same way: the 503 stays.
  s.load();
  BOOST_TEST(http::analyzer_dispatch(s, get("/health")).status == 503);
  // /version names no model.
  BOOST_TEST(body_of(http::analyzer_dispatch(s, get("/version"))).at("model").is_null());
  // The analysis API refuses, with the same reason and a Retry-After.
  auto req = get("/api/v1/analyze");
  req.method = "POST";
  req.body = "СНИЛС 112-233-445 95";
  req.params = admin_caller();
  auto refused = http::analyzer_dispatch(s, req);
  BOOST_TEST(refused.status == 503);
  BOOST_TEST(std::string(body_of(refused).at("detail").as_string()).find(reason) != std::string::npos, refused.body);
  bool retry_after = false;
  for (const auto& [k, v] : refused.headers) retry_after |= k == "Retry-After";
  BOOST_TEST(retry_after);
  BOOST_TEST(s.analysed.load() == 0u);
}

// The caller is what nginx's auth subrequest established (DOZOR_CALLER_* parameters); a bearer
// token alone, or a header a client could send, is not a caller.
BOOST_AUTO_TEST_CASE(analyze_needs_the_caller_nginx_established) {
  Service s(cfg_with_model(std::string(DOZOR_SOURCE_DIR) + "/share/analyzer"));
  s.load();
  auto post = [&](std::map<std::string, std::string> params, std::map<std::string, std::string> headers = {}) {
    auto req = get("/api/v1/analyze");
    req.method = "POST";
    req.body = "text";
    req.params = std::move(params);
    for (auto& [k, v] : headers) req.headers[k] = v;
    return http::analyzer_dispatch(s, req).status;
  };
  BOOST_TEST(post({}) == 401);
  BOOST_TEST(post({}, {{"authorization", "Bearer x.y.z"}, {"x-dozor-caller-id", "7"}}) == 401);
  BOOST_TEST(post({{"DOZOR_CALLER_ID", ""}, {"DOZOR_CALLER_ADMIN", "0"}}) == 401);
  BOOST_TEST(post({{"DOZOR_CALLER_ID", "7x"}, {"DOZOR_CALLER_ADMIN", "0"}}) == 401);
  BOOST_TEST(post({{"DOZOR_CALLER_ID", "0"}, {"DOZOR_CALLER_ADMIN", "0"}}) == 401);
  BOOST_TEST(post({{"DOZOR_CALLER_ID", "7"}}) == 401);
  BOOST_TEST(post({{"DOZOR_CALLER_ID", "7"}, {"DOZOR_CALLER_ADMIN", "0"}}) == 200);
}

BOOST_AUTO_TEST_CASE(openapi_lists_exactly_the_route_table) {
  auto doc = http::analyzer_openapi();
  BOOST_TEST(doc.at("openapi").as_string() == "3.1.0");
  std::set<std::string> documented, served;
  for (const auto& [path, item] : doc.at("paths").as_object())
    for (const auto& [method, op] : item.as_object()) documented.insert(std::string(method) + " " + std::string(path));
  for (const auto& r : http::analyzer_routes()) {
    std::string m = r.method;
    for (auto& c : m) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    served.insert(m + " " + r.path);
  }
  BOOST_TEST((documented == served));
}

BOOST_AUTO_TEST_SUITE_END()

// analyzer.user_*_per_hour through the handler: a user's N-th document passes, the N+1-th is a
// 429 with Retry-After naming the key; an admin is not limited.
BOOST_AUTO_TEST_SUITE(analyzer_service_quota)

BOOST_AUTO_TEST_CASE(a_user_past_the_hourly_budget_gets_429) {
  BOOST_REQUIRE(analyzer::QuotaBoard::create());
  auto c = cfg_with_model(std::string(DOZOR_SOURCE_DIR) + "/share/analyzer");
  c.analyzer.user_documents_per_hour = 2;
  Service s(c);
  s.load();
  auto post = [&](bool admin) {
    auto req = get("/api/v1/analyze");
    req.method = "POST";
    req.body = "СНИЛС 112-233-445 95";
    req.params = {{"DOZOR_CALLER_ID", admin ? "1" : "42"}, {"DOZOR_CALLER_ADMIN", admin ? "1" : "0"}};
    return http::analyzer_dispatch(s, req);
  };
  BOOST_TEST(post(false).status == 200);
  BOOST_TEST(post(false).status == 200);
  auto refused = post(false);
  BOOST_TEST(refused.status == 429);
  BOOST_TEST(std::string(body_of(refused).at("detail").as_string()).find("analyzer.user_documents_per_hour = 2") !=
             std::string::npos);
  bool retry_after = false;
  for (const auto& [k, v] : refused.headers) retry_after |= k == "Retry-After" && std::stoi(v) > 0;
  BOOST_TEST(retry_after);
  for (int i = 0; i < 3; ++i) BOOST_TEST(post(true).status == 200);
}

BOOST_AUTO_TEST_SUITE_END()
