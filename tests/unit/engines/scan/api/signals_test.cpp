// What the API check reads in answers: stack traces, sensitive fields, GraphQL introspection,
// rate-limit headers.
#include "engines/scan/api/signals.hpp"

#include <boost/test/unit_test.hpp>
#include <map>

using namespace dozor::api;

BOOST_AUTO_TEST_SUITE(api_signals)

BOOST_AUTO_TEST_CASE(stack_traces_of_each_platform_are_recognised) {
  struct Case {
    const char* platform;
    const char* body;
  };
  const Case cases[] = {
      {"python",
       "Traceback (most recent call last):\n  File \"/srv/app.py\", line 12, in get_user\n    int(x)\nValueError: "
       "invalid literal for int() with base 10: 'a'"},
      {"python", "<pre>  File \"/usr/lib/python3/dist-packages/flask/app.py\", line 1823, in full_dispatch_request"},
      {"java",
       "java.lang.NumberFormatException: For input string: \"x\"\n\tat "
       "java.base/java.lang.NumberFormatException.forInputString(NumberFormatException.java:67)\n\tat "
       "com.shop.UserController.get(UserController.java:42)"},
      {"java", "Exception in thread \"main\" java.lang.IllegalStateException: boom"},
      {"php",
       "<b>Fatal error</b>:  Uncaught TypeError: x in /var/www/html/api.php:10 in <b>/var/www/html/api.php</b> on line "
       "<b>10</b>"},
      {"php", "PHP Warning:  Undefined variable $id in /var/www/api/user.php on line 7"},
      {"php", "Stack trace:\n#0 /var/www/html/index.php(12): find_user('x')\n#1 {main}"},
      {"dotnet",
       "System.FormatException: Input string was not in a correct format.\n   at "
       "Shop.Api.UsersController.Get(String id) in C:\\src\\Shop\\UsersController.cs:line 31"},
      {"dotnet", "<h1>Server Error in '/' Application.</h1>"},
      {"node",
       "TypeError: Cannot read properties of undefined (reading 'id')\n    at getUser "
       "(/srv/app/routes/users.js:17:24)\n"
       "    at Layer.handle [as handle_request] (/srv/app/node_modules/express/lib/router/layer.js:95:5)"},
      {"node", "Error: bad\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)"},
  };
  for (const auto& c : cases) {
    auto m = find_stack_trace(c.body);
    BOOST_REQUIRE_MESSAGE(m, c.body);
    BOOST_TEST(m->platform == c.platform, c.body);
    BOOST_TEST(m->length > 0u);
    BOOST_TEST(m->offset + m->length <= std::string_view(c.body).size());
  }
}

BOOST_AUTO_TEST_CASE(ordinary_error_answers_are_not_stack_traces) {
  for (const char* body : {"", R"({"detail":"id must be an integer"})", "Not Found",
                           "<h1>500 Internal Server Error</h1><p>Something went wrong.</p>", "ValueError: invalid id",
                           "NullPointerException", "see line 12 of the manual", "Warning: the file was not found",
                           "at home (we are closed)"})
    BOOST_TEST(!find_stack_trace(body).has_value(), body);
}

