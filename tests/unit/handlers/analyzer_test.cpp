#include "handlers/analyzer.hpp"

#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>
#include <map>
#include <set>

#include "dozor_source_dir.hpp"
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
