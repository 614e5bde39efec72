#include "engines/analyzer/detector.hpp"

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <set>

#include "dozor_source_dir.hpp"
#include "engines/analyzer/analyzer.hpp"

using namespace dozor::analyzer;

namespace {

const std::string kModel = std::string(DOZOR_SOURCE_DIR) + "/share/analyzer";

const Analyzer& analyzer() {
  static Analyzer a(kModel);
  return a;
}

std::vector<Finding> scan(const std::string& text) {
  Document doc;
  doc.type = "text";
  doc.segments.push_back({{"line", "1", ""}, text, ""});
  return analyzer().analyze(doc).findings;
}

std::multiset<std::string> categories(const std::string& text) {
  std::multiset<std::string> out;
  for (const auto& f : scan(text)) out.insert(f.category);
  return out;
}

bool found(const std::string& text, const std::string& category) { return categories(text).count(category) > 0; }

}  // namespace

BOOST_AUTO_TEST_SUITE(analyzer_detector)

BOOST_AUTO_TEST_CASE(model_loads_and_passes_its_self_test) {
  BOOST_TEST(analyzer().model().name == "dozor-pii-ru");
  BOOST_TEST(analyzer().model().checksum.size() == 64u);
  BOOST_TEST(analyzer().model().rules.size() >= 14u);
}

BOOST_AUTO_TEST_CASE(snils_valid_found_invalid_not) {
  BOOST_TEST(found("СНИЛС: 112-233-445 95", "snils"));
  BOOST_TEST(found("страховой номер 11223344595", "snils"));
  BOOST_TEST(!found("СНИЛС: 112-233-445 94", "snils"));
}

BOOST_AUTO_TEST_CASE(inn_needs_a_valid_check_and_inn10_needs_context) {
  BOOST_TEST(found("ИНН 500100732259", "inn"));
  BOOST_TEST(!found("ИНН 500100732258", "inn"));
  BOOST_TEST(found("ИНН 7707083893", "inn"));
  BOOST_TEST(!found("заказ 7707083893", "inn"));  // ten digits pass the check one time in ten
}

BOOST_AUTO_TEST_CASE(ogrn_and_ogrnip_found) {
  BOOST_TEST(found("ОГРН 1027700132195", "ogrn"));
  BOOST_TEST(!found("ОГРН 1027700132194", "ogrn"));
  BOOST_TEST(found("ОГРНИП 304500116000157", "ogrn"));
}

BOOST_AUTO_TEST_CASE(cards_by_luhn_and_issuer) {
  BOOST_TEST(found("оплата картой 2200 7012 3456 7896", "bank_card"));
  BOOST_TEST(found("5555-5555-5555-4444", "bank_card"));
  BOOST_TEST(!found("2200 7012 3456 7895", "bank_card"));
  BOOST_TEST(!found("9999999999999995", "bank_card"));  // no issuer starts with 9
}

BOOST_AUTO_TEST_CASE(account_with_bik_in_another_cell_is_found) {
  Document doc;
  doc.type = "xlsx";
  doc.segments.push_back({{"cell", "A1", "Лист1"}, "044525225", "БИК"});
  doc.segments.push_back({{"cell", "A2", "Лист1"}, "40817810438000012345", ""});
  doc.segments.push_back({{"cell", "A3", "Лист1"}, "40817810538000012345", ""});
  auto r = analyzer().analyze(doc);
  BOOST_REQUIRE(r.counts["bank_account"] == 1u);
  BOOST_TEST(r.findings[0].where.ref == "A2");
  BOOST_TEST(r.findings[0].confidence > 0.9);
}

BOOST_AUTO_TEST_CASE(passport_needs_context) {
  BOOST_TEST(found("паспорт 45 10 123456 выдан", "passport_rf"));
  BOOST_TEST(found("Паспорт серия 4510 № 123456", "passport_rf"));
  BOOST_TEST(!found("артикул 45 10 123456", "passport_rf"));
}

BOOST_AUTO_TEST_CASE(phones_normalised_shapes) {
  BOOST_TEST(found("тел. 8 (916) 123-45-67", "phone"));
  BOOST_TEST(found("+7 916 123 45 67", "phone"));
  BOOST_TEST(found("phone: +44 20 7946 0958", "phone"));
  BOOST_TEST(!found("+7 (016) 123-45-67", "phone"));
}

