#include "engines/notify/message.hpp"

#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>

#include "engines/notify/outbox.hpp"
#include "engines/notify/send.hpp"

using namespace dozor::notify;

BOOST_AUTO_TEST_SUITE(notify_message)

BOOST_AUTO_TEST_CASE(down_message_escapes_for_html_and_names_the_error) {
  auto p =
      boost::json::parse(R"({"up":false,"service_name":"A <b>&","url":"https://a.example/","error":"HTTP status 500",
    "at":"2026-11-23T06:00:00Z"})")
          .as_object();
  auto m = render_transition(p, Language::En);
  BOOST_TEST(m.subject.find("is DOWN") != std::string::npos);
  BOOST_TEST(m.html.find("A &lt;b&gt;&amp;") != std::string::npos);
  BOOST_TEST(m.html.find("<b>A <b>") == std::string::npos);
  BOOST_TEST(m.text.find("Error: HTTP status 500") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(recovery_message_tells_the_outage_in_russian) {
  auto p = boost::json::parse(R"({"up":true,"service_name":"Сайт","url":"https://a.example/","outage_seconds":3900})")
               .as_object();
  auto m = render_transition(p, Language::Ru);
  BOOST_TEST(m.subject.find("снова доступен") != std::string::npos);
  BOOST_TEST(m.text.find("Простой: 1 ч 5 мин") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(durations) {
  BOOST_TEST(format_duration(45, Language::En) == "45 s");
  BOOST_TEST(format_duration(3900, Language::En) == "1 h 5 min");
  BOOST_TEST(format_duration(2 * 86400 + 3600, Language::En) == "2 d 1 h");
  BOOST_TEST((parse_language("ru") == Language::Ru));
  BOOST_TEST((parse_language("de") == Language::En));
}

BOOST_AUTO_TEST_CASE(backoff_doubles_from_15_s_up_to_an_hour) {
  BOOST_TEST(backoff_seconds(1) == 15);
  BOOST_TEST(backoff_seconds(2) == 30);
  BOOST_TEST(backoff_seconds(3) == 60);
  BOOST_TEST(backoff_seconds(20) == 3600);
}

BOOST_AUTO_TEST_CASE(email_has_the_headers_and_parts_of_a_real_message) {
  Message m{"Дозор: тест ✓", "plain text", "<b>html</b>"};
  auto e = build_email("dozor@example.org", {"a@example.org", "b@example.org"}, m, 1795000000);
  BOOST_TEST(e.find("Date: ") == 0u);
  BOOST_TEST(e.find("\r\nSubject: =?UTF-8?B?") != std::string::npos);
  BOOST_TEST(e.find("Message-ID: <") != std::string::npos);
  BOOST_TEST(e.find("@example.org>\r\n") != std::string::npos);
  BOOST_TEST(e.find("To: a@example.org, b@example.org\r\n") != std::string::npos);
  BOOST_TEST(e.find("multipart/alternative") != std::string::npos);
  BOOST_TEST(e.find("Content-Type: text/plain; charset=UTF-8") != std::string::npos);
  BOOST_TEST(e.find("Content-Type: text/html; charset=UTF-8") != std::string::npos);
  BOOST_TEST(e.find("Дозор") == std::string::npos);  // 8-bit text only inside base64 parts
}

BOOST_AUTO_TEST_CASE(certificate_warning_names_the_days_left_and_escapes_html) {
  boost::json::object p{{"service_name", "Shop <b>"},
                        {"url", "https://shop.example/"},
                        {"expires_at", "2026-12-01T00:00:00Z"},
                        {"days_left", 5}};
  auto en = render("cert_expiring", p, Language::En);
  BOOST_TEST(en.subject.find("certificate expires in 5 days") != std::string::npos);
  BOOST_TEST(en.html.find("Shop &lt;b&gt;") != std::string::npos);
  BOOST_TEST(en.text.find("2026-12-01T00:00:00Z") != std::string::npos);
  auto ru = render("cert_expiring", p, Language::Ru);
  BOOST_TEST(ru.subject.find("сертификат истекает через 5 дн.") != std::string::npos);
  p["days_left"] = -1;
  BOOST_TEST(render("cert_expiring", p, Language::En).subject.find("EXPIRED") != std::string::npos);
  BOOST_TEST(render("service_down", p, Language::En).subject.find("is DOWN") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(new_findings_message_lists_the_titles_escaped_and_dispatches_by_kind) {
  auto p = boost::json::parse(R"({"service_name":"Shop <1>","url":"https://shop.example/","scan_id":41,"total":3,
    "top":[{"severity":"critical","title":"SQL injection in <id>"},{"severity":"high","title":"Reflected XSS"}]})")
               .as_object();
  auto m = render(std::string("owasp_findings"), p, Language::En);
  BOOST_TEST(m.subject.find("new serious findings: 3") != std::string::npos);
  BOOST_TEST(m.text.find("- [critical] SQL injection in <id>") != std::string::npos);
  BOOST_TEST(m.html.find("SQL injection in &lt;id&gt;") != std::string::npos);
  BOOST_TEST(m.html.find("Shop &lt;1&gt;") != std::string::npos);
  BOOST_TEST(m.text.find("scan #41") != std::string::npos);
  auto ru = render_new_findings(p, Language::Ru);
  BOOST_TEST(ru.subject.find("новые серьёзные уязвимости: 3") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
