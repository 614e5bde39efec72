#include "engines/audit/compliance/engine.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <boost/json/array.hpp>
#include <boost/url/parse.hpp>
#include <cmath>

#include "engines/analyzer/checksums.hpp"
#include "engines/audit/documents/documents.hpp"
#include "engines/audit/headers/check.hpp"
#include "engines/crawl/contacts.hpp"
#include "engines/text/ascii.hpp"
#include "engines/text/utf8.hpp"

namespace dozor::audit::compliance {
namespace {

struct UrlParts {
  std::string scheme;
  std::string host;
  std::string path;  // lower case, with the query
};

UrlParts parts_of(std::string_view url) {
  UrlParts p;
  auto u = boost::urls::parse_uri_reference(url);
  if (!u) return p;
  p.scheme = text::ascii_lower(u->scheme());
  p.host = text::ascii_lower(u->host());
  p.path = text::ascii_lower(u->encoded_path());
  if (u->has_query()) p.path += "?" + text::ascii_lower(u->encoded_query());
  return p;
}

bool host_matches(std::string_view host, std::string_view suffix) {
  if (host == suffix) return true;
  return host.size() > suffix.size() && host.ends_with(suffix) && host[host.size() - suffix.size() - 1] == '.';
}

// "host.suffix" or "host.suffix/path-prefix" against a URL.
bool url_matches(const UrlParts& u, std::string_view pattern) {
  auto slash = pattern.find('/');
  if (slash == std::string_view::npos) return host_matches(u.host, pattern);
  return host_matches(u.host, pattern.substr(0, slash)) && u.path.starts_with(pattern.substr(slash));
}

const Service* service_of(const Data& d, const UrlParts& u) {
  if (u.host.empty()) return nullptr;
  for (const auto& s : d.services)
    for (const auto& h : s.hosts)
      if (url_matches(u, h)) return &s;
  return nullptr;
}

// Words of a name attribute: split at _ - . [ ] space and lower→upper case changes (customerEmail).
std::vector<std::string> name_words(std::string_view name) {
  std::vector<std::string> out;
  std::string cur;
  char prev = 0;
  for (char c : name) {
    bool sep = c == '_' || c == '-' || c == '.' || c == '[' || c == ']' || c == ' ' || c == ':' || c == '/';
    bool camel = std::isupper(static_cast<unsigned char>(c)) && std::islower(static_cast<unsigned char>(prev));
    if (sep || camel) {
      if (!cur.empty()) out.push_back(text::ascii_lower(cur));
      cur.clear();
    }
    if (!sep) cur.push_back(c);
    prev = c;
  }
  if (!cur.empty()) out.push_back(text::ascii_lower(cur));
  return out;
}

bool any_word_in(const std::vector<std::string>& words, const std::vector<std::string>& list) {
  for (const auto& w : words)
    if (std::find(list.begin(), list.end(), w) != list.end()) return true;
  return false;
}

bool contains_any(std::string_view haystack, const std::vector<std::string>& needles) {
  for (const auto& n : needles)
    if (haystack.find(n) != std::string_view::npos) return true;
  return false;
}

std::optional<std::int64_t> days_of(int y, int m, int d) {
  std::chrono::year_month_day ymd{std::chrono::year{y}, std::chrono::month{static_cast<unsigned>(m)},
                                  std::chrono::day{static_cast<unsigned>(d)}};
  if (!ymd.ok() || y < 1990 || y > 2200) return std::nullopt;
  return std::chrono::sys_days{ymd}.time_since_epoch().count();
}

std::string date_text(std::int64_t days) {
  std::chrono::year_month_day ymd{std::chrono::sys_days{std::chrono::days{days}}};
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02u", static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                static_cast<unsigned>(ymd.day()));
  return buf;
}

std::string header_line(const std::vector<net::HeaderField>& h, std::string_view name) {
  auto v = net::first_header(h, name);
  return v ? std::string(name) + ": " + *v : std::string();
}

struct Hit {
  std::string url;
  std::string excerpt;
};

struct FormSeen {
  std::string page;
  std::string action;
  std::string method;
  std::string summary;  // "POST https://site/feedback: name, email, phone"
  bool consent = false;
  bool prechecked = false;
  bool implied = false;
  bool policy_near = false;
  std::string consent_text;
  std::string implied_text;
  bool page_https = false;
  bool action_https = false;
  std::string mixed;  // an http:// subresource of an https page
  bool same_origin = true;
  const Service* action_service = nullptr;
};

struct PolicyPage {
  std::string url;
  int pd_terms = 0;
  std::set<std::string> topics;
  std::string excerpt;
};

struct Identifier {
  std::string label;  // as the page wrote the kind: ИНН, ОГРН …
  std::string kind;   // INN | OGRN | OGRNIP
  std::string digits;
  bool valid = false;
  Hit where;
};

struct ServiceHit {
  const Service* service = nullptr;
  Hit where;  // the resource URL and the page
};

// The latest "dd.mm.yyyy" or "yyyy-mm-dd" in a text (GOV-06).
const RE2& date_re() {
  static const RE2 re(
      R"((?:^|[^0-9])(?:([0-9]{1,2})\.([0-9]{1,2})\.([0-9]{4})|([0-9]{4})-([0-9]{2})-([0-9]{2}))(?:[^0-9]|$))");
  return re;
}

}  // namespace

std::optional<Profile> profile_from(std::string_view name) {
  if (name == "auto") return Profile::Auto;
  if (name == "gov") return Profile::Gov;
  if (name == "commercial") return Profile::Commercial;
  return std::nullopt;
}

std::string_view to_string(Profile p) {
  switch (p) {
    case Profile::Gov: return "gov";
    case Profile::Commercial: return "commercial";
    case Profile::Auto: break;
  }
  return "auto";
}

std::string_view to_string(Status s) {
  switch (s) {
    case Status::Passed: return "passed";
    case Status::Failed: return "failed";
    case Status::NotApplicable: return "not_applicable";
    case Status::Manual: break;
  }
  return "manual";
}

struct Engine::State {
  std::string target;
  Profile profile;
  std::int64_t today;
  Stemmer stemmer;
  std::unique_ptr<RE2> id_re;

  std::size_t pages = 0;
  std::map<std::string, int> statuses;
  // landing page
  bool landing_seen = false;
  std::string landing_url;
  std::vector<net::HeaderField> landing_headers;
  bool target_http = false;
  bool redirected_to_https = false;
  std::optional<bool> http_serves;  // the http:// probe answered without ending on https
  Hit http_probe;
  std::string landing_lang;
  std::size_t images = 0, images_without_alt = 0, headings = 0;
  // 152-FZ
  std::map<std::string, Hit> policy_links;  // target URL → (page, link text)
  std::set<std::string> pages_with_policy_link;
  std::map<std::string, Hit> consent_doc_links;
  std::vector<FormSeen> forms;
  std::set<std::string> form_keys;
  std::set<std::string> pd_form_pages;
  std::map<std::string, PolicyPage> policy_pages;
  std::map<std::string, ServiceHit> services;  // by service name
  std::vector<Hit> tracker_cookies;
  std::optional<Hit> cookie_set;
  std::optional<Hit> cookie_notice;
  std::vector<Identifier> ids;
  std::optional<Hit> operator_name;
  std::optional<Hit> email;
  std::optional<Hit> phone;
  std::vector<Hit> documents;
  // technical regulator
  std::vector<Hit> versions;
  std::set<std::string> version_keys;
  std::vector<Hit> admin_hits;
  std::set<std::string> script_keys;
  std::vector<Hit> scripts_without_sri;
  std::vector<Hit> foreign_scripts;
  std::size_t external_scripts = 0;
  // 8-FZ
  std::vector<std::string> gov_signals;
  std::map<std::string, Hit> gov_links;  // item id → (link URL, page + text)
  std::optional<Hit> vk, ok, opendata, site_map, search_form, bvi, gos_widget;
  std::optional<std::int64_t> newest_date;
  Hit newest_date_at;

