// Form rules: passwords and state-changing posts sent over plain HTTP, and forms that change
// state without an anti-CSRF token.
#include <algorithm>

#include "engines/audit/passive/rules.hpp"

namespace dozor::audit::passive {
namespace {

const Rule kPasswordOverHttp{
    "form-password-over-http",
    "Password form submitted over plain HTTP",
    Severity::High,
    "certain",
    "A02:2021",
    319,
    "A form with a password field is submitted to an http:// URL (or sits on an HTTP page), so credentials cross the "
    "network in clear text.",
    "Serve the page and submit the form over HTTPS only; redirect HTTP to HTTPS and send HSTS."};

const Rule kPostOverHttp{
    "form-posted-over-http",
    "Form submitted over plain HTTP",
    Severity::Medium,
    "certain",
    "A02:2021",
    319,
    "A form posts its data to an http:// URL — from an HTTPS page this is an HTTPS-to-HTTP transition the browser "
    "warns about — so what users type (names, e-mails, messages) crosses the network in clear text.",
    "Point form actions at https:// URLs (or relative ones on an HTTPS site) and serve the site over HTTPS only."};

const Rule kNoCsrfToken{
    "csrf-token-missing",
    "Form without an anti-CSRF token",
    Severity::Medium,
    "tentative",
    "A01:2021",
    352,
    "A form that changes state (POST) or logs in carries no recognisable anti-CSRF token, so another site may submit "
    "it in the name of a signed-in user. The check knows common token names (csrf, _token, authenticity_token, "
    "csrfmiddlewaretoken, Bitrix sessid …); a token under another name, or a defence by SameSite cookies or Origin "
    "checks, is not visible from outside.",
    "Add a per-session or per-request unpredictable token to every state-changing form and verify it on the server "
    "(most frameworks do this when enabled); set SameSite on session cookies and check Origin as well."};

bool is_http(const std::string& url) { return lower(url.substr(0, 7)) == "http://"; }

bool has_password(const crawl::Form& f) {
  return std::any_of(f.fields.begin(), f.fields.end(), [](const crawl::FormField& x) { return x.type == "password"; });
}

bool is_token_name(const Data& data, const std::string& raw) {
  auto n = lower(raw);
  if (n.empty()) return false;
  if (std::find(data.csrf_field_names.begin(), data.csrf_field_names.end(), n) != data.csrf_field_names.end())
    return true;
  return std::any_of(data.csrf_field_substrings.begin(), data.csrf_field_substrings.end(),
                     [&](const std::string& s) { return n.find(s) != std::string::npos; });
}

std::string describe(const crawl::Form& f) {
  std::string out = "<form method=\"" + f.method + "\" action=\"" + f.action + "\">";
  std::size_t shown = 0;
  for (const auto& x : f.fields) {
    if (x.name.empty() || ++shown > 8) continue;
    out += " <" + x.tag + " name=\"" + x.name + "\" type=\"" + x.type + "\">";
  }
  return out;
}

}  // namespace

void form_rules(const Data& data, const Page& page, Collector& out) {
  if (!page.facts) return;
  bool page_token = std::any_of(page.facts->meta.begin(), page.facts->meta.end(), [&](const crawl::Meta& m) {
    return std::find(data.csrf_meta_names.begin(), data.csrf_meta_names.end(), m.name) != data.csrf_meta_names.end();
  });
  for (const auto& f : page.facts->forms) {
    if (f.method == "DIALOG") continue;  // closes a dialog, submits nothing
    bool password = has_password(f);
    bool post = f.method == "POST";
    std::string key = f.method + " " + f.action;
    std::string excerpt = describe(f);
    if (password && (is_http(f.action) || !page.https))
      out.add(kPasswordOverHttp, key,
              {page.url, excerpt,
               page.https ? "HTTPS page posting a password to HTTP" : "password form on an HTTP page", std::nullopt});
    else if (is_http(f.action) && (post || page.https))
      out.add(
          kPostOverHttp, key,
          {page.url, excerpt, page.https ? "HTTPS page submitting to HTTP" : "form posted over HTTP", std::nullopt});
    if ((post || password) && !page_token &&
        std::none_of(f.fields.begin(), f.fields.end(),
                     [&](const crawl::FormField& x) { return is_token_name(data, x.name); }))
      out.add(kNoCsrfToken, key,
              {page.url, excerpt, password ? "login form without a token" : "POST form without a token", std::nullopt});
  }
}

}  // namespace dozor::audit::passive
