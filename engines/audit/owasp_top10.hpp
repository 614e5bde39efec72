#pragma once
// The OWASP Top 10 (2021) categories a finding's `owasp` field names ("A05:2021"): the order and the
// names the OWASP summary and the DOCX report print.
#include <array>
#include <string_view>

namespace dozor::audit {

struct OwaspCategory {
  std::string_view id;  // "A01:2021"
  std::string_view en;
  std::string_view ru;
};

inline constexpr std::array<OwaspCategory, 10> kOwaspTop10{{
    {"A01:2021", "Broken Access Control", "Нарушение контроля доступа"},
    {"A02:2021", "Cryptographic Failures", "Ошибки криптографии"},
    {"A03:2021", "Injection", "Внедрение"},
    {"A04:2021", "Insecure Design", "Небезопасное проектирование"},
    {"A05:2021", "Security Misconfiguration", "Небезопасная конфигурация"},
    {"A06:2021", "Vulnerable and Outdated Components", "Уязвимые и устаревшие компоненты"},
    {"A07:2021", "Identification and Authentication Failures", "Ошибки идентификации и аутентификации"},
    {"A08:2021", "Software and Data Integrity Failures", "Нарушение целостности ПО и данных"},
    {"A09:2021", "Security Logging and Monitoring Failures", "Недостатки журналирования и мониторинга"},
    {"A10:2021", "Server-Side Request Forgery", "Подделка запросов на стороне сервера (SSRF)"},
}};

}  // namespace dozor::audit
