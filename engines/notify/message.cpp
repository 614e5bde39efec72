#include "engines/notify/message.hpp"

namespace dozor::notify {
namespace {

std::string str(const boost::json::object& o, const char* key) {
  auto* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->as_string()) : std::string();
}

std::int64_t num(const boost::json::object& o, const char* key) {
  auto* v = o.if_contains(key);
  return v && v->is_int64() ? v->as_int64() : 0;
}

}  // namespace

Language parse_language(const std::string& code) { return code == "ru" ? Language::Ru : Language::En; }

std::string html_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string format_duration(std::int64_t seconds, Language lang) {
  bool ru = lang == Language::Ru;
  std::int64_t d = seconds / 86400, h = seconds % 86400 / 3600, m = seconds % 3600 / 60, s = seconds % 60;
  std::string out;
  auto part = [&](std::int64_t n, const char* en, const char* ru_unit) {
    if (!out.empty()) out += " ";
    out += std::to_string(n) + " " + (ru ? ru_unit : en);
  };
  if (d) part(d, "d", "д");
  if (h) part(h, "h", "ч");
  if (m && !d) part(m, "min", "мин");
  if (out.empty()) part(s, "s", "с");
  return out;
}

Message render_transition(const boost::json::object& p, Language lang) {
  bool ru = lang == Language::Ru;
  bool up = p.if_contains("up") && p.at("up").is_bool() && p.at("up").as_bool();
  std::string name = str(p, "service_name"), url = str(p, "url"), error = str(p, "error"), at = str(p, "at");
  Message m;
  std::string status = up ? (ru ? "снова доступен" : "is UP again") : (ru ? "недоступен" : "is DOWN");
  m.subject = (up ? "✅ " : "🔴 ") + name + " " + status;
  std::string detail;
  std::string detail_html;
  if (up) {
    std::string d = format_duration(num(p, "outage_seconds"), lang);
    detail = (ru ? "Простой: " : "Outage: ") + d;
    detail_html = html_escape(detail);
  } else if (!error.empty()) {
    detail = (ru ? "Ошибка: " : "Error: ") + error;
    detail_html = (ru ? "Ошибка: " : "Error: ") + std::string("<code>") + html_escape(error) + "</code>";
  }
  std::string when = (ru ? "Время (UTC): " : "Time (UTC): ") + at;
  m.text = m.subject + "\n" + url + "\n" + detail + "\n" + when + "\n";
  m.html = (up ? "✅ <b>" : "🔴 <b>") + html_escape(name) + "</b> " + html_escape(status) + "\n" + html_escape(url) +
           "\n" + detail_html + "\n" + html_escape(when);
  return m;
}

Message render_cert_warning(const boost::json::object& p, Language lang) {
  bool ru = lang == Language::Ru;
  std::string name = str(p, "service_name"), url = str(p, "url"), expires = str(p, "expires_at");
  std::int64_t days = num(p, "days_left");
  Message m;
  std::string status = days < 0 ? (ru ? "сертификат истёк" : "certificate has EXPIRED")
                                : (ru ? "сертификат истекает через " + std::to_string(days) + " дн."
                                      : "certificate expires in " + std::to_string(days) + " days");
  m.subject = "⚠️ " + name + ": " + status;
  std::string when = (ru ? "Срок действия (UTC): " : "Valid until (UTC): ") + expires;
  m.text = m.subject + "\n" + url + "\n" + when + "\n";
  m.html = "⚠️ <b>" + html_escape(name) + "</b>: " + html_escape(status) + "\n" + html_escape(url) + "\n" +
           html_escape(when);
  return m;
}

Message render_new_findings(const boost::json::object& p, Language lang) {
  bool ru = lang == Language::Ru;
  std::string name = str(p, "service_name"), url = str(p, "url");
  Message m;
  std::string what = ru ? "новые серьёзные уязвимости: " + std::to_string(num(p, "total"))
                        : "new serious findings: " + std::to_string(num(p, "total"));
  m.subject = "🛡 " + name + ": " + what;
  m.text = m.subject + "\n" + url + "\n";
  m.html = "🛡 <b>" + html_escape(name) + "</b>: " + html_escape(what) + "\n" + html_escape(url) + "\n";
  if (const auto* top = p.if_contains("top"); top && top->is_array())
    for (const auto& v : top->as_array()) {
      if (!v.is_object()) continue;
      std::string severity = str(v.as_object(), "severity"), title = str(v.as_object(), "title");
      m.text.append("- [").append(severity).append("] ").append(title).append("\n");
      m.html.append("• <b>").append(html_escape(severity)).append("</b> ").append(html_escape(title)).append("\n");
    }
  std::string scan = (ru ? "Отчёт OWASP, скан №" : "OWASP report, scan #") + std::to_string(num(p, "scan_id"));
  m.text.append(scan).append("\n");
  m.html += html_escape(scan);
  return m;
}

Message render(const std::string& kind, const boost::json::object& payload, Language lang) {
  if (kind == "test") return render_test(lang);
  if (kind == "owasp_findings") return render_new_findings(payload, lang);
  if (kind == "cert_expiring") return render_cert_warning(payload, lang);
  return render_transition(payload, lang);
}

Message render_test(Language lang) {
  Message m;
  if (lang == Language::Ru) {
    m.subject = "Дозор: проверочное уведомление";
    m.text = "Канал настроен: сюда будут приходить сообщения о сбоях и восстановлении сайтов.\n";
  } else {
    m.subject = "Dozor: test notification";
    m.text = "This channel works: outage and recovery messages for your sites will arrive here.\n";
  }
  m.html = "<b>" + html_escape(m.subject) + "</b>\n" + html_escape(m.text);
  return m;
}

}  // namespace dozor::notify
