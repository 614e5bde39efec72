#include "engines/crawl/crawler.hpp"

#include <algorithm>
#include <boost/json/array.hpp>
#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>
#include <deque>
#include <functional>

#include "engines/crawl/charset.hpp"
#include "engines/crawl/site_maps.hpp"
#include "engines/secrets.hpp"
#include "engines/text/utf8.hpp"

namespace dozor::crawl {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kCommentsKept = 200;
constexpr std::size_t kInlineExcerpt = 200;

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// URLs not worth fetching as pages: their content is not HTML.
bool looks_binary(const std::string& url) {
  auto u = boost::urls::parse_uri(url);
  std::string path = lower(u ? std::string(u->path()) : url);
  auto dot = path.rfind('.');
  if (dot == std::string::npos || path.find('/', dot) != std::string::npos) return false;
  static const std::set<std::string> kBinary = {
      "png", "jpg",  "jpeg", "gif", "webp", "svg",   "ico", "bmp",  "tif", "tiff", "avif", "mp4",  "webm", "ogg", "mp3",
      "wav", "flac", "avi",  "mov", "mkv",  "pdf",   "doc", "docx", "xls", "xlsx", "ppt",  "pptx", "odt",  "ods", "odp",
      "rtf", "zip",  "rar",  "7z",  "gz",   "tgz",   "bz2", "xz",   "tar", "exe",  "msi",  "dmg",  "apk",  "iso", "bin",
      "css", "js",   "mjs",  "map", "woff", "woff2", "ttf", "otf",  "eot", "json", "xml",  "csv",  "txt"};
  return kBinary.count(path.substr(dot + 1)) > 0;
}

struct Candidate {
  std::string url;
  int depth;
  std::string via;
};

class Crawler {
 public:
  Crawler(const std::string& target, const net::EgressPolicy& policy, const CrawlOptions& options)
      : options_(options), session_(policy, options.scan) {
    result_.target = target;
    result_.origin = net::origin_of(target);
    origins_.insert(result_.origin);
  }

  CrawlResult run() {
    auto started = Clock::now();
    deadline_ = started + options_.time_budget;
    enqueue(result_.target, 0, "target");
    fetch_robots();
    feed();
    bool finished = session_.run(deadline_);
    if (!finished)
      result_.stopped = options_.scan.cancel.cancelled() ? "cancelled" : "time_budget";
    else if (pages_started_ >= static_cast<std::size_t>(options_.max_pages) && !frontier_empty())
      result_.stopped = "max_pages";
    else if (url_limit_hit_)
      result_.stopped = "url_limit";
    else
      result_.stopped = "complete";
    // Pages that never answered before the deadline are still listed.
    for (auto& [index, open] : open_pages_)
      if (open) {
        result_.pages[index].error = "not finished within the crawl's time budget";
        result_.pages[index].error_kind = "timeout";
      }
    result_.requests = session_.started();
    result_.duration_ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count();
    return std::move(result_);
  }

 private:
  bool in_scope(const std::string& url) const { return origins_.count(net::origin_of(url)) > 0; }

  std::string path_of(const std::string& url) const {
    auto u = boost::urls::parse_uri(url);
    return u ? std::string(u->encoded_path()) : url;
  }

  void note_structure(const std::string& url) {
    if (result_.structure.size() < options_.max_items) result_.structure.insert(path_of(url));
  }

  void note_endpoint(const std::string& url, const std::string& method, std::set<std::string> params,
                     const std::string& source) {
    auto u = boost::urls::parse_uri(url);
    if (!u) return;
    boost::urls::url base(*u);
    for (auto p : u->params()) params.insert(p.key);
    base.remove_query();
    base.remove_fragment();
    std::string key = method + " " + std::string(base.buffer());
    auto it = result_.endpoints.find(key);
    if (it == result_.endpoints.end()) {
      if (result_.endpoints.size() >= options_.max_items) return;
      result_.endpoints[key] = Endpoint{std::string(base.buffer()), method, std::move(params), source, {source}};
    } else {
      it->second.params.insert(params.begin(), params.end());
      it->second.sources.insert(source);
    }
  }

