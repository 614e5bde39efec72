#include "engines/auth/password_strength.hpp"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/ustring.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <limits>
#include <map>
#include <optional>

namespace dozor::auth {
namespace {

// zxcvbn's constants (scoring.py), kept so that estimates compare with its published ones.
constexpr double kBruteforceCardinality = 10;
constexpr double kMinGuessesBeforeGrowingSequence = 10000;
constexpr double kMinSubmatchGuessesSingleChar = 10;
constexpr double kMinSubmatchGuessesMultiChar = 50;
constexpr int kMinYearSpace = 20;
constexpr int kDateMinYear = 1000;
constexpr int kDateMaxYear = 2050;
constexpr int kMaxSequenceDelta = 5;
constexpr std::size_t kMaxWordChars = 40;  // the longest dictionary substring looked up
constexpr std::size_t kMaxL33tVariants = 16;

enum class Kind { Bruteforce, Dictionary, Spatial, Repeat, Sequence, Year, Date };

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Bruteforce: return "bruteforce";
    case Kind::Dictionary: return "dictionary";
    case Kind::Spatial: return "spatial";
    case Kind::Repeat: return "repeat";
    case Kind::Sequence: return "sequence";
    case Kind::Year: return "year";
    case Kind::Date: return "date";
  }
  return "?";
}

struct Match {
  Kind kind;
  std::size_t i, j;  // inclusive character positions
  double guesses;    // the pattern's own count, before the submatch minimum
};

double n_choose_k(double n, double k) {
  if (k > n) return 0;
  if (k == 0) return 1;
  double r = 1;
  const auto steps = static_cast<long>(k);  // k is a whole count kept as double for the products
  for (long d = 1; d <= steps; ++d) {
    r *= n;
    r /= static_cast<double>(d);
    n -= 1;
  }
  return r;
}

double factorial(std::size_t n) {
  double f = 1;
  for (std::size_t i = 2; i <= n; ++i) f *= static_cast<double>(i);
  return f;
}

// ---------------------------------------------------------------- dictionary

struct Sub {
  char32_t from;
  char32_t letters[2];  // 0 when unused
};
// zxcvbn's l33t table, from the substitute's side.
constexpr std::array<Sub, 20> kL33t{
    {{U'4', {U'a', 0}},    {U'@', {U'a', 0}}, {U'8', {U'b', 0}},    {U'(', {U'c', 0}},    {U'{', {U'c', 0}},
     {U'[', {U'c', 0}},    {U'<', {U'c', 0}}, {U'3', {U'e', 0}},    {U'6', {U'g', 0}},    {U'9', {U'g', 0}},
     {U'1', {U'i', U'l'}}, {U'!', {U'i', 0}}, {U'|', {U'i', U'l'}}, {U'7', {U'l', U't'}}, {U'0', {U'o', 0}},
     {U'$', {U's', 0}},    {U'5', {U's', 0}}, {U'+', {U't', 0}},    {U'%', {U'x', 0}},    {U'2', {U'z', 0}}}};

const Sub* l33t_sub(char32_t c) {
  for (const auto& s : kL33t)
    if (s.from == c) return &s;
  return nullptr;
}

double uppercase_variations(std::u32string_view word) {
  std::size_t upper = 0, lower = 0;
  for (char32_t c : word) {
    if (u_isupper(static_cast<UChar32>(c)))
      ++upper;
    else if (u_islower(static_cast<UChar32>(c)))
      ++lower;
  }
  if (upper == 0) return 1;
  auto is_upper = [](char32_t c) { return u_isupper(static_cast<UChar32>(c)) != 0; };
  bool first_only = word.size() > 1 && is_upper(word.front()) && upper == 1;
  bool last_only = word.size() > 1 && is_upper(word.back()) && upper == 1;
  if (first_only || last_only || lower == 0) return 2;
  double v = 0;
  for (std::size_t k = 1; k <= std::min(upper, lower); ++k)
    v += n_choose_k(static_cast<double>(upper + lower), static_cast<double>(k));
  return v;
}