BOOST_AUTO_TEST_CASE(emails_and_dates_of_birth_in_context) {
  BOOST_TEST(found("пишите: anna.smirnova@mail.example.ru", "email"));
  BOOST_TEST(found("e-mail: info@пример.рф", "email"));
  BOOST_TEST(found("Дата рождения: 01.02.1990", "birth_date"));
  BOOST_TEST(found("родилась 5 марта 1984 г.", "birth_date"));
  BOOST_TEST(!found("Договор от 01.02.1990", "birth_date"));
  BOOST_TEST(!found("Дата рождения: 31.02.1990", "birth_date"));
}

BOOST_AUTO_TEST_CASE(car_plates_and_oms) {
  BOOST_TEST(found("автомобиль с госномером Х777ХХ177", "car_plate"));
  BOOST_TEST(found("В 123 ОР 50", "car_plate"));
  BOOST_TEST(!found("Б123ЮЯ77", "car_plate"));
  BOOST_TEST(found("полис ОМС 7751230012345678", "oms_policy"));
  BOOST_TEST(!found("номер 7751230012345678", "oms_policy"));
}

BOOST_AUTO_TEST_CASE(names_in_cases_orders_and_initials) {
  BOOST_TEST(found("Иванов Иван Иванович", "full_name"));
  BOOST_TEST(found("выдано Петровой Марии Сергеевне", "full_name"));
  BOOST_TEST(found("Сергей Николаевич Кузнецов", "full_name"));
  BOOST_TEST(found("подписал И.И. Смирнов", "full_name"));
  BOOST_TEST(found("Смирнова А. П.", "full_name"));
  BOOST_TEST(found("John Smith", "full_name"));
  BOOST_TEST(!found("Приказ по Москве", "full_name"));
  BOOST_TEST(!found("иванов иван", "full_name"));  // not capitalised: not a name in running text
  // Patronymics of names in -а (Никита → Никитич, Лука → Лукич) in their case forms.
  for (const char* text : {"Иванов Сергей Никитич", "Сидорову Олегу Никитичу", "Герман Никитич Емельянов"}) {
    auto f = scan(text);
    BOOST_TEST_REQUIRE(f.size() == 1u, text);
    BOOST_TEST(f[0].value == text);
  }
}

BOOST_AUTO_TEST_CASE(postal_addresses_from_index_to_flat) {
  auto value_of = [](const std::string& text) {
    for (const auto& f : scan(text))
      if (f.category == "address") return f.value;
    return std::string();
  };
  BOOST_TEST(value_of("Адрес регистрации: 123456, г. Москва, ул. Ленина, д. 5, корп. 2, кв. 12. Тел.") ==
             "123456, г. Москва, ул. Ленина, д. 5, корп. 2, кв. 12");
  BOOST_TEST(value_of("Проживает: 190000, Санкт-Петербург, Невский пр-т, д. 28/3, кв. 7") ==
             "190000, Санкт-Петербург, Невский пр-т, д. 28/3, кв. 7");
  BOOST_TEST(value_of("142100, Московская обл., г. Подольск, ул. Маршала Жукова, д. 14") ==
             "142100, Московская обл., г. Подольск, ул. Маршала Жукова, д. 14");
  BOOST_TEST(value_of("офис: г. Нижний Новгород, проспект Гагарина, 23") ==
             "г. Нижний Новгород, проспект Гагарина, 23");
  BOOST_TEST(value_of("ул. 8 Марта, д. 1") == "ул. 8 Марта, д. 1");
  // A line break inside (a PDF wraps long lines) does not end the address.
  BOOST_TEST(value_of("Адрес: 170100, Тверская обл., г. Ржев, ул. Первомайская, д. 11,\nкв. 396 и далее") ==
             "170100, Тверская обл., г. Ржев, ул. Первомайская, д. 11,\nкв. 396");
  // A capitalised word before a street is a city only after an index: here it is a name.
  BOOST_TEST(value_of("Сидоров Петр, ул. Ленина, д. 5") == "ул. Ленина, д. 5");
  BOOST_TEST(!found("Улица Ленина закрыта на ремонт до 5 мая", "address"));
  BOOST_TEST(!found("г. Москва, Россия", "address"), "a city without a street and house");
  BOOST_TEST(!found("ул. Ленина без номера дома", "address"));
}

BOOST_AUTO_TEST_CASE(an_abbreviation_in_context_is_a_whole_word) {
  // "омс" is context for a policy number; "Омск" is not (a card beside a city stayed a card).
  BOOST_TEST(categories("Номер 5075 8388 8632 0235, офис в г. Омск") == std::multiset<std::string>{"bank_card"});
  BOOST_TEST(categories("Полис ОМС: 7751 2300 1234 5678") == std::multiset<std::string>{"oms_policy"});
}

