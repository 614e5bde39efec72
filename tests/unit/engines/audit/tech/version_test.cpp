// Semver-ish ordering of library and product versions (docs/audit.md "Technologies").
#include "engines/audit/tech/version.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::audit::tech;

BOOST_AUTO_TEST_SUITE(tech_version)

BOOST_AUTO_TEST_CASE(numeric_parts_compare_as_integers_not_text) {
  BOOST_TEST(compare_versions("1.12.4", "1.9.1") > 0);
  BOOST_TEST(compare_versions("1.9.1", "1.12.4") < 0);
  BOOST_TEST(compare_versions("3.10.0", "3.9.9") > 0);
  BOOST_TEST(compare_versions("4.17.21", "4.17.21") == 0);
}

BOOST_AUTO_TEST_CASE(missing_parts_count_as_zero) {
  BOOST_TEST(compare_versions("1.2", "1.2.0") == 0);
  BOOST_TEST(compare_versions("1.2", "1.2.1") < 0);
  BOOST_TEST(compare_versions("2", "1.99") > 0);
}

BOOST_AUTO_TEST_CASE(pre_releases_sort_below_their_release_and_above_the_previous_one) {
  BOOST_TEST(compare_versions("3.0.0-rc1", "3.0.0") < 0);
  BOOST_TEST(compare_versions("3.0.0-beta.2", "3.0.0-rc.1") < 0);
  BOOST_TEST(compare_versions("3.0.0-alpha", "3.0.0-beta") < 0);
  BOOST_TEST(compare_versions("3.0.0-rc.1", "3.0.0-rc.2") < 0);
  BOOST_TEST(compare_versions("3.0.0-rc1", "2.9.9") > 0);
  BOOST_TEST(compare_versions("3.5.0-beta", "3.5.0") < 0);
}

BOOST_AUTO_TEST_CASE(a_leading_v_and_build_metadata_are_ignored) {
  BOOST_TEST(compare_versions("v2.6.14", "2.6.14") == 0);
  BOOST_TEST(compare_versions("1.0.0+build.7", "1.0.0") == 0);
}

BOOST_AUTO_TEST_CASE(ranges_include_the_lower_bound_and_exclude_the_fixed_version) {
  BOOST_TEST(version_in_range("1.12.4", "1.2", "3.5.0"));
  BOOST_TEST(version_in_range("1.2.0", "1.2", "3.5.0"));
  BOOST_TEST(!version_in_range("3.5.0", "1.2", "3.5.0"));
  BOOST_TEST(!version_in_range("1.1.9", "1.2", "3.5.0"));
  BOOST_TEST(version_in_range("3.5.0-rc1", "", "3.5.0"));
  BOOST_TEST(version_in_range("99.0", "1.0", ""));  // no fixed release
}

BOOST_AUTO_TEST_CASE(only_plausible_versions_are_kept) {
  BOOST_TEST(plausible_version("3.4.1"));
  BOOST_TEST(plausible_version("6.4.2-beta1"));
  BOOST_TEST(!plausible_version(""));
  BOOST_TEST(!plausible_version("v"));
  BOOST_TEST(!plausible_version("1.2 <script>"));
  BOOST_TEST(!plausible_version("1.2.3.4.5.6.7.8.9.10.11"));
}

BOOST_AUTO_TEST_SUITE_END()