// `token` (folded) read as `word` with each substitute in `subs` standing for its letter.
double l33t_variations(std::u32string_view token, const std::vector<std::pair<char32_t, char32_t>>& subs) {
  double v = 1;
  for (auto [from, letter] : subs) {
    auto s = static_cast<double>(std::count(token.begin(), token.end(), from));
    auto u = static_cast<double>(std::count(token.begin(), token.end(), letter));
    if (s == 0 || u == 0) {
      v *= 2;
      continue;
    }
    double p = 0;
    const auto most = static_cast<long>(std::min(s, u));
    for (long k = 1; k <= most; ++k) p += n_choose_k(s + u, static_cast<double>(k));
    v *= p;
  }
  return v;
}

struct Dictionaries {
  const RankedWords& words;
  RankedWords user;
};

std::optional<std::uint32_t> rank_of(const Dictionaries& d, const std::u32string& w) {
  std::optional<std::uint32_t> best;
  if (auto it = d.user.find(w); it != d.user.end()) best = it->second;
  if (auto it = d.words.find(w); it != d.words.end() && (!best || it->second < *best)) best = it->second;
  return best;
}

// Every reading of `token` with each substitute character replaced consistently by one of its
// letters, at most kMaxL33tVariants of them; the substitutions used go with each reading.
void l33t_readings(const std::u32string& token,
                   std::vector<std::pair<std::u32string, std::vector<std::pair<char32_t, char32_t>>>>& out) {
  std::vector<const Sub*> present;
  for (char32_t c : token)
    if (const Sub* s = l33t_sub(c); s && std::find(present.begin(), present.end(), s) == present.end())
      present.push_back(s);
  if (present.empty()) return;
  std::vector<std::size_t> choice(present.size(), 0);
  while (out.size() < kMaxL33tVariants) {
    std::u32string reading = token;
    std::vector<std::pair<char32_t, char32_t>> used;
    for (std::size_t k = 0; k < present.size(); ++k) {
      char32_t letter = present[k]->letters[choice[k]];
      std::replace(reading.begin(), reading.end(), present[k]->from, letter);
      used.emplace_back(present[k]->from, letter);
    }
    out.emplace_back(std::move(reading), std::move(used));
    std::size_t k = 0;
    for (; k < present.size(); ++k) {
      if (choice[k] + 1 < 2 && present[k]->letters[choice[k] + 1] != 0) {
        ++choice[k];
        break;
      }
      choice[k] = 0;
    }
    if (k == present.size()) break;
  }
}

void dictionary_matches(const std::u32string& orig, const std::u32string& low, const Dictionaries& d,
                        std::vector<Match>& out) {
  const std::size_t n = low.size();
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i; j < n && j - i < kMaxWordChars; ++j) {
      std::u32string token = low.substr(i, j - i + 1);
      std::u32string_view original(orig.data() + i, j - i + 1);
      if (auto r = rank_of(d, token)) out.push_back({Kind::Dictionary, i, j, *r * uppercase_variations(original)});
      // Reversed words ("drowssap"), twice the guesses of the word.
      std::u32string reversed(token.rbegin(), token.rend());
      if (token.size() > 1 && reversed != token)
        if (auto r = rank_of(d, reversed))
          out.push_back({Kind::Dictionary, i, j, *r * uppercase_variations(original) * 2});
      // l33t ("p4ssw0rd"); single characters are noise.
      if (token.size() < 2) continue;
      std::vector<std::pair<std::u32string, std::vector<std::pair<char32_t, char32_t>>>> readings;
      l33t_readings(token, readings);
      for (const auto& [reading, subs] : readings)
        if (auto r = rank_of(d, reading))
          out.push_back({Kind::Dictionary, i, j, *r * uppercase_variations(original) * l33t_variations(token, subs)});
    }
  }
}

// ---------------------------------------------------------------- keyboard walks

struct Key {
  int x, y;
  bool shifted;
};

