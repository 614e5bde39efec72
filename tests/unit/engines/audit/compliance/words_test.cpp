#include <boost/test/unit_test.hpp>
#include <string>

#include "engines/audit/compliance/words.hpp"
#include "engines/text/utf8.hpp"

using namespace dozor::audit::compliance;

BOOST_AUTO_TEST_SUITE(compliance_words)

BOOST_AUTO_TEST_CASE(russian_word_forms_and_case_match_one_written_form) {
  Stemmer st;
  auto text =
      words_of("Я даю СОГЛАСИЕ на обработку моих персональных данных и ознакомлен с Политикой Конфиденциальности.", st);
  BOOST_TEST(find(text, phrase_of("персональные данные", st)).has_value());
  BOOST_TEST(find(text, phrase_of("политика конфиденциальности", st)).has_value());
  BOOST_TEST(find(text, phrase_of("согласие", st)).has_value());
  BOOST_TEST(!find(text, phrase_of("согласие на обработку персональных данных", st)).has_value());  // «моих» between
  BOOST_TEST(find(text, phrase_of("обработка", st)).has_value());
  auto m = find(text, phrase_of("политика конфиденциальности", st));
  BOOST_TEST(text.text.substr(m->begin, m->end - m->begin) == "Политикой Конфиденциальности");
}

BOOST_AUTO_TEST_CASE(yo_and_e_fold_together_and_latin_words_use_the_english_stemmer) {
  Stemmer st;
  BOOST_TEST(fold_word("ЁЛКА") == "елка");
  auto text = words_of("Мы используем COOKIES. Её данные", st);
  BOOST_TEST(find(text, phrase_of("cookie", st)).has_value());
  BOOST_TEST(find(text, phrase_of("ее", st)).has_value());
  BOOST_TEST(!find(text, phrase_of("куки", st)).has_value());
}

BOOST_AUTO_TEST_CASE(a_phrase_is_found_only_within_the_given_window) {
  Stemmer st;
  auto text = words_of("официальный сайт города и его администрации", st);
  BOOST_TEST(find(text, phrase_of("администрация", st), 2, 6).has_value());
  BOOST_TEST(!find(text, phrase_of("администрация", st), 2, 5).has_value());
}

BOOST_AUTO_TEST_CASE(excerpts_are_bounded_and_valid_utf8) {
  Stemmer st;
  std::string long_text;
  for (int i = 0; i < 200; ++i) long_text += "слово ";
  long_text += "персональных данных";
  for (int i = 0; i < 200; ++i) long_text += " хвост";
  auto text = words_of(long_text, st);
  auto m = find(text, phrase_of("персональные данные", st));
  BOOST_REQUIRE(m.has_value());
  std::string ex = excerpt(text, *m);
  BOOST_TEST(dozor::text::utf8_length(ex) <= 300u);
  BOOST_TEST(dozor::text::is_valid_utf8(ex));
  BOOST_TEST(ex.find("персональных данных") != std::string::npos);
  BOOST_TEST(dozor::text::utf8_length(clip(long_text, 300)) == 300u);
}

BOOST_AUTO_TEST_SUITE_END()