  bool in_site(const UrlParts& u) const {
    UrlParts t = parts_of(landing_url.empty() ? target : landing_url);
    return u.host == t.host;
  }
};

Engine::Engine(const Data& data, std::string target, Profile profile, std::optional<std::int64_t> today)
    : data_(data), s_(std::make_unique<State>()) {
  s_->target = std::move(target);
  s_->profile = profile;
  s_->today = today.value_or(
      std::chrono::duration_cast<std::chrono::days>(std::chrono::system_clock::now().time_since_epoch()).count());
  s_->target_http = parts_of(s_->target).scheme == "http";
  // "ИНН 7707083893", "ОГРН: 1027700132195", "ИНН/КПП 7707083893/770701001": a label (not inside a
  // word), anything but digits for a little while, then the number.
  std::vector<std::string> labels = data.token("inn_labels");
  for (const auto& l : data.token("ogrn_labels")) labels.push_back(l);
  std::sort(labels.begin(), labels.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  std::string alt;
  for (const auto& l : labels) alt += (alt.empty() ? "" : "|") + RE2::QuoteMeta(l);
  RE2::Options o;
  o.set_case_sensitive(false);
  s_->id_re = std::make_unique<RE2>("(?:^|[^\\pL])(" + alt + ")[^\\pN]{0,24}?([0-9]{10,15})(?:[^0-9]|$)", o);
  for (const auto& h : data.token("gov_hosts"))
    if (host_matches(parts_of(s_->target).host, h)) s_->gov_signals.push_back("the host is under " + h);
}

Engine::~Engine() = default;

void Engine::observe_http_probe(const net::CheckOutcome& o) {
  State& s = *s_;
  std::string first = o.exchanges.empty() ? o.final_url : o.exchanges.front().url;
  if (o.kind != net::CheckError::None) {
    s.http_serves = false;  // nothing listens on http://: nothing to redirect
    s.http_probe = Hit{first, "http:// does not answer: " + o.error};
  } else if (parts_of(o.final_url).scheme == "https") {
    s.http_serves = false;
    s.redirected_to_https = true;
    s.http_probe = Hit{first, "redirects to " + o.final_url};
  } else {
    s.http_serves = o.status >= 200 && o.status < 400;
    s.http_probe = Hit{first, o.exchanges.empty() ? std::to_string(o.status) : o.exchanges.back().status_line};
  }
}

void Engine::observe(const crawl::PageSeen& page) {
  State& s = *s_;
  const Data& d = data_;
  ++s.pages;
  if (s.statuses.size() < limits::kCrawlQueuedUrls) s.statuses[page.url] = page.status;
  const UrlParts page_parts = parts_of(page.url);
  const bool page_https = page_parts.scheme == "https";

  for (const auto& ex : page.exchanges) {
    for (const auto& h : ex.response_headers) {
      if (h.name == "set-cookie") {
        std::string cookie_name = h.value.substr(0, h.value.find('='));
        if (!s.cookie_set) s.cookie_set = Hit{ex.url, "Set-Cookie: " + h.value};
        for (const auto& svc : d.services)
          for (const auto& c : svc.cookies)
            if (cookie_name == c && s.tracker_cookies.size() < kEvidencePerItem)
              s.tracker_cookies.push_back({ex.url, "Set-Cookie: " + clip(h.value, 200) + " (" + svc.name + ")"});
      }
      const auto& vh = d.token("version_headers");
      if (std::find(vh.begin(), vh.end(), h.name) != vh.end() &&
          std::any_of(h.value.begin(), h.value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        std::string key = h.name + ": " + h.value;
        if (s.version_keys.insert(key).second && s.versions.size() < kEvidencePerItem)
          s.versions.push_back({ex.url, clip(key, kExcerptChars)});
      }
    }
  }

  if (!s.landing_seen && page.depth == 0) {
    s.landing_seen = true;
    s.landing_url = page.url;
    if (!page.exchanges.empty()) s.landing_headers = page.exchanges.back().response_headers;
    s.redirected_to_https = s.target_http && page_https;
  }

  // SEC-04: an admin panel or sensitive file answered (the crawl reaches them through links and robots.txt).
  if (page.status >= 200 && page.status < 300) {
    std::string path = page_parts.path.substr(0, page_parts.path.find('?'));
    bool admin = path.ends_with(".sql");
    for (const auto& p : d.token("admin_paths"))
      admin = admin || path == p || (p.ends_with("/") && path.starts_with(p));
    if (admin && s.admin_hits.size() < kEvidencePerItem) {
      std::string ex = page.exchanges.empty()
                           ? std::string()
                           : page.exchanges.back().status_line + " " + page.exchanges.back().body_excerpt;
      s.admin_hits.push_back({page.url, clip(ex, kExcerptChars)});
    }
  }
  if (page.html == nullptr || page.facts == nullptr) return;
  const crawl::PageFacts& facts = *page.facts;
  const std::string base =
      facts.base_href ? crawl::resolve_http(page.url, *facts.base_href).value_or(page.url) : page.url;

  Words text = words_of(facts.title + " \n " + facts.text, s.stemmer);
  Words title = words_of(facts.title, s.stemmer);

  // ---- links: the policy, the consent document, 8-FZ sections, social pages
  bool page_links_policy = false;
  for (const auto& link : facts.links) {
    UrlParts lp = parts_of(link.url);
    if (link.text.size() <= 300) {
      Words lw = words_of(link.text, s.stemmer);
      bool consent_doc = find_any(lw, d.phrase("consent_document").stems).has_value();
      bool policy = !consent_doc && (find_any(lw, d.phrase("policy_link").stems) ||
                                     (s.in_site(lp) && contains_any(lp.path, d.token("policy_href"))));
      if (consent_doc && s.consent_doc_links.size() < 50)
        s.consent_doc_links.emplace(link.url, Hit{page.url, link.text});
      if (policy) {
        page_links_policy = true;
        if (s.policy_links.size() < 50) s.policy_links.emplace(link.url, Hit{page.url, link.text});
      }
      for (const auto& [id, list] : d.gov_sections)
        if (!s.gov_links.count(id) && find_any(lw, list.stems))
          s.gov_links[id] = Hit{link.url, page.url + " — «" + clip(link.text, 200) + "»"};
      if (!s.site_map && find_any(lw, d.phrase("site_map").stems)) s.site_map = Hit{link.url, clip(link.text, 200)};
    }
    for (const auto& h : d.token("gov_social_hosts")) {
      if (!host_matches(lp.host, h)) continue;
      auto& slot = h == "ok.ru" ? s.ok : s.vk;
      if (!slot) slot = Hit{link.url, page.url};
    }
    if (!s.opendata && s.in_site(lp) && contains_any(lp.path, d.token("opendata_href")))
      s.opendata = Hit{link.url, page.url};
  }
  if (page_links_policy) s.pages_with_policy_link.insert(page.url);

  // ---- the policy page itself (PD-01/PD-02): linked as one, or called one
  bool policy_like = s.policy_links.count(page.url) || find_any(title, d.phrase("policy_link").stems).has_value() ||
                     contains_any(page_parts.path, d.token("policy_href"));
  if (policy_like && s.policy_pages.size() < 20 && !s.policy_pages.count(page.url)) {
    PolicyPage pp;
    pp.url = page.url;
    for (const auto& ph : d.phrase("pd_terms").stems)
      if (find(text, ph)) ++pp.pd_terms;
    for (const auto& [topic, list] : d.policy_topics)
      if (find_any(text, list.stems)) pp.topics.insert(topic);
    pp.excerpt = clip(facts.title.empty() ? facts.text : facts.title, kExcerptChars);
    s.policy_pages.emplace(page.url, std::move(pp));
  }

  // ---- forms
  PageScan scan = scan_page(*page.html, base);
  std::string mixed;
  if (page_https) {
    for (const auto& sc : facts.scripts)
      if (mixed.empty() && sc.src.starts_with("http://")) mixed = "<script src=\"" + sc.src + "\">";
    for (const auto& m : facts.media)
      if (mixed.empty() && m.kind != "document" && m.url.starts_with("http://"))
        mixed = "<" + m.kind + " src=\"" + m.url + "\">";
  }
  for (const auto& form : scan.forms) {
    std::vector<std::string> pd_fields;
    int visible = 0, passwords = 0;
    bool searchy = form.role_search;
    const FieldView* consent = nullptr;
    for (const auto& f : form.fields) {
      if (f.type == "hidden" || f.type == "submit" || f.type == "button" || f.type == "reset" || f.type == "image")
        continue;
      if (f.type == "password") {
        ++passwords;
        continue;
      }
      if (f.type == "checkbox") {
        std::vector<std::string> words = name_words(f.name);
        for (const auto& w : name_words(f.id)) words.push_back(w);
        Words lw = words_of(f.label, s.stemmer, 2000);
        if (!consent && (any_word_in(words, d.token("consent_names")) || find_any(lw, d.phrase("consent_label").stems)))
          consent = &f;
        continue;
      }
      if (f.type == "radio") continue;
      ++visible;
      if (f.type == "search" || (f.type == "text" && any_word_in({text::ascii_lower(f.name)}, d.token("search_names"))))
        searchy = true;
      std::vector<std::string> words = name_words(f.name);
      for (const auto& w : name_words(f.id)) words.push_back(w);
      bool pd = f.type == "email" || f.type == "tel" || any_word_in(words, d.token("pd_field_names"));
      if (!pd) {
        Words lw = words_of(f.placeholder + " \n " + f.label, s.stemmer, 2000);
        pd = find_any(lw, d.phrase("pd_field_labels").stems).has_value();
      }
      if (pd) pd_fields.push_back(!f.name.empty() ? f.name : !f.placeholder.empty() ? f.placeholder : f.type);
    }
    if (searchy && visible <= 1 && pd_fields.size() <= 1 &&
        std::none_of(form.fields.begin(), form.fields.end(),
                     [](const FieldView& f) { return f.type == "email" || f.type == "tel"; })) {
      if (!s.search_form) s.search_form = Hit{page.url, "<form action=\"" + form.action + "\"> (search)"};
      continue;
    }
    if (passwords > 0 && visible <= 1) continue;  // a login form asks for no new personal data
    if (pd_fields.empty()) continue;

    FormSeen fs;
    fs.page = page.url;
    fs.action = form.action;
    fs.method = form.method;
    std::string key = form.action + " " + form.method;
    for (const auto& f : pd_fields) key += " " + f;
    fs.summary = form.method + " " + form.action + ": ";
    for (std::size_t i = 0; i < pd_fields.size(); ++i) fs.summary += (i ? ", " : "") + pd_fields[i];
    if (consent) {
      fs.consent = true;
      fs.prechecked = consent->checked;
      fs.consent_text = "<input type=checkbox name=\"" + consent->name + "\"" + (consent->checked ? " checked" : "") +
                        "> " + clip(consent->label, 200);
    }
    Words ctx = words_of(form.context, s.stemmer);
    if (auto m = find_any(ctx, d.phrase("implied_consent").stems)) {
      fs.implied = true;
      fs.implied_text = excerpt(ctx, *m, 200);
    }
    for (const auto& l : form.links) {
      UrlParts lp = parts_of(l.url);
      Words lw = words_of(l.text, s.stemmer, 2000);
      if (find_any(lw, d.phrase("policy_link").stems) || find_any(lw, d.phrase("consent_document").stems) ||
          (!l.url.empty() && contains_any(lp.path, d.token("policy_href"))))
        fs.policy_near = true;
      if (find_any(lw, d.phrase("consent_document").stems) && s.consent_doc_links.size() < 50)
        s.consent_doc_links.emplace(l.url, Hit{page.url, l.text});
    }
    UrlParts ap = parts_of(form.action);
    fs.page_https = page_https;
    fs.action_https = ap.scheme == "https";
    fs.mixed = mixed;
    fs.same_origin = ap.host == page_parts.host;
    fs.action_service = service_of(d, ap);
    if (fs.action_service && !s.services.count(fs.action_service->name))
      s.services[fs.action_service->name] = ServiceHit{fs.action_service, Hit{form.action, page.url}};
    s.pd_form_pages.insert(page.url);
    if (s.form_keys.insert(key).second && s.forms.size() < kFormsKept) s.forms.push_back(std::move(fs));
  }

  // ---- scripts, frames, documents: third parties, SRI, 8-FZ widgets
  for (const auto& sc : facts.scripts) {
    if (sc.src.empty()) {
      // A tracker's snippet names its host inside the inline code (Metrica: mc.yandex.ru/metrika/tag.js).
      std::string code = text::ascii_lower(sc.inline_text);
      for (const auto& svc : d.services)
        for (const auto& h : svc.hosts)
          if (svc.kind != "passive" && !s.services.count(svc.name) && code.find(h) != std::string::npos)
            s.services[svc.name] = ServiceHit{&svc, Hit{page.url, clip(sc.inline_text, 200)}};
      if (!s.cookie_notice && (code.find("cookie") != std::string::npos || code.find("куки") != std::string::npos)) {
        Words sw = words_of(sc.inline_text, s.stemmer, std::size_t{64} * 1024);
        if (auto m = find_any(sw, d.phrase("cookie_notice_script").stems))
          s.cookie_notice = Hit{page.url, excerpt(sw, *m)};
      }
      continue;
    }
    UrlParts sp = parts_of(sc.src);
    const Service* svc = service_of(d, sp);
    if (svc && !s.services.count(svc->name)) s.services[svc->name] = ServiceHit{svc, Hit{sc.src, page.url}};
    if (contains_any(text::ascii_lower(sc.src), d.token("bvi_scripts")) && !s.bvi) s.bvi = Hit{sc.src, page.url};
    for (const auto& h : d.token("gov_widget_hosts"))
      if (host_matches(sp.host, h) && !s.gos_widget) s.gos_widget = Hit{sc.src, page.url};
    if (sp.host == page_parts.host || !s.script_keys.insert(sc.src).second) continue;
    ++s.external_scripts;
    if (sc.integrity.empty() && s.scripts_without_sri.size() < kEvidencePerItem)
      s.scripts_without_sri.push_back({page.url, "<script src=\"" + clip(sc.src, 250) + "\"> without integrity"});
    if (svc && svc->country == "foreign" && s.foreign_scripts.size() < kEvidencePerItem)
      s.foreign_scripts.push_back({page.url, "<script src=\"" + clip(sc.src, 250) + "\"> (" + svc->name + ")"});
  }
  for (const auto& m : facts.media) {
    UrlParts mp = parts_of(m.url);
    if (m.kind == "document") {
      if (s.documents.size() < kEvidencePerItem &&
          std::none_of(s.documents.begin(), s.documents.end(), [&](const Hit& h) { return h.url == m.url; }))
        s.documents.push_back({m.url, "linked from " + page.url});
      continue;
    }
    if (m.kind != "iframe" && m.kind != "embed" && m.kind != "object") continue;
    const Service* svc = service_of(d, mp);
    if (svc && !s.services.count(svc->name)) s.services[svc->name] = ServiceHit{svc, Hit{m.url, page.url}};
    for (const auto& h : d.token("gov_widget_hosts"))
      if (host_matches(mp.host, h) && !s.gos_widget) s.gos_widget = Hit{m.url, page.url};
  }

  // ---- visible text: cookie notice, operator details, contacts, dates
  if (!s.cookie_notice)
    if (auto m = find_any(text, d.phrase("cookie_notice").stems); m && page.depth == 0)
      s.cookie_notice = Hit{page.url, excerpt(text, *m)};
  if (!s.operator_name)
    if (auto m = find_any(text, d.phrase("operator_names").stems))
      s.operator_name = Hit{page.url, excerpt(text, *m, 200)};
  if (!s.email) {
    if (!facts.mailto.empty())
      s.email = Hit{page.url, "mailto:" + facts.mailto.front()};
    else if (auto e = crawl::find_emails(facts.text); !e.empty())
      s.email = Hit{page.url, e.front()};
  }
  if (!s.phone) {
    if (!facts.tel.empty())
      s.phone = Hit{page.url, "tel:" + facts.tel.front()};
    else if (auto p = crawl::find_phones(facts.text); !p.empty())
      s.phone = Hit{page.url, p.front().as_found};
  }
  {
    re2::StringPiece input(text.text);
    std::string label, digits;
    while (s.ids.size() < 20 && RE2::FindAndConsume(&input, *s.id_re, &label, &digits)) {
      if (std::any_of(s.ids.begin(), s.ids.end(), [&](const Identifier& i) { return i.digits == digits; })) continue;
      Identifier id;
      id.label = label;
      id.digits = digits;
      std::string folded = fold_word(label);
      bool ogrn_label = false;
      for (const auto& l : d.token("ogrn_labels")) ogrn_label = ogrn_label || fold_word(l) == folded;
      if (ogrn_label) {
        id.kind = digits.size() == 15 ? "OGRNIP" : "OGRN";
        id.valid = digits.size() == 13   ? analyzer::checksum::ogrn(digits)
                   : digits.size() == 15 ? analyzer::checksum::ogrnip(digits)
                                         : false;
      } else {
        id.kind = "INN";
        id.valid = digits.size() == 10   ? analyzer::checksum::inn10(digits)
                   : digits.size() == 12 ? analyzer::checksum::inn12(digits)
                                         : false;
      }
      std::size_t at = static_cast<std::size_t>(input.data() - text.text.data());
      std::size_t from = at > 120 ? at - 120 : 0;
      while (from > 0 && (static_cast<unsigned char>(text.text[from]) & 0xC0) == 0x80) --from;
      id.where = Hit{page.url, clip(std::string_view(text.text).substr(from, at - from + 40), 200)};
      s.ids.push_back(std::move(id));
    }
  }
  {
    re2::StringPiece input(facts.text);
    std::string d1, m1, y1, y2, m2, d2;
    int found = 0;
    while (found++ < 2000 && RE2::FindAndConsume(&input, date_re(), &d1, &m1, &y1, &y2, &m2, &d2)) {
      std::optional<std::int64_t> day = !y1.empty() ? days_of(std::stoi(y1), std::stoi(m1), std::stoi(d1))
                                                    : days_of(std::stoi(y2), std::stoi(m2), std::stoi(d2));
      if (day && *day <= s.today + 1 && (!s.newest_date || *day > *s.newest_date)) {
        s.newest_date = day;
        std::string as_written = !y1.empty() ? d1 : y2;
        as_written.append(!y1.empty() ? "." : "-").append(!y1.empty() ? m1 : m2);
        as_written.append(!y1.empty() ? "." : "-").append(!y1.empty() ? y1 : d2);
        s.newest_date_at = Hit{page.url, std::move(as_written)};
      }
    }
  }

  // ---- the landing page: accessibility signals and whether it calls itself an official site
  if (page.url == s.landing_url) {
    s.landing_lang = scan.lang;
    s.images = scan.images;
    s.images_without_alt = scan.images_without_alt;
    s.headings = scan.headings;
    const auto& official = d.phrase("gov_official").stems;
    for (const auto& ph : official) {
      std::size_t from = 0;
      while (auto m = find(text, ph, from)) {
        std::size_t end = m->token + ph.size();
        for (const auto& body : d.phrase("gov_body").stems)
          if (find(text, body, end, end + 8 + body.size())) {
            s.gov_signals.push_back("the page calls itself «" + excerpt(text, *m, 120) + "»");
            break;
          }
        if (!s.gov_signals.empty()) break;
        from = m->token + 1;
      }
    }
  }
  if (s.gos_widget && std::none_of(s.gov_signals.begin(), s.gov_signals.end(),
                                   [](const std::string& g) { return g.starts_with("a Gosuslugi"); }))
    s.gov_signals.push_back("a Gosuslugi widget is embedded: " + s.gos_widget->url);
}

namespace {

struct Builder {
  const Data& d;
  std::map<std::string, ItemResult> items;

  ItemResult& item(const std::string& id) {
    auto [it, fresh] = items.try_emplace(id);
    if (fresh) {
      it->second.spec = &d.item(id);
      it->second.severity = it->second.spec->severity;
    }
    return it->second;
  }
  void set(const std::string& id, Status st, std::string confidence, std::string note) {
    ItemResult& r = item(id);
    r.status = st;
    r.confidence = std::move(confidence);
    r.note = std::move(note);
  }
  void evidence(const std::string& id, const std::string& url, const std::string& excerpt) {
    ItemResult& r = item(id);
    if (r.evidence.size() < kEvidencePerItem) r.evidence.push_back({url, clip(excerpt, kExcerptChars)});
  }
  void evidence(const std::string& id, const Hit& h) { evidence(id, h.url, h.excerpt); }
};

std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string out;
  for (const auto& x : v) out += (out.empty() ? "" : sep) + x;
  return out;
}

}  // namespace

Result Engine::finish() {
  State& s = *s_;
  const Data& d = data_;
  Result r;
  r.target = s.target;
  r.profile = s.profile;
  r.pages_read = s.pages;
  Builder b{d, {}};
  const bool has_forms = !s.forms.empty();
  const std::string landing = s.landing_url.empty() ? s.target : s.landing_url;

  // ------------------------------------------------------------ 152-FZ
  std::vector<std::string> broken;
  for (const auto& [url, hit] : s.policy_links) {
    auto st = s.statuses.find(url);
    if (st != s.statuses.end() && st->second >= 400) broken.push_back(url);
  }
  std::vector<const PolicyPage*> policies;
  for (const auto& [url, pp] : s.policy_pages) {
    auto st = s.statuses.find(url);
    if (st != s.statuses.end() && st->second >= 200 && st->second < 300) policies.push_back(&pp);
  }
  const PolicyPage* best = nullptr;
  for (const auto* p : policies)
    if (!best || p->topics.size() > best->topics.size() ||
        (p->topics.size() == best->topics.size() && p->pd_terms > best->pd_terms))
      best = p;

  if (s.policy_links.empty() && policies.empty()) {
    b.set("PD-01", Status::Failed, has_forms ? "high" : "medium",
          "No link to a personal-data policy was found on the " + std::to_string(s.pages) + " pages read.");
    for (const auto& page : s.pd_form_pages)
      b.evidence("PD-01", page, "a page with a personal-data form and no policy link");
    if (s.pd_form_pages.empty()) b.evidence("PD-01", landing, "no policy link on the site");
  } else {
    std::vector<std::string> missing;
    for (const auto& page : s.pd_form_pages)
      if (!s.pages_with_policy_link.count(page)) missing.push_back(page);
    bool reads_like_policy = !best || best->pd_terms >= 2;
    if (!broken.empty() && broken.size() == s.policy_links.size() && policies.empty()) {
      b.set("PD-01", Status::Failed, "high", "Every policy link leads to an error page.");
      for (const auto& u : broken) b.evidence("PD-01", u, "HTTP " + std::to_string(s.statuses[u]));
    } else if (!missing.empty()) {
      b.set("PD-01", Status::Failed, "high", "Pages with personal-data forms do not link the policy.");
      for (const auto& u : missing) b.evidence("PD-01", u, "a page with a personal-data form and no policy link");
    } else if (!reads_like_policy) {
      b.set("PD-01", Status::Failed, "medium", "The linked policy page does not speak of personal data processing.");
      b.evidence("PD-01", best->url, best->excerpt);
    } else {
      b.set("PD-01", Status::Passed, best ? "high" : "medium",
            best ? "The policy is published and linked from every page with a personal-data form."
                 : "A policy link exists on every page with a form; the policy page itself was not read.");
    }
    for (const auto& [url, hit] : s.policy_links) b.evidence("PD-01", url, "«" + hit.excerpt + "» on " + hit.url);
  }

  if (best) {
    std::vector<std::string> absent;
    for (const auto& t : policy_topic_names())
      if (!best->topics.count(t)) absent.push_back(t);
    if (absent.empty())
      b.set("PD-02", Status::Passed, "medium", "The policy covers every topic art. 18.1 asks for.");
    else
      b.set("PD-02", Status::Failed, "medium", "The policy does not mention: " + join(absent) + ".");
    b.evidence("PD-02", best->url, best->excerpt);
  } else if (!s.policy_links.empty()) {
    b.set("PD-02", Status::Manual, "low",
          "The policy page was not read within the crawl limits (raise max_pages or depth).");
    for (const auto& [url, hit] : s.policy_links) b.evidence("PD-02", url, hit.excerpt);
  } else {
    b.set("PD-02", Status::Failed, "medium", "No policy was found, so none of its required content is published.");
  }

  if (!has_forms) {
    for (const char* id : {"PD-03", "PD-04", "PD-05", "PD-06", "PD-07", "PD-11", "PD-13"})
      b.set(id, Status::NotApplicable, "medium", "No form collecting personal data was found on the pages read.");
  } else {
    std::vector<const FormSeen*> no_consent, prechecked, implied, far_policy, insecure;
    bool any_checkbox = false;
    for (const auto& f : s.forms) {
      if (!f.consent && !f.implied) no_consent.push_back(&f);
      if (f.consent) any_checkbox = true;
      if (f.consent && f.prechecked) prechecked.push_back(&f);
      if (!f.consent && f.implied) implied.push_back(&f);
      if (!f.policy_near) far_policy.push_back(&f);
      if (!f.page_https || !f.action_https || !f.mixed.empty()) insecure.push_back(&f);
    }
    if (no_consent.empty()) {
      b.set("PD-03", Status::Passed, "high", "Every personal-data form asks for consent.");
      for (const auto& f : s.forms)
        b.evidence("PD-03", f.page, f.summary + " — " + (f.consent ? f.consent_text : f.implied_text));
    } else {
      b.set("PD-03", Status::Failed, "high",
            std::to_string(no_consent.size()) + " form(s) collect personal data with no consent checkbox or wording.");
      for (const auto* f : no_consent) b.evidence("PD-03", f->page, f->summary);
    }
    if (!any_checkbox) {
      b.set("PD-04", Status::NotApplicable, "high", "No consent checkbox to judge.");
    } else if (prechecked.empty()) {
      b.set("PD-04", Status::Passed, "high", "No consent checkbox is ticked in advance.");
    } else {
      b.set("PD-04", Status::Failed, "high", "A consent checkbox is ticked before the visitor acts.");
      for (const auto* f : prechecked) b.evidence("PD-04", f->page, f->summary + " — " + f->consent_text);
    }
    if (implied.empty()) {
      b.set("PD-05", Status::Passed, "medium", "No form relies on consent implied by pressing the button.");
    } else {
      b.set("PD-05", Status::Failed, "medium", "Forms rely on consent implied by submitting.");
      for (const auto* f : implied) b.evidence("PD-05", f->page, f->summary + " — «" + f->implied_text + "»");
    }
    std::vector<const Hit*> separate;
    std::vector<std::string> same_as_policy;
    for (const auto& [url, hit] : s.consent_doc_links) {
      if (s.policy_links.count(url))
        same_as_policy.push_back(url);
      else
        separate.push_back(&hit);
    }
    if (!separate.empty()) {
      b.set("PD-06", Status::Passed, "medium", "A separate consent document is linked.");
      for (const auto& [url, hit] : s.consent_doc_links)
        if (!s.policy_links.count(url)) b.evidence("PD-06", url, "«" + hit.excerpt + "» on " + hit.url);
    } else if (!same_as_policy.empty()) {
      b.set("PD-06", Status::Failed, "medium",
            "The consent link leads to the policy itself, not a separate consent text.");
      for (const auto& u : same_as_policy) b.evidence("PD-06", u, "consent and policy are one page");
    } else {
      b.set("PD-06", Status::Failed, "medium", "No separate consent document is linked from the site.");
      for (const auto& f : s.forms) b.evidence("PD-06", f.page, f.summary);
    }
    if (far_policy.empty()) {
      b.set("PD-07", Status::Passed, "high", "Every personal-data form links the policy or the consent text.");
    } else {
      b.set("PD-07", Status::Failed, "high", "Forms without a policy link inside or beside them.");
      for (const auto* f : far_policy) b.evidence("PD-07", f->page, f->summary);
    }
    // PD-11: where the forms send the data.
    std::vector<const FormSeen*> foreign_action, external_action;
    for (const auto& f : s.forms) {
      if (f.action_service && f.action_service->country == "foreign")
        foreign_action.push_back(&f);
      else if (!f.same_origin)
        external_action.push_back(&f);
    }
    if (!foreign_action.empty()) {
      b.set("PD-11", Status::Failed, "high", "Forms post personal data to a foreign service.");
      for (const auto* f : foreign_action)
        b.evidence("PD-11", f->page, f->summary + " (" + f->action_service->name + ")");
    } else {
      b.set("PD-11", Status::Manual, "low",
            external_action.empty()
                ? "Forms post to the site itself: where it is hosted decides (PD-12, the geo check)."
                : "Forms post to other hosts: geolocate them (the geo check).");
      for (const auto* f : external_action) b.evidence("PD-11", f->page, f->summary);
      if (external_action.empty()) b.evidence("PD-11", s.forms.front().page, s.forms.front().summary);
    }
    bool http_open = s.http_serves.value_or(false);
    if (insecure.empty() && !http_open) {
      b.set("PD-13", Status::Passed, "high",
            "Every personal-data form is served and posted over HTTPS without mixed content.");
    } else {
      b.set("PD-13", Status::Failed, "high",
            "Personal-data forms travel over plain HTTP, load insecure content, or the site answers over http:// "
            "without a redirect.");
      if (http_open)
        b.evidence("PD-13", s.http_probe.url,
                   "the site also answers over http:// without a redirect: " + s.http_probe.excerpt);
      for (const auto* f : insecure)
        b.evidence("PD-13", f->page,
                   f->summary + (!f->page_https     ? " — the page is http://"
                                 : !f->action_https ? " — posted to http://"
                                                    : " — mixed content: " + f->mixed));
    }
  }

  std::vector<const ServiceHit*> trackers, foreign_collect, foreign_passive;
  bool consent_manager = false;
  for (const auto& [name, hit] : s.services) {
    const Service& svc = *hit.service;
    if (svc.kind == "consent") consent_manager = true;
    if (svc.kind == "tracker") trackers.push_back(&hit);
    if (svc.country == "foreign" && (svc.kind == "tracker" || svc.kind == "collection"))
      foreign_collect.push_back(&hit);
    if (svc.country == "foreign" && svc.kind == "passive") foreign_passive.push_back(&hit);
  }
  if (!s.cookie_set && trackers.empty() && !consent_manager) {
    b.set("PD-08", Status::NotApplicable, "medium",
          "The site sets no cookies and loads no trackers on the pages read.");
  } else if (s.cookie_notice || consent_manager) {
    b.set("PD-08", Status::Passed, "medium",
          consent_manager ? "A consent manager is loaded." : "A cookie notice is shown.");
    if (s.cookie_notice) b.evidence("PD-08", *s.cookie_notice);
  } else {
    b.set("PD-08", Status::Failed, "medium",
          "Cookies or trackers are used but no cookie notice was found (a banner drawn by a third-party script is not "
          "seen).");
    if (s.cookie_set) b.evidence("PD-08", *s.cookie_set);
    for (const auto* t : trackers) b.evidence("PD-08", t->where.url, t->service->name + " on " + t->where.excerpt);
  }
  if (trackers.empty() && s.tracker_cookies.empty()) {
    b.set("PD-09", Status::Passed, "medium", "No tracker is loaded by the pages as served.");
  } else if (consent_manager && s.tracker_cookies.empty()) {
    b.set("PD-09", Status::Manual, "low",
          "Trackers are present with a consent manager; whether it holds them back needs a browser.");
    for (const auto* t : trackers) b.evidence("PD-09", t->where.url, t->service->name);
  } else {
    b.set("PD-09", Status::Failed, s.tracker_cookies.empty() ? "medium" : "high",
          "Trackers load with the page, before the visitor could consent.");
    for (const auto& c : s.tracker_cookies) b.evidence("PD-09", c);
    for (const auto* t : trackers) b.evidence("PD-09", t->where.url, t->service->name + " on " + t->where.excerpt);
  }
  if (!foreign_collect.empty()) {
    b.set("PD-10", Status::Failed, "high", "Foreign services collect visitors' data.");
    for (const auto* t : foreign_collect)
      b.evidence("PD-10", t->where.url, t->service->name + " on " + t->where.excerpt);
    for (const auto* t : foreign_passive) b.evidence("PD-10", t->where.url, t->service->name + " (passive)");
  } else if (!foreign_passive.empty()) {
    b.set("PD-10", Status::Failed, "medium", "Foreign fonts or CDNs receive every visitor's address.");
    b.item("PD-10").severity = Severity::High;
    for (const auto* t : foreign_passive)
      b.evidence("PD-10", t->where.url, t->service->name + " on " + t->where.excerpt);
  } else {
    b.set("PD-10", Status::Passed, "medium", "No known foreign data-collecting service was found.");
  }
  b.set("PD-12", Status::Manual, "low",
        "Where the site is hosted needs geolocation of its addresses (GET /api/audit/geo/{target}) and, behind a CDN, "
        "the hosting contract.");
  b.evidence("PD-12", landing, "");

  std::vector<const Identifier*> valid, invalid;
  for (const auto& id : s.ids) (id.valid ? valid : invalid).push_back(&id);
  if (!valid.empty()) {
    b.set("PD-14", Status::Passed, "high",
          "The operator's registration numbers are published and their check digits hold.");
  } else if (!invalid.empty()) {
    b.set("PD-14", Status::Failed, "high", "The published INN/OGRN numbers fail their check digits.");
  } else {
    b.set("PD-14", Status::Failed, "medium", "No INN or OGRN of the operator was found on the pages read.");
  }
  for (const auto* id : valid)
    b.evidence("PD-14", id->where.url, id->kind + " " + id->digits + " (valid): " + id->where.excerpt);
  for (const auto* id : invalid)
    b.evidence("PD-14", id->where.url,
               id->kind + " " + id->digits + " (check digit does not match): " + id->where.excerpt);
  if (s.operator_name) b.evidence("PD-14", *s.operator_name);
  if (s.email) b.evidence("PD-14", *s.email);

  b.set("PD-15", Status::Manual, "low",
        "Roskomnadzor's registry cannot be queried offline: look the INN up at pd.rkn.gov.ru.");
  for (const auto* id : valid) b.evidence("PD-15", id->where.url, id->kind + " " + id->digits);
  if (s.documents.empty()) {
    b.set("PD-16", Status::NotApplicable, "medium", "No public documents were linked from the pages read.");
  } else {
    b.set("PD-16", Status::Manual, "low",
          "Run the linked documents through the document analyzer (POST /api/analyze).");
    for (const auto& h : s.documents) b.evidence("PD-16", h);
  }

  // ------------------------------------------------------------ 8-FZ
  if (s.profile == Profile::Gov) {
    r.governmental = true;
    r.governmental_why = "profile=gov";
  } else if (s.profile == Profile::Auto && !s.gov_signals.empty()) {
    r.governmental = true;
    r.governmental_why = s.gov_signals.front();
  } else {
    r.governmental_why =
        s.profile == Profile::Commercial ? "profile=commercial" : "no sign of a state or municipal body";
  }
  auto link_item = [&](const std::string& id, std::optional<Hit> extra = std::nullopt) {
    auto it = s.gov_links.find(id);
    if (it == s.gov_links.end() && !extra) {
      b.set(id, Status::Failed, "medium", "No such section is linked from the pages read.");
      b.evidence(id, landing, "");
      return;
    }
    if (it != s.gov_links.end()) {
      auto st = s.statuses.find(it->second.url);
      if (st != s.statuses.end() && st->second >= 400 && !extra) {
        b.set(id, Status::Failed, "high",
              "The section's link leads to an error page (HTTP " + std::to_string(st->second) + ").");
      } else {
        b.set(id, Status::Passed, "medium", "The section is linked; its content is not judged.");
      }
      b.evidence(id, it->second);
    } else {
      b.set(id, Status::Passed, "medium", "Found.");
    }
    if (extra) b.evidence(id, *extra);
  };
  if (!r.governmental) {
    for (const auto& it : d.items)
      if (it.set == "8-FZ")
        b.set(it.id, Status::NotApplicable, "medium",
              "The site does not look like a state or municipal body's (" + r.governmental_why +
                  "); ?profile=gov applies the set.");
  } else {
    if (s.email && s.phone) {
      b.set("GOV-01", Status::Passed, "medium", "An e-mail address and a phone number are published.");
      b.evidence("GOV-01", *s.email);
      b.evidence("GOV-01", *s.phone);
      if (s.gov_links.count("GOV-01")) b.evidence("GOV-01", s.gov_links["GOV-01"]);
    } else {
      bool unread = s.gov_links.count("GOV-01") && !s.statuses.count(s.gov_links["GOV-01"].url);
      b.set("GOV-01", unread ? Status::Manual : Status::Failed, "medium",
            std::string(s.email ? "" : "No e-mail address") + (s.email || s.phone ? "" : " and ") +
                (s.phone ? "" : "no phone number") + " found" +
                (unread ? "; the contacts page was not read within the crawl limits." : "."));
      if (s.gov_links.count("GOV-01"))
        b.evidence("GOV-01", s.gov_links["GOV-01"]);
      else
        b.evidence("GOV-01", landing, "");
    }
    for (const char* id : {"GOV-02", "GOV-03", "GOV-04", "GOV-05", "GOV-08", "GOV-09", "GOV-12"}) link_item(id);
    link_item("GOV-07", s.gos_widget);
    link_item("GOV-11", s.opendata);
    // GOV-06: a news section with a recent date.
    if (!s.gov_links.count("GOV-06")) {
      b.set("GOV-06", Status::Failed, "medium", "No news section is linked.");
    } else if (s.newest_date && s.today - *s.newest_date <= kNewsFreshDays) {
      b.set("GOV-06", Status::Passed, "medium", "The newest date on the site is " + date_text(*s.newest_date) + ".");
    } else {
      b.set("GOV-06", Status::Failed, "medium",
            s.newest_date ? "The newest date on the site is " + date_text(*s.newest_date) + ", older than " +
                                std::to_string(kNewsFreshDays) + " days."
                          : "No dated news was found on the pages read.");
    }
    if (s.gov_links.count("GOV-06")) b.evidence("GOV-06", s.gov_links["GOV-06"]);
    if (s.newest_date) b.evidence("GOV-06", s.newest_date_at);
    if (s.vk && s.ok) {
      b.set("GOV-10", Status::Passed, "high", "VK and OK pages are linked.");
    } else {
      b.set("GOV-10", Status::Failed, "high",
            std::string("No link to the official ") +
                (s.vk   ? "OK"
                 : s.ok ? "VK"
                        : "VK and OK") +
                " page.");
    }
    if (s.vk) b.evidence("GOV-10", *s.vk);
    if (s.ok) b.evidence("GOV-10", *s.ok);
    std::vector<std::string> lacks;
    if (!s.search_form) lacks.push_back("site search");
    if (!s.site_map) lacks.push_back("a site map");
    b.set("GOV-13", lacks.empty() ? Status::Passed : Status::Failed, "medium",
          (lacks.empty() ? std::string("Site search and a site map are present") : "Missing: " + join(lacks)) +
              "; registration, payment and text layers of PDFs are not judged.");
    if (s.search_form) b.evidence("GOV-13", *s.search_form);
    if (s.site_map) b.evidence("GOV-13", *s.site_map);
    std::string a11y = "lang=\"" + s.landing_lang + "\", " + std::to_string(s.images_without_alt) + " of " +
                       std::to_string(s.images) + " images without alt, " + std::to_string(s.headings) + " headings";
    std::optional<Hit> version = s.bvi;
    if (!version && s.gov_links.count("GOV-14")) version = s.gov_links["GOV-14"];
    b.set("GOV-14", version ? Status::Passed : Status::Failed, "medium",
          (version ? std::string("A version for the visually impaired is offered")
                   : std::string("No version for the visually impaired")) +
              "; landing page: " + a11y + ".");
    if (version) b.evidence("GOV-14", *version);
    b.evidence("GOV-14", landing, a11y);
  }

  // ------------------------------------------------------------ technical regulator
  const auto& h = s.landing_headers;
  bool https = parts_of(landing).scheme == "https";
  auto hsts = net::first_header(h, "strict-transport-security");
  bool hsts_ok = hsts && text::ascii_lower(*hsts).find("max-age=0") == std::string::npos &&
                 text::ascii_lower(*hsts).find("max-age") != std::string::npos;
  if (!s.landing_seen) {
    b.set("SEC-01", Status::Manual, "low", "The landing page was not read.");
  } else if (!https) {
    b.set("SEC-01", Status::Failed, "high", "The site answers over plain HTTP without redirecting to HTTPS.");
    b.evidence("SEC-01", landing, header_line(h, "location"));
  } else if (s.http_serves.value_or(false)) {
    b.set("SEC-01", Status::Failed, "high", "http:// serves the site instead of redirecting to HTTPS.");
    b.evidence("SEC-01", s.http_probe);
  } else if (!hsts_ok) {
    b.set("SEC-01", Status::Failed, "high", "HTTPS without a valid Strict-Transport-Security header.");
    b.evidence("SEC-01", landing, hsts ? "Strict-Transport-Security: " + *hsts : "no Strict-Transport-Security header");
  } else {
    b.set("SEC-01", Status::Passed, "medium",
          std::string(s.redirected_to_https ? "http:// redirects to HTTPS and HSTS is set" : "HTTPS with HSTS") +
              "; protocol versions and ciphers are the TLS check's (GET /api/audit/tls).");
    b.evidence("SEC-01", landing, "Strict-Transport-Security: " + *hsts);
    if (s.http_serves) b.evidence("SEC-01", s.http_probe);
  }
  b.set("SEC-02", Status::Manual, "low",
        "GOST TLS needs a GOST-capable client; the certificate chain is in the TLS check.");
  b.evidence("SEC-02", landing, "");
  if (!s.versions.empty()) {
    b.set("SEC-03", Status::Failed, "high", "Software versions are disclosed; map them to CVE/BDU in the full audit.");
    for (const auto& v : s.versions) b.evidence("SEC-03", v);
  } else {
    b.set("SEC-03", Status::Passed, "medium", "No version in Server, X-Powered-By or similar headers.");
  }
  if (!s.admin_hits.empty()) {
    b.set("SEC-04", Status::Failed, "medium", "Admin panels or sensitive files answered 200.");
    for (const auto& a : s.admin_hits) b.evidence("SEC-04", a);
  } else {
    b.set("SEC-04", Status::Manual, "low",
          "None was reached through links or robots.txt; the full audit's exposure check probes the usual paths.");
  }
  if (!s.landing_seen) {
    b.set("SEC-05", Status::Manual, "low", "The landing page was not read.");
  } else {
    auto csp = net::first_header(h, "content-security-policy");
    auto xfo = net::first_header(h, "x-frame-options");
    auto xcto = net::first_header(h, "x-content-type-options");
    auto rp = net::first_header(h, "referrer-policy");
    std::vector<std::string> absent;
    if (!csp || csp->empty()) absent.push_back("Content-Security-Policy");
    if (!(csp && text::ascii_lower(*csp).find("frame-ancestors") != std::string::npos) && !xfo)
      absent.push_back("frame-ancestors or X-Frame-Options");
    if (!xcto || text::ascii_lower(*xcto).find("nosniff") == std::string::npos)
      absent.push_back("X-Content-Type-Options: nosniff");
    if (!rp) absent.push_back("Referrer-Policy");
    b.set("SEC-05", absent.empty() ? Status::Passed : Status::Failed, "high",
          absent.empty() ? "Every required security header is sent." : "Missing: " + join(absent) + ".");
    for (const char* name : {"content-security-policy", "x-frame-options", "x-content-type-options", "referrer-policy"})
      if (auto line = header_line(h, name); !line.empty()) b.evidence("SEC-05", landing, line);
    if (!absent.empty()) b.evidence("SEC-05", landing, "missing: " + join(absent));
  }
  bool foreign_gov = r.governmental && !s.foreign_scripts.empty();
  if (!s.scripts_without_sri.empty() || foreign_gov) {
    b.set("SEC-06", Status::Failed, "high",
          std::string(foreign_gov ? "A government site loads scripts from foreign hosts" : "") +
              (foreign_gov && !s.scripts_without_sri.empty() ? "; " : "") +
              (s.scripts_without_sri.empty() ? "" : "third-party scripts load without integrity (SRI)") + ".");
    if (foreign_gov)
      for (const auto& f : s.foreign_scripts) b.evidence("SEC-06", f);
    for (const auto& f : s.scripts_without_sri) b.evidence("SEC-06", f);
  } else {
    b.set("SEC-06", Status::Passed, "high",
          s.external_scripts == 0 ? "No third-party scripts." : "Every third-party script carries an integrity hash.");
  }

  // ------------------------------------------------------------ sets and scores
  for (const auto& set : d.sets) {
    SetResult sr;
    sr.spec = &set;
    for (const auto& it : d.items) {
      if (it.set != set.id) continue;
      ItemResult ir = b.item(it.id);
      if (!it.automated && ir.status != Status::NotApplicable) ir.status = Status::Manual;  // never scored
      switch (ir.status) {
        case Status::Passed: ++sr.passed; break;
        case Status::Failed: ++sr.failed; break;
        case Status::Manual: ++sr.manual; break;
        case Status::NotApplicable: ++sr.not_applicable; break;
      }
      sr.items.push_back(std::move(ir));
    }
    if (sr.passed + sr.failed > 0)
      sr.score = static_cast<int>(std::lround(100.0 * sr.passed / (sr.passed + sr.failed)));
    r.sets.push_back(std::move(sr));
  }
  return r;
}

std::vector<Finding> findings_of(const Result& result) {
  std::vector<Finding> out;
  for (const auto& set : result.sets) {
    for (const auto& it : set.items) {
      if (it.status != Status::Failed || it.severity < Severity::Medium) continue;
      Finding f;
      f.check = "compliance-" + text::ascii_lower(it.spec->id);
      f.title = it.spec->id + ": " + it.spec->title_en;
      f.severity = it.severity;
      f.confidence = it.confidence == "high" ? "certain" : it.confidence == "medium" ? "firm" : "tentative";
      const std::string& id = it.spec->id;
      if (id == "PD-13" || id == "SEC-01") {
        f.owasp = "A02:2021";
        f.cwe = 319;
      } else if (id == "SEC-03") {
        f.owasp = "A05:2021";
        f.cwe = 200;
      } else if (id == "SEC-04") {
        f.owasp = "A05:2021";
        f.cwe = 538;
      } else if (id == "SEC-05") {
        f.owasp = "A05:2021";
        f.cwe = 693;
      } else if (id == "SEC-06") {
        f.owasp = "A08:2021";
        f.cwe = 829;
      } else if (id == "PD-10" || id == "PD-11" || id == "PD-09") {
        f.cwe = 359;
      }
      f.description = it.note;
      f.recommendation = it.spec->recommendation_en;
      f.references = {it.spec->reference};
      for (const auto& e : it.evidence) f.evidence.push_back(Evidence{e.url, e.excerpt, {}, std::nullopt});
      out.push_back(std::move(f));
    }
  }
  return out;
}

boost::json::object to_json(const Result& result) {
  boost::json::array sets;
  for (const auto& set : result.sets) {
    boost::json::array items;
    for (const auto& it : set.items) {
      boost::json::array ev;
      for (const auto& e : it.evidence) ev.push_back(boost::json::object{{"url", e.url}, {"excerpt", e.excerpt}});
      items.push_back(boost::json::object{
          {"id", it.spec->id},
          {"title", boost::json::object{{"ru", it.spec->title_ru}, {"en", it.spec->title_en}}},
          {"status", to_string(it.status)},
          {"automated", it.spec->automated},
          {"severity", to_string(it.severity)},
          {"confidence", it.confidence},
          {"legal_reference", it.spec->reference},
          {"evidence", std::move(ev)},
          {"note", it.note},
          {"recommendation",
           boost::json::object{{"ru", it.spec->recommendation_ru}, {"en", it.spec->recommendation_en}}},
      });
    }
    boost::json::object o{
        {"id", set.spec->id},
        {"title", boost::json::object{{"ru", set.spec->title_ru}, {"en", set.spec->title_en}}},
        {"passed", set.passed},
        {"failed", set.failed},
        {"manual", set.manual},
        {"not_applicable", set.not_applicable},
        {"items", std::move(items)},
    };
    if (set.score)
      o["score"] = *set.score;
    else
      o["score"] = nullptr;
    sets.push_back(std::move(o));
  }
  return boost::json::object{
      {"profile", to_string(result.profile)},
      {"governmental", boost::json::object{{"applies", result.governmental}, {"why", result.governmental_why}}},
      {"sets", std::move(sets)},
      {"pages_read", result.pages_read}};
}

void probe_http_form(Engine& engine, const std::string& target, const net::EgressPolicy& policy,
                     const net::ScanOptions& scan) {
  if (parts_of(target).scheme != "https") return;
  net::ScanSession session(policy, scan);
  net::FetchRequest req;
  req.url = headers::http_start(target);
  engine.observe_http_probe(session.fetch(std::move(req)));
}

CheckReport check(const std::string& target, const net::EgressPolicy& policy, crawl::CrawlOptions options,
                  const Data& data, Profile profile) {
  auto start = std::chrono::steady_clock::now();
  Engine engine(data, target, profile);
  options.on_page = [&engine](const crawl::PageSeen& p) { engine.observe(p); };
  crawl::CrawlResult crawled = crawl::crawl(target, policy, options);
  probe_http_form(engine, target, policy, options.scan);
  CheckReport report;
  report.result = engine.finish();
  report.documents = documents::documents_of(crawled, limits::kAuditDocuments);
  if (report.result.pages_read == 0) {
    std::string why = !crawled.pages.empty() && !crawled.pages.front().error.empty() ? crawled.pages.front().error
                                                                                     : "the site answered no page";
    report.result.error = "the target cannot be audited: " + why;
    report.result.sets.clear();
  }
  report.duration_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace dozor::audit::compliance