struct Keyboard {
  std::map<char32_t, Key> keys;
  bool slanted;
  double starting_positions;
  double average_degree;
};

std::vector<std::pair<int, int>> directions(bool slanted) {
  if (slanted) return {{-1, 0}, {0, -1}, {1, -1}, {1, 0}, {0, 1}, {-1, 1}};
  return {{-1, 0}, {-1, -1}, {0, -1}, {1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}};
}

Keyboard make_keyboard(const std::vector<std::pair<int, std::u32string>>& rows, bool slanted) {
  Keyboard kb;
  kb.slanted = slanted;
  std::map<std::pair<int, int>, int> at;
  for (std::size_t y = 0; y < rows.size(); ++y) {
    const auto& [x0, text] = rows[y];
    // Keys are 2 characters (unshifted, shifted) or 1, separated by single spaces.
    int x = x0;
    std::size_t k = 0;
    while (k < text.size()) {
      if (text[k] == U' ') {
        ++x;
        ++k;
        continue;
      }
      kb.keys[text[k]] = {x, static_cast<int>(y), false};
      at[{x, static_cast<int>(y)}] = 1;
      if (k + 1 < text.size() && text[k + 1] != U' ') {
        kb.keys[text[k + 1]] = {x, static_cast<int>(y), true};
        ++k;
      }
      ++k;
    }
  }
  double degrees = 0;
  for (const auto& [c, key] : kb.keys)
    for (auto [dx, dy] : directions(slanted)) degrees += at.count({key.x + dx, key.y + dy}) ? 1 : 0;
  kb.starting_positions = static_cast<double>(kb.keys.size());
  kb.average_degree = degrees / static_cast<double>(kb.keys.size());
  return kb;
}

const Keyboard& qwerty() {
  // Key i of every row at x = i + offset: the rows' stagger, as zxcvbn's slanted layout has it.
  static const Keyboard kb = make_keyboard({{0, U"`~ 1! 2@ 3# 4$ 5% 6^ 7& 8* 9( 0) -_ =+"},
                                            {1, U"qQ wW eE rR tT yY uU iI oO pP [{ ]} \\|"},
                                            {1, U"aA sS dD fF gG hH jJ kK lL ;: '\""},
                                            {1, U"zZ xX cC vV bB nN mM ,< .> /?"}},
                                           true);
  return kb;
}

const Keyboard& keypad() {
  static const Keyboard kb =
      make_keyboard({{1, U"/ * -"}, {0, U"7 8 9 +"}, {0, U"4 5 6"}, {0, U"1 2 3"}, {1, U"0 ."}}, false);
  return kb;
}

// The Russian ЙЦУКЕН layout on the same keys: "йцукен" is the walk "qwerty".
char32_t on_qwerty_key(char32_t c) {
  static const std::u32string kRu = U"ёйцукенгшщзхъфывапролджэячсмитьбю";
  static const std::u32string kEn = U"`qwertyuiop[]asdfghjkl;'zxcvbnm,.";
  static const std::u32string kRuUpper = U"ЁЙЦУКЕНГШЩЗХЪФЫВАПРОЛДЖЭЯЧСМИТЬБЮ";
  static const std::u32string kEnUpper = U"~QWERTYUIOP{}ASDFGHJKL:\"ZXCVBNM<>";
  if (auto p = kRu.find(c); p != std::u32string::npos) return kEn[p];
  if (auto p = kRuUpper.find(c); p != std::u32string::npos) return kEnUpper[p];
  return c;
}

double spatial_guesses(const Keyboard& kb, std::size_t length, int turns, std::size_t shifted) {
  double g = 0;
  for (std::size_t i = 2; i <= length; ++i) {
    auto possible_turns = std::min<std::size_t>(static_cast<std::size_t>(turns), i - 1);
    for (std::size_t j = 1; j <= possible_turns; ++j)
      g += n_choose_k(static_cast<double>(i - 1), static_cast<double>(j - 1)) * kb.starting_positions *
           std::pow(kb.average_degree, static_cast<double>(j));
  }
  if (shifted > 0) {
    std::size_t unshifted = length - shifted;
    if (unshifted == 0) {
      g *= 2;
    } else {
      double v = 0;
      for (std::size_t k = 1; k <= std::min(shifted, unshifted); ++k)
        v += n_choose_k(static_cast<double>(length), static_cast<double>(k));
      g *= v;
    }
  }
  return g;
}

