// DOM-based XSS read from script text: sources into sinks, directly or through one variable;
// sanitised values, safe sinks and reassigned variables are not flows.
#include "engines/scan/owasp/dom_sinks.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::owasp;

BOOST_AUTO_TEST_SUITE(owasp_dom_sinks)

BOOST_AUTO_TEST_CASE(a_source_in_the_sink_statement_is_a_direct_flow) {
  auto flows = dom_flows(
      "var a = 1;\ndocument.getElementById('o').innerHTML = 'Hi ' + decodeURIComponent(location.hash.slice(1));");
  BOOST_TEST_REQUIRE(flows.size() == 1u);
  BOOST_TEST(flows[0].source == "location.hash");
  BOOST_TEST(flows[0].sink == ".innerHTML=");
  BOOST_TEST(flows[0].via.empty());
  BOOST_TEST(flows[0].statement.find("innerHTML") != std::string::npos);
  BOOST_TEST(dom_flows("document.write('<a href=' + document.referrer + '>back</a>')").at(0).source ==
             "document.referrer");
  BOOST_TEST(dom_flows("eval(window.name)").at(0).sink == "eval(");
  BOOST_TEST(dom_flows("$('#x').html(location.search)").size() == 1u);
  BOOST_TEST(dom_flows("el.insertAdjacentHTML('beforeend', document.URL)").size() == 1u);
}

BOOST_AUTO_TEST_CASE(a_variable_assigned_from_a_source_carries_it_once) {
  auto flows = dom_flows("const q = location.search.substring(1);\nout.innerHTML = '<b>' + q + '</b>';");
  BOOST_TEST_REQUIRE(flows.size() == 1u);
  BOOST_TEST(flows[0].via == "q");
  BOOST_TEST(flows[0].source == "location.search");
  // Reassigned from a constant: no longer tainted; a longer name that contains it is another name.
  BOOST_TEST(dom_flows("var q = location.hash; q = 'x'; out.innerHTML = q;").empty());
  BOOST_TEST(dom_flows("var q = location.hash; out.innerHTML = qq + a.q;").empty());
}

BOOST_AUTO_TEST_CASE(safe_sinks_and_sanitised_values_are_not_flows) {
  BOOST_TEST(dom_flows("out.textContent = location.hash;").empty());
  BOOST_TEST(dom_flows("out.innerHTML = DOMPurify.sanitize(location.hash);").empty());
  BOOST_TEST(dom_flows("out.innerHTML = encodeURIComponent(location.search);").empty());
  BOOST_TEST(dom_flows("location.hash = 'x'; out.innerHTML = 'static';").empty());  // source before the sink
  BOOST_TEST(dom_flows("if (a == location.hash) out.innerHTML = 'ok'").empty());
  BOOST_TEST(dom_flows("").empty());
}

BOOST_AUTO_TEST_SUITE_END()
