#include "fcgi/router.hpp"

#include <algorithm>
#include <boost/url/pct_string_view.hpp>
#include <stdexcept>

namespace dozor::http {
namespace {

std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> out;
  if (path.empty() || path.front() != '/') return out;
  std::size_t start = 1;
  while (true) {
    auto slash = path.find('/', start);
    out.push_back(path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return out;
}

std::string decode(std::string_view seg) {
  auto pct = boost::urls::make_pct_string_view(seg);
  return pct ? pct->decode() : std::string(seg);
}

}  // namespace

void Router::add(Route r) {
  bool vault_access = r.access == Access::Vault || r.access == Access::VaultWrite;
  bool paired = std::holds_alternative<PublicHandler>(r.handler)  ? r.access == Access::Public
                : std::holds_alternative<VaultHandler>(r.handler) ? vault_access
                                                                  : !vault_access && r.access != Access::Public;
  if (!paired)
    throw std::logic_error("route " + r.method + " " + r.pattern +
                           ": public routes take a PublicHandler, vault routes a VaultHandler, others a UserHandler");
  Compiled c{{}, routes_.size()};
  for (auto seg : split_path(r.pattern)) {
    if (seg.size() > 2 && seg.front() == '{' && seg.back() == '}') {
      std::string inner(seg.substr(1, seg.size() - 2));
      auto colon = inner.find(':');
      std::string name = inner.substr(0, colon);
      std::string type = colon == std::string::npos ? "" : inner.substr(colon + 1);
      c.segments.push_back({type == "path" ? Segment::Rest : Segment::Param, name});
    } else {
      c.segments.push_back({Segment::Literal, std::string(seg)});
    }
  }
  // {name:path} takes the rest of the path but for literal segments after it ("/audit/{t:path}/report").
  for (std::size_t i = 0; i < c.segments.size(); ++i)
    if (c.segments[i].kind == Segment::Rest)
      for (std::size_t j = i + 1; j < c.segments.size(); ++j)
        if (c.segments[j].kind != Segment::Literal)
          throw std::logic_error("only literal segments may follow {name:path}: " + r.pattern);
  routes_.push_back(std::move(r));
  compiled_.push_back(std::move(c));
}

RouteMatch Router::match(std::string_view method, std::string_view raw_path) const {
  auto segs = split_path(raw_path);
  std::vector<std::string> decoded;
  decoded.reserve(segs.size());
  for (auto s : segs) decoded.push_back(decode(s));

  RouteMatch best;
  std::vector<int> best_score;  // per segment: 3 literal, 2 param, 1 rest — compared lexicographically
  std::vector<std::string> allowed;
  for (const auto& c : compiled_) {
    std::vector<int> score;
    std::map<std::string, std::string> params;
    bool ok = true;
    std::size_t i = 0;
    for (; i < c.segments.size() && ok; ++i) {
      const auto& seg = c.segments[i];
      if (seg.kind == Segment::Rest) {
        const std::size_t tail = c.segments.size() - i - 1;  // literals after the rest
        if (i + tail >= segs.size() || segs[i].empty()) {
          ok = false;
          break;
        }
        const std::size_t rest_end = segs.size() - tail;  // first segment of the tail
        for (std::size_t t = 0; t < tail && ok; ++t) ok = decoded[rest_end + t] == c.segments[i + 1 + t].text;
        if (!ok) break;
        // The rest of the raw path up to the tail, slashes included, exactly as sent.
        std::size_t offset = static_cast<std::size_t>(segs[i].data() - raw_path.data());
        std::size_t end =
            tail ? static_cast<std::size_t>(segs[rest_end].data() - raw_path.data()) - 1 : raw_path.size();
        params[seg.text] = std::string(raw_path.substr(offset, end - offset));
        score.push_back(1);
        score.insert(score.end(), tail, 3);
        i = segs.size();
        break;
      }
      if (i >= segs.size()) {
        ok = false;
        break;
      }
      if (seg.kind == Segment::Literal) {
        ok = decoded[i] == seg.text;
        score.push_back(3);
      } else {
        ok = !segs[i].empty();
        params[seg.text] = std::string(segs[i]);
        score.push_back(2);
      }
    }
    if (!ok || i != segs.size()) continue;
    const Route& r = routes_[c.route_index];
    // Every GET route answers HEAD too (RFC 9110 §9.3.2); the writer then sends no body.
    bool head_as_get = method == "HEAD" && r.method == "GET";
    if (r.method != method && !head_as_get) {
      for (const std::string& m :
           r.method == "GET" ? std::vector<std::string>{"GET", "HEAD"} : std::vector<std::string>{r.method})
        if (std::find(allowed.begin(), allowed.end(), m) == allowed.end()) allowed.push_back(m);
      continue;
    }
    if (!best.route || score > best_score) {
      best.route = &r;
      best.params = std::move(params);
      best_score = std::move(score);
    }
  }
  if (!best.route) best.allowed = std::move(allowed);
  return best;
}

}  // namespace dozor::http