void spatial_matches(const std::u32string& keys, const Keyboard& kb, std::vector<Match>& out) {
  const auto dirs = directions(kb.slanted);
  std::size_t i = 0;
  const std::size_t n = keys.size();
  while (i + 1 < n) {
    std::size_t j = i + 1;
    int last_direction = -1, turns = 0;
    auto first = kb.keys.find(keys[i]);
    std::size_t shifted = first != kb.keys.end() && first->second.shifted && kb.slanted ? 1 : 0;
    while (true) {
      bool found = false;
      if (j < n) {
        auto prev = kb.keys.find(keys[j - 1]);
        auto cur = kb.keys.find(keys[j]);
        if (prev != kb.keys.end() && cur != kb.keys.end()) {
          for (std::size_t d = 0; d < dirs.size(); ++d) {
            if (cur->second.x == prev->second.x + dirs[d].first && cur->second.y == prev->second.y + dirs[d].second) {
              found = true;
              if (cur->second.shifted) ++shifted;
              if (last_direction != static_cast<int>(d)) {
                ++turns;
                last_direction = static_cast<int>(d);
              }
              break;
            }
          }
        }
      }
      if (found) {
        ++j;
        continue;
      }
      if (j - i > 2) out.push_back({Kind::Spatial, i, j - 1, spatial_guesses(kb, j - i, turns, shifted)});
      i = j;
      break;
    }
  }
}

// ---------------------------------------------------------------- sequences, years, dates

void sequence_matches(const std::u32string& s, std::vector<Match>& out) {
  if (s.size() < 2) return;
  auto update = [&](std::size_t i, std::size_t j, long delta) {
    if (!(j - i > 1 || std::labs(delta) == 1)) return;
    if (delta == 0 || std::labs(delta) > kMaxSequenceDelta) return;
    char32_t first = s[i];
    double base = 26;
    if (first == U'a' || first == U'A' || first == U'z' || first == U'Z' || first == U'0' || first == U'1' ||
        first == U'9')
      base = 4;
    else if (first >= U'0' && first <= U'9')
      base = 10;
    if (delta < 0) base *= 2;
    out.push_back({Kind::Sequence, i, j, base * static_cast<double>(j - i + 1)});
  };
  std::size_t i = 0;
  std::optional<long> last;
  for (std::size_t k = 1; k < s.size(); ++k) {
    long delta = static_cast<long>(s[k]) - static_cast<long>(s[k - 1]);
    if (!last) last = delta;
    if (delta == *last) continue;
    update(i, k - 1, *last);
    i = k - 1;
    last = delta;
  }
  update(i, s.size() - 1, *last);
}

bool is_digit(char32_t c) { return c >= U'0' && c <= U'9'; }

int digits_value(std::u32string_view s) {
  int v = 0;
  for (char32_t c : s) v = v * 10 + static_cast<int>(c - U'0');
  return v;
}

void year_matches(const std::u32string& s, int reference_year, std::vector<Match>& out) {
  for (std::size_t i = 0; i + 4 <= s.size();) {
    bool year = (s[i] == U'1' && s[i + 1] == U'9') || (s[i] == U'2' && s[i + 1] == U'0');
    if (year && is_digit(s[i + 2]) && is_digit(s[i + 3])) {
      int y = digits_value(std::u32string_view(s).substr(i, 4));
      out.push_back({Kind::Year, i, i + 3, static_cast<double>(std::max(std::abs(y - reference_year), kMinYearSpace))});
      i += 4;
    } else {
      ++i;
    }
  }
}

struct Dmy {
  int day, month, year;
};

