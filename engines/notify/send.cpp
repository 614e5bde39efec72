#include "engines/notify/send.hpp"

#include <curl/curl.h>
#include <sodium.h>

#include <algorithm>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <cstring>
#include <ctime>
#include <memory>
#include <stdexcept>
#include <vector>

#include "engines/net/egress_socket.hpp"
#include "engines/notify/params.hpp"
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

std::string transport_error(CURLcode rc, const net::EgressGate& gate) {
  if (!gate.refusal.empty() || rc == CURLE_COULDNT_RESOLVE_HOST || rc == CURLE_COULDNT_RESOLVE_PROXY)
    return "cannot connect: the host has no address the egress policy allows";
  return curl_easy_strerror(rc);
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

// One message to one channel, set up as a libcurl easy handle that either send() performs or
// send_all() drives with others; everything the transfer reads lives here until it ends.
struct Transfer {
  Curl easy;
  bool started = false;  // false: `result` already says why nothing is sent
  bool done = false;
  bool telegram = false;
  long timeout_ms = 0;
  std::string url, body, answer, mail_from;
  Slist headers, rcpt;
  Upload upload;
  net::EgressGate gate;
  std::vector<std::string> secrets;  // scrubbed from error texts
  SendResult result;
};

SendResult refused(std::string why) { return {false, std::move(why), 0, false, {}, false}; }

void common_options(Transfer& t, const SendContext& ctx) {
  CURL* c = t.easy.get();
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, t.timeout_ms);
  curl_easy_setopt(c, CURLOPT_PROXY, "");  // never an environment proxy; a channel sets its own
  curl_easy_setopt(c, CURLOPT_PRIVATE, &t);
  t.gate = net::EgressGate{ctx.egress, {}};
}

void prepare_telegram(Transfer& t, const boost::json::object& p, const Message& m, const SendContext& ctx) {
  std::string token = param(p, "token"), chat = param(p, "chat_id"), proxy = param(p, "proxy");
  t.telegram = true;
  t.secrets = {token};
  if (token.empty() || chat.empty()) {
    t.result = refused("the channel is not configured: it needs a token and a chat_id");
    return;
  }
  if (!is_telegram_token_text(token)) {
    t.result = refused("the channel's token holds characters a Telegram token never has; save the channel again");
    return;
  }
  if (!proxy.empty() && proxy_problem(proxy)) {
    t.result = refused("the channel's proxy is not a valid proxy URL; save the channel again");
    return;
  }
  t.url = ctx.telegram_api_base + "/bot" + token + "/sendMessage";
  t.body = boost::json::serialize(boost::json::object{
      {"chat_id", chat}, {"text", m.html}, {"parse_mode", "HTML"}, {"disable_web_page_preview", true}});
  t.headers.reset(curl_slist_append(nullptr, "Content-Type: application/json"));
  CURL* c = t.easy.get();
  common_options(t, ctx);
  curl_easy_setopt(c, CURLOPT_URL, t.url.c_str());
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c, CURLOPT_POSTFIELDS, t.body.c_str());
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, t.headers.get());
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, collect);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &t.answer);
  if (!proxy.empty()) {
    // The API base is the operator's; a proxy is the user's choice, so its address is judged.
    curl_easy_setopt(c, CURLOPT_PROXY, proxy.c_str());
    if (ctx.egress) net::attach_egress_gate(c, &t.gate);
  }
  t.started = true;
}

