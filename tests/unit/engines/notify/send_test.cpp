#include "engines/notify/send.hpp"

#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "engines/notify/message.hpp"

using namespace dozor::notify;

BOOST_AUTO_TEST_SUITE(notify_send)

BOOST_AUTO_TEST_CASE(the_header_encoder_refuses_cr_lf_and_other_controls) {
  BOOST_TEST(mail_header("From", "dozor@example.org") == "From: dozor@example.org\r\n");
  for (const std::string& bad : std::vector<std::string>{
           "a@example.org\r\nBcc: victim@example.org", "a@example.org\nBcc: v@example.org", "a@example.org\rX",
           std::string("a@example.org\0x", 15), "a\tb@example.org", "a@example.org\xc2\x85"})
    BOOST_CHECK_THROW(mail_header("From", bad), std::invalid_argument);
  BOOST_CHECK_THROW(mail_header("X-Evil\r\nBcc", "v@example.org"), std::invalid_argument);
  BOOST_CHECK_THROW(mail_header("Bcc: v@example.org\r\nX", "1"), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(address_headers_fold_between_addresses_only) {
  BOOST_TEST(mail_address_header("To", {"a@example.org", "b@example.org"}) == "To: a@example.org, b@example.org\r\n");
  std::vector<std::string> many(6, std::string(20, 'x') + "@example.org");
  auto h = mail_address_header("To", many);
  // Every CR LF is the encoder's fold (followed by a space) or the line's end.
  for (auto pos = h.find("\r\n"); pos != std::string::npos; pos = h.find("\r\n", pos + 2))
    BOOST_TEST((pos + 2 == h.size() || h[pos + 2] == ' '));
  for (auto pos = h.find("\r\n"), start = std::string::size_type{0}; pos != std::string::npos;
       start = pos + 2, pos = h.find("\r\n", start))
    BOOST_TEST(pos - start <= 78u);
  BOOST_CHECK_THROW(mail_address_header("To", {"a@example.org", "b@example.org\r\nBcc: v@example.org"}),
                    std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(smtp_paths_refuse_what_could_add_a_command) {
  BOOST_TEST(smtp_path("dozor@example.org") == "<dozor@example.org>");
  for (const std::string& bad :
       std::vector<std::string>{"a@example.org>\r\nRCPT TO:<v@example.org", "ops\r\nRCPT TO:<v@example.org>",
                                "a@example.org> SIZE=1", "", "a@example.org\n"})
    BOOST_CHECK_THROW(smtp_path(bad), std::invalid_argument);
}

// A bad value already in the database (stored before the routes refused it) still cannot add a
// header or a message: the whole e-mail is refused.
BOOST_AUTO_TEST_CASE(build_email_refuses_a_sender_or_recipient_with_cr_lf) {
  Message m{"s", "t", "h"};
  BOOST_CHECK_THROW(build_email("ops\r\nRCPT TO:<victim@example.org>", {"a@example.org"}, m, 1795000000),
                    std::invalid_argument);
  BOOST_CHECK_THROW(build_email("dozor@example.org", {"a@example.org\r\nBcc: victim@example.org"}, m, 1795000000),
                    std::invalid_argument);
  auto e = build_email("dozor@example.org", {"a@example.org"}, m, 1795000000);
  BOOST_TEST(e.find("From: dozor@example.org\r\n") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_sender_is_from_addr_then_the_default_never_the_login) {
  SendContext with_default;
  with_default.smtp_from = "dozor@example.org";
  SendContext without;
  auto own = boost::json::parse(R"({"username":"ops@corp.example","from_addr":"alerts@corp.example"})").as_object();
  auto login_only = boost::json::parse(R"({"username":"ops@corp.example","from_addr":null})").as_object();
  BOOST_TEST(email_sender(own, with_default).address == "alerts@corp.example");
  BOOST_TEST(!email_sender(own, with_default).is_default);
  BOOST_TEST(email_sender(login_only, with_default).address == "dozor@example.org");
  BOOST_TEST(email_sender(login_only, with_default).is_default);
  BOOST_TEST(email_sender(login_only, without).address.empty());
}

// Refused before any connection: nothing here touches the network.
BOOST_AUTO_TEST_CASE(a_stored_value_with_control_characters_is_not_sent) {
  SendContext ctx;
  ctx.smtp_from = "dozor@example.org";
  Message m{"s", "t", "h"};
  auto p =
      boost::json::parse(R"({"host":"127.0.0.1","port":9,"use_tls":false,"username":"ops\r\nRCPT TO:<v@example.org>",
    "to_addrs":["a@example.org"]})")
          .as_object();
  auto r = send("email", p, m, ctx);
  BOOST_TEST(!r.ok);
  BOOST_TEST(r.error.find("username") != std::string::npos);
  auto bad_host = boost::json::parse(R"({"host":"h.example/x","to_addrs":["a@example.org"]})").as_object();
  BOOST_TEST(send("email", bad_host, m, ctx).error.find("host") != std::string::npos);
  auto no_sender =
      boost::json::parse(R"({"host":"h.example","username":"ops","to_addrs":["a@example.org"]})").as_object();
  auto r2 = send("email", no_sender, m, SendContext{});
  BOOST_TEST(r2.error.find("no sender") != std::string::npos);
  auto token = boost::json::parse(R"({"token":"1:a/../../x?","chat_id":"1"})").as_object();
  BOOST_TEST(!send("messenger", token, m, ctx).ok);
  BOOST_TEST(send("messenger", boost::json::object{}, m, ctx).error.find("not configured") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
