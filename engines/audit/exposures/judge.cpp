#include "engines/audit/exposures/judge.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <boost/url/parse.hpp>

#include "engines/limits.hpp"
#include "engines/text/utf8.hpp"

namespace dozor::audit::exposures {
namespace {

bool search(const Regex& re, std::string_view text, re2::StringPiece* match) {
  re2::StringPiece input(text.data(), text.size());
  return re->Match(input, 0, input.size(), re2::RE2::UNANCHORED, match, 1);
}

// Back to the start of a UTF-8 sequence.
std::size_t char_start(std::string_view s, std::size_t pos) {
  while (pos > 0 && pos < s.size() && (static_cast<unsigned char>(s[pos]) & 0xC0) == 0x80) --pos;
  return pos;
}

// The line(s) around [pos, pos + len), at most kExposureExcerptBytes, valid UTF-8.
std::string excerpt_at(std::string_view body, std::size_t pos, std::size_t len) {
  auto start = body.rfind('\n', pos == 0 ? 0 : pos - 1);
  start = (start == std::string_view::npos || pos == 0) ? 0 : start + 1;
  if (pos > start && pos - start > limits::kExposureExcerptBytes / 2)
    start = char_start(body, pos - limits::kExposureExcerptBytes / 2);
  auto end = body.find('\n', pos + len);
  if (end == std::string_view::npos) end = body.size();
  end = std::min(end, start + limits::kExposureExcerptBytes);
  end = char_start(body, end);
  std::string out = text::to_valid_utf8(body.substr(start, end - start));
  while (!out.empty() && (out.back() == '\r' || out.back() == '\n')) out.pop_back();
  return out;
}

bool same_page(const Answer& a, const Answer& b) {
  // A catch-all page may echo the requested path: compare with each answer's own path removed.
  auto strip = [](std::string body, const std::string& path) {
    if (path.size() > 1)
      for (auto at = body.find(path); at != std::string::npos; at = body.find(path, at)) body.erase(at, path.size());
    return body;
  };
  return a.status == b.status && strip(a.body, path_of(a.final_url)) == strip(b.body, path_of(b.final_url));
}

bool token_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/' ||
         c == '_' || c == '-' || c == '.' || c == '$';
}

}  // namespace

std::string path_of(std::string_view url) {
  auto u = boost::urls::parse_uri(url);
  if (!u) return {};
  std::string path(u->encoded_path());
  return path.empty() ? "/" : path;
}

std::string hex_prefix(std::string_view bytes, std::size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < bytes.size() && i < n; ++i) {
    if (i) out += ' ';
    auto b = static_cast<unsigned char>(bytes[i]);
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  if (bytes.size() > n) out += " …";
  return out;
}

std::string redact(std::string_view text) {
  constexpr std::size_t kKeep = 3, kTokenRun = 16, kTokenKeep = 4;
  std::string out;
  std::size_t line_start = 0;
  while (line_start <= text.size()) {
    auto nl = text.find('\n', line_start);
    auto line = text.substr(line_start, nl == std::string_view::npos ? std::string_view::npos : nl - line_start);
    auto sep = line.find_first_of("=:,");
    if (sep != std::string_view::npos) {
      // The key stays; the value keeps its first characters.
      auto value = line.substr(sep + 1);
      auto kept = text::utf8_prefix(value, kKeep);
      out += std::string(line.substr(0, sep + 1)) + kept + (kept.size() < value.size() ? "****" : "");
    } else {
      // Long runs that look like keys, hashes or base64 keep their first characters only.
      for (std::size_t i = 0; i < line.size();) {
        std::size_t j = i;
        while (j < line.size() && token_char(line[j])) ++j;
        out +=
            j - i >= kTokenRun ? std::string(line.substr(i, kTokenKeep)) + "****" : std::string(line.substr(i, j - i));
        if (j < line.size()) out += line[j];
        i = j + 1;
      }
    }
    if (nl == std::string_view::npos) break;
    out += '\n';
    line_start = nl + 1;
  }
  return out;
}

std::optional<std::string> content_match(const Probe& probe, const Answer& answer) {
  const std::string& body = answer.body;
  if (body.size() < probe.min_size) return std::nullopt;
  if (probe.max_size != 0 && (body.size() > probe.max_size || answer.truncated)) return std::nullopt;
  if (probe.content_type && !re2::RE2::PartialMatch(answer.content_type, *probe.content_type)) return std::nullopt;
  if (probe.not_content_type && re2::RE2::PartialMatch(answer.content_type, *probe.not_content_type))
    return std::nullopt;
  for (const auto& re : probe.not_body) {
    re2::StringPiece m;
    if (search(re, body, &m)) return std::nullopt;
  }
  for (const auto& magic : probe.magic)
    if (body.compare(0, magic.size(), magic) == 0)
      return "starts with " + hex_prefix(magic, magic.size()) + " (" + std::to_string(body.size()) +
             (answer.truncated ? "+" : "") + " bytes)";
  for (const auto& re : probe.body) {
    re2::StringPiece m;
    if (search(re, body, &m)) {
      auto pos = static_cast<std::size_t>(m.data() - body.data());
      auto excerpt = excerpt_at(body, pos, m.size());
      return probe.redact ? redact(excerpt) : excerpt;
    }
  }
  return std::nullopt;
}

Judgement judge(const Probe& probe, const Answer& answer, const Answer* guard) {
  Judgement j;
  bool status_ok = answer.responded &&
                   std::find(probe.statuses.begin(), probe.statuses.end(), answer.status) != probe.statuses.end();
  // A redirect elsewhere (to a login page, to the home page) is not the file.
  bool on_path = path_of(answer.final_url) == probe.path;
  std::optional<std::string> match;
  if (status_ok && on_path) match = content_match(probe, answer);

  if (probe.absent) {
    // Without an answer nothing is known: a site that is down does not lack the file.
    if (match || !answer.responded) {
      j.reason = match ? "present" : "no answer";
      return j;
    }
    j.verdict = Verdict::Found;
    j.excerpt = "GET " + probe.path + " answered " + std::to_string(answer.status) +
                (status_ok && on_path ? " without the expected content" : "");
    return j;
  }
  if (!answer.responded) {
    j.reason = "no answer";
    return j;
  }
  if (!status_ok) {
    j.reason = "status " + std::to_string(answer.status);
    return j;
  }
  if (!on_path) {
    j.reason = "redirected to " + answer.final_url;
    return j;
  }
  if (!match) {
    j.reason = "content check failed";
    return j;
  }
  if (guard) {
    if (same_page(answer, *guard)) {
      j.verdict = Verdict::Inconclusive;
      j.reason = "the same page as the answer to a path that does not exist";
      return j;
    }
    if (content_match(probe, *guard)) {
      j.verdict = Verdict::Inconclusive;
      j.reason = "the answer to a path that does not exist passes this content check too";
      return j;
    }
  }
  j.verdict = Verdict::Found;
  j.excerpt = std::move(*match);
  return j;
}

}  // namespace dozor::audit::exposures
