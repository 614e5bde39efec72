#include "engines/analyzer/names.hpp"

#include <re2/re2.h>

#include <array>

#include "engines/analyzer/text.hpp"

namespace dozor::analyzer::names {
namespace {

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

void add_all(std::unordered_set<std::string>& out, const std::string& stem, std::initializer_list<const char*> ends) {
  for (const char* e : ends) out.insert(stem + e);
}

// After г, к, х, ж, ш, ч, щ the genitive ending is -и, not -ы (Ольга → Ольги).
bool velar_or_sibilant_end(std::string_view stem) {
  for (std::string_view c : {"г", "к", "х", "ж", "ш", "ч", "щ"})
    if (ends_with(stem, c)) return true;
  return false;
}

// Roles a word can play in a name; a word may have several.
enum Role : unsigned { kFirst = 1, kSurnameDict = 2, kSurnameShape = 4, kPatronymic = 8, kInitial = 16 };

struct Word {
  std::size_t begin, end;  // end includes the dot of an initial
  unsigned roles;
};

}  // namespace

std::unordered_set<std::string> first_name_forms(const std::unordered_set<std::string>& nominative) {
  std::unordered_set<std::string> out;
  for (const auto& n : nominative) {
    out.insert(n);
    if (ends_with(n, "ия")) {
      add_all(out, n.substr(0, n.size() - 4), {"ии", "ию", "ией", "иею"});
    } else if (ends_with(n, "я")) {
      add_all(out, n.substr(0, n.size() - 2), {"и", "е", "ю", "ей", "ею"});
    } else if (ends_with(n, "а")) {
      std::string stem = n.substr(0, n.size() - 2);
      add_all(out, stem, {"е", "у", "ой", "ою"});
      out.insert(stem + (velar_or_sibilant_end(stem) ? "и" : "ы"));
    } else if (ends_with(n, "й") || ends_with(n, "ь")) {
      add_all(out, n.substr(0, n.size() - 2), {"я", "ю", "ем", "е", "ей"});
    } else if (ends_with(n, "ел")) {  // Павел → Павла: the fleeting vowel
      add_all(out, n.substr(0, n.size() - 4) + "л", {"а", "у", "ом", "е"});
    } else if (ends_with(n, "ев") && n.size() <= 6) {  // Лев → Льва
      out.insert("льва"), out.insert("льву"), out.insert("львом"), out.insert("льве");
    } else {
      add_all(out, n, {"а", "у", "ом", "е", "ым"});
    }
  }
  return out;
}

std::unordered_set<std::string> surname_forms(const std::unordered_set<std::string>& nominative) {
  std::unordered_set<std::string> out;
  for (const auto& n : nominative) {
    out.insert(n);
    if (ends_with(n, "ов") || ends_with(n, "ев") || ends_with(n, "ин") || ends_with(n, "ын")) {
      add_all(out, n, {"а", "у", "ым", "е", "ой", "ою", "ы", "ых", "ыми"});
    } else if (ends_with(n, "ский") || ends_with(n, "цкий")) {
      add_all(out, n.substr(0, n.size() - 4), {"ого", "ому", "им", "ом", "ая", "ой", "ую", "ие", "их"});
    } else if (ends_with(n, "ой")) {  // Толстой
      add_all(out, n.substr(0, n.size() - 4), {"ого", "ому", "ым", "ом", "ая", "ую"});
    } else if (ends_with(n, "о") || ends_with(n, "ук") || ends_with(n, "юк")) {
      // Шевченко does not decline; -ук declines for men only.
      if (!ends_with(n, "о")) add_all(out, n, {"а", "у", "ом", "е"});
    } else {
      add_all(out, n, {"а", "у", "ом", "е"});
    }
  }
  return out;
}

bool is_patronymic(std::string_view folded) {
  static const re2::RE2 kRe("[\\p{Cyrillic}]{2,}(?:(?:ович|евич|ич)(?:а|у|ем|е)?|(?:овн|евн|ичн)(?:а|ы|е|у|ой|ою))");
  return re2::RE2::FullMatch(re2::StringPiece(folded.data(), folded.size()), kRe);
}

bool has_surname_suffix(std::string_view folded) {
  static const re2::RE2 kRe(
      "[\\p{Cyrillic}]{2,}(?:(?:ов|ев|ёв|ин|ын)(?:а|у|ым|е|ой)?|(?:ск|цк)(?:ий|ого|ому|им|ом|ая|ой|ую))");
  return re2::RE2::FullMatch(re2::StringPiece(folded.data(), folded.size()), kRe);
}

std::vector<NameMatch> NameFinder::find(std::string_view s) const {
  // 1. Capitalised words with their roles.
  std::vector<Word> words;
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t start = i;
    std::int32_t c = text::next_cp(s, i);
    if (!text::is_letter(c)) continue;
    bool upper = text::is_upper(c);
    std::size_t end = i;
    std::size_t letters = 1;
    for (;;) {
      std::size_t j = end;
      std::int32_t d = text::next_cp(s, j);
      if (text::is_letter(d)) {
        end = j, ++letters;
        continue;
      }
      // A hyphenated name (Римский-Корсаков, Анна-Мария) is one word.
      if (d == '-') {
        std::size_t k = j;
        if (text::is_letter(text::next_cp(s, k))) {
          end = j;
          continue;
        }
      }
      break;
    }
    i = end;
    if (!upper) continue;
    Word w{start, end, 0};
    if (letters == 1) {
      std::size_t j = end;
      if (text::next_cp(s, j) == '.') w.roles |= kInitial, w.end = j;
    } else {
      std::string f = text::fold(s.substr(start, end - start));
      if (first_.count(f)) w.roles |= kFirst;
      if (surname_.count(f)) w.roles |= kSurnameDict;
      if (has_surname_suffix(f)) w.roles |= kSurnameShape;
      if (is_patronymic(f)) w.roles |= kPatronymic;
    }
    if (w.roles) words.push_back(w);
  }