// Context after a value counts on its line only: a card over a "Полис ОМС" line stays a card
// (a PDF page or an OCR'd scan is one segment of many lines).
BOOST_AUTO_TEST_CASE(context_after_a_value_stops_at_the_line_end) {
  BOOST_TEST(categories("Карта 2200 7012 3456 7896\nПолис ОМС 7751 2300 1234 5678") ==
             (std::multiset<std::string>{"bank_card", "oms_policy"}));
  BOOST_TEST(categories("Карта 2200 7012 3456 7896 (полис ОМС)") == std::multiset<std::string>{"oms_policy"});
  // A label on the line above still names the value under it.
  BOOST_TEST(categories("Полис ОМС:\n7751 2300 1234 5678") == std::multiset<std::string>{"oms_policy"});
}

BOOST_AUTO_TEST_CASE(digits_after_a_plus_are_a_phone_not_an_identifier) {
  // 796-101-106 95 has a valid SNILS checksum; written after '+' it is a phone.
  BOOST_TEST(categories("Телефон: +79610110695") == std::multiset<std::string>{"phone"});
  BOOST_TEST(categories("СНИЛС 796-101-106 95") == std::multiset<std::string>{"snils"});
}

BOOST_AUTO_TEST_CASE(special_categories_flagged) {
  Document doc;
  doc.type = "text";
  doc.segments.push_back({{"line", "1", ""}, "Диагноз: сахарный диабет; вероисповедание: православие", ""});
  auto r = analyzer().analyze(doc);
  BOOST_TEST(r.counts["health"] == 1u);
  BOOST_TEST(r.counts["religion"] == 1u);
  BOOST_TEST(r.special.size() == 2u);
  BOOST_TEST(r.risk == "high");
}

BOOST_AUTO_TEST_CASE(clean_text_has_no_findings) {
  auto r = scan("Компания поставляет оборудование с 2005 года. Цена 12 500 рублей, доставка 3 дня, заказ 100234.");
  BOOST_TEST(r.empty());
}