  void enqueue(const std::string& url, int depth, const std::string& via) {
    if (depth > options_.depth || !in_scope(url) || looks_binary(url)) return;
    if (options_.skip && options_.skip(url)) return;
    if (seen_.count(url)) return;
    if (seen_.size() >= options_.max_urls) {
      url_limit_hit_ = true;
      return;
    }
    seen_.insert(url);
    frontier_[depth].push_back({url, depth, via});
  }

  bool frontier_empty() const {
    return std::all_of(frontier_.begin(), frontier_.end(), [](const auto& f) { return f.second.empty(); });
  }

  // Submits pages, shallowest first, while the crawl may start more and the session has room.
  void feed() {
    while (pages_started_ < static_cast<std::size_t>(options_.max_pages) &&
           pages_in_flight_ < options_.scan.per_host_concurrency * 2) {
      auto level = std::find_if(frontier_.begin(), frontier_.end(), [](const auto& f) { return !f.second.empty(); });
      if (level == frontier_.end()) return;
      Candidate c = std::move(level->second.front());
      level->second.pop_front();
      std::size_t index = result_.pages.size();
      PageRecord rec;
      rec.url = c.url;
      rec.depth = c.depth;
      rec.found_via = c.via;
      result_.pages.push_back(std::move(rec));
      open_pages_[index] = true;
      ++pages_started_;
      ++pages_in_flight_;
      net::FetchRequest req;
      req.url = c.url;
      req.headers = {"Accept: text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"};
      session_.submit(std::move(req), [this, index, depth = c.depth](net::CheckOutcome o) {
        --pages_in_flight_;
        open_pages_[index] = false;
        on_page(index, depth, std::move(o));
        feed();
      });
    }
  }

  void fetch_robots() {
    auto u = boost::urls::parse_uri(result_.target);
    if (!u) return;
    boost::urls::url robots(*u);
    robots.set_encoded_path("/robots.txt");
    robots.remove_query();
    std::string base = std::string(robots.buffer());
    net::FetchRequest req;
    req.url = base;
    session_.submit(std::move(req), [this, base](const net::CheckOutcome& o) {
      std::vector<std::string> sitemaps;
      if (o.kind == net::CheckError::None && o.status == 200) {
        result_.robots_found = true;
        Robots r = parse_robots(o.body);
        for (const auto& path : r.disallow) {
          if (result_.robots_disallow.size() < options_.max_items) result_.robots_disallow.push_back(path);
          seed_path(base, path, "robots");
        }
        for (const auto& path : r.allow) seed_path(base, path, "robots");
        sitemaps = r.sitemaps;
      }
      if (auto def = resolve_http(base, "/sitemap.xml")) sitemaps.push_back(*def);
      for (const auto& s : sitemaps) fetch_sitemap(s);
      feed();
    });
  }

  // A robots path as a seed: wildcards and end anchors make it a pattern, not a page.
  void seed_path(const std::string& base, const std::string& path, const char* via) {
    if (path.find('*') != std::string::npos || path.find('$') != std::string::npos) return;
    if (auto url = resolve_http(base, path)) {
      note_endpoint(*url, "GET", {}, via);
      enqueue(*url, 1, via);
    }
  }

  void fetch_sitemap(const std::string& url) {
    if (sitemaps_seen_.count(url) || sitemaps_seen_.size() >= limits::kCrawlSitemaps) return;
    // Sitemaps of another site are not ours to read (robots.txt may name any URL).
    if (!in_scope(url)) return;
    sitemaps_seen_.insert(url);
    net::FetchRequest req;
    req.url = url;
    session_.submit(std::move(req), [this, url](const net::CheckOutcome& o) {
      if (o.kind != net::CheckError::None || o.status != 200) return;
      Sitemap s = parse_sitemap(o.body);
      if (!s.valid) return;
      result_.sitemaps.push_back(url);
      for (const auto& nested : s.sitemaps) fetch_sitemap(nested);
      for (const auto& loc : s.urls)
        if (auto page = resolve_http(url, loc)) {
          note_structure(*page);
          if (in_scope(*page)) note_endpoint(*page, "GET", {}, "sitemap");
          enqueue(*page, 1, "sitemap");
        }
      feed();
    });
  }