std::optional<std::pair<int, int>> day_month(int a, int b) {
  if (a >= 1 && a <= 31 && b >= 1 && b <= 12) return std::pair{a, b};
  if (b >= 1 && b <= 31 && a >= 1 && a <= 12) return std::pair{b, a};
  return std::nullopt;
}

int four_digit_year(int y) {
  if (y > 99) return y;
  return y > 50 ? 1900 + y : 2000 + y;
}

std::optional<Dmy> ints_to_dmy(int a, int b, int c) {
  if (b > 31 || b <= 0) return std::nullopt;
  int over12 = 0, over31 = 0, under1 = 0;
  for (int v : {a, b, c}) {
    if ((v > 99 && v < kDateMinYear) || v > kDateMaxYear) return std::nullopt;
    if (v > 31) ++over31;
    if (v > 12) ++over12;
    if (v <= 0) ++under1;
  }
  if (over31 >= 2 || over12 == 3 || under1 >= 2) return std::nullopt;
  const std::array<std::array<int, 3>, 2> splits{{{c, a, b}, {a, b, c}}};
  for (const auto& [y, p, q] : splits) {
    if (y >= kDateMinYear && y <= kDateMaxYear) {
      if (auto dm = day_month(p, q)) return Dmy{dm->first, dm->second, y};
      return std::nullopt;
    }
  }
  for (const auto& [y, p, q] : splits)
    if (auto dm = day_month(p, q)) return Dmy{dm->first, dm->second, four_digit_year(y)};
  return std::nullopt;
}

void date_matches(const std::u32string& s, int reference_year, std::vector<Match>& out) {
  std::vector<Match> found;
  auto guesses = [&](int year, bool separator) {
    double g = static_cast<double>(std::max(std::abs(year - reference_year), kMinYearSpace)) * 365;
    return separator ? g * 4 : g;
  };
  // Digits only: 4 to 8 of them, split as zxcvbn's DATE_SPLITS; the year nearest now wins.
  static const std::map<std::size_t, std::vector<std::pair<std::size_t, std::size_t>>> kSplits{
      {4, {{1, 2}, {2, 3}}},
      {5, {{1, 3}, {2, 3}}},
      {6, {{1, 2}, {2, 4}, {4, 5}}},
      {7, {{1, 3}, {2, 3}, {4, 5}, {4, 6}}},
      {8, {{2, 4}, {4, 6}}}};
  for (std::size_t i = 0; i + 4 <= s.size(); ++i) {
    for (std::size_t len = 4; len <= 8 && i + len <= s.size(); ++len) {
      std::u32string_view t(s.data() + i, len);
      if (!std::all_of(t.begin(), t.end(), is_digit)) break;
      std::optional<Dmy> best;
      for (auto [k, l] : kSplits.at(len)) {
        auto d = ints_to_dmy(digits_value(t.substr(0, k)), digits_value(t.substr(k, l - k)), digits_value(t.substr(l)));
        if (d && (!best || std::abs(d->year - reference_year) < std::abs(best->year - reference_year))) best = d;
      }
      if (best) found.push_back({Kind::Date, i, i + len - 1, guesses(best->year, false)});
    }
  }
  // With one separator repeated: 1-4 digits, the separator, 1-2 digits, it again, 1-4 digits.
  auto separator = [](char32_t c) {
    return c == U' ' || c == U'/' || c == U'\\' || c == U'_' || c == U'.' || c == U'-';
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    for (std::size_t len = 6; len <= 10 && i + len <= s.size(); ++len) {
      std::u32string_view t(s.data() + i, len);
      std::size_t a = 0;
      while (a < t.size() && is_digit(t[a])) ++a;
      if (a < 1 || a > 4 || a >= t.size() || !separator(t[a])) continue;
      char32_t sep = t[a];
      std::size_t b = a + 1;
      while (b < t.size() && is_digit(t[b])) ++b;
      if (b - a - 1 < 1 || b - a - 1 > 2 || b >= t.size() || t[b] != sep) continue;
      std::size_t c = b + 1;
      while (c < t.size() && is_digit(t[c])) ++c;
      if (c != t.size() || c - b - 1 < 1 || c - b - 1 > 4) continue;
      auto d = ints_to_dmy(digits_value(t.substr(0, a)), digits_value(t.substr(a + 1, b - a - 1)),
                           digits_value(t.substr(b + 1)));
      if (d) found.push_back({Kind::Date, i, i + len - 1, guesses(d->year, true)});
    }
  }
  // Dates inside longer dates are dropped ("1991" inside "1.1.1991" is the same date).
  for (const auto& m : found) {
    bool inside = std::any_of(found.begin(), found.end(), [&](const Match& o) {
      return &o != &m && o.i <= m.i && o.j >= m.j && (o.i != m.i || o.j != m.j);
    });
    if (!inside) out.push_back(m);
  }
}

