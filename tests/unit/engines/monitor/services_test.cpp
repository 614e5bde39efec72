#include "engines/monitor/services.hpp"

#include <boost/test/unit_test.hpp>

using dozor::db::services::Service;
using dozor::monitor::is_pending;

namespace {

Service with(std::string state, std::optional<std::string> last, bool active = true) {
  Service s;
  s.state = std::move(state);
  s.last_status = std::move(last);
  s.is_active = active;
  return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(services)

BOOST_AUTO_TEST_CASE(a_failed_check_not_yet_confirmed_is_pending) {
  BOOST_TEST(is_pending(with("up", "down")));       // the first failure of an up service
  BOOST_TEST(is_pending(with("unknown", "down")));  // a new service whose first check failed
}

BOOST_AUTO_TEST_CASE(confirmed_good_paused_and_unchecked_services_are_not_pending) {
  BOOST_TEST(!is_pending(with("down", "down")));  // confirmed: Down, not Pending
  BOOST_TEST(!is_pending(with("up", "up")));
  BOOST_TEST(!is_pending(with("down", "up")));  // recovering: one success does not hide the outage
  BOOST_TEST(!is_pending(with("unknown", std::nullopt)));
  BOOST_TEST(!is_pending(with("unknown", "down", false)));  // paused: nobody is deciding anything
}

BOOST_AUTO_TEST_SUITE_END()