  void fetch_script(const std::string& url, const std::string& page) {
    if (scripts_fetched_.count(url) || scripts_fetched_.size() >= options_.max_scripts) return;
    scripts_fetched_.insert(url);
    net::FetchRequest req;
    req.url = url;
    req.max_redirects = 2;
    session_.submit(std::move(req), [this, url, page](const net::CheckOutcome& o) {
      if (o.kind != net::CheckError::None || o.status != 200) return;
      note_js_paths(o.body, url);
      if (options_.on_script) options_.on_script(url, page, o.body);
    });
  }

  void note_js_paths(std::string_view source, const std::string& where) {
    for (const auto& path : find_js_paths(source)) {
      if (result_.js_paths.size() >= options_.max_items) return;
      result_.js_paths.emplace(path, where);
      if (auto url = resolve_http(where, path); url && in_scope(*url)) {
        note_endpoint(*url, "GET", {}, "js");
        note_structure(*url);
      }
    }
  }

  void on_page(std::size_t index, int depth, net::CheckOutcome o) {
    PageRecord& rec = result_.pages[index];
    rec.status = o.status;
    rec.final_url = o.final_url;
    if (!o.exchanges.empty())
      rec.content_type = net::first_header(o.exchanges.back().response_headers, "content-type").value_or("");
    rec.bytes = o.body.size();
    if (o.kind != net::CheckError::None) {
      rec.error = o.error;
      rec.error_kind = net::to_string(o.kind);
      if (o.kind == net::CheckError::OutOfScope && result_.out_of_scope.size() < options_.max_items)
        result_.out_of_scope.insert(net::origin_of(o.out_of_scope_url));
      return;
    }
    // The target's own redirect (http → https, a trailing slash, www.) says where the site lives;
    // in an active scan only when its scope admitted the new origin (the hop is not followed otherwise).
    if (depth == 0 && !in_scope(o.final_url)) origins_.insert(net::origin_of(o.final_url));
    if (!in_scope(o.final_url)) {
      if (result_.external_links.size() < options_.max_items) result_.external_links.push_back(o.final_url);
      return;
    }
    if (o.final_url != rec.url) seen_.insert(o.final_url);
    note_structure(o.final_url);
    if (o.status < 200 || o.status >= 300 || !is_html_type(rec.content_type, o.body)) {
      if (options_.on_page) options_.on_page(PageSeen{o.final_url, depth, o.status, o.exchanges});
      return;
    }
    rec.charset = detect_charset(o.body, rec.content_type);
    std::string html = to_utf8(o.body, rec.content_type);
    o.body.clear();
    o.body.shrink_to_fit();
    PageFacts facts = extract_html(html, o.final_url);
    if (options_.on_page) options_.on_page(PageSeen{o.final_url, depth, o.status, o.exchanges, &html, &facts});
    rec.title = facts.title;
    const std::string page = o.final_url;

    for (const auto& link : facts.links) {
      if (in_scope(link.url)) {
        note_structure(link.url);
        if (link.url.find('?') != std::string::npos) note_endpoint(link.url, "GET", {}, "link");
        enqueue(link.url, depth + 1, "link");
      } else if (result_.external_links.size() < options_.max_items &&
                 std::find(result_.external_links.begin(), result_.external_links.end(), link.url) ==
                     result_.external_links.end()) {
        result_.external_links.push_back(link.url);
      }
    }
    for (const auto& form : facts.forms) {
      if (result_.forms.size() >= options_.max_items) break;
      std::set<std::string> params;
      for (const auto& f : form.fields)
        if (!f.name.empty()) params.insert(f.name);
      if (in_scope(form.action)) note_endpoint(form.action, form.method, params, "form");
      // One form on every page (a search box in the header) is one form.
      bool dup = std::any_of(result_.forms.begin(), result_.forms.end(), [&](const FormRecord& r) {
        if (r.form.action != form.action || r.form.method != form.method || r.form.fields.size() != form.fields.size())
          return false;
        for (std::size_t i = 0; i < form.fields.size(); ++i)
          if (r.form.fields[i].name != form.fields[i].name) return false;
        return true;
      });
      if (!dup) result_.forms.push_back({page, form});
    }
    for (const auto& s : facts.scripts) {
      if (result_.scripts.size() >= options_.max_items) break;
      if (!s.src.empty()) {
        bool dup = std::any_of(result_.scripts.begin(), result_.scripts.end(),
                               [&](const ScriptRecord& r) { return r.src == s.src; });
        if (!dup) result_.scripts.push_back({page, s.src, "", 0, s.integrity});
        if (in_scope(s.src)) fetch_script(s.src, page);
      } else if (!s.inline_text.empty()) {
        result_.scripts.push_back(
            {page, "", text::utf8_prefix(s.inline_text, kInlineExcerpt), s.inline_text.size(), ""});
        note_js_paths(s.inline_text, page);
      }
    }
    for (const auto& m : facts.media) {
      if (result_.media.size() >= options_.max_items) break;
      if (media_seen_.insert(m.url).second) result_.media.push_back({page, m.kind, m.url});
    }
    auto add_email = [&](const std::string& address, const char* source) {
      auto a = lower(address);
      if (result_.emails.size() < options_.max_items && emails_seen_.insert(a).second)
        result_.emails.push_back({a, source, page});
    };
    for (const auto& m : facts.mailto)
      for (const auto& a : find_emails(m)) add_email(a, "mailto");
    for (const auto& a : find_emails(facts.text)) add_email(a, "text");
    auto add_phone = [&](const Phone& p, const char* source) {
      if (result_.phones.size() < options_.max_items && phones_seen_.insert(p.e164).second)
        result_.phones.push_back({p.e164, p.as_found, source, page});
    };
    for (const auto& t : facts.tel)
      if (auto e = to_e164(t)) add_phone({*e, t}, "tel");
    for (const auto& p : find_phones(facts.text)) add_phone(p, "text");
    for (const auto& c : facts.comments)
      if (!c.empty() && result_.comments.size() < kCommentsKept &&
          std::find(result_.comments.begin(), result_.comments.end(), c) == result_.comments.end())
        result_.comments.push_back(c);
  }