// ---------------------------------------------------------------- the cheapest cover

double most_guessable(const std::u32string& orig, const Dictionaries& d, int reference_year,
                      std::vector<std::string>* patterns, int depth);

void repeat_matches(const std::u32string& s, const Dictionaries& d, int reference_year, int depth,
                    std::vector<Match>& out) {
  if (depth > 2) return;
  const std::size_t n = s.size();
  std::size_t i = 0;
  while (i + 1 < n) {
    std::size_t best_span = 0, best_base = 0;
    for (std::size_t b = 1; i + 2 * b <= n; ++b) {
      std::size_t copies = 1;
      while (i + (copies + 1) * b <= n && s.compare(i + copies * b, b, s, i, b) == 0) ++copies;
      if (copies >= 2 && copies * b > best_span) {
        best_span = copies * b;
        best_base = b;
      }
    }
    if (best_span == 0) {
      ++i;
      continue;
    }
    double base = most_guessable(s.substr(i, best_base), d, reference_year, nullptr, depth + 1);
    const std::size_t repeats = best_span / best_base;  // whole repetitions of the base
    out.push_back({Kind::Repeat, i, i + best_span - 1, base * static_cast<double>(repeats)});
    i += best_span;
  }
}

double most_guessable(const std::u32string& orig, const Dictionaries& d, int reference_year,
                      std::vector<std::string>* patterns, int depth) {
  const std::size_t n = orig.size();
  if (n == 0) return 1;
  std::u32string low = fold_chars(orig);
  std::vector<Match> matches;
  dictionary_matches(orig, low, d, matches);
  spatial_matches(orig, qwerty(), matches);
  std::u32string ru_keys;
  for (char32_t c : orig) ru_keys += on_qwerty_key(c);
  if (ru_keys != orig) spatial_matches(ru_keys, qwerty(), matches);
  spatial_matches(orig, keypad(), matches);
  repeat_matches(orig, d, reference_year, depth, matches);
  sequence_matches(orig, matches);
  year_matches(orig, reference_year, matches);
  date_matches(orig, reference_year, matches);

  auto guesses_of = [n](const Match& m) {
    std::size_t len = m.j - m.i + 1;
    double g = m.guesses;
    if (m.kind == Kind::Bruteforce) {
      g = std::pow(kBruteforceCardinality, static_cast<double>(len));
      if (!std::isfinite(g)) g = std::numeric_limits<double>::max();
      g = std::max(g, len == 1 ? kMinSubmatchGuessesSingleChar + 1 : kMinSubmatchGuessesMultiChar + 1);
    }
    if (len < n) g = std::max(g, len == 1 ? kMinSubmatchGuessesSingleChar : kMinSubmatchGuessesMultiChar);
    return g;
  };

  // zxcvbn's dynamic programme: for every end k and sequence length l, the cheapest sequence.
  std::vector<std::vector<const Match*>> by_end(n);
  for (const auto& m : matches) by_end[m.j].push_back(&m);
  std::deque<Match> brute;
  std::vector<std::map<std::size_t, const Match*>> opt_m(n);
  std::vector<std::map<std::size_t, double>> opt_pi(n), opt_g(n);
  auto update = [&](const Match* m, std::size_t l) {
    std::size_t k = m->j;
    double pi = guesses_of(*m);
    if (l > 1) pi *= opt_pi[m->i - 1][l - 1];
    double g = factorial(l) * pi + std::pow(kMinGuessesBeforeGrowingSequence, static_cast<double>(l - 1));
    for (const auto& [cl, cg] : opt_g[k])
      if (cl <= l && cg <= g) return;
    opt_g[k][l] = g;
    opt_m[k][l] = m;
    opt_pi[k][l] = pi;
  };
  for (std::size_t k = 0; k < n; ++k) {
    for (const Match* m : by_end[k]) {
      if (m->i > 0) {
        std::vector<std::size_t> ls;
        for (const auto& [l, unused] : opt_m[m->i - 1]) ls.push_back(l);
        for (auto l : ls) update(m, l + 1);
      } else {
        update(m, 1);
      }
    }
    brute.push_back({Kind::Bruteforce, 0, k, 0});
    update(&brute.back(), 1);
    for (std::size_t i = 1; i <= k; ++i) {
      brute.push_back({Kind::Bruteforce, i, k, 0});
      const Match* m = &brute.back();
      std::vector<std::size_t> ls;
      for (const auto& [l, last] : opt_m[i - 1])
        if (last->kind != Kind::Bruteforce) ls.push_back(l);
      for (auto l : ls) update(m, l + 1);
    }
  }
  std::size_t best_l = 0;
  double best = std::numeric_limits<double>::infinity();
  for (const auto& [l, g] : opt_g[n - 1])
    if (g < best) {
      best = g;
      best_l = l;
    }
  if (patterns) {
    std::vector<std::string> seq;
    std::size_t k = n - 1, l = best_l;
    while (true) {
      const Match* m = opt_m[k].at(l);
      seq.emplace_back(kind_name(m->kind));
      if (m->i == 0) break;
      k = m->i - 1;
      --l;
    }
    patterns->assign(seq.rbegin(), seq.rend());
  }
  return best;
}

}  // namespace