BOOST_AUTO_TEST_CASE(sensitive_fields_by_name_and_by_value) {
  auto hits = sensitive_fields(
      R"({"id":1,"name":"alice","password_hash":"$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW",)"
      R"("profile":{"api_key":"sk_live_123","cards":[{"number":"4111 1111 1111 1111"}]},)"
      R"("snils":"112-233-445 95","inn":"7707083893","token":"abc","note":"4111111111111112"})",
      false);
  std::map<std::string, std::string> by_path;
  for (const auto& h : hits) by_path[h.path] = h.kind;
  BOOST_TEST(by_path["password_hash"] == "password hash");
  BOOST_TEST(by_path["profile.api_key"] == "secret");
  BOOST_TEST(by_path["profile.cards[0].number"] == "card number");
  BOOST_TEST(by_path["snils"] == "SNILS");
  BOOST_TEST(by_path["inn"] == "INN");
  BOOST_TEST(by_path["token"] == "token");
  BOOST_TEST(!by_path.count("note"));  // fails Luhn
  BOOST_TEST(!by_path.count("name"));
  for (const auto& h : hits) BOOST_TEST(h.value_excerpt.find("sk_live_123") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(harmless_answers_have_no_sensitive_fields) {
  BOOST_TEST(sensitive_fields(R"({"id":1,"name":"Red book","price":12,"password":"","hash":null})", false).empty());
  BOOST_TEST(sensitive_fields(R"({"token":"eyJ…"})", true).empty());  // a login hands out tokens
  BOOST_TEST(sensitive_fields(R"({"snils":"112-233-445 96","inn":"7707083894","card":"1234"})", false).empty());
  BOOST_TEST(sensitive_fields("<html>password=</html>", false).empty());
  BOOST_TEST(sensitive_fields(R"([1, 2, 3, 1234567890123])", false).empty());
}

BOOST_AUTO_TEST_CASE(check_digits) {
  BOOST_TEST(luhn_valid("4111111111111111"));
  BOOST_TEST(!luhn_valid("4111111111111112"));
  BOOST_TEST(snils_valid("11223344595"));
  BOOST_TEST(!snils_valid("11223344596"));
  BOOST_TEST(inn_valid("7707083893"));    // an organisation
  BOOST_TEST(inn_valid("500100732259"));  // a person
  BOOST_TEST(!inn_valid("500100732250"));
  BOOST_TEST(!inn_valid("123"));
}

BOOST_AUTO_TEST_CASE(graphql_introspection_answers) {
  BOOST_TEST(introspection_query_type(R"({"data":{"__schema":{"queryType":{"name":"Query"}}}})").value_or("") ==
             "Query");
  BOOST_TEST(
      !introspection_query_type(R"({"errors":[{"message":"GraphQL introspection is not allowed"}]})").has_value());
  BOOST_TEST(!introspection_query_type(R"({"data":{"__schema":null}})").has_value());
  BOOST_TEST(!introspection_query_type(R"({"data":{"__schema":{"queryType":{"name":""}}}})").has_value());
  BOOST_TEST(!introspection_query_type("<html>__schema queryType</html>").has_value());
  BOOST_TEST(!introspection_query_type(R"([{"data":{}}])").has_value());
  BOOST_TEST(graphql_answer(R"({"errors":[{"message":"x"}]})"));
  BOOST_TEST(graphql_answer(R"({"data":null})"));
  BOOST_TEST(!graphql_answer(R"({"detail":"not found"})"));
  BOOST_TEST(!graphql_answer("not found"));
}

BOOST_AUTO_TEST_CASE(rate_limit_headers_and_path_kinds) {
  using H = dozor::net::HeaderField;
  BOOST_TEST(has_rate_limit_headers({{"content-type", "x"}, {"ratelimit-limit", "100"}}));
  BOOST_TEST(has_rate_limit_headers({H{"x-ratelimit-remaining", "1"}}));
  BOOST_TEST(has_rate_limit_headers({H{"x-rate-limit-limit", "1"}}));
  BOOST_TEST(has_rate_limit_headers({H{"retry-after", "5"}}));
  BOOST_TEST(!has_rate_limit_headers({H{"content-type", "application/json"}}));
  BOOST_TEST(personal_resource("/api/users/{id}"));
  BOOST_TEST(personal_resource("/v1/Orders/{orderId}"));
  BOOST_TEST(!personal_resource("/api/products/{id}"));
  BOOST_TEST(auth_operation("/api/login"));
  BOOST_TEST(auth_operation("/oauth/token"));
  BOOST_TEST(!auth_operation("/api/users/{id}"));
}

BOOST_AUTO_TEST_SUITE_END()
