#include "engines/monitor/metrics.hpp"

#include <boost/test/unit_test.hpp>

using namespace dozor::monitor;
using dozor::db::monitor::DaemonFigures;
using dozor::db::monitor::MetricsSnapshot;
using dozor::db::monitor::ServiceFigures;

namespace {

bool has_line(const std::string& text, const std::string& line) {
  return text.find("\n" + line + "\n") != std::string::npos || text.rfind(line + "\n", 0) == 0;
}

MetricsSnapshot sample() {
  MetricsSnapshot m;
  ServiceFigures up;
  up.service_id = 1;
  up.user_id = 9;
  up.state = "up";
  up.last_response_ms = 123;
  up.checks_total = 40;
  up.failures_total = 2;
  up.cert_expires = 1800000000;
  ServiceFigures down = up;
  down.service_id = 2;
  down.state = "down";
  down.last_response_ms.reset();
  down.cert_expires.reset();
  ServiceFigures fresh;
  fresh.service_id = 3;
  fresh.user_id = 9;
  ServiceFigures paused = up;
  paused.service_id = 4;
  paused.active = false;
  m.services = {up, down, fresh, paused};
  DaemonFigures alive;
  alive.owner = "host-a:12:345";
  alive.location = "eu \"west\"\\1";
  alive.checks_done = 1000;
  alive.rss_bytes = 50 << 20;
  alive.cpu_ms = 2500;
  alive.beat_age_ms = 4000;
  DaemonFigures stale = alive;
  stale.owner = "host-b:1:2";
  stale.location = "default";
  stale.beat_age_ms = 31000;
  m.daemons = {alive, stale};
  m.outbox_pending = 5;
  return m;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(metrics)

BOOST_AUTO_TEST_CASE(services_are_reported_by_state_with_their_counters) {
  auto text = render_metrics(sample());
  BOOST_TEST(has_line(text, "dozor_services{state=\"up\"} 1"));
  BOOST_TEST(has_line(text, "dozor_services{state=\"down\"} 1"));
  BOOST_TEST(has_line(text, "dozor_services{state=\"unknown\"} 1"));
  BOOST_TEST(has_line(text, "dozor_services_paused 1"));
  BOOST_TEST(has_line(text, "dozor_service_up{service_id=\"1\",user_id=\"9\"} 1"));
  BOOST_TEST(has_line(text, "dozor_service_up{service_id=\"2\",user_id=\"9\"} 0"));
  BOOST_TEST(text.find("dozor_service_up{service_id=\"3\"") == std::string::npos);  // never checked
  BOOST_TEST(text.find("dozor_service_up{service_id=\"4\"") == std::string::npos);  // paused
  BOOST_TEST(has_line(text, "dozor_service_response_time_seconds{service_id=\"1\",user_id=\"9\"} 0.123"));
  BOOST_TEST(has_line(text, "dozor_service_checks_total{service_id=\"1\",user_id=\"9\"} 40"));
  BOOST_TEST(has_line(text, "dozor_service_failures_total{service_id=\"2\",user_id=\"9\"} 2"));
  BOOST_TEST(has_line(text, "dozor_service_cert_expiry_timestamp_seconds{service_id=\"1\",user_id=\"9\"} 1800000000"));
  BOOST_TEST(has_line(text, "dozor_notifications_pending 5"));
  BOOST_TEST(has_line(text, "# TYPE dozor_service_checks_total counter"));
}

BOOST_AUTO_TEST_CASE(daemons_are_up_only_with_a_fresh_heartbeat_and_labels_are_escaped) {
  auto text = render_metrics(sample());
  std::string a = "{owner=\"host-a:12:345\",location=\"eu \\\"west\\\"\\\\1\"}";
  BOOST_TEST(has_line(text, "dozord_up" + a + " 1"));
  BOOST_TEST(has_line(text, "dozord_up{owner=\"host-b:1:2\",location=\"default\"} 0"));
  BOOST_TEST(has_line(text, "dozord_checks_total" + a + " 1000"));
  BOOST_TEST(has_line(text, "dozord_cpu_seconds_total" + a + " 2.500"));
  BOOST_TEST(has_line(text, "dozord_resident_memory_bytes" + a + " 52428800"));
  BOOST_TEST(escape_label("a\nb") == "a\\nb");
}

BOOST_AUTO_TEST_SUITE_END()
