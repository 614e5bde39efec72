#pragma once
// What a page says about the site, read with gumbo (an HTML5 parser, never a regex): links,
// forms with every field, scripts, media and documents, meta tags (http-equiv included), and
// the visible text that e-mail and phone extraction run over. Shared by the crawler and the
// audit checks (headers grade: meta http-equiv and scripts for SRI).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dozor::crawl {

struct Link {
  std::string url;  // resolved against the page (or its <base href>), fragment removed
  std::string text;
  std::string rel;
  std::string target;
};

struct FormField {
  std::string tag;  // input | select | textarea | button
  std::string name;
  std::string type;  // input type (lower case; "text" when absent), "select" / "textarea" / button type
  std::string placeholder;
  std::string value;
  bool required = false;
  bool checked = false;
  std::string autocomplete = {};  // the attribute, trimmed and lower case; empty when absent
};

struct Form {
  std::string action;  // resolved; the page itself when absent
  std::string method;  // upper case; GET when absent or unknown
  std::string enctype;
  std::string autocomplete = {};  // the form's own attribute, trimmed and lower case
  std::vector<FormField> fields;
};

struct Script {
  std::string raw_src;  // the attribute as written (the SRI test classifies it as written)
  std::string src;      // resolved, empty for inline scripts
  std::string integrity;
  std::string crossorigin;
  std::string type;
  std::string inline_text;  // at most kInlineScriptBytes
};

// <link rel=stylesheet>: the passive rules judge its scheme (mixed content) and integrity (SRI).
struct Stylesheet {
  std::string raw_href;
  std::string href;  // resolved
  std::string integrity;
};

struct Media {
  std::string kind;  // img | video | audio | source | track | iframe | embed | object | icon | document
  std::string url;
};

struct Meta {
  std::string name;  // lower case: name=, property= or http-equiv= (the latter in http_equiv)
  std::string content;
};

struct PageFacts {
  std::string title;
  std::optional<std::string> base_href;
  std::vector<Link> links;
  std::vector<Form> forms;
  std::vector<Script> scripts;
  std::vector<Media> media;
  std::vector<Stylesheet> stylesheets;
  std::vector<Meta> meta;
  std::vector<Meta> http_equiv;       // <meta http-equiv=… content=…>, names in lower case
  std::vector<std::string> mailto;    // addresses of mailto: links
  std::vector<std::string> tel;       // numbers of tel: links, as written
  std::string text;                   // visible text (scripts and styles left out), at most kTextBytes
  std::vector<std::string> comments;  // HTML comments, each at most kCommentBytes
  std::size_t elements = 0;
};

inline constexpr std::size_t kInlineScriptBytes = std::size_t{64} * 1024;
inline constexpr std::size_t kTextBytes = std::size_t{512} * 1024;
inline constexpr std::size_t kCommentBytes = 1024;
inline constexpr std::size_t kItemsPerPage = 5000;  // links, fields, media … of one kind
inline constexpr unsigned kMaxTreeDepth = 600;      // the walk's own bound (the prefix keeps gumbo below it)

// Document extensions counted as documents when linked (<a href="x.pdf">).
bool is_document_url(std::string_view url);

// `html` must be UTF-8 (engines/crawl/charset.hpp converts first).
PageFacts extract_html(std::string_view html, std::string_view page_url);

// Resolves `ref` against `base` to an absolute http(s) URL without a fragment; nullopt for other
// schemes (javascript:, mailto:, data: …) and for references that do not parse.
std::optional<std::string> resolve_http(std::string_view base, std::string_view ref);

}  // namespace dozor::crawl