SendResult finish_telegram(Transfer& t) {
  long status = 0;
  curl_easy_getinfo(t.easy.get(), CURLINFO_RESPONSE_CODE, &status);
  boost::system::error_code ec;
  auto v = boost::json::parse(t.answer, ec);
  bool ok = !ec && v.is_object() && v.as_object().if_contains("ok") && v.as_object().at("ok") == true;
  if (status == 200 && ok) return {true, {}, 0, false, {}, false};
  SendResult r;
  r.error = "Telegram answered HTTP " + std::to_string(status);
  if (!ec && v.is_object()) {
    const auto& o = v.as_object();
    if (auto* d = o.if_contains("description"); d && d->is_string()) r.error += ": " + std::string(d->as_string());
    if (auto* params = o.if_contains("parameters"); params && params->is_object())
      if (auto* ra = params->as_object().if_contains("retry_after"); ra && ra->is_int64())
        r.retry_after_s = ra->as_int64();
  }
  r.error = scrub(r.error, t.secrets);
  return r;
}

void prepare_email(Transfer& t, const boost::json::object& p, const Message& m, const SendContext& ctx) {
  std::string host = param(p, "host"), user = param(p, "username"), password = param(p, "password");
  t.secrets = {password};
  auto sender = email_sender(p, ctx);
  std::string from = sender.address;
  t.result.sender = from;
  t.result.default_sender = sender.is_default;
  auto to = addresses(p);
  if (host.empty()) {
    t.result.error = "the channel is not configured: it needs a host";
    return;
  }
  if (smtp_host_problem(host)) {
    t.result.error = "the channel's host is not a DNS name or an IP address; save the channel again";
    return;
  }
  if (to.empty()) {
    t.result.error = "the channel has no recipients (to_addrs)";
    return;
  }
  if (from.empty()) {
    t.result.error = "the channel has no sender: set from_addr (the operator may also set notify.smtp_from)";
    return;
  }
  long port = 587;
  if (auto* v = p.if_contains("port"); v && v->is_int64()) port = static_cast<long>(v->as_int64());
  bool use_tls = true;
  if (auto* v = p.if_contains("use_tls"); v && v->is_bool()) use_tls = v->as_bool();
  bool implicit_tls = use_tls && port == 465;
  try {
    t.upload = Upload{build_email(from, to, m, std::time(nullptr)), 0};
    t.mail_from = smtp_path(from);
    for (const auto& a : to) t.rcpt.reset(curl_slist_append(t.rcpt.release(), smtp_path(a).c_str()));
  } catch (const std::invalid_argument&) {
    t.result.error = "the channel's sender or recipients hold characters no mail address has; save the channel again";
    return;
  }
  t.url = std::string(implicit_tls ? "smtps://" : "smtp://") + smtp_url_host(host) + ":" + std::to_string(port);
  CURL* c = t.easy.get();
  common_options(t, ctx);
  curl_easy_setopt(c, CURLOPT_URL, t.url.c_str());
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
  curl_easy_setopt(c, CURLOPT_USE_SSL,
                   use_tls && !implicit_tls ? static_cast<long>(CURLUSESSL_ALL) : static_cast<long>(CURLUSESSL_NONE));
  if (!user.empty()) {
    curl_easy_setopt(c, CURLOPT_USERNAME, user.c_str());
    curl_easy_setopt(c, CURLOPT_PASSWORD, password.c_str());
  }
  curl_easy_setopt(c, CURLOPT_MAIL_FROM, t.mail_from.c_str());
  curl_easy_setopt(c, CURLOPT_MAIL_RCPT, t.rcpt.get());
  curl_easy_setopt(c, CURLOPT_READFUNCTION, feed);
  curl_easy_setopt(c, CURLOPT_READDATA, &t.upload);
  curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
  if (ctx.egress) net::attach_egress_gate(c, &t.gate);
  t.started = true;
}