  const CrawlOptions& options_;
  net::ScanSession session_;
  CrawlResult result_;
  Clock::time_point deadline_;
  std::set<std::string> origins_;
  std::set<std::string> seen_;
  std::map<int, std::deque<Candidate>> frontier_;
  std::map<std::size_t, bool> open_pages_;
  std::set<std::string> sitemaps_seen_, scripts_fetched_, media_seen_, emails_seen_, phones_seen_;
  std::size_t pages_started_ = 0;
  std::size_t pages_in_flight_ = 0;
  bool url_limit_hit_ = false;
};

boost::json::array strings(const std::vector<std::string>& v) {
  boost::json::array a;
  for (const auto& s : v) a.push_back(boost::json::string(s));
  return a;
}

// Excerpts of the site's text (comments) as shown: secrets masked (engines/secrets.hpp).
boost::json::array redacted_strings(const std::vector<std::string>& v) {
  boost::json::array a;
  for (const auto& s : v) a.push_back(boost::json::string(secrets::redact_text(s)));
  return a;
}

}  // namespace

bool is_html_type(const std::string& content_type, const std::string& body) {
  auto ct = lower(content_type.substr(0, content_type.find(';')));
  if (ct.find("html") != std::string::npos) return true;
  if (!ct.empty()) return false;
  auto head = lower(body.substr(0, 512));
  return head.find("<html") != std::string::npos || head.find("<!doctype html") != std::string::npos;
}

CrawlResult crawl(const std::string& target, const net::EgressPolicy& policy, const CrawlOptions& options) {
  Crawler c(target, policy, options);
  return c.run();
}

boost::json::object structure_tree(const std::set<std::string>& paths) {
  struct Node {
    std::map<std::string, Node> children;
    bool page = false;
  };
  Node root;
  for (const auto& p : paths) {
    Node* n = &root;
    std::size_t pos = 1;
    while (pos <= p.size()) {
      auto slash = p.find('/', pos);
      auto seg = p.substr(pos, slash == std::string::npos ? std::string::npos : slash - pos);
      pos = slash == std::string::npos ? p.size() + 1 : slash + 1;
      if (seg.empty()) continue;
      n = &n->children[seg];
    }
    n->page = true;
  }
  // Iterative encoding would need parent links; the depth is bounded by the URL length limit.
  std::function<boost::json::object(const std::string&, const std::string&, const Node&)> enc =
      [&](const std::string& name, const std::string& path, const Node& n) {
        boost::json::array ch;
        for (const auto& [seg, child] : n.children) {
          std::string child_path = path;
          if (child_path.back() != '/') child_path += '/';
          child_path += seg;
          ch.push_back(enc(seg, child_path, child));
        }
        return boost::json::object{{"name", name}, {"path", path}, {"page", n.page}, {"children", std::move(ch)}};
      };
  return enc("/", "/", root);
}

