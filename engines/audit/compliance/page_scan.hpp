#pragma once
// What the compliance rules need from a page beyond crawl::PageFacts, read with gumbo: each
// form with the label of every field (the consent checkbox is recognised by its label) and the
// text and links inside and right beside it (implied-consent wording, the policy link "near the
// form"), and basic accessibility signals (html lang, img alt, headings).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dozor::audit::compliance {

struct FieldView {
  std::string tag;   // input | select | textarea | button
  std::string type;  // lower case; "text" for inputs without one
  std::string name;
  std::string id;
  std::string placeholder;
  std::string label;  // <label for>, the wrapping <label>, aria-label, or a checkbox's parent text
  bool checked = false;
};

struct LinkView {
  std::string url;  // resolved, empty when not http(s)
  std::string text;
};

struct FormView {
  std::string action;  // resolved; the page when absent
  std::string method;  // upper case, GET by default
  bool role_search = false;
  std::vector<FieldView> fields;
  std::string text;             // the form's own visible text, bounded
  std::string context;          // the form's text and its neighbours' (the element before and after), bounded
  std::vector<LinkView> links;  // inside the form and in those neighbours
};

struct PageScan {
  std::string lang;  // <html lang>
  std::size_t images = 0;
  std::size_t images_without_alt = 0;
  std::size_t headings = 0;
  std::vector<FormView> forms;
};

inline constexpr std::size_t kFormsPerPage = 100;
inline constexpr std::size_t kFormTextChars = 4000;
inline constexpr std::size_t kNeighbourTextChars = 1000;

// `html` is UTF-8; `base` is the page URL or its <base href>, for resolving actions and links.
PageScan scan_page(std::string_view html, std::string_view base);

}  // namespace dozor::audit::compliance
