#pragma once
// Russian-aware keyword matching for the compliance engine (docs/compliance.md): text is
// NFKC-normalised (ICU), split into words (runs of letters and digits), each word case-folded
// (ё = е) and reduced to its Snowball stem — Russian for Cyrillic words, English for Latin ones —
// so a phrase written once («персональные данные») finds its other forms («персональных данных»).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

struct sb_stemmer;

namespace dozor::audit::compliance {

// Snowball's stemmers keep state between calls: one Stemmer per thread of use.
class Stemmer {
 public:
  Stemmer();
  ~Stemmer();
  Stemmer(const Stemmer&) = delete;
  Stemmer& operator=(const Stemmer&) = delete;

  // The stem of one case-folded word.
  std::string stem(std::string_view folded_word);

 private:
  sb_stemmer* ru_ = nullptr;
  sb_stemmer* en_ = nullptr;
};

using Phrase = std::vector<std::string>;  // stems, in order

struct Token {
  std::string stem;
  std::size_t begin = 0;  // byte offsets into Words::text
  std::size_t end = 0;
};

struct Words {
  std::string text;  // the NFKC form of the input (readable: excerpts come from here)
  std::vector<Token> tokens;
  std::unordered_map<std::string, std::vector<std::uint32_t>> index;  // stem → token positions
};

struct Match {
  std::size_t token = 0;  // first token of the match
  std::size_t begin = 0;  // bytes in Words::text
  std::size_t end = 0;
};

// The case-folded form of one word (simple case folding per code point, ё → е).
std::string fold_word(std::string_view utf8);

// `utf8` is cut to `max_bytes` first (on a code point boundary).
Words words_of(std::string_view utf8, Stemmer& stemmer, std::size_t max_bytes = std::size_t{1} << 20);
Phrase phrase_of(std::string_view utf8, Stemmer& stemmer);

// The first occurrence of the phrase; with `within` (token positions [from, to)) only there.
std::optional<Match> find(const Words& words, const Phrase& phrase, std::size_t from = 0,
                          std::size_t to = static_cast<std::size_t>(-1));
std::optional<Match> find_any(const Words& words, const std::vector<Phrase>& phrases);

// At most `max_chars` code points of the text around the match, white space collapsed.
std::string excerpt(const Words& words, const Match& match, std::size_t max_chars = 300);
// At most `max_chars` code points of `text` from its start, white space collapsed.
std::string clip(std::string_view text, std::size_t max_chars = 300);

}  // namespace dozor::audit::compliance
