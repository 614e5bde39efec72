#include "engines/notify/send.hpp"

#include <curl/curl.h>
#include <sodium.h>

#include <algorithm>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <cstring>
#include <ctime>
#include <memory>
#include <vector>

#include "engines/net/egress_socket.hpp"
#include "engines/text/utf8.hpp"

namespace dozor::notify {
namespace {

struct CurlDeleter {
  void operator()(CURL* c) const { curl_easy_cleanup(c); }
};
struct SlistDeleter {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};
using Curl = std::unique_ptr<CURL, CurlDeleter>;
using Slist = std::unique_ptr<curl_slist, SlistDeleter>;

std::string param(const boost::json::object& p, const char* key) {
  auto* v = p.if_contains(key);
  return v && v->is_string() ? std::string(v->as_string()) : std::string();
}

// A text safe to store and show: valid UTF-8, bounded, without the secrets it might quote.
std::string scrub(std::string text, const std::vector<std::string>& secrets) {
  for (const auto& s : secrets) {
    if (s.empty()) continue;
    for (auto pos = text.find(s); pos != std::string::npos; pos = text.find(s, pos))
      text.replace(pos, s.size(), "****");
  }
  return text::utf8_prefix(text::to_valid_utf8(text), 500);
}

std::size_t collect(char* data, std::size_t size, std::size_t n, void* user) {
  auto* out = static_cast<std::string*>(user);
  if (out->size() < std::size_t{64} * 1024) out->append(data, size * n);
  return size * n;
}

void common_options(CURL* c, const SendContext& ctx) {
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_TIMEOUT, static_cast<long>(ctx.timeout.count()));
  curl_easy_setopt(c, CURLOPT_PROXY, "");  // never an environment proxy; a channel sets its own
}

std::string transport_error(CURLcode rc, const net::EgressGate& gate) {
  if (!gate.refusal.empty() || rc == CURLE_COULDNT_RESOLVE_HOST || rc == CURLE_COULDNT_RESOLVE_PROXY)
    return "cannot connect: the host has no address the egress policy allows";
  return curl_easy_strerror(rc);
}

SendResult send_telegram(const boost::json::object& p, const Message& m, const SendContext& ctx) {
  std::string token = param(p, "token"), chat = param(p, "chat_id"), proxy = param(p, "proxy");
  SendResult r;
  Curl c(curl_easy_init());
  if (!c) return {false, "cannot initialise libcurl", 0};
  std::string url = ctx.telegram_api_base + "/bot" + token + "/sendMessage";
  std::string body = boost::json::serialize(boost::json::object{
      {"chat_id", chat}, {"text", m.html}, {"parse_mode", "HTML"}, {"disable_web_page_preview", true}});
  Slist headers(curl_slist_append(nullptr, "Content-Type: application/json"));
  std::string answer;
  net::EgressGate gate{ctx.egress, {}};
  common_options(c.get(), ctx);
  curl_easy_setopt(c.get(), CURLOPT_URL, url.c_str());
  curl_easy_setopt(c.get(), CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c.get(), CURLOPT_POSTFIELDS, body.c_str());
  curl_easy_setopt(c.get(), CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(c.get(), CURLOPT_WRITEFUNCTION, collect);
  curl_easy_setopt(c.get(), CURLOPT_WRITEDATA, &answer);
  if (!proxy.empty()) {
    // The API base is the operator's; a proxy is the user's choice, so its address is judged.
    curl_easy_setopt(c.get(), CURLOPT_PROXY, proxy.c_str());
    net::attach_egress_gate(c.get(), &gate);
  }
  CURLcode rc = curl_easy_perform(c.get());
  if (rc != CURLE_OK) return {false, scrub(transport_error(rc, gate), {token}), 0};
  long status = 0;
  curl_easy_getinfo(c.get(), CURLINFO_RESPONSE_CODE, &status);
  boost::system::error_code ec;
  auto v = boost::json::parse(answer, ec);
  bool ok = !ec && v.is_object() && v.as_object().if_contains("ok") && v.as_object().at("ok") == true;
  if (status == 200 && ok) return {true, {}, 0};
  r.error = "Telegram answered HTTP " + std::to_string(status);
  if (!ec && v.is_object()) {
    const auto& o = v.as_object();
    if (auto* d = o.if_contains("description"); d && d->is_string()) r.error += ": " + std::string(d->as_string());
    if (auto* params = o.if_contains("parameters"); params && params->is_object())
      if (auto* ra = params->as_object().if_contains("retry_after"); ra && ra->is_int64())
        r.retry_after_s = ra->as_int64();
  }
  r.error = scrub(r.error, {token});
  return r;
}

std::string base64_lines(std::string_view data) {
  std::string out(sodium_base64_encoded_len(data.size(), sodium_base64_VARIANT_ORIGINAL), '\0');
  sodium_bin2base64(out.data(), out.size(), reinterpret_cast<const unsigned char*>(data.data()), data.size(),
                    sodium_base64_VARIANT_ORIGINAL);
  out.resize(std::strlen(out.c_str()));
  std::string wrapped;
  for (std::size_t i = 0; i < out.size(); i += 76) wrapped += out.substr(i, 76) + "\r\n";
  return wrapped;
}

// RFC 2047 encoded-word: the subject may be any UTF-8.
std::string encoded_word(std::string_view s) {
  std::string b = base64_lines(s);
  std::string flat;
  for (char ch : b)
    if (ch != '\r' && ch != '\n') flat += ch;
  return "=?UTF-8?B?" + flat + "?=";
}

struct Upload {
  std::string data;
  std::size_t pos = 0;
};

std::size_t feed(char* buf, std::size_t size, std::size_t n, void* user) {
  auto* u = static_cast<Upload*>(user);
  std::size_t len = std::min(size * n, u->data.size() - u->pos);
  std::copy_n(u->data.data() + u->pos, len, buf);
  u->pos += len;
  return len;
}

std::vector<std::string> addresses(const boost::json::object& p) {
  std::vector<std::string> out;
  if (auto* v = p.if_contains("to_addrs"); v && v->is_array())
    for (const auto& a : v->as_array())
      if (a.is_string()) out.emplace_back(a.as_string());
  return out;
}

SendResult send_email(const boost::json::object& p, const Message& m, const SendContext& ctx) {
  std::string host = param(p, "host"), user = param(p, "username"), password = param(p, "password");
  std::string from = param(p, "from_addr");
  if (from.empty()) from = user;
  auto to = addresses(p);
  if (to.empty()) return {false, "the channel has no recipients (to_addrs)", 0};
  if (from.empty()) return {false, "the channel has no sender (from_addr)", 0};
  long port = 587;
  if (auto* v = p.if_contains("port"); v && v->is_int64()) port = static_cast<long>(v->as_int64());
  bool use_tls = true;
  if (auto* v = p.if_contains("use_tls"); v && v->is_bool()) use_tls = v->as_bool();
  bool implicit_tls = use_tls && port == 465;

  Curl c(curl_easy_init());
  if (!c) return {false, "cannot initialise libcurl", 0};
  std::string url = std::string(implicit_tls ? "smtps://" : "smtp://") + host + ":" + std::to_string(port);
  Upload upload{build_email(from, to, m, std::time(nullptr)), 0};
  Slist rcpt;
  for (const auto& a : to) rcpt.reset(curl_slist_append(rcpt.release(), ("<" + a + ">").c_str()));
  std::string mail_from = "<" + from + ">";
  net::EgressGate gate{ctx.egress, {}};
  common_options(c.get(), ctx);
  curl_easy_setopt(c.get(), CURLOPT_URL, url.c_str());
  curl_easy_setopt(c.get(), CURLOPT_PROTOCOLS_STR, "smtp,smtps");
  curl_easy_setopt(c.get(), CURLOPT_USE_SSL,
                   use_tls && !implicit_tls ? static_cast<long>(CURLUSESSL_ALL) : static_cast<long>(CURLUSESSL_NONE));
  if (!user.empty()) {
    curl_easy_setopt(c.get(), CURLOPT_USERNAME, user.c_str());
    curl_easy_setopt(c.get(), CURLOPT_PASSWORD, password.c_str());
  }
  curl_easy_setopt(c.get(), CURLOPT_MAIL_FROM, mail_from.c_str());
  curl_easy_setopt(c.get(), CURLOPT_MAIL_RCPT, rcpt.get());
  curl_easy_setopt(c.get(), CURLOPT_READFUNCTION, feed);
  curl_easy_setopt(c.get(), CURLOPT_READDATA, &upload);
  curl_easy_setopt(c.get(), CURLOPT_UPLOAD, 1L);
  net::attach_egress_gate(c.get(), &gate);
  CURLcode rc = curl_easy_perform(c.get());
  if (rc != CURLE_OK) {
    long code = 0;
    curl_easy_getinfo(c.get(), CURLINFO_RESPONSE_CODE, &code);
    std::string why = transport_error(rc, gate);
    if (code) why += " (SMTP " + std::to_string(code) + ")";
    return {false, scrub(why, {password}), 0};
  }
  return {true, {}, 0};
}

}  // namespace

std::string build_email(const std::string& from, const std::vector<std::string>& to, const Message& m,
                        std::time_t now) {
  std::tm tm{};
  gmtime_r(&now, &tm);
  char date[64];
  std::strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S +0000", &tm);
  unsigned char rnd[12];
  randombytes_buf(rnd, sizeof rnd);
  char hex[25];
  sodium_bin2hex(hex, sizeof hex, rnd, sizeof rnd);
  auto at = from.find('@');
  std::string domain = at == std::string::npos ? "dozor.invalid" : from.substr(at + 1);
  std::string boundary = std::string("dozor-") + hex;
  std::string to_line;
  for (const auto& a : to) to_line += (to_line.empty() ? "" : ", ") + a;
  std::string msg;
  msg += "Date: " + std::string(date) + "\r\n";
  msg += "From: " + from + "\r\n";
  msg += "To: " + to_line + "\r\n";
  msg += "Message-ID: <" + std::string(hex) + "@" + domain + ">\r\n";
  msg += "Subject: " + encoded_word(m.subject) + "\r\n";
  msg += "MIME-Version: 1.0\r\n";
  msg += "Content-Type: multipart/alternative; boundary=\"" + boundary + "\"\r\n\r\n";
  msg += "--" + boundary + "\r\nContent-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: base64\r\n\r\n";
  msg += base64_lines(m.text);
  std::string html =
      "<!DOCTYPE html><html><body><pre style=\"font-family:sans-serif\">" + m.html + "</pre></body></html>";
  msg += "--" + boundary + "\r\nContent-Type: text/html; charset=UTF-8\r\nContent-Transfer-Encoding: base64\r\n\r\n";
  msg += base64_lines(html);
  msg += "--" + boundary + "--\r\n";
  return msg;
}

SendResult send(const std::string& type, const boost::json::object& params, const Message& m, const SendContext& ctx) {
  if (type == "messenger") return send_telegram(params, m, ctx);
  if (type == "email") return send_email(params, m, ctx);
  return {false, "unknown channel type '" + text::utf8_prefix(type, 32) + "'", 0};
}

}  // namespace dozor::notify
