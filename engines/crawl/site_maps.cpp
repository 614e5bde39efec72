#include "engines/crawl/site_maps.hpp"

#include <algorithm>
#include <pugixml.hpp>

namespace dozor::crawl {
namespace {

constexpr std::size_t kMaxEntries = 50000;  // the sitemap protocol's own limit per file

std::string trim(std::string_view v) {
  auto b = v.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  auto e = v.find_last_not_of(" \t\r\n");
  return std::string(v.substr(b, e - b + 1));
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// The local name of an element ("sm:loc" → "loc"): sitemaps are namespaced, prefixes vary.
std::string local(const pugi::xml_node& n) {
  std::string name = n.name();
  auto colon = name.find(':');
  return lower(colon == std::string::npos ? name : name.substr(colon + 1));
}

}  // namespace

Robots parse_robots(std::string_view text) {
  Robots star, all;
  bool in_star = false, group_started = false, last_was_agent = false;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto eol = text.find('\n', pos);
    auto line = text.substr(pos, eol == std::string_view::npos ? std::string_view::npos : eol - pos);
    pos = eol == std::string_view::npos ? text.size() : eol + 1;
    line = line.substr(0, line.find('#'));
    auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    auto key = lower(trim(line.substr(0, colon)));
    auto value = trim(line.substr(colon + 1));
    if (key == "user-agent") {
      if (!last_was_agent) in_star = false;  // a new group starts
      if (value == "*") in_star = true;
      group_started = true;
      last_was_agent = true;
      continue;
    }
    last_was_agent = false;
    if (key == "sitemap") {
      if (!value.empty() && star.sitemaps.size() < kMaxEntries) star.sitemaps.push_back(value);
      continue;
    }
    if (!group_started || value.empty()) continue;
    if (key == "allow" || key == "disallow") {
      auto& target = key == "allow" ? (in_star ? star.allow : all.allow) : (in_star ? star.disallow : all.disallow);
      if (in_star && target.size() < kMaxEntries) target.push_back(value);
      auto& any = key == "allow" ? all.allow : all.disallow;
      if (!in_star && any.size() < kMaxEntries) any.push_back(value);
    }
  }
  if (star.allow.empty() && star.disallow.empty()) {
    star.allow = std::move(all.allow);
    star.disallow = std::move(all.disallow);
  }
  return star;
}

Sitemap parse_sitemap(std::string_view xml) {
  Sitemap out;
  pugi::xml_document doc;
  // No DTDs and no entity expansion beyond the predefined ones: pugixml never fetches anything.
  auto ok = doc.load_buffer(xml.data(), xml.size(), pugi::parse_default & ~pugi::parse_doctype);
  if (!ok) return out;
  pugi::xml_node root = doc.document_element();
  auto kind = local(root);
  if (kind != "urlset" && kind != "sitemapindex") return out;
  out.valid = true;
  for (pugi::xml_node entry : root.children()) {
    auto name = local(entry);
    if (name != "url" && name != "sitemap") continue;
    for (pugi::xml_node child : entry.children()) {
      if (local(child) != "loc") continue;
      auto loc = trim(child.text().get());
      if (loc.empty()) continue;
      auto& list = kind == "urlset" ? out.urls : out.sitemaps;
      if (list.size() < kMaxEntries) list.push_back(loc);
    }
  }
  return out;
}

}  // namespace dozor::crawl
