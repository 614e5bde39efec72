#define BOOST_TEST_MODULE dozor_unit
#include <boost/test/unit_test.hpp>