  // 2. Adjacent words (only spaces between) make sequences matched against the name shapes.
  auto adjacent = [&](std::size_t a, std::size_t b) {
    if (b >= words.size()) return false;
    for (std::size_t k = words[a].end; k < words[b].begin; ++k)
      if (s[k] != ' ' && s[k] != '\t') return false;
    return words[b].begin - words[a].end <= 3;
  };
  auto has = [&](std::size_t k, unsigned r) { return (words[k].roles & r) != 0; };
  const unsigned kSurname = kSurnameDict | kSurnameShape;

  std::vector<NameMatch> out;
  for (std::size_t k = 0; k < words.size();) {
    bool a1 = adjacent(k, k + 1), a2 = a1 && adjacent(k + 1, k + 2);
    auto take = [&](std::size_t n, double conf) {
      out.push_back({words[k].begin, words[k + n - 1].end, static_cast<int>(n), conf});
      k += n;
    };
    // Three parts: Surname First Patronymic, First Patronymic Surname, Surname I. I., I. I. Surname.
    if (a2 && has(k, kSurname) && has(k + 1, kFirst) && has(k + 2, kPatronymic)) {
      take(3, 0.97);
      continue;
    }
    if (a2 && has(k, kFirst) && has(k + 1, kPatronymic) && has(k + 2, kSurname)) {
      take(3, 0.97);
      continue;
    }
    if (a2 && has(k, kSurname) && has(k + 1, kInitial) && has(k + 2, kInitial)) {
      take(3, has(k, kSurnameDict) ? 0.93 : 0.85);
      continue;
    }
    if (a2 && has(k, kInitial) && has(k + 1, kInitial) && has(k + 2, kSurname)) {
      take(3, has(k + 2, kSurnameDict) ? 0.93 : 0.85);
      continue;
    }
    // Two parts: First Patronymic, First Surname, Surname First; a dictionary surname with one initial.
    if (a1 && has(k, kFirst) && has(k + 1, kPatronymic)) {
      take(2, 0.9);
      continue;
    }
    if (a1 && has(k, kFirst) && has(k + 1, kSurname)) {
      take(2, has(k + 1, kSurnameDict) ? 0.9 : 0.8);
      continue;
    }
    if (a1 && has(k, kSurname) && has(k + 1, kFirst)) {
      take(2, has(k, kSurnameDict) ? 0.9 : 0.8);
      continue;
    }
    if (a1 && has(k, kSurnameDict) && has(k + 1, kInitial)) {
      take(2, 0.75);
      continue;
    }
    if (a1 && has(k, kInitial) && has(k + 1, kSurnameDict)) {
      take(2, 0.75);
      continue;
    }
    ++k;
  }
  return out;
}

}  // namespace dozor::analyzer::names
