#include "engines/audit/tech/version.hpp"

#include <cctype>
#include <cstdint>
#include <vector>

#include "engines/limits.hpp"

namespace dozor::audit::tech {
namespace {

struct Part {
  bool numeric = false;
  std::uint64_t number = 0;
  std::string text;  // lower case
};

bool digit(char c) { return c >= '0' && c <= '9'; }
bool alpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

std::vector<Part> parts_of(std::string_view v) {
  if (!v.empty() && (v.front() == 'v' || v.front() == 'V') && v.size() > 1 && digit(v[1])) v.remove_prefix(1);
  if (auto plus = v.find('+'); plus != std::string_view::npos) v = v.substr(0, plus);
  std::vector<Part> out;
  std::size_t i = 0;
  while (i < v.size()) {
    if (digit(v[i])) {
      Part p;
      p.numeric = true;
      while (i < v.size() && digit(v[i])) {
        if (p.number < (std::uint64_t{1} << 60)) p.number = p.number * 10 + static_cast<std::uint64_t>(v[i] - '0');
        ++i;
      }
      out.push_back(std::move(p));
    } else if (alpha(v[i])) {
      Part p;
      while (i < v.size() && alpha(v[i]))
        p.text.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(v[i++]))));
      out.push_back(std::move(p));
    } else {
      ++i;  // separators: . - _
    }
  }
  return out;
}

}  // namespace

int compare_versions(std::string_view a, std::string_view b) {
  auto pa = parts_of(a);
  auto pb = parts_of(b);
  std::size_t n = std::max(pa.size(), pb.size());
  for (std::size_t i = 0; i < n; ++i) {
    const Part* x = i < pa.size() ? &pa[i] : nullptr;
    const Part* y = i < pb.size() ? &pb[i] : nullptr;
    // A missing part is 0 against a number and a release against a pre-release tag.
    if (!x && !y) return 0;
    if (!x) {
      if (!y->numeric) return 1;
      if (y->number != 0) return -1;
      continue;
    }
    if (!y) {
      if (!x->numeric) return -1;
      if (x->number != 0) return 1;
      continue;
    }
    if (x->numeric && y->numeric) {
      if (x->number != y->number) return x->number < y->number ? -1 : 1;
    } else if (x->numeric != y->numeric) {
      return x->numeric ? 1 : -1;
    } else if (int c = x->text.compare(y->text); c != 0) {
      return c < 0 ? -1 : 1;
    }
  }
  return 0;
}

bool version_in_range(std::string_view v, std::string_view at_or_above, std::string_view below) {
  if (!at_or_above.empty() && compare_versions(v, at_or_above) < 0) return false;
  if (!below.empty() && compare_versions(v, below) >= 0) return false;
  return true;
}

bool plausible_version(std::string_view v) {
  if (v.empty() || v.size() > limits::tech::kVersionChars || !digit(v.front())) return false;
  for (char c : v)
    if (!digit(c) && !alpha(c) && c != '.' && c != '-' && c != '_' && c != '+') return false;
  return true;
}

}  // namespace dozor::audit::tech
