#include "handlers/validation.hpp"

#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>

using namespace dozor;
using namespace dozor::handlers;

namespace {

// Runs fn over a parsed body and returns the issue types reported (empty when valid).
template <typename Fn>
std::vector<std::string> issues_of(const std::string& body, Fn fn) {
  try {
    auto v = parse_json_body(body);
    Fields f(v);
    fn(f);
    f.finish();
  } catch (const http::ValidationFailed& e) {
    std::vector<std::string> out;
    for (const auto& i : e.issues) out.push_back(i.type);
    return out;
  }
  return {};
}

using Types = std::vector<std::string>;

}  // namespace

BOOST_AUTO_TEST_SUITE(validation)

BOOST_AUTO_TEST_CASE(invalid_json_is_json_invalid) {
  BOOST_TEST(issues_of("{\"a\":", [](Fields&) {}) == Types{"json_invalid"});
}

BOOST_AUTO_TEST_CASE(empty_body_is_missing) {
  BOOST_TEST(issues_of("", [](Fields&) {}) == Types{"missing"});
}

BOOST_AUTO_TEST_CASE(deep_nesting_is_refused_without_recursion) {
  std::string deep(100000, '[');
  deep += std::string(100000, ']');
  BOOST_TEST(issues_of(deep, [](Fields&) {}) == Types{"json_invalid"});
}

BOOST_AUTO_TEST_CASE(non_object_body_is_model_attributes_type) {
  BOOST_TEST(issues_of("[1,2]", [](Fields& f) { f.string("name", true); }) == Types{"model_attributes_type"});
}

