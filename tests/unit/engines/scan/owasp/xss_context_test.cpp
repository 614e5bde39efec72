// Reflected XSS proof: the canary must parse as markup, never as escaped text.
#include "engines/scan/owasp/xss_context.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::owasp;

namespace {
constexpr const char* kCanary = "dzr0123456789";

std::string escaped(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else if (c == '\'')
      out += "&#x27;";
    else if (c == '&')
      out += "&amp;";
    else
      out.push_back(c);
  }
  return out;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(owasp_xss_context)

BOOST_AUTO_TEST_CASE(a_raw_reflection_in_the_body_is_a_new_element) {
  auto html = "<html><body><p>Results for shoes" + xss_element_payload(kCanary) + ": none</p></body></html>";
  auto proof = find_injected_markup(html, kCanary);
  BOOST_TEST_REQUIRE(proof.has_value());
  BOOST_TEST(proof->context == "element");
  BOOST_TEST(proof->tag == "b");
}

BOOST_AUTO_TEST_CASE(a_raw_reflection_in_an_attribute_value_breaks_out) {
  auto element = "<form><input name=q value=\"x" + xss_element_payload(kCanary) + "\"></form>";
  BOOST_TEST(find_injected_markup(element, kCanary).has_value());
  auto attribute = "<form><input name=q value=\"x" + xss_attribute_payload(kCanary) + "\"></form>";
  auto proof = find_injected_markup(attribute, kCanary);
  BOOST_TEST_REQUIRE(proof.has_value());
  BOOST_TEST(proof->context == "attribute");
  BOOST_TEST(proof->tag == "input");
}

BOOST_AUTO_TEST_CASE(a_reflection_inside_a_script_block_breaks_out) {
  auto html = "<script>var q = \"x" + xss_element_payload(kCanary) + "\";</script>";
  BOOST_TEST(find_injected_markup(html, kCanary).has_value());
}

BOOST_AUTO_TEST_CASE(escaped_reflections_prove_nothing) {
  for (const auto& payload : {xss_element_payload(kCanary), xss_attribute_payload(kCanary)}) {
    BOOST_TEST(!find_injected_markup("<p>Results for " + escaped(payload) + "</p>", kCanary).has_value());
    BOOST_TEST(!find_injected_markup("<input value=\"" + escaped(payload) + "\">", kCanary).has_value());
  }
  // Only a single-quoted attribute escaped: the double quote stays inside the value.
  BOOST_TEST(
      !find_injected_markup("<input value='x\" data-dzr=\"" + std::string(kCanary) + "\" x=\"'>", kCanary).has_value());
  // Text and comments are not markup.
  BOOST_TEST(!find_injected_markup(
                  "<!-- <b data-dzr=\"dzr0123456789\"> --><textarea><b data-dzr=\"dzr0123456789\"></textarea>", kCanary)
                  .has_value());
}

BOOST_AUTO_TEST_CASE(another_canary_is_not_ours) {
  BOOST_TEST(!find_injected_markup("<b data-dzr=\"dzr9999999999\">dzr0123456789</b>", kCanary).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