BOOST_AUTO_TEST_CASE(masking_hides_all_but_the_tail) {
  BOOST_TEST(mask("bank_card", "4276 1600 1234 5675") == "**** **** **** 5675");
  BOOST_TEST(mask("snils", "112-233-445 95") == "***-***-*45 95");
  BOOST_TEST(mask("email", "ivan.petrov@example.ru") == "i***@example.ru");
  BOOST_TEST(mask("full_name", "Иванов Иван Иванович") == "И*** И*** И***");
  BOOST_TEST(mask("full_name", "Смирнова А. П.") == "С*** А. П.");
  BOOST_TEST(mask("address", "г. Москва, ул. Ленина, д. 5, кв. 12") == "г. М***, у***. Л***, д. *, к***. **");
  BOOST_TEST(mask("car_plate", "А123ВС77") == "******77");
  auto f = scan("СНИЛС 112-233-445 95");
  BOOST_REQUIRE(f.size() == 1u);
  BOOST_TEST(f[0].masked.find("112") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(fullwidth_digits_and_nbsp_are_normalised) {
  BOOST_TEST(found("СНИЛС\u00A0１１２-２３３-４４５ ９５", "snils"));
  BOOST_TEST(found("ИНН\u00A0500100732259", "inn"));
}

BOOST_AUTO_TEST_CASE(risk_levels) {
  BOOST_TEST(risk_of({}) == "none");
  BOOST_TEST(risk_of({{"email", 1}}) == "low");
  BOOST_TEST(risk_of({{"email", 1}, {"full_name", 2}}) == "medium");
  BOOST_TEST(risk_of({{"snils", 1}}) == "high");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(analyzer_model)

namespace fs = std::filesystem;

struct Copy {
  fs::path dir = fs::temp_directory_path() / ("dozor-model-" + std::to_string(::getpid()));
  Copy() {
    fs::remove_all(dir);
    fs::copy(kModel, dir);
  }
  ~Copy() { fs::remove_all(dir); }
};

BOOST_AUTO_TEST_CASE(a_changed_file_is_refused_with_its_name) {
  Copy c;
  std::ofstream(c.dir / "surnames.txt", std::ios::app) << "лишняя\n";
  try {
    load_model(c.dir.string());
    BOOST_FAIL("a changed model loaded");
  } catch (const ModelError& e) {
    BOOST_TEST(std::string(e.what()).find("surnames.txt was changed") != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(a_missing_file_is_refused) {
  Copy c;
  fs::remove(c.dir / "rules.json");
  BOOST_CHECK_THROW(load_model(c.dir.string()), ModelError);
}

BOOST_AUTO_TEST_CASE(the_checksum_is_the_manifests_sha256) {
  auto m = load_model(kModel);
  std::ifstream in(kModel + "/manifest.json", std::ios::binary);
  std::string body((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  BOOST_TEST(m.checksum == sha256_hex(body));
  BOOST_TEST(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(analyzer_detector_deadline)

BOOST_AUTO_TEST_CASE(the_detector_stops_at_a_passed_deadline) {
  Document doc;
  doc.type = "text";
  doc.segments.push_back({{"line", "1", ""}, "СНИЛС 112-233-445 95", ""});
  BOOST_TEST(analyzer().analyze(doc, Deadline::in(60)).findings.size() == 1u);
  Deadline late{std::chrono::steady_clock::now() - std::chrono::seconds(1), 60};
  BOOST_CHECK_THROW(analyzer().analyze(doc, late), BadDocument);
}

BOOST_AUTO_TEST_SUITE_END()

// Issue 26 §1: what the detector derives from a document is bounded too.
BOOST_AUTO_TEST_SUITE(analyzer_detector_bounds)

namespace {
using dozor::limits::analyzer::kMaxBiks;
using dozor::limits::analyzer::kMaxFindings;
using dozor::limits::analyzer::kMaxTextBytes;

// `distinct` BIKs (044525225, which keys the account below, among them) in one cell, the
// account alone in another.
Report accounts_with_biks(std::size_t distinct, const std::string& account_cell) {
  std::string biks = "044525225";
  for (std::size_t i = 1; i < distinct; ++i) biks += ", 04" + std::to_string(1000000 + i);
  Document doc;
  doc.type = "xlsx";
  doc.segments.push_back({{"cell", "A1", "Лист1"}, biks, ""});
  doc.segments.push_back({{"cell", "A2", "Лист1"}, account_cell, ""});
  return analyzer().analyze(doc);
}
}  // namespace

BOOST_AUTO_TEST_CASE(biks_key_accounts_up_to_n_and_past_n_context_decides) {
  auto at_n = accounts_with_biks(kMaxBiks, "40817810438000012345");
  BOOST_REQUIRE(at_n.counts["bank_account"] == 1u);
  BOOST_TEST(at_n.findings.back().confidence > 0.9);  // keyed by its BIK
  // One more: the list keys nothing (the pairs would cost accounts × BIKs), so a bare account
  // is not reported and one with its context word is, as in a document without a BIK.
  auto past = accounts_with_biks(kMaxBiks + 1, "40817810438000012345");
  BOOST_TEST(past.counts.count("bank_account") == 0u);
  auto past_with_context = accounts_with_biks(kMaxBiks + 1, "счёт 40817810438000012345");
  BOOST_REQUIRE(past_with_context.counts["bank_account"] == 1u);
  BOOST_TEST(past_with_context.findings.back().confidence < 0.9);
}

BOOST_AUTO_TEST_CASE(normalised_text_past_the_text_limit_is_refused) {
  // U+FDFA is 3 bytes that NFKC makes 33: 12.3 MB of text would be 135 MB to match.
  std::string ligatures;
  for (int i = 0; i < 1000; ++i) ligatures += "\uFDFA";
  Document doc;
  doc.type = "text";
  std::size_t lines = kMaxTextBytes / 33000 + 1;
  for (std::size_t i = 0; i < lines; ++i) doc.segments.push_back({{"line", std::to_string(i + 1), ""}, ligatures, ""});
  BOOST_REQUIRE(lines * ligatures.size() < kMaxTextBytes);
  try {
    analyzer().analyze(doc);
    BOOST_FAIL("the expanded text was analysed");
  } catch (const BadDocument& e) {
    BOOST_TEST(std::string(e.what()).find("normalised text is larger") != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(findings_past_the_listed_limit_are_counted_not_kept) {
  std::string text;
  for (std::size_t i = 0; i < kMaxFindings + 5; ++i) text += "user" + std::to_string(i) + "@example.ru\n";
  Document doc;
  doc.type = "text";
  doc.segments.push_back({{"line", "1", ""}, text, ""});
  auto r = analyzer().analyze(doc);
  BOOST_TEST(r.findings.size() == kMaxFindings);
  BOOST_TEST(r.findings_total == kMaxFindings + 5);
  BOOST_TEST(r.counts["email"] == kMaxFindings + 5);
  BOOST_TEST(r.findings.front().value == "user0@example.ru");  // document order
}

BOOST_AUTO_TEST_SUITE_END()
