#include "engines/audit/compliance/words.hpp"

#include <libstemmer.h>
#include <unicode/uchar.h>

#include <stdexcept>

#include "engines/analyzer/text.hpp"
#include "engines/text/utf8.hpp"

namespace dozor::audit::compliance {
namespace {

bool word_char(std::int32_t cp) { return analyzer::text::is_letter(cp) || analyzer::text::is_digit(cp); }

void append_utf8(std::string& out, UChar32 c) {
  auto u = static_cast<std::uint32_t>(c);
  auto byte = [&out](std::uint32_t v) { out.push_back(static_cast<char>(v)); };
  if (u < 0x80) {
    byte(u);
  } else if (u < 0x800) {
    byte(0xC0 | (u >> 6));
    byte(0x80 | (u & 0x3F));
  } else if (u < 0x10000) {
    byte(0xE0 | (u >> 12));
    byte(0x80 | ((u >> 6) & 0x3F));
    byte(0x80 | (u & 0x3F));
  } else {
    byte(0xF0 | (u >> 18));
    byte(0x80 | ((u >> 12) & 0x3F));
    byte(0x80 | ((u >> 6) & 0x3F));
    byte(0x80 | (u & 0x3F));
  }
}

bool is_latin(std::string_view folded) {
  unsigned char c = folded.empty() ? 0 : static_cast<unsigned char>(folded.front());
  return c >= 'a' && c <= 'z';
}

// The largest prefix of `s` of at most `max_bytes` bytes that does not cut a code point.
std::string_view cut_bytes(std::string_view s, std::size_t max_bytes) {
  if (s.size() <= max_bytes) return s;
  std::size_t n = max_bytes;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return s.substr(0, n);
}

}  // namespace

Stemmer::Stemmer() : ru_(sb_stemmer_new("russian", "UTF_8")), en_(sb_stemmer_new("english", "UTF_8")) {
  if (ru_ == nullptr || en_ == nullptr) {
    if (ru_ != nullptr) sb_stemmer_delete(ru_);
    if (en_ != nullptr) sb_stemmer_delete(en_);
    throw std::runtime_error("libstemmer: no russian or english stemmer");
  }
}

Stemmer::~Stemmer() {
  sb_stemmer_delete(ru_);
  sb_stemmer_delete(en_);
}

std::string Stemmer::stem(std::string_view folded_word) {
  if (folded_word.empty()) return {};
  unsigned char first = static_cast<unsigned char>(folded_word.front());
  if (first >= '0' && first <= '9') return std::string(folded_word);  // numbers stay as written
  sb_stemmer* s = is_latin(folded_word) ? en_ : ru_;
  const sb_symbol* out =
      sb_stemmer_stem(s, reinterpret_cast<const sb_symbol*>(folded_word.data()), static_cast<int>(folded_word.size()));
  if (out == nullptr) return std::string(folded_word);  // out of memory: the word itself still matches itself
  return std::string(reinterpret_cast<const char*>(out), static_cast<std::size_t>(sb_stemmer_length(s)));
}

std::string fold_word(std::string_view utf8) {
  std::string out;
  out.reserve(utf8.size());
  std::size_t i = 0;
  while (i < utf8.size()) {
    std::int32_t cp = analyzer::text::next_cp(utf8, i);
    if (cp < 0) break;
    UChar32 f = u_foldCase(cp, U_FOLD_CASE_DEFAULT);
    if (f == 0x0451) f = 0x0435;  // ё → е: Russian texts write both
    append_utf8(out, f);
  }
  return out;
}

Words words_of(std::string_view utf8, Stemmer& stemmer, std::size_t max_bytes) {
  Words w;
  w.text = analyzer::text::normalize(cut_bytes(utf8, max_bytes));
  const std::string& t = w.text;
  std::size_t i = 0;
  while (i < t.size()) {
    std::size_t start = i;
    std::int32_t cp = analyzer::text::next_cp(t, i);
    if (cp < 0) break;
    if (!word_char(cp)) continue;
    std::size_t end = i;
    while (end < t.size()) {
      std::size_t j = end;
      std::int32_t next = analyzer::text::next_cp(t, j);
      if (next < 0 || !word_char(next)) break;
      end = j;
    }
    i = end;
    Token tok;
    tok.stem = stemmer.stem(fold_word(std::string_view(t).substr(start, end - start)));
    tok.begin = start;
    tok.end = end;
    w.index[tok.stem].push_back(static_cast<std::uint32_t>(w.tokens.size()));
    w.tokens.push_back(std::move(tok));
  }
  return w;
}

Phrase phrase_of(std::string_view utf8, Stemmer& stemmer) {
  Words w = words_of(utf8, stemmer);
  Phrase p;
  for (auto& t : w.tokens) p.push_back(std::move(t.stem));
  return p;
}

std::optional<Match> find(const Words& words, const Phrase& phrase, std::size_t from, std::size_t to) {
  if (phrase.empty()) return std::nullopt;
  auto it = words.index.find(phrase.front());
  if (it == words.index.end()) return std::nullopt;
  for (std::uint32_t pos : it->second) {
    std::size_t p = pos;
    if (p < from) continue;
    if (p + phrase.size() > words.tokens.size() || p + phrase.size() > to) break;
    bool all = true;
    for (std::size_t k = 1; k < phrase.size() && all; ++k) all = words.tokens[p + k].stem == phrase[k];
    if (all) return Match{p, words.tokens[p].begin, words.tokens[p + phrase.size() - 1].end};
  }
  return std::nullopt;
}

std::optional<Match> find_any(const Words& words, const std::vector<Phrase>& phrases) {
  std::optional<Match> best;
  for (const auto& p : phrases) {
    auto m = find(words, p);
    if (m && (!best || m->begin < best->begin)) best = m;
  }
  return best;
}

std::string clip(std::string_view text, std::size_t max_chars) {
  std::string out;
  bool space = false;
  std::size_t chars = 0;
  std::size_t i = 0;
  while (i < text.size() && chars < max_chars) {
    std::size_t start = i;
    std::int32_t cp = analyzer::text::next_cp(text, i);
    if (cp < 0) break;
    if (u_isUWhiteSpace(cp)) {
      space = !out.empty();
      continue;
    }
    if (space) {
      out.push_back(' ');
      space = false;
      if (++chars >= max_chars) break;
    }
    out.append(text.substr(start, i - start));
    ++chars;
  }
  return text::to_valid_utf8(out);
}

std::string excerpt(const Words& words, const Match& match, std::size_t max_chars) {
  // About a third of the room before the match, the rest from it on.
  std::size_t start = match.begin;
  std::size_t back = max_chars / 3;
  while (start > 0 && back > 0) {
    --start;
    while (start > 0 && (static_cast<unsigned char>(words.text[start]) & 0xC0) == 0x80) --start;
    --back;
  }
  return clip(std::string_view(words.text).substr(start), max_chars);
}

}  // namespace dozor::audit::compliance