boost::json::object to_json(const CrawlResult& r) {
  using boost::json::array;
  using boost::json::object;
  array pages;
  for (const auto& p : r.pages) {
    object o{{"url", p.url},
             {"final_url", p.final_url},
             {"depth", p.depth},
             {"status", p.status},
             {"content_type", p.content_type},
             {"charset", p.charset},
             {"title", p.title},
             {"bytes", p.bytes},
             {"found_via", p.found_via}};
    o["error"] = p.error.empty() ? boost::json::value(nullptr) : boost::json::value(p.error);
    o["error_kind"] = p.error_kind.empty() ? boost::json::value(nullptr) : boost::json::value(p.error_kind);
    pages.push_back(std::move(o));
  }
  array forms;
  for (const auto& f : r.forms) {
    array fields;
    for (const auto& x : f.form.fields)
      fields.push_back({{"tag", x.tag},
                        {"name", x.name},
                        {"type", x.type},
                        {"required", x.required},
                        {"checked", x.checked},
                        {"placeholder", x.placeholder}});
    forms.push_back({{"page", f.page},
                     {"action", f.form.action},
                     {"method", f.form.method},
                     {"enctype", f.form.enctype},
                     {"fields", std::move(fields)}});
  }
  array scripts;
  for (const auto& s : r.scripts) {
    if (s.src.empty())
      scripts.push_back({{"page", s.page},
                         {"inline", true},
                         {"excerpt", secrets::redact_text(s.inline_excerpt)},
                         {"bytes", s.inline_bytes}});
    else
      scripts.push_back({{"page", s.page}, {"inline", false}, {"src", s.src}, {"integrity", s.integrity}});
  }
  array media, documents;
  for (const auto& m : r.media) {
    object o{{"kind", m.kind}, {"url", m.url}, {"page", m.page}};
    if (m.kind == "document") documents.push_back(o);
    media.push_back(std::move(o));
  }
  array emails;
  for (const auto& e : r.emails) emails.push_back({{"address", e.address}, {"source", e.source}, {"page", e.page}});
  array phones;
  for (const auto& p : r.phones)
    phones.push_back({{"e164", p.e164}, {"as_found", p.as_found}, {"source", p.source}, {"page", p.page}});
  array endpoints;
  for (const auto& [key, e] : r.endpoints) {
    array params;
    for (const auto& p : e.params) params.push_back(boost::json::string(p));
    endpoints.push_back({{"url", e.url}, {"method", e.method}, {"params", std::move(params)}, {"source", e.source}});
  }
  array js;
  for (const auto& [path, where] : r.js_paths) js.push_back({{"path", path}, {"script", where}});
  std::size_t errors = static_cast<std::size_t>(
      std::count_if(r.pages.begin(), r.pages.end(), [](const PageRecord& p) { return !p.error.empty(); }));
  return {{"target", r.target},
          {"origin", r.origin},
          {"stats",
           {{"pages", r.pages.size()},
            {"errors", errors},
            {"requests", r.requests},
            {"duration_ms", r.duration_ms},
            {"stopped", r.stopped}}},
          {"pages", std::move(pages)},
          {"forms", std::move(forms)},
          {"scripts", std::move(scripts)},
          {"media", std::move(media)},
          {"documents", std::move(documents)},
          {"emails", std::move(emails)},
          {"phones", std::move(phones)},
          {"endpoints", std::move(endpoints)},
          {"js_paths", std::move(js)},
          {"external_links", strings(r.external_links)},
          {"comments", redacted_strings(r.comments)},
          {"robots", {{"found", r.robots_found}, {"disallow", strings(r.robots_disallow)}}},
          {"sitemaps", strings(r.sitemaps)},
          {"out_of_scope", strings({r.out_of_scope.begin(), r.out_of_scope.end()})},
          {"structure", structure_tree(r.structure)}};
}

}  // namespace dozor::crawl
