#include <unicode/unistr.h>

#include <boost/json/serialize.hpp>
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "engines/audit/compliance/engine.hpp"
#include "engines/crawl/charset.hpp"
#include "engines/crawl/html_extract.hpp"
#include "tests/unit/support/audit_data.hpp"

using namespace dozor;
using namespace dozor::audit::compliance;

namespace {

const Data& data() { return dozor::test::shipped_audit_data().compliance; }

constexpr std::int64_t kToday = 20415;  // 2025-11-23

const std::vector<net::HeaderField> kGoodHeaders = {
    {"content-type", "text/html; charset=utf-8"},
    {"strict-transport-security", "max-age=63072000"},
    {"content-security-policy", "default-src 'self'; frame-ancestors 'none'"},
    {"x-content-type-options", "nosniff"},
    {"referrer-policy", "no-referrer"},
};

// Feeds a page the way the crawler does: the exchange, the UTF-8 html and gumbo's facts.
void feed(Engine& e, const std::string& url, int depth, const std::string& html,
          std::vector<net::HeaderField> headers = kGoodHeaders, int status = 200) {
  net::Exchange ex;
  ex.url = url;
  ex.status = status;
  ex.status_line = "HTTP/1.1 " + std::to_string(status);
  ex.response_headers = std::move(headers);
  std::vector<net::Exchange> exchanges{ex};
  crawl::PageFacts facts = crawl::extract_html(html, url);
  e.observe(crawl::PageSeen{url, depth, status, exchanges, &html, &facts});
}

void feed_status(Engine& e, const std::string& url, int status) {
  net::Exchange ex;
  ex.url = url;
  ex.status = status;
  std::vector<net::Exchange> exchanges{ex};
  e.observe(crawl::PageSeen{url, 1, status, exchanges});
}

const ItemResult& item(const Result& r, const std::string& id) {
  for (const auto& s : r.sets)
    for (const auto& it : s.items)
      if (it.spec->id == id) return it;
  throw std::runtime_error("no item " + id);
}

const SetResult& set_of(const Result& r, const std::string& id) {
  for (const auto& s : r.sets)
    if (s.spec->id == id) return s;
  throw std::runtime_error("no set " + id);
}

std::string evidence_text(const ItemResult& it) {
  std::string out;
  for (const auto& e : it.evidence) out += e.url + " | " + e.excerpt + "\n";
  return out;
}

const std::string kFooter =
    "<footer>ООО «Ромашка», ИНН 7707083893, ОГРН 1027700132195, 123456, г. Москва, ул. Ленина, 1. "
    "<a href='mailto:info@romashka.ru'>info@romashka.ru</a>, тел. +7 (495) 123-45-67</footer>";

const std::string kPolicy =
    "<html><head><title>Политика обработки персональных данных</title></head><body><h1>Политика</h1>"
    "<p>Оператор: ООО «Ромашка», ИНН 7707083893. Цели обработки персональных данных: исполнение договора. "
    "Категории персональных данных: имя, телефон. Правовые основания обработки: договор, согласие субъекта. "
    "Сроки хранения: три года. Права субъекта персональных данных: доступ, отзыв согласия. "
    "Передача персональных данных третьим лицам по поручению оператора. Трансграничная передача не осуществляется. "
    "Меры по обеспечению безопасности персональных данных: шифрование.</p></body></html>";

std::string shop(const std::string& form_inside, const std::string& after_form = "") {
  return "<html lang='ru'><head><title>Магазин «Ромашка»</title></head><body>"
         "<nav><a href='/catalog'>Каталог</a><a href='/privacy'>Политика конфиденциальности</a></nav>"
         "<form method='post' action='/order'><input name='name' placeholder='Ваше имя'>"
         "<input type='email' name='email'><input type='tel' name='phone'>" +
         form_inside + "<button>Отправить</button></form>" + after_form + kFooter + "</body></html>";
}

const std::string kConsent =
    "<label><input type='checkbox' name='agree' required> Я даю <a href='/consent'>согласие на обработку персональных "
    "данных</a> и принимаю <a href='/privacy'>политику конфиденциальности</a></label>";

Result run_shop(const std::string& landing, Profile profile = Profile::Auto) {
  Engine e(data(), "https://shop.example/", profile, kToday);
  feed(e, "https://shop.example/", 0, landing);
  feed(e, "https://shop.example/privacy", 1, kPolicy);
  feed(e, "https://shop.example/consent", 1, "<html><title>Согласие</title><body>Согласие на обработку</body></html>");
  return e.finish();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(compliance_engine)

BOOST_AUTO_TEST_CASE(a_shop_with_consent_and_policy_passes_the_personal_data_items) {
  Result r = run_shop(shop(kConsent));
  for (const char* id : {"PD-01", "PD-02", "PD-03", "PD-04", "PD-05", "PD-06", "PD-07", "PD-13", "PD-14"})
    BOOST_TEST((item(r, id).status == Status::Passed), id << ": " << item(r, id).note << "\n"
                                                          << evidence_text(item(r, id)));
  BOOST_TEST((item(r, "PD-08").status == Status::NotApplicable));  // no cookies, no trackers
  BOOST_TEST((item(r, "PD-12").status == Status::Manual));
  BOOST_TEST((item(r, "PD-15").status == Status::Manual));
  BOOST_TEST(evidence_text(item(r, "PD-15")).find("7707083893") != std::string::npos);
  BOOST_TEST((item(r, "SEC-01").status == Status::Passed));
  BOOST_TEST((item(r, "SEC-05").status == Status::Passed));
  BOOST_TEST(!r.governmental);
  for (const auto& it : set_of(r, "8-FZ").items) BOOST_TEST((it.status == Status::NotApplicable), it.spec->id);
  BOOST_TEST(!set_of(r, "8-FZ").score.has_value());
  const SetResult& pd = set_of(r, "152-FZ");
  BOOST_TEST(pd.failed == 0, evidence_text(item(r, "PD-10")));
  BOOST_TEST(pd.score.value_or(-1) == 100);
  BOOST_TEST(pd.passed + pd.failed + pd.manual + pd.not_applicable == 16);
  BOOST_TEST(findings_of(r).empty());
  BOOST_TEST(r.pages_read == 3u);
}

BOOST_AUTO_TEST_CASE(a_form_without_consent_or_policy_link_fails_with_evidence) {
  Engine e(data(), "https://shop.example/", Profile::Auto, kToday);
  std::string html =
      "<html><body><form method=post action='/callback'><input name='fio' placeholder='ФИО'>"
      "<input name='user_phone' placeholder='Телефон'><button>Перезвоните мне</button></form></body></html>";
  feed(e, "https://shop.example/", 0, html);
  Result r = e.finish();
  const ItemResult& pd03 = item(r, "PD-03");
  BOOST_TEST((pd03.status == Status::Failed));
  BOOST_REQUIRE(!pd03.evidence.empty());
  BOOST_TEST(pd03.evidence[0].url == "https://shop.example/");
  BOOST_TEST(pd03.evidence[0].excerpt.find("POST https://shop.example/callback: fio, user_phone") != std::string::npos,
             pd03.evidence[0].excerpt);
  BOOST_TEST((item(r, "PD-01").status == Status::Failed));
  BOOST_TEST(item(r, "PD-01").confidence == "high");
  BOOST_TEST((item(r, "PD-07").status == Status::Failed));
  BOOST_TEST((item(r, "PD-06").status == Status::Failed));
  BOOST_TEST((item(r, "PD-04").status == Status::NotApplicable));
  BOOST_TEST((item(r, "PD-14").status == Status::Failed));
  auto findings = findings_of(r);
  auto f = std::find_if(findings.begin(), findings.end(),
                        [](const audit::Finding& x) { return x.check == "compliance-pd-03"; });
  BOOST_REQUIRE(f != findings.end());
  BOOST_TEST((f->severity == audit::Severity::Critical));
  BOOST_TEST(f->references.at(0).find("ст. 9") != std::string::npos);
  BOOST_TEST(f->evidence.at(0).url == "https://shop.example/");
  // Every finding is a failed item of medium severity or worse.
  for (const auto& x : findings) BOOST_TEST((x.severity >= audit::Severity::Medium), x.check);
  BOOST_TEST(set_of(r, "152-FZ").score.value_or(-1) < 50);
}

BOOST_AUTO_TEST_CASE(a_pre_ticked_consent_checkbox_fails) {
  std::string pre =
      "<label><input type='checkbox' name='consent' checked> Согласен на обработку персональных данных "
      "(<a href='/privacy'>политика</a>)</label>";
  Result r = run_shop(shop(pre));
  BOOST_TEST((item(r, "PD-04").status == Status::Failed));
  BOOST_TEST(evidence_text(item(r, "PD-04")).find("checked") != std::string::npos, evidence_text(item(r, "PD-04")));
  BOOST_TEST((item(r, "PD-03").status == Status::Passed));
}

BOOST_AUTO_TEST_CASE(consent_implied_by_the_button_fails_pd05_not_pd03) {
  Result r = run_shop(shop("",
                           "<p class='note'>Нажимая кнопку «Отправить», вы соглашаетесь с "
                           "<a href='/privacy'>политикой обработки персональных данных</a>.</p>"));
  BOOST_TEST((item(r, "PD-05").status == Status::Failed));
  BOOST_TEST(evidence_text(item(r, "PD-05")).find("Нажимая кнопку") != std::string::npos,
             evidence_text(item(r, "PD-05")));
  BOOST_TEST((item(r, "PD-03").status == Status::Passed));
  BOOST_TEST((item(r, "PD-07").status == Status::Passed));  // the policy is linked right beside the form
}

BOOST_AUTO_TEST_CASE(a_windows_1251_page_is_read_with_russian_word_forms) {
  std::string utf8 =
      "<html><head><meta charset='windows-1251'><title>Заявка</title></head><body>"
      "<a href='/politika.html'>Политика конфиденциальности</a>"
      "<form method='post' action='/zayavka'><input name='fio'><input name='telefon'>"
      "<input type='checkbox' id='c1' name='c1'><label for='c1'>Даю согласие на обработку моих персональных данных "
      "в соответствии с <a href='/politika.html'>Политикой конфиденциальности</a></label>"
      "<a href='/soglasie.html'>Согласие на обработку персональных данных</a></form></body></html>";
  std::string cp1251;
  {
    icu::UnicodeString u = icu::UnicodeString::fromUTF8(utf8);
    int32_t n = u.extract(0, u.length(), nullptr, 0, "windows-1251");
    cp1251.resize(static_cast<std::size_t>(n));
    u.extract(0, u.length(), cp1251.data(), static_cast<uint32_t>(n), "windows-1251");
  }
  BOOST_REQUIRE(cp1251 != utf8);
  std::string html = crawl::to_utf8(cp1251, "text/html; charset=windows-1251");  // what the crawler hands over
  Engine e(data(), "http://zavod.example/", Profile::Auto, kToday);
  feed(e, "http://zavod.example/", 0, html, {{"content-type", "text/html; charset=windows-1251"}});
  Result r = e.finish();
  BOOST_TEST((item(r, "PD-03").status == Status::Passed), evidence_text(item(r, "PD-03")));
  BOOST_TEST((item(r, "PD-07").status == Status::Passed));
  BOOST_TEST((item(r, "PD-06").status == Status::Passed), evidence_text(item(r, "PD-06")));
  BOOST_TEST((item(r, "PD-01").status == Status::Passed), item(r, "PD-01").note);
  BOOST_TEST((item(r, "PD-02").status == Status::Manual));  // the policy page was not read
  BOOST_TEST((item(r, "PD-13").status == Status::Failed));  // the form is on a plain-HTTP page
  BOOST_TEST((item(r, "SEC-01").status == Status::Failed));
}

BOOST_AUTO_TEST_CASE(a_governmental_looking_page_brings_the_8fz_set) {
  std::string html =
      "<html lang='ru'><head><title>Официальный сайт Администрации города Энска</title></head><body>"
      "<a href='/contacts'>Контакты</a><a href='/struktura'>Структура и полномочия</a><a "
      "href='/rukovodstvo'>Руководство</a>"
      "<a href='/news'>Новости</a><a href='/anticorruption'>Противодействие коррупции</a>"
      "<a href='https://vk.com/ensk_adm'>ВКонтакте</a><a href='https://ok.ru/ensk'>Одноклассники</a>"
      "<a href='/opendata/'>Открытые данные</a><a href='/special'>Версия для слабовидящих</a><a href='/map'>Карта "
      "сайта</a>"
      "<form action='/search'><input type='search' name='q'></form>"
      "<p>20.11.2025 Глава города провёл приём граждан. Телефон приёмной 8 (3452) 12-34-56, "
      "<a href='mailto:adm@ensk.ru'>adm@ensk.ru</a></p><img src='/a.png'></body></html>";
  Engine e(data(), "https://ensk.example/", Profile::Auto, kToday);
  feed(e, "https://ensk.example/", 0, html);
  feed_status(e, "https://ensk.example/anticorruption", 404);
  Result r = e.finish();
  BOOST_TEST(r.governmental);
  BOOST_TEST(r.governmental_why.find("Официальный сайт Администрации") != std::string::npos, r.governmental_why);
  BOOST_TEST((item(r, "GOV-01").status == Status::Passed), item(r, "GOV-01").note);
  BOOST_TEST((item(r, "GOV-02").status == Status::Passed));
  BOOST_TEST((item(r, "GOV-03").status == Status::Passed));
  BOOST_TEST((item(r, "GOV-04").status == Status::Failed));
  BOOST_TEST((item(r, "GOV-06").status == Status::Passed), item(r, "GOV-06").note);
  BOOST_TEST((item(r, "GOV-10").status == Status::Passed));
  BOOST_TEST((item(r, "GOV-11").status == Status::Passed));
  BOOST_TEST((item(r, "GOV-12").status == Status::Failed));  // linked, but the page is 404
  BOOST_TEST(item(r, "GOV-12").note.find("404") != std::string::npos);
  BOOST_TEST((item(r, "GOV-13").status == Status::Passed), item(r, "GOV-13").note);
  BOOST_TEST((item(r, "GOV-14").status == Status::Passed));
  BOOST_TEST(item(r, "GOV-14").note.find("1 of 1 images without alt") != std::string::npos, item(r, "GOV-14").note);
  BOOST_TEST(set_of(r, "8-FZ").score.has_value());

  // The same page with profile=commercial: the set does not apply.
  Engine c(data(), "https://ensk.example/", Profile::Commercial, kToday);
  feed(c, "https://ensk.example/", 0, html);
  Result rc = c.finish();
  BOOST_TEST(!rc.governmental);
  BOOST_TEST((item(rc, "GOV-01").status == Status::NotApplicable));

  // Old news only: GOV-06 fails.
  Engine o(data(), "https://ensk.example/", Profile::Auto, kToday + 365);
  feed(o, "https://ensk.example/", 0, html);
  BOOST_TEST((item(o.finish(), "GOV-06").status == Status::Failed));
}

BOOST_AUTO_TEST_CASE(a_shop_is_not_governmental_unless_the_profile_says_so_and_gov_hosts_are) {
  BOOST_TEST(!run_shop(shop(kConsent)).governmental);
  Result g = run_shop(shop(kConsent), Profile::Gov);
  BOOST_TEST(g.governmental);
  BOOST_TEST((item(g, "GOV-12").status == Status::Failed));
  Engine e(data(), "https://minfin.gov.ru/", Profile::Auto, kToday);
  feed(e, "https://minfin.gov.ru/", 0, "<html><body>hi</body></html>");
  BOOST_TEST(e.finish().governmental);
  Engine n(data(), "https://notgov.ru/", Profile::Auto, kToday);
  feed(n, "https://notgov.ru/", 0, "<html><body>hi</body></html>");
  BOOST_TEST(!n.finish().governmental);
}

BOOST_AUTO_TEST_CASE(inn_and_ogrn_check_digits_decide_pd14) {
  auto run = [](const std::string& footer) {
    Engine e(data(), "https://a.example/", Profile::Auto, kToday);
    feed(e, "https://a.example/", 0, "<html><body><p>" + footer + "</p></body></html>");
    return e.finish();
  };
  for (const char* valid :
       {"ИНН 7707083893", "ИНН: 500100732259", "ОГРН 1027700132195", "инн/кпп 7707083893/770701001"}) {
    Result r = run(valid);
    BOOST_TEST((item(r, "PD-14").status == Status::Passed), valid);
    BOOST_TEST(evidence_text(item(r, "PD-14")).find("(valid)") != std::string::npos, valid);
  }
  for (const char* invalid : {"ИНН 7707083894", "ОГРН 1027700132196", "ИНН 500100732258", "ИНН 77070838931"}) {
    Result r = run(invalid);
    BOOST_TEST((item(r, "PD-14").status == Status::Failed), invalid);
    BOOST_TEST(evidence_text(item(r, "PD-14")).find("check digit does not match") != std::string::npos, invalid);
  }
  Result none = run("Телефон 7707083893");  // a number without its label is not an INN
  BOOST_TEST((item(none, "PD-14").status == Status::Failed));
  BOOST_TEST(item(none, "PD-14").evidence.empty());
}

BOOST_AUTO_TEST_CASE(foreign_trackers_fail_pd10_and_russian_ones_only_pd09) {
  auto run = [](const std::string& head, std::vector<net::HeaderField> headers = kGoodHeaders) {
    Engine e(data(), "https://a.example/", Profile::Auto, kToday);
    feed(e, "https://a.example/", 0, "<html><head>" + head + "</head><body>Главная</body></html>", headers);
    return e.finish();
  };
  Result ga = run("<script async src='https://www.googletagmanager.com/gtag/js?id=G-1'></script>");
  BOOST_TEST((item(ga, "PD-10").status == Status::Failed));
  BOOST_TEST((item(ga, "PD-10").severity == audit::Severity::Critical));
  BOOST_TEST(evidence_text(item(ga, "PD-10")).find("Google Tag Manager") != std::string::npos);
  BOOST_TEST((item(ga, "PD-09").status == Status::Failed));
  BOOST_TEST((item(ga, "PD-08").status == Status::Failed));
  BOOST_TEST((item(ga, "SEC-06").status == Status::Failed));  // no integrity

  Result ym =
      run("<script>(function(m,e,t,r,i,k,a){})(window, document, 'script', "
          "'https://mc.yandex.ru/metrika/tag.js', 'ym'); ym(1, 'init', {});</script>");
  BOOST_TEST((item(ym, "PD-10").status == Status::Passed));
  BOOST_TEST((item(ym, "PD-09").status == Status::Failed));
  BOOST_TEST(evidence_text(item(ym, "PD-09")).find("Yandex.Metrica") != std::string::npos);

  Result fonts =
      run("<link rel=stylesheet href='x.css'><script src='https://fonts.googleapis.com/x.js' "
          "integrity='sha384-x'></script>");
  BOOST_TEST((item(fonts, "PD-10").status == Status::Failed));
  BOOST_TEST((item(fonts, "PD-10").severity == audit::Severity::High));

  auto h = kGoodHeaders;
  h.push_back({"set-cookie", "_ga=GA1.2.3; Path=/"});
  Result cookie = run("<script>var t='Мы используем файлы cookie';</script>", h);
  BOOST_TEST((item(cookie, "PD-08").status == Status::Passed), item(cookie, "PD-08").note);
  BOOST_TEST((item(cookie, "PD-09").status == Status::Failed));
  BOOST_TEST(item(cookie, "PD-09").confidence == "high");
}

BOOST_AUTO_TEST_CASE(technical_items_read_the_landing_answer) {
  Engine e(data(), "http://a.example/", Profile::Auto, kToday);
  feed(e, "http://a.example/", 0, "<html><body><meta name=generator content='WordPress 6.1'>hi</body></html>",
       {{"content-type", "text/html"}, {"server", "nginx/1.18.0"}, {"x-powered-by", "PHP/7.4.3"}});
  feed(e, "http://a.example/wp-login.php", 1, "<html><body><form><input type=password name=pwd></form></body></html>",
       {{"content-type", "text/html"}});
  Result r = e.finish();
  BOOST_TEST((item(r, "SEC-01").status == Status::Failed));
  BOOST_TEST((item(r, "SEC-03").status == Status::Failed));
  BOOST_TEST(evidence_text(item(r, "SEC-03")).find("server: nginx/1.18.0") != std::string::npos);
  BOOST_TEST((item(r, "SEC-04").status == Status::Failed));
  BOOST_TEST(evidence_text(item(r, "SEC-04")).find("/wp-login.php") != std::string::npos);
  BOOST_TEST((item(r, "SEC-05").status == Status::Failed));
  BOOST_TEST(item(r, "SEC-05").note.find("Referrer-Policy") != std::string::npos);
  BOOST_TEST((item(r, "SEC-02").status == Status::Manual));
  const SetResult& sec = set_of(r, "FSTEC");
  BOOST_TEST(sec.score.value_or(-1) == 20);  // 1 passed (SEC-06: no scripts) of 5: 01, 03, 04, 05 fail
  // A login form is not a personal-data form.
  BOOST_TEST((item(r, "PD-03").status == Status::NotApplicable));
}

BOOST_AUTO_TEST_CASE(an_https_site_whose_http_form_serves_without_redirect_fails_sec01_and_pd13) {
  auto run = [](std::optional<net::CheckOutcome> probe) {
    Engine e(data(), "https://shop.example/", Profile::Auto, kToday);
    feed(e, "https://shop.example/", 0, shop(kConsent));
    feed(e, "https://shop.example/privacy", 1, kPolicy);
    if (probe) e.observe_http_probe(*probe);
    return e.finish();
  };
  net::CheckOutcome serves;
  serves.responded = true;
  serves.status = 200;
  serves.final_url = "http://shop.example/";
  net::Exchange ex;
  ex.url = "http://shop.example/";
  ex.status = 200;
  ex.status_line = "HTTP/1.1 200 OK";
  serves.exchanges = {ex};
  Result open = run(serves);
  BOOST_TEST((item(open, "SEC-01").status == Status::Failed));
  BOOST_TEST(evidence_text(item(open, "SEC-01")).find("http://shop.example/ | HTTP/1.1 200 OK") != std::string::npos,
             evidence_text(item(open, "SEC-01")));
  BOOST_TEST((item(open, "PD-13").status == Status::Failed));

  net::CheckOutcome redirects = serves;
  redirects.final_url = "https://shop.example/";
  Result closed = run(redirects);
  BOOST_TEST((item(closed, "SEC-01").status == Status::Passed));
  BOOST_TEST(item(closed, "SEC-01").note.find("redirects") != std::string::npos, item(closed, "SEC-01").note);
  BOOST_TEST((item(closed, "PD-13").status == Status::Passed));

  net::CheckOutcome refused;
  refused.kind = net::CheckError::Connect;
  refused.error = "connection refused";
  refused.final_url = "http://shop.example/";
  BOOST_TEST((item(run(refused), "SEC-01").status == Status::Passed));
}

BOOST_AUTO_TEST_CASE(the_json_has_the_documented_shape) {
  Result r = run_shop(shop(""));
  auto j = to_json(r);
  BOOST_TEST(j.at("profile").as_string() == "auto");
  auto& sets = j.at("sets").as_array();
  BOOST_REQUIRE(sets.size() == 3u);
  auto& pd = sets[0].as_object();
  BOOST_TEST(pd.at("id").as_string() == "152-FZ");
  BOOST_TEST(pd.at("title").as_object().at("ru").as_string().size() > 0u);
  auto& it = pd.at("items").as_array()[2].as_object();
  BOOST_TEST(it.at("id").as_string() == "PD-03");
  BOOST_TEST(it.at("status").as_string() == "failed");
  BOOST_TEST(it.at("severity").as_string() == "critical");
  for (const char* k : {"title", "status", "severity", "confidence", "legal_reference", "evidence", "recommendation",
                        "note", "automated"})
    BOOST_TEST(it.contains(k), k);
  BOOST_TEST(it.at("evidence").as_array()[0].as_object().contains("excerpt"));
  BOOST_TEST(sets[1].as_object().at("score").is_null());
}

BOOST_AUTO_TEST_SUITE_END()