std::unique_ptr<Transfer> prepare(const std::string& type, const boost::json::object& p, const Message& m,
                                  const SendContext& ctx, long timeout_ms) {
  auto t = std::make_unique<Transfer>();
  t->timeout_ms = std::max(timeout_ms, 1L);
  if (type != "messenger" && type != "email") {
    t->result = refused("unknown channel type '" + text::utf8_prefix(text::to_valid_utf8(type), 32) + "'");
    return t;
  }
  // Stored before the routes refused them, or written around them: checked again here.
  if (auto field = member_with_control_chars(p)) {
    t->result = refused("the channel's " + text::utf8_prefix(*field, 32) +
                        " holds control characters (CR, LF …); save the channel again");
    return t;
  }
  t->easy.reset(curl_easy_init());
  if (!t->easy) {
    t->result = refused("cannot initialise libcurl");
    return t;
  }
  if (type == "messenger")
    prepare_telegram(*t, p, m, ctx);
  else
    prepare_email(*t, p, m, ctx);
  return t;
}

std::string timeout_text(long ms) {
  return "no answer within " + std::to_string((ms + 999) / 1000) + " s; the message may still arrive";
}

// The outcome of a transfer that ended with `rc`; the sender fields prepare() set are kept.
void finish(Transfer& t, CURLcode rc) {
  t.done = true;
  SendResult r;
  if (rc == CURLE_OPERATION_TIMEDOUT) {
    r = refused(timeout_text(t.timeout_ms));
    r.timed_out = true;
  } else if (rc != CURLE_OK) {
    std::string why = transport_error(rc, t.gate);
    long code = 0;
    if (!t.telegram) curl_easy_getinfo(t.easy.get(), CURLINFO_RESPONSE_CODE, &code);
    if (code) why += " (SMTP " + std::to_string(code) + ")";
    r = refused(scrub(why, t.secrets));
  } else if (t.telegram) {
    r = finish_telegram(t);
  } else {
    r = {true, {}, 0, false, {}, false};
  }
  r.sender = std::move(t.result.sender);
  r.default_sender = t.result.default_sender;
  t.result = std::move(r);
}

long millis_until(std::chrono::steady_clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  return static_cast<long>(std::max<std::int64_t>(left.count(), 0));
}

}  // namespace

std::string mail_header(std::string_view name, std::string_view value) {
  if (has_control_chars(name) || has_control_chars(value) || name.find(':') != std::string_view::npos)
    throw std::invalid_argument("a mail header holds a control character (CR, LF …)");
  return std::string(name) + ": " + std::string(value) + "\r\n";
}

std::string mail_address_header(std::string_view name, const std::vector<std::string>& addresses) {
  if (has_control_chars(name) || name.find(':') != std::string_view::npos)
    throw std::invalid_argument("a mail header name holds a control character or ':'");
  std::string out = std::string(name) + ":";
  std::size_t line = out.size();
  for (std::size_t i = 0; i < addresses.size(); ++i) {
    const auto& a = addresses[i];
    if (has_control_chars(a)) throw std::invalid_argument("a mail address holds a control character (CR, LF …)");
    // Folded before an address that would take the line past 78 characters (RFC 5322 2.1.1);
    // the only CR LF in the value are these folds, each followed by a space.
    if (i > 0 && line + a.size() + 2 > 78) {
      out += ",\r\n";
      line = 0;
    } else if (i > 0) {
      out += ",";
      ++line;
    }
    out += " " + a;
    line += a.size() + 1;
  }
  return out + "\r\n";
}

std::string smtp_path(std::string_view address) {
  if (address.empty() || has_control_chars(address) || address.find_first_of("<> ") != std::string_view::npos)
    throw std::invalid_argument("an SMTP address holds a control character, a space, '<' or '>'");
  return "<" + std::string(address) + ">";
}

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
  std::string msg;
  msg += mail_header("Date", date);
  msg += mail_address_header("From", {from});
  msg += mail_address_header("To", to);
  msg += mail_header("Message-ID", "<" + std::string(hex) + "@" + domain + ">");
  msg += mail_header("Subject", encoded_word(m.subject));
  msg += mail_header("MIME-Version", "1.0");
  msg += mail_header("Content-Type", "multipart/alternative; boundary=\"" + boundary + "\"");
  msg += "\r\n";
  msg += "--" + boundary + "\r\nContent-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: base64\r\n\r\n";
  msg += base64_lines(m.text);
  std::string html =
      "<!DOCTYPE html><html><body><pre style=\"font-family:sans-serif\">" + m.html + "</pre></body></html>";
  msg += "--" + boundary + "\r\nContent-Type: text/html; charset=UTF-8\r\nContent-Transfer-Encoding: base64\r\n\r\n";
  msg += base64_lines(html);
  msg += "--" + boundary + "--\r\n";
  return msg;
}

