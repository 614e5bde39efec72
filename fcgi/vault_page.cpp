#include "fcgi/vault_page.hpp"

#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace dozor::http {

std::string script_safe_json(const boost::json::value& v) {
  std::string json = boost::json::serialize(v);
  std::string out;
  out.reserve(json.size());
  for (char c : json) {
    if (c == '<')
      out += "\\u003c";
    else if (c == '>')
      out += "\\u003e";
    else if (c == '&')
      out += "\\u0026";
    else
      out += c;
  }
  return out;
}

Response vault_page(std::string_view script, std::string_view title_key, const boost::json::value& data,
                    std::string_view body_class) {
  Response r;
  r.content_type = "text/html; charset=utf-8";
  std::string classes = "page-app page-vault";
  if (!body_class.empty()) classes.append(" ").append(body_class);
  r.body.append(
      "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta name=\"color-scheme\" content=\"light dark\">\n<title data-i18n=\"");
  r.body.append(title_key);
  r.body.append(
      "\">Dozor</title>\n<link rel=\"icon\" href=\"/favicon.svg\" type=\"image/svg+xml\">\n"
      "<link rel=\"stylesheet\" href=\"/css/dozor.css\">\n<link rel=\"stylesheet\" href=\"/css/vault.css\">\n"
      "<script type=\"application/json\" id=\"vault-data\">");
  r.body.append(script_safe_json(data));
  r.body.append("</script>\n<script type=\"module\" src=\"/js/");
  r.body.append(script);
  r.body.append("\"></script>\n</head>\n<body class=\"");
  r.body.append(classes);
  r.body.append(
      "\">\n<a class=\"skip-link\" href=\"#main\" data-i18n=\"skip\"></a>\n"
      "<header class=\"topbar\" id=\"topbar\"></header>\n"
      "<main id=\"main\" class=\"container\" tabindex=\"-1\"></main>\n</body>\n</html>\n");
  return r;
}

bool is_vault_path(std::string_view raw_path) { return raw_path == "/vault" || raw_path.starts_with("/vault/"); }

bool is_page_request(const Request& req) {
  if (req.method != "GET" && req.method != "HEAD") return false;
  auto dest = req.header("sec-fetch-dest");
  auto mode = req.header("sec-fetch-mode");
  if (dest || mode) return (dest && *dest == "document") || (mode && *mode == "navigate");
  auto accept = req.header("accept");
  return accept && accept->find("text/html") != std::string::npos &&
         accept->find("application/json") == std::string::npos;
}

Response vault_error_page(const Request& req, Response failed) {
  if (failed.status == 401) {
    Response r;
    r.status = 303;
    r.content_type = "text/plain";
    r.headers.emplace_back("Location", "/vault/login");
    return r;
  }
  boost::json::object error{{"status", failed.status}, {"path", std::string(req.raw_path)}};
  // The server's English reason goes along for the record (the page shows its own words).
  boost::json::value parsed;
  boost::system::error_code ec;
  if (failed.content_type == "application/json") parsed = boost::json::parse(failed.body, ec);
  if (!ec && parsed.is_object())
    if (const auto* detail = parsed.as_object().if_contains("detail"); detail && detail->is_string())
      error["detail"] = *detail;
  Response r = vault_page("vault-error.js", "vaultError.title", boost::json::object{{"error", std::move(error)}},
                          "page-vault-error");
  r.status = failed.status;
  for (auto& h : failed.headers)
    if (h.first != "WWW-Authenticate") r.headers.push_back(std::move(h));
  return r;
}

}  // namespace dozor::http
