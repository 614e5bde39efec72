#include "engines/analyzer/detector.hpp"

#include <algorithm>
#include <array>
#include <ctime>
#include <map>
#include <set>
#include <string_view>

#include "engines/analyzer/checksums.hpp"
#include "engines/analyzer/text.hpp"
#include "engines/limits.hpp"

namespace dozor::analyzer {
namespace {

using limits::analyzer::kContextWindowChars;
using limits::analyzer::kMaxBiks;
using limits::analyzer::kMaxTextBytes;

template <std::size_t N>
bool contains(const std::array<std::string_view, N>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

constexpr std::array<std::string_view, 15> kValidators{
    "passport_rf", "snils",      "inn10", "inn12", "ogrn",      "ogrnip",   "bank_card", "bank_account",
    "phone_ru",    "phone_intl", "email", "date",  "car_plate", "digits16", "address"};

constexpr std::array<std::string_view, 7> kSpecial{"health",        "religion",        "politics",  "nationality",
                                                   "intimate_life", "criminal_record", "biometrics"};

re2::RE2::Options options() {
  re2::RE2::Options o;
  o.set_encoding(re2::RE2::Options::EncodingUTF8);
  o.set_log_errors(false);
  o.set_max_mem(64 << 20);
  return o;
}

std::string_view sv(re2::StringPiece p) { return {p.data(), p.size()}; }

// A value must not continue a longer run: no digit may touch a value that starts or ends with a
// digit, no letter or digit may touch one that starts or ends with a letter.
bool boundary_ok(std::string_view s, std::size_t b, std::size_t e) {
  std::size_t i = b;
  std::int32_t first = text::next_cp(s, i);
  std::int32_t before = text::prev_cp(s, b);
  std::int32_t last = text::prev_cp(s, e);
  std::size_t j = e;
  std::int32_t after = text::next_cp(s, j);
  auto touches = [](std::int32_t edge, std::int32_t next) {
    if (next < 0) return false;
    if (text::is_digit(edge)) return text::is_digit(next);
    if (text::is_letter(edge)) return text::is_letter(next) || text::is_digit(next);
    return false;
  };
  // Digits right after a '+' belong to a phone number ("+79610110695" is not a SNILS, even when
  // its 11 digits have a SNILS's checksum); the phone rules take the '+' into their value.
  if (text::is_digit(first) && before == '+') return false;
  return !touches(first, before) && !touches(last, after);
}

// Byte offset `chars` code points before / after a position.
std::size_t back_chars(std::string_view s, std::size_t pos, std::size_t chars) {
  while (pos > 0 && chars > 0) {
    --pos;
    if ((static_cast<unsigned char>(s[pos]) & 0xC0) != 0x80) --chars;
  }
  return pos;
}
std::size_t forward_chars(std::string_view s, std::size_t pos, std::size_t chars) {
  while (pos < s.size() && chars > 0) {
    text::next_cp(s, pos);
    --chars;
  }
  return pos;
}

// A context word counts at the start of a word of the folded window.
// A context word starts a word; longer words are stems ("паспорт" → "паспорта"), while an
// abbreviation of up to three letters must end its word too ("омс" is not "Омск").
bool has_context(const std::vector<std::string>& words, const std::string& folded) {
  for (const auto& w : words) {
    const bool whole = text::char_count(w) <= 3;
    for (auto p = folded.find(w); p != std::string::npos; p = folded.find(w, p + 1)) {
      std::size_t end = p + w.size();
      if (!text::is_letter(text::prev_cp(folded, p)) && (!whole || !text::is_letter(text::next_cp(folded, end))))
        return true;
    }
  }
  return false;
}

bool valid_date(std::string_view v) {
  static const re2::RE2 kNumeric("(\\d{1,2})[./-](\\d{1,2})[./-](\\d{4})");
  static const re2::RE2 kWords("(?i)(\\d{1,2}) (\\pL+) (\\d{4})");
  int day = 0, month = 0, year = 0;
  std::string month_name;
  if (re2::RE2::FullMatch(re2::StringPiece(v.data(), v.size()), kNumeric, &day, &month, &year)) {
  } else if (re2::RE2::FullMatch(re2::StringPiece(v.data(), v.size()), kWords, &day, &month_name, &year)) {
    static const char* kMonths[][2] = {{"январ", "jan"},   {"феврал", "feb"}, {"март", "mar"},  {"апрел", "apr"},
                                       {"ма", "may"},      {"июн", "jun"},    {"июл", "jul"},   {"август", "aug"},
                                       {"сентябр", "sep"}, {"октябр", "oct"}, {"ноябр", "nov"}, {"декабр", "dec"}};
    std::string f = text::fold(month_name);
    for (int m = 12; m >= 1 && month == 0; --m)
      if (f.rfind(kMonths[m - 1][0], 0) == 0 || f.rfind(kMonths[m - 1][1], 0) == 0) month = m;
  } else {
    return false;
  }
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  static constexpr int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month >= 1 && month <= 12 && day >= 1 && day <= kDays[month - 1] && year >= 1900 && year <= tm.tm_year + 1900;
}

bool validate(const std::string& validator, std::string_view value, const std::vector<std::string>& biks,
              bool& strong) {
  const std::string d = checksum::digits_of(value);
  strong = false;
  if (validator == "passport_rf") return d.size() == 10 && d.substr(0, 2) != "00" && d.substr(4) != "000000";
  if (validator == "snils") return checksum::snils(d);
  if (validator == "inn10") return checksum::inn10(d);
  if (validator == "inn12") return checksum::inn12(d);
  if (validator == "ogrn") return checksum::ogrn(d);
  if (validator == "ogrnip") return checksum::ogrnip(d);
  if (validator == "bank_card") return d[0] >= '2' && d[0] <= '6' && checksum::luhn(d);
  if (validator == "bank_account") {
    if (d.size() != 20) return false;
    for (const auto& b : biks)
      if (checksum::account_with_bik(d, b)) return strong = true;
    return biks.empty();  // no BIK in the document: the context words decide
  }
  if (validator == "phone_ru") {
    // +7 or 8, then a code of the Russian numbering plan (3xx, 4xx, 8xx, 9xx).
    return d.size() == 11 && (d[1] == '3' || d[1] == '4' || d[1] == '8' || d[1] == '9');
  }
  if (validator == "phone_intl") return d.size() >= 8 && d.size() <= 15 && d[0] != '7';
  if (validator == "email") {
    auto at = value.find('@');
    auto local = value.substr(0, at);
    return at != std::string_view::npos && local.size() <= 64 && local.front() != '.' && local.back() != '.' &&
           local.find("..") == std::string_view::npos;
  }
  if (validator == "date") return valid_date(value);
  if (validator == "car_plate") {
    // Region codes start at 01; the number 000 is not issued.
    return d.size() >= 5 && d.substr(0, 3) != "000" && d.substr(3) != "00" && d.substr(3) != "000";
  }
  if (validator == "digits16") return d.size() == 16;
  if (validator == "address") return true;  // the pattern asks a street and a house number
  return false;
}

}  // namespace

bool is_special_category(const std::string& category) { return contains(kSpecial, category); }

std::string mask(const std::string& category, const std::string& value) {
  if (is_special_category(category)) return value;
  if (category == "email") {
    auto at = value.find('@');
    std::size_t i = 0;
    text::next_cp(value, i);
    return value.substr(0, i) + "***" + value.substr(at);
  }
  if (category == "full_name" || category == "address") {
    // Each word keeps its first letter; an address's numbers are hidden too.
    std::string out;
    std::size_t i = 0;
    bool word_start = true;
    for (std::int32_t c; i < value.size();) {
      std::size_t b = i;
      c = text::next_cp(value, i);
      if (text::is_letter(c)) {
        std::size_t j = i;
        bool single = !text::is_letter(text::next_cp(value, j));
        if (word_start) out.append(value, b, i - b);
        if (word_start && !single) out += "***";
        word_start = false;
      } else {
        if (text::is_digit(c))
          out += '*';
        else
          out.append(value, b, i - b);
        word_start = true;
      }
    }
    return out;
  }
  // Identifiers: every letter and digit becomes '*' except the last four (two for short values).
  std::size_t alnum = 0;
  for (std::size_t i = 0; i < value.size();) {
    auto c = text::next_cp(value, i);
    if (text::is_letter(c) || text::is_digit(c)) ++alnum;
  }
  std::size_t keep = alnum >= 10 ? 4 : 2;
  std::string out;
  std::size_t seen = 0;
  for (std::size_t i = 0; i < value.size();) {
    std::size_t b = i;
    auto c = text::next_cp(value, i);
    if (text::is_letter(c) || text::is_digit(c)) {
      if (++seen + keep > alnum)
        out.append(value, b, i - b);
      else
        out += '*';
    } else {
      out.append(value, b, i - b);
    }
  }
  return out;
}

Detector::Detector(Model model)
    : model_(std::move(model)),
      names_(names::first_name_forms(model_.first_names), names::surname_forms(model_.surnames)) {
  set_ = std::make_unique<re2::RE2::Set>(options(), re2::RE2::UNANCHORED);
  for (const auto& r : model_.rules) {
    if (!contains(kValidators, r.validator)) throw ModelError("rule " + r.id + ": unknown validator " + r.validator);
    auto re = std::make_unique<re2::RE2>(r.pattern, options());
    if (!re->ok() || re->NumberOfCapturingGroups() != 1)
      throw ModelError("rule " + r.id + ": the pattern must compile and have one capture group");
    std::string err;
    if (set_->Add(r.pattern, &err) < 0) throw ModelError("rule " + r.id + ": " + err);
    rules_.push_back({&r, std::move(re)});
  }
  if (!set_->Compile()) throw ModelError("the rule set does not compile within its memory budget");

  special_set_ = std::make_unique<re2::RE2::Set>(options(), re2::RE2::UNANCHORED);
  for (const auto& [cat, words] : model_.special) {
    if (!contains(kSpecial, cat)) throw ModelError("special_categories.json: unknown category " + cat);
    for (const auto& w : words) {
      std::string err;
      std::string pattern = "(?:^|[^\\pL])";
      pattern += re2::RE2::QuoteMeta(w);
      if (special_set_->Add(pattern, &err) < 0) {
        std::string msg = "special keyword '";
        msg += w;
        msg += "': ";
        msg += err;
        throw ModelError(msg);
      }
      special_keywords_.emplace_back(cat, w);
    }
  }
  if (!special_set_->Compile()) throw ModelError("the special-category keywords do not compile");
}

void Detector::scan_segment(const Segment& seg, const std::string& norm, const std::vector<std::string>& biks,
                            const FindingSink& sink) const {
  // A value found is kept as its place and rule until it has won its place: a Finding (the
  // value, its mask, the location) is made only for the ones handed on.
  struct Candidate {
    std::size_t b, e;
    double confidence;
    std::size_t rule;
  };
  std::vector<Candidate> found;
  std::vector<int> hits;
  if (set_->Match(norm, &hits)) {
    std::sort(hits.begin(), hits.end());
    std::string folded_extra = seg.context.empty() ? std::string() : text::fold(seg.context);
    for (int h : hits) {
      const auto& c = rules_[static_cast<std::size_t>(h)];
      const Rule& rule = *c.rule;
      re2::StringPiece input(norm);
      std::size_t pos = 0;
      re2::StringPiece m[2];
      while (pos < norm.size() && c.re->Match(input, pos, norm.size(), re2::RE2::UNANCHORED, m, 2)) {
        std::size_t b = static_cast<std::size_t>(m[1].data() - norm.data());
        std::size_t e = b + m[1].size();
        if (m[1].empty() || !boundary_ok(norm, b, e)) {
          pos = std::max(b, static_cast<std::size_t>(m[0].data() - norm.data()));
          text::next_cp(norm, pos);
          continue;
        }
        pos = e;
        std::string_view value = sv(m[1]);
        bool strong = false;
        if (!validate(rule.validator, value, biks, strong)) continue;
        bool ctx = false;
        if (rule.context_mode != ContextMode::None) {
          std::size_t wb = back_chars(norm, b, kContextWindowChars),
                      we = forward_chars(norm, e, kContextWindowChars / 2);
          // A word after the value counts on its own line only: the next line's label ("Полис
          // ОМС …" under a card number) names the next line's value.
          we = std::min(we, norm.find('\n', e));
          std::string window = text::fold(std::string_view(norm).substr(wb, b - wb)) + " " +
                               text::fold(std::string_view(norm).substr(e, we - e));
          ctx = has_context(rule.context, window) || (!folded_extra.empty() && has_context(rule.context, folded_extra));
        }
        if (rule.context_mode == ContextMode::Required && !ctx && !strong) continue;
        double conf = strong ? 0.97 : ctx ? rule.confidence_context : rule.confidence;
        found.push_back({b, e, conf, static_cast<std::size_t>(h)});
      }
    }
  }
  // Overlapping values (a 16-digit policy number is also Luhn-shaped): the most confident wins,
  // the earlier rule of the model on a tie. The places taken are disjoint intervals kept in
  // order, so each check is a lookup (a segment may hold millions of values).
  std::stable_sort(found.begin(), found.end(),
                   [](const Candidate& a, const Candidate& b) { return a.confidence > b.confidence; });
  std::map<std::size_t, std::size_t> taken;  // begin → end
  auto overlaps = [&](std::size_t b, std::size_t e) {
    auto next = taken.lower_bound(e);  // the intervals from here on begin at or after e
    return next != taken.begin() && std::prev(next)->second > b;
  };
  struct Kept {
    std::size_t b;
    const Candidate* value;        // a rule's value, or
    const names::NameMatch* name;  // a name
  };
  std::vector<Kept> kept;
  for (const auto& c : found) {
    if (overlaps(c.b, c.e)) continue;
    taken.emplace(c.b, c.e);
    kept.push_back({c.b, &c, nullptr});
  }
  auto found_names = names_.find(norm);
  for (const auto& n : found_names)
    if (!overlaps(n.begin, n.end)) kept.push_back({n.begin, nullptr, &n});
  std::stable_sort(kept.begin(), kept.end(), [](const Kept& a, const Kept& b) { return a.b < b.b; });
  for (const auto& k : kept) {
    if (k.value) {
      const Rule& rule = *rules_[k.value->rule].rule;
      std::string value = norm.substr(k.value->b, k.value->e - k.value->b);
      auto masked = mask(rule.category, value);
      sink({rule.category, rule.id, std::move(value), std::move(masked), seg.where, k.value->confidence, false});
    } else {
      const auto& n = *k.name;
      std::string value = norm.substr(n.begin, n.end - n.begin);
      auto masked = mask("full_name", value);
      sink({"full_name", n.parts == 3 ? "full_name.3" : "full_name.2", std::move(value), std::move(masked), seg.where,
            n.confidence, false});
    }
  }

  // Special categories: one finding per category and segment, the keyword as its value.
  std::vector<int> special_hits;
  std::string folded = text::fold(norm);
  if (special_set_->Match(folded, &special_hits)) {
    std::sort(special_hits.begin(), special_hits.end());
    std::set<std::string> seen;
    for (int h : special_hits) {
      const auto& [cat, word] = special_keywords_[static_cast<std::size_t>(h)];
      if (!seen.insert(cat).second) continue;
      sink({cat, "special." + cat, word, word, seg.where, 0.8, true});
    }
  }
}

void Detector::scan(const Document& doc, const Deadline& deadline, const FindingSink& sink) const {
  std::vector<std::string> norms;
  norms.reserve(doc.segments.size());
  // BIKs anywhere in the document key the accounts (requisites often sit in separate cells). A
  // document with more than kMaxBiks of them (a bank directory, or a hostile list) keys none:
  // its accounts need their context words, as in a document without a BIK.
  static const re2::RE2 kBik("(?:^|[^\\d])(04\\d{7})(?:$|[^\\d])");
  std::set<std::string> bik_set;
  bool too_many_biks = false;
  // NFKC expands some characters many times (U+FDFA is 3 bytes in, 33 out): the normalised
  // text is bounded as the extracted text is.
  std::size_t norm_bytes = 0;
  for (const auto& seg : doc.segments) {
    deadline.check();
    norms.push_back(text::normalize(seg.text));
    norm_bytes += norms.back().size();
    if (norm_bytes > kMaxTextBytes)
      throw BadDocument("the document's normalised text is larger than the " + std::to_string(kMaxTextBytes) +
                        " bytes allowed");
    re2::StringPiece in(norms.back());
    std::string bik;
    while (!too_many_biks && re2::RE2::FindAndConsume(&in, kBik, &bik)) {
      bik_set.insert(bik);
      if (bik_set.size() > kMaxBiks) {
        too_many_biks = true;
        bik_set.clear();
      }
    }
  }
  std::vector<std::string> biks(bik_set.begin(), bik_set.end());
  for (std::size_t i = 0; i < doc.segments.size(); ++i) {
    deadline.check();
    scan_segment(doc.segments[i], norms[i], biks, sink);
  }
}

std::vector<Finding> Detector::scan(const Document& doc, const Deadline& deadline) const {
  std::vector<Finding> out;
  scan(doc, deadline, [&](Finding&& f) { out.push_back(std::move(f)); });
  return out;
}

std::vector<std::string> Detector::self_test() const {
  std::vector<std::string> failures;
  for (std::size_t i = 0; i < model_.samples.size(); ++i) {
    const auto& s = model_.samples[i];
    Document doc;
    doc.type = "text";
    doc.segments.push_back({{"line", "1", ""}, s.text, ""});
    std::set<std::string> got;
    for (const auto& f : scan(doc)) got.insert(f.category);
    std::vector<std::string> g(got.begin(), got.end());
    if (g != s.expect) {
      auto list = [](const std::vector<std::string>& v) {
        std::string o;
        for (const auto& x : v) o += (o.empty() ? "" : ",") + x;
        return "[" + o + "]";
      };
      failures.push_back("sample " + std::to_string(i + 1) + ": expected " + list(s.expect) + ", found " + list(g));
    }
  }
  return failures;
}

}  // namespace dozor::analyzer