std::u32string nfkc_chars(std::string_view utf8, std::size_t max_chars) {
  std::vector<UChar> buf(utf8.size() + 1);
  int32_t len = 0;
  UErrorCode err = U_ZERO_ERROR;
  u_strFromUTF8(buf.data(), static_cast<int32_t>(buf.size()), &len, utf8.data(), static_cast<int32_t>(utf8.size()),
                &err);
  if (U_FAILURE(err)) return {};
  const icu::Normalizer2* nfkc = icu::Normalizer2::getNFKCInstance(err);
  if (U_FAILURE(err) || nfkc == nullptr) return {};
  icu::UnicodeString text = nfkc->normalize(icu::UnicodeString(buf.data(), len), err);
  if (U_FAILURE(err)) return {};
  std::u32string out;
  for (int32_t i = 0; i < text.length() && out.size() < max_chars;) {
    UChar32 c = text.char32At(i);
    i += U16_LENGTH(c);
    out.push_back(static_cast<char32_t>(c));
  }
  return out;
}

std::u32string fold_chars(std::u32string_view text) {
  std::u32string out;
  out.reserve(text.size());
  for (char32_t c : text)
    out.push_back(static_cast<char32_t>(u_foldCase(static_cast<UChar32>(c), U_FOLD_CASE_DEFAULT)));
  return out;
}

GuessEstimate estimate_guesses(std::string_view password, const RankedWords& words,
                               const std::vector<std::string>& user_inputs, int reference_year, std::size_t max_chars) {
  Dictionaries d{words, {}};
  std::uint32_t rank = 1;
  for (const auto& input : user_inputs) {
    auto w = fold_chars(nfkc_chars(input, max_chars));
    if (!w.empty() && !d.user.count(w)) d.user[w] = rank++;
  }
  GuessEstimate e;
  e.guesses = most_guessable(nfkc_chars(password, max_chars), d, reference_year, &e.patterns, 0);
  return e;
}

}  // namespace dozor::auth