Sender email_sender(const boost::json::object& params, const SendContext& ctx) {
  std::string own = param(params, "from_addr");
  if (!own.empty()) return {own, false};
  if (!ctx.smtp_from.empty()) return {ctx.smtp_from, true};
  return {};
}

SendContext send_context(const config::Config& cfg, const net::EgressPolicy& egress) {
  SendContext s;
  s.telegram_api_base = cfg.notify.telegram_api_base;
  s.smtp_from = cfg.notify.smtp_from;
  s.egress = &egress;
  s.timeout = std::chrono::seconds(cfg.monitor.timeout);
  return s;
}

SendResult send(const std::string& type, const boost::json::object& params, const Message& m, const SendContext& ctx) {
  auto t = prepare(type, params, m, ctx, static_cast<long>(ctx.timeout.count()) * 1000);
  if (!t->started) return std::move(t->result);
  finish(*t, curl_easy_perform(t->easy.get()));
  return std::move(t->result);
}

std::vector<SendResult> send_all(const std::vector<Target>& targets, const Message& m, const SendContext& ctx,
                                 std::chrono::steady_clock::time_point deadline) {
  std::vector<std::unique_ptr<Transfer>> transfers;
  transfers.reserve(targets.size());
  long per_send_ms = static_cast<long>(ctx.timeout.count()) * 1000;
  for (const auto& target : targets)
    transfers.push_back(prepare(target.type, target.params, m, ctx, std::min(per_send_ms, millis_until(deadline))));

  // Declared after the transfers: it removes their handles before they are cleaned up.
  struct Multi {
    CURLM* handle = curl_multi_init();
    std::vector<CURL*> added;
    ~Multi() {
      for (CURL* e : added) curl_multi_remove_handle(handle, e);
      if (handle) curl_multi_cleanup(handle);
    }
  } multi;
  if (!multi.handle) {
    for (auto& t : transfers)
      if (t->started) t->result = refused("cannot initialise libcurl");
  } else {
    for (auto& t : transfers)
      if (t->started && curl_multi_add_handle(multi.handle, t->easy.get()) == CURLM_OK)
        multi.added.push_back(t->easy.get());
    for (;;) {
      int running = 0;
      curl_multi_perform(multi.handle, &running);
      while (CURLMsg* msg = curl_multi_info_read(multi.handle, &running)) {
        if (msg->msg != CURLMSG_DONE) continue;
        char* priv = nullptr;
        curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &priv);
        if (priv) finish(*reinterpret_cast<Transfer*>(priv), msg->data.result);
      }
      bool all_done = std::all_of(transfers.begin(), transfers.end(), [](auto& t) { return !t->started || t->done; });
      long left = millis_until(deadline);
      if (all_done || left == 0) break;
      curl_multi_poll(multi.handle, nullptr, 0, static_cast<int>(std::min(left, 200L)), nullptr);
    }
  }
  std::vector<SendResult> out;
  for (auto& t : transfers) {
    if (t->started && !t->done) {  // the deadline came first: abandoned (the Multi removes it)
      std::string sender = std::move(t->result.sender);
      bool by_default = t->result.default_sender;
      t->result = refused(timeout_text(t->timeout_ms));
      t->result.timed_out = true;
      t->result.sender = std::move(sender);
      t->result.default_sender = by_default;
    }
    out.push_back(std::move(t->result));
  }
  return out;
}

}  // namespace dozor::notify