BOOST_AUTO_TEST_CASE(every_invalid_field_is_reported) {
  auto t = issues_of(R"({"url":"ftp://x","check_interval":"abc","is_active":"maybe"})", [](Fields& f) {
    f.string("name", true);
    f.http_url("url", true);
    f.integer("check_interval", false);
    f.boolean("is_active", false);
  });
  BOOST_TEST(t == (Types{"missing", "url_scheme", "int_parsing", "bool_parsing"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(string_field_rejects_numbers_and_null) {
  BOOST_TEST(issues_of(R"({"name":5})", [](Fields& f) { f.string("name", true); }) == Types{"string_type"});
  BOOST_TEST(issues_of(R"({"name":null})", [](Fields& f) { f.string("name", true); }) == Types{"string_type"});
}

BOOST_AUTO_TEST_CASE(integers_accept_numeric_strings_like_pydantic_lax_mode) {
  std::optional<std::int64_t> got;
  BOOST_TEST(issues_of(R"({"n":"42"})", [&](Fields& f) { got = f.integer("n", true); }).empty());
  BOOST_TEST(*got == 42);
  BOOST_TEST(issues_of(R"({"n":1.5})", [](Fields& f) { f.integer("n", true); }) == Types{"int_from_float"});
  BOOST_TEST(issues_of(R"({"n":[1]})", [](Fields& f) { f.integer("n", true); }) == Types{"int_type"});
  BOOST_TEST(issues_of(R"({"n":5})", [](Fields& f) { f.integer("n", true, 10); }) == Types{"greater_than_equal"});
}

BOOST_AUTO_TEST_CASE(booleans_follow_lax_rules) {
  std::optional<bool> got;
  BOOST_TEST(issues_of(R"({"b":"yes"})", [&](Fields& f) { got = f.boolean("b", true); }).empty());
  BOOST_TEST(*got);
  BOOST_TEST(issues_of(R"({"b":2})", [](Fields& f) { f.boolean("b", true); }) == Types{"bool_parsing"});
  BOOST_TEST(issues_of(R"({"b":{}})", [](Fields& f) { f.boolean("b", true); }) == Types{"bool_type"});
}

BOOST_AUTO_TEST_CASE(url_rules) {
  auto url = [](const std::string& u) {
    return issues_of("{\"u\":\"" + u + "\"}", [](Fields& f) { f.http_url("u", true); });
  };
  BOOST_TEST(url("https://example.com/a?b=1").empty());
  BOOST_TEST(url("HTTP://EXAMPLE.COM").empty());
  BOOST_TEST(url("") == Types{"url_parsing"});
  BOOST_TEST(url("not a url") == Types{"url_parsing"});
  BOOST_TEST(url("example.com") == Types{"url_parsing"});
  BOOST_TEST(url("ftp://example.com") == Types{"url_scheme"});
  BOOST_TEST(url("javascript:alert(1)") == Types{"url_scheme"});
  BOOST_TEST(url("http://") == Types{"url_parsing"});
  BOOST_TEST(url("https://example.com/" + std::string(2100, 'a')) == Types{"url_too_long"});
}

BOOST_AUTO_TEST_CASE(string_length_counts_characters_not_bytes) {
  // Eight Cyrillic letters are 16 bytes but 8 characters.
  BOOST_TEST(issues_of(R"({"p":"пароль12"})", [](Fields& f) { f.string("p", true, {8, 256}); }).empty());
  BOOST_TEST(issues_of(R"({"p":"short"})", [](Fields& f) {
               f.string("p", true, {8, 256});
             }) == Types{"string_too_short"});
  // Byte counting would pass these: 4 letters are 8 bytes, 5 letters are 10 bytes.
  BOOST_TEST(issues_of(R"({"p":"пара"})", [](Fields& f) {
               f.string("p", true, {8, 256});
             }) == Types{"string_too_short"});
  BOOST_TEST(issues_of(R"({"p":"пятьб"})", [](Fields& f) { f.string("p", true, {1, 5}); }).empty());
  BOOST_TEST(issues_of(R"({"p":"шесть6"})", [](Fields& f) {
               f.string("p", true, {1, 5});
             }) == Types{"string_too_long"});
}

BOOST_AUTO_TEST_CASE(email_rules) {
  BOOST_TEST(is_valid_email("ivan.petrov+ops@example.ru"));
  BOOST_TEST(is_valid_email("a@b.co"));
  BOOST_TEST(!is_valid_email("no-at-sign"));
  BOOST_TEST(!is_valid_email("a@@b.ru"));
  BOOST_TEST(!is_valid_email("a@localhost"));
  BOOST_TEST(!is_valid_email(".a@b.ru"));
  BOOST_TEST(!is_valid_email("a..b@b.ru"));
  BOOST_TEST(!is_valid_email("a@-b.ru"));
  BOOST_TEST(!is_valid_email("a b@b.ru"));
  BOOST_TEST(!is_valid_email("a@b.r"));
}

BOOST_AUTO_TEST_CASE(nullable_fields_accept_null_and_absence) {
  std::optional<std::string> email;
  BOOST_TEST(issues_of(R"({"email":null})", [&](Fields& f) { email = f.nullable_email("email"); }).empty());
  BOOST_TEST(!email);
  BOOST_TEST(issues_of(R"({"email":"bad"})", [](Fields& f) { f.nullable_email("email"); }) == Types{"value_error"});
}

BOOST_AUTO_TEST_CASE(path_int_reports_location_and_minimum) {
  BOOST_TEST(path_int("7", "service_id", 1) == 7);
  try {
    path_int("0", "service_id", 1);
    BOOST_FAIL("expected a validation failure");
  } catch (const http::ValidationFailed& e) {
    BOOST_TEST(e.issues[0].type == "greater_than_equal");
    BOOST_TEST(e.issues[0].loc[0].as_string() == "path");
    BOOST_TEST(e.issues[0].loc[1].as_string() == "service_id");
  }
  BOOST_CHECK_THROW(path_int("abc", "service_id"), http::ValidationFailed);
  BOOST_CHECK_THROW(path_int("99999999999999999999999", "service_id"), http::ValidationFailed);
}

BOOST_AUTO_TEST_SUITE_END()
