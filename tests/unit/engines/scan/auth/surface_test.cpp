// The auth scan's pure judgements (engines/scan/auth/surface.hpp): login forms among parsed forms,
// how they are filled, session cookies and their flags, the enumeration comparison, throttling,
// and the redaction that keeps secrets out of evidence.
#include "engines/scan/auth/surface.hpp"

#include <boost/test/unit_test.hpp>

#include "engines/crawl/html_extract.hpp"

using namespace dozor::authscan;
namespace crawl = dozor::crawl;

namespace {

crawl::Form form_of(const std::string& html) {
  auto facts = crawl::extract_html(html, "https://shop.test/login");
  BOOST_REQUIRE_EQUAL(facts.forms.size(), 1U);
  return facts.forms.front();
}

LoginAnswer answer(int status, std::string text, std::size_t length = 100, bool throttled = false) {
  return {status, "https://shop.test/login", std::move(text), length, throttled};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(auth_surface)

BOOST_AUTO_TEST_CASE(a_form_with_one_password_field_is_a_login_form_and_its_user_field_is_found) {
  auto f = as_login_form("https://shop.test/login",
                         form_of(R"(<form action="/session" method="post"><input name="q" type="search">)"
                                 R"(<input name="email" type="email"><input type="password" name="pw">)"
                                 R"(<input type="hidden" name="csrf" value="t1"></form>)"));
  BOOST_REQUIRE(f);
  BOOST_TEST(f->form.action == "https://shop.test/session");
  BOOST_REQUIRE(f->user_field);
  BOOST_TEST(f->form.fields[*f->user_field].name == "email");
  BOOST_TEST(f->form.fields[f->password_field].name == "pw");
}

BOOST_AUTO_TEST_CASE(the_user_field_falls_back_to_the_text_field_before_the_password) {
  auto f =
      as_login_form("p", form_of(R"(<form method=post><input name="a1"><input name="b2" type="password"></form>)"));
  BOOST_REQUIRE(f && f->user_field);
  BOOST_TEST(f->form.fields[*f->user_field].name == "a1");
}

BOOST_AUTO_TEST_CASE(forms_without_or_with_two_password_fields_are_not_login_forms) {
  BOOST_TEST(!as_login_form("p", form_of(R"(<form><input name="q"></form>)")));
  BOOST_TEST(!as_login_form("p", form_of(R"(<form method=post><input name="u"><input type="password" name="p1">)"
                                         R"(<input type="password" name="p2"></form>)")));
}

BOOST_AUTO_TEST_CASE(autocomplete_off_or_new_password_opts_out_of_storage) {
  auto judged = [](const std::string& html) {
    auto f = as_login_form("p", form_of(html));
    BOOST_REQUIRE(f);
    return password_autocomplete_off(*f);
  };
  BOOST_TEST(!judged(R"(<form><input name=u><input type=password name=p></form>)"));
  BOOST_TEST(!judged(R"(<form><input name=u><input type=password name=p autocomplete="current-password"></form>)"));
  BOOST_TEST(judged(R"(<form><input name=u><input type=password name=p autocomplete=" OFF "></form>)"));
  BOOST_TEST(judged(R"(<form><input name=u><input type=password name=p autocomplete="new-password"></form>)"));
  BOOST_TEST(judged(R"(<form autocomplete="off"><input name=u><input type=password name=p></form>)"));
  BOOST_TEST(!judged(R"(<form autocomplete="off"><input name=u><input type=password name=p autocomplete=on></form>)"));
}

BOOST_AUTO_TEST_CASE(a_filled_form_keeps_hidden_tokens_checked_boxes_and_one_submit_button) {
  auto f =
      as_login_form("p", form_of(R"(<form method=post><input name="user"><input type="password" name="pass">)"
                                 R"(<input type="hidden" name="csrf" value="tok"><input type="checkbox" name="keep">)"
                                 R"(<input type="checkbox" name="agree" value="y" checked>)"
                                 R"(<button type="submit" name="go" value="1">Go</button>)"
                                 R"(<button type="submit" name="alt" value="2">Alt</button></form>)"));
  BOOST_REQUIRE(f);
  auto body = form_body(fill(*f, "al ice", "p&ss=1"));
  BOOST_TEST(body == "user=al%20ice&pass=p%26ss%3D1&csrf=tok&agree=y&go=1");
}

BOOST_AUTO_TEST_CASE(set_cookie_flags_are_read_in_any_case) {
  auto c = parse_set_cookie("SESSIONID=abc123; Path=/; secure; HTTPONLY; SameSite=Lax");
  BOOST_REQUIRE(c);
  BOOST_TEST(c->name == "SESSIONID");
  BOOST_TEST(c->value == "abc123");
  BOOST_TEST(c->secure);
  BOOST_TEST(c->http_only);
  BOOST_TEST(c->same_site == "lax");
  auto bare = parse_set_cookie("sid=1");
  BOOST_REQUIRE(bare);
  BOOST_TEST(!bare->secure);
  BOOST_TEST(!bare->http_only);
  BOOST_TEST(bare->same_site.empty());
  BOOST_TEST(!parse_set_cookie("; Path=/"));
  BOOST_TEST(!parse_set_cookie("novalue"));
}

BOOST_AUTO_TEST_CASE(session_cookie_names_are_recognised_and_preferences_are_not) {
  for (const char* name : {"SESSIONID", "PHPSESSID", "JSESSIONID", "ASP.NET_SessionId", "connect.sid",
                           "laravel_session", "wordpress_logged_in_5f2a", "auth_token", "sid", "remember_me"})
    BOOST_TEST(looks_like_session_cookie(name), name);
  for (const char* name : {"lang", "theme", "csrftoken", "XSRF-TOKEN", "_ga", "consent", "wordpress_test_cookie"})
    BOOST_TEST(!looks_like_session_cookie(name), name);
}

BOOST_AUTO_TEST_CASE(logout_links_are_recognised) {
  BOOST_TEST(is_logout_url("https://a.test/logout"));
  BOOST_TEST(is_logout_url("https://a.test/wp-login.php?action=logout"));
  BOOST_TEST(is_logout_url("https://a.test/users/sign_out"));
  BOOST_TEST(!is_logout_url("https://a.test/account/settings"));
}

BOOST_AUTO_TEST_CASE(normalizing_drops_echoed_names_counters_and_spacing) {
  BOOST_TEST(normalize_text("No  user\n dozor-x1 (attempt 12)", {"dozor-x1"}) ==
             normalize_text("No user admin (attempt 3)", {"admin"}));
  BOOST_TEST(normalize_text("Unknown user.", {}) != normalize_text("Wrong password.", {}));
}

BOOST_AUTO_TEST_CASE(different_messages_for_a_likely_user_are_enumeration) {
  auto c =
      compare_login_answers(answer(200, "Unknown user."), answer(200, "Unknown user."), answer(200, "Wrong password."));
  BOOST_TEST((c.verdict == Verdict::Different));
  BOOST_TEST(c.reason == "the message differs");
}

BOOST_AUTO_TEST_CASE(a_different_status_or_length_is_enumeration_too) {
  BOOST_TEST(
      (compare_login_answers(answer(200, "x"), answer(200, "x"), answer(401, "x")).verdict == Verdict::Different));
  BOOST_TEST((compare_login_answers(answer(200, "x", 1000), answer(200, "x", 1004), answer(200, "x", 1500)).verdict ==
              Verdict::Different));
}

BOOST_AUTO_TEST_CASE(alike_answers_are_not_enumeration) {
  BOOST_TEST((compare_login_answers(answer(200, "Invalid user name or password."),
                                    answer(200, "Invalid user name or password."),
                                    answer(200, "Invalid user name or password.", 103))
                  .verdict == Verdict::Same));
}

BOOST_AUTO_TEST_CASE(a_likely_user_always_slower_by_the_margin_is_enumeration_by_timing) {
  auto c = compare_login_timings({310, 305, 330, 302, 318}, {4, 9, 3, 12, 5}, 100);
  BOOST_TEST((c.verdict == Verdict::Different));
  BOOST_TEST(c.reason ==
             "the likely user's answers took 302–330 ms, the unknown users' 3–12 ms: the likely user's are "
             "always slower");
  BOOST_TEST((compare_login_timings({4, 9, 3}, {310, 305, 330}, 100).verdict == Verdict::Different));  // faster
}

BOOST_AUTO_TEST_CASE(overlapping_or_close_timings_are_not_enumeration) {
  // The fixed twin: the same slow hash for everyone.
  BOOST_TEST(
      (compare_login_timings({305, 310, 302, 318, 307}, {303, 312, 309, 301, 315}, 100).verdict == Verdict::Same));
  // One noisy answer on the wrong side breaks the separation: no verdict on noise.
  BOOST_TEST((compare_login_timings({310, 305, 330, 302, 318}, {4, 9, 350, 12, 5}, 100).verdict == Verdict::Same));
  BOOST_TEST((compare_login_timings({310, 305, 90, 302, 318}, {4, 9, 3, 12, 5}, 100).verdict == Verdict::Same));
  // Always slower, but by less than the margin.
  BOOST_TEST((compare_login_timings({60, 70, 65}, {10, 12, 11}, 100).verdict == Verdict::Same));
  // Exactly the margin counts.
  BOOST_TEST((compare_login_timings({112, 150}, {10, 12}, 100).verdict == Verdict::Different));
}

BOOST_AUTO_TEST_CASE(a_delay_growing_with_each_failure_is_a_throttle_not_enumeration) {
  // The likely user failed 7 times before (message and lockout checks): a site adding 60 ms per
  // failure of one name answers it 420–660 ms, the stranger's first five 0–240 ms.
  auto c = compare_login_timings({420, 480, 540, 600, 660}, {0, 60, 120, 180, 240}, 100);
  BOOST_TEST((c.verdict == Verdict::Inconclusive));
  BOOST_TEST(c.reason.find("wider than the gap") != std::string::npos);
  // The same gap with flat sides is enumeration.
  BOOST_TEST(
      (compare_login_timings({420, 425, 430, 422, 428}, {200, 240, 210, 220, 230}, 100).verdict == Verdict::Different));
}

BOOST_AUTO_TEST_CASE(too_few_timing_samples_give_no_verdict) {
  BOOST_TEST((compare_login_timings({300}, {5, 6}, 100).verdict == Verdict::Inconclusive));
  BOOST_TEST((compare_login_timings({300, 310}, {}, 100).verdict == Verdict::Inconclusive));
}

BOOST_AUTO_TEST_CASE(unstable_controls_or_throttling_give_no_verdict) {
  BOOST_TEST(
      (compare_login_answers(answer(200, "a"), answer(200, "b"), answer(200, "c")).verdict == Verdict::Inconclusive));
  BOOST_TEST((compare_login_answers(answer(200, "a"), answer(200, "a"), answer(429, "Too many", 100, true)).verdict ==
              Verdict::Inconclusive));
}

BOOST_AUTO_TEST_CASE(throttling_is_a_status_a_retry_after_or_a_message) {
  BOOST_TEST(is_throttled(429, {}, ""));
  BOOST_TEST(is_throttled(200, {{"retry-after", "60"}}, ""));
  BOOST_TEST(is_throttled(200, {}, "Account LOCKED for 15 minutes"));
  BOOST_TEST(is_throttled(200, {}, "Please solve the captcha"));
  BOOST_TEST(!is_throttled(200, {}, "Wrong password."));
}

BOOST_AUTO_TEST_CASE(redaction_removes_secrets_as_written_and_encoded) {
  std::vector<std::string> s = {"p a&ss"};
  BOOST_TEST(redact("user=al&pass=p%20a%26ss and p+a%26ss and p a&ss", s) == "user=al&pass=**** and **** and ****");
  BOOST_TEST(redact("nothing here", s) == "nothing here");
}

BOOST_AUTO_TEST_CASE(redacted_exchanges_hide_cookies_authorization_and_set_cookie_values) {
  dozor::net::Exchange ex;
  ex.url = "https://a.test/login?pw=hunter22";
  ex.request_line = "GET /login?pw=hunter22 HTTP/1.1";
  ex.request_headers = {{"cookie", "SESSIONID=abc"}, {"authorization", "Bearer xyz"}, {"accept", "*/*"}};
  ex.response_headers = {{"set-cookie", "SESSIONID=newvalue; Path=/; HttpOnly"}, {"location", "/home"}};
  ex.body_excerpt = "Hello hunter22";
  redact_exchange(ex, {"hunter22"});
  BOOST_TEST(ex.url == "https://a.test/login?pw=****");
  BOOST_TEST(ex.request_line == "GET /login?pw=**** HTTP/1.1");
  BOOST_TEST(ex.request_headers[0].value == "****");
  BOOST_TEST(ex.request_headers[1].value == "****");
  BOOST_TEST(ex.request_headers[2].value == "*/*");
  BOOST_TEST(ex.response_headers[0].value == "SESSIONID=****; Path=/; HttpOnly");
  BOOST_TEST(ex.response_headers[1].value == "/home");
  BOOST_TEST(ex.body_excerpt == "Hello ****");
}

BOOST_AUTO_TEST_CASE(a_cookie_value_is_masked_and_its_name_and_attributes_kept) {
  BOOST_TEST(mask_cookie_value("sid=abc; HttpOnly") == "sid=****; HttpOnly");
  BOOST_TEST(mask_cookie_value("sid=a=b") == "sid=****");
  BOOST_TEST(mask_cookie_value("sid=") == "sid=****");
  BOOST_TEST(mask_cookie_value("flag; x=1") == "flag; x=1");  // no '=' before the first ';'
  BOOST_TEST(mask_cookie_value("") == "");
}

BOOST_AUTO_TEST_SUITE_END()
