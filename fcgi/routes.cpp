// The route table: one line per route — method, pattern, handler, access.
#include "fcgi/routes.hpp"

#include "handlers/handlers.hpp"
#include "handlers/vault_docedit.hpp"

namespace dozor::http {

namespace h = dozor::handlers;

Router build_router() {
  Router r;
  auto add = [&r](const char* method, std::string pattern, Handler fn, Access access) {
    r.add({method, std::move(pattern), std::move(fn), access});
  };
  // Wraps a function so that the variant holds the right alternative without a cast per line.
  auto pub = [](Response (*fn)(h::Context&)) { return Handler(PublicHandler(fn)); };
  auto usr = [](Response (*fn)(h::UserContext&)) { return Handler(UserHandler(fn)); };
  auto vlt = [](Response (*fn)(h::VaultContext&)) { return Handler(VaultHandler(fn)); };

  for (const char* path : {"/health", "/api/health", "/api/v1/health"})
    add("GET", path, pub(h::health), Access::Public);
  add("GET", "/metrics", pub(h::metrics), Access::Public);                      // nginx: internal networks only
  add("GET", "/monitoring/health", pub(h::monitoring_health), Access::Public);  // nginx: the same

  add("POST", "/api/auth/login", pub(h::auth_login), Access::Public);
  add("GET", "/api/auth/verify", usr(h::auth_verify), Access::User);
  // nginx's auth subrequest for the analyzer's listener; no public location leads here.
  add("GET", "/internal/analyzer_caller", pub(h::analyzer_caller), Access::Public);

  add("GET", "/api/admin/users", usr(h::admin_list_users), Access::Admin);
  add("POST", "/api/admin/users", usr(h::admin_create_user), Access::Admin);
  add("PUT", "/api/admin/users/{user_id:int}", usr(h::admin_update_user), Access::Admin);
  add("DELETE", "/api/admin/users/{user_id:int}", usr(h::admin_delete_user), Access::Admin);
  add("GET", "/api/admin/users/{user_id:int}/services", usr(h::admin_user_services), Access::Admin);
  add("GET", "/api/admin/users/{user_id:int}/groups", usr(h::admin_user_groups), Access::Admin);
  add("GET", "/api/admin/users/{user_id:int}/channels", usr(h::admin_user_channels), Access::Admin);
  add("PUT", "/api/admin/users/{user_id:int}/scan-grant", usr(h::admin_scan_grant), Access::Admin);
  add("DELETE", "/api/admin/users/{user_id:int}/scan-grant", usr(h::admin_scan_revoke), Access::Admin);
  add("GET", "/api/admin/scan-log", usr(h::admin_scan_log), Access::Admin);
  add("GET", "/api/admin/me", usr(h::admin_me), Access::Admin);

  // Spec §4.2: served under both /api/v1 and /api with the same shape.
  struct Dual {
    const char* method;
    const char* suffix;
    Handler fn;
    Access access;
  };
  const Dual dual[] = {
      {"GET", "/services", usr(h::services_list), Access::User},
      {"POST", "/services", usr(h::services_create), Access::User},
      {"PUT", "/services/{service_id:int}", usr(h::services_update), Access::User},
      {"DELETE", "/services/{service_id:int}", usr(h::services_delete), Access::User},
      {"POST", "/services/{service_id:int}/check", usr(h::services_check), Access::User},
      {"GET", "/services/{service_id:int}/history", usr(h::services_history), Access::User},
      {"GET", "/services/{service_id:int}/incidents", usr(h::services_incidents), Access::User},
      {"GET", "/analytics/summary", usr(h::analytics_summary), Access::User},
      {"GET", "/groups", usr(h::groups_list), Access::User},
      {"POST", "/groups", usr(h::groups_create), Access::User},
      {"PUT", "/groups/{group_id:int}", usr(h::groups_update), Access::User},
      {"DELETE", "/groups/{group_id:int}", usr(h::groups_delete), Access::User},
      {"GET", "/audit/headers/{target_url:path}", usr(h::audit_headers), Access::User},
      {"GET", "/audit/tls/{target_url:path}", usr(h::audit_tls), Access::User},
      {"POST", "/audit/{target_url:path}", usr(h::audit_run), Access::User},
      {"GET", "/audit/{target_url:path}/report", usr(h::audit_report), Access::User},
      {"GET", "/audit/services", usr(h::audit_service_grades), Access::User},
      {"GET", "/compliance/{target_url:path}", usr(h::compliance_check), Access::User},
      {"GET", "/cms/{target_url:path}", usr(h::cms_detect), Access::User},
      {"POST", "/owasp/schedule/{service_id:int}", usr(h::owasp_schedule), Access::User},
      {"POST", "/owasp/scan/{target_url:path}", usr(h::owasp_scan), Access::User},
      {"GET", "/owasp/report/{service_id:int}", usr(h::owasp_report), Access::User},
      {"GET", "/owasp/summary/{service_id:int}", usr(h::owasp_summary), Access::User},
      // Proof of control for active scans (docs/scan.md "Proof of control", docs/api.md).
      {"GET", "/scan-verifications", usr(h::scan_verifications_list), Access::User},
      {"POST", "/scan-verifications", usr(h::scan_verification_request), Access::User},
      {"POST", "/scan-verifications/{verification_id:int}/verify", usr(h::scan_verification_verify), Access::User},
      {"DELETE", "/scan-verifications/{verification_id:int}", usr(h::scan_verification_delete), Access::User},
  };
  for (const char* prefix : {"/api/v1", "/api"})
    for (const auto& d : dual) add(d.method, std::string(prefix) + d.suffix, d.fn, d.access);

  // Public status pages (docs/status-pages.md): no token; the page itself is www/status.html.
  for (const char* prefix : {"/api/v1", "/api"})
    add("GET", std::string(prefix) + "/status/{slug}", pub(h::status_page), Access::Public);

  // Kiosk: one state per user, the same behind all three prefixes (spec §4.2, §4.6).
  for (const char* prefix : {"/api/v1", "/api", "/api/security"}) {
    std::string k = std::string(prefix) + "/kiosk";
    add("POST", k + "/start", usr(h::kiosk_start), Access::User);
    add("POST", k + "/stop", usr(h::kiosk_stop), Access::User);
    add("POST", k + "/next", usr(h::kiosk_next), Access::User);
    add("POST", k + "/previous", usr(h::kiosk_previous), Access::User);
    add("GET", k + "/state", usr(h::kiosk_state), Access::User);
  }

  // Spec §4.7: channels under /api/v1, notify under both prefixes; all need the bearer token
  // (ARCHITECTURE §4: channels belong to a user and hold secrets).
  add("GET", "/api/v1/channels", usr(h::channels_list), Access::User);
  add("POST", "/api/v1/channels", usr(h::channels_create), Access::User);
  add("PUT", "/api/v1/channels/{channel_id:int}", usr(h::channels_update), Access::User);
  add("DELETE", "/api/v1/channels/{channel_id:int}", usr(h::channels_delete), Access::User);
  for (const char* prefix : {"/api/v1", "/api"}) {
    add("POST", std::string(prefix) + "/notify/channels/bulk", usr(h::notify_bulk), Access::User);
    add("POST", std::string(prefix) + "/notify/test", usr(h::notify_test), Access::User);
  }

  // File vault (spec §4.9, docs/vault.md): the session cookie, never a bearer token. GET
  // /vault/login is the static page nginx serves; its form posts here.
  add("POST", "/vault/login", pub(h::vault_login), Access::Public);
  add("POST", "/vault/logout", vlt(h::vault_logout), Access::VaultWrite);
  add("GET", "/vault/me", vlt(h::vault_me), Access::Vault);
  // The vault's start page: 303 to the caller's home folder (the login page without a session).
  for (const char* start : {"/vault", "/vault/"}) add("GET", start, vlt(h::vault_start), Access::Vault);
  add("GET", "/vault/browse", vlt(h::vault_browse), Access::Vault);
  add("GET", "/vault/download", vlt(h::vault_download), Access::Vault);
  add("GET", "/vault/view", vlt(h::vault_view), Access::Vault);
  add("GET", "/vault/analyze", vlt(h::vault_analyze), Access::Vault);  // read-only: the analyzer's check
  add("POST", "/vault/upload", vlt(h::vault_upload), Access::VaultWrite);
  add("POST", "/vault/create_folder", vlt(h::vault_create_folder), Access::VaultWrite);
  add("POST", "/vault/save_file", vlt(h::vault_save_file), Access::VaultWrite);
  add("POST", "/vault/rename", vlt(h::vault_rename), Access::VaultWrite);
  add("DELETE", "/vault/delete", vlt(h::vault_delete), Access::VaultWrite);
  add("GET", "/vault/trash", vlt(h::vault_trash), Access::Vault);
  add("POST", "/vault/restore", vlt(h::vault_restore), Access::VaultWrite);
  // Editors (docs/vault.md "Document editing"). The download and the callback carry the document
  // server's signature instead of a session; nginx lets only vault.docserver_networks reach them.
  add("GET", "/vault/edit", vlt(h::vault_edit), Access::Vault);
  add("GET", "/vault/docedit_edit", vlt(h::vault_docedit_edit), Access::Vault);
  add("GET", "/vault/docedit_download", pub(h::vault_docedit_download), Access::Public);
  add("POST", "/vault/docedit_callback", pub(h::vault_docedit_callback), Access::Public);
  add("GET", "/api/admin/vault/rules", usr(h::admin_vault_rules), Access::Admin);
  add("POST", "/api/admin/vault/rules", usr(h::admin_vault_grant), Access::Admin);
  add("POST", "/api/admin/vault/rules/revoke", usr(h::admin_vault_revoke), Access::Admin);
  add("GET", "/api/admin/vault/audit", usr(h::admin_vault_audit), Access::Admin);
  // Issue 8 (docs/audit.md): the crawl under /api and /api/security (spec §4.3, §4.6).
  for (const char* prefix : {"/api", "/api/security"})
    add("POST", std::string(prefix) + "/crawl/{target_url:path}", usr(h::crawl_site), Access::User);
  // Full audits, stored per user (docs/audit.md); literal segments win over {target_url:path}.
  add("POST", "/api/security/audit/{target_url:path}", usr(h::audit_run), Access::User);
  add("POST", "/api/audit/full/{target_url:path}", usr(h::audit_full), Access::User);
  add("GET", "/api/audit/geo/{target_url:path}", usr(h::audit_geo), Access::User);
  add("POST", "/api/audit/batch", usr(h::audit_batch), Access::User);
  add("POST", "/api/security/scanner/{target_url:path}", usr(h::scanner_run), Access::User);
  add("GET", "/api/security/evidence/{target_url:path}", usr(h::audit_evidence), Access::User);
  add("GET", "/api/security/audit/download/{target_url:path}", usr(h::audit_report), Access::User);
  // Background tasks (issue 9 §1, docs/tasks.md). POST takes a target, GET and DELETE a task id.
  add("POST", "/api/security/queue/{target_url:path}", usr(h::task_enqueue), Access::User);
  add("GET", "/api/security/queue/{task_id}", usr(h::task_read), Access::User);
  add("DELETE", "/api/security/queue/{task_id}", usr(h::task_cancel), Access::User);
  add("GET", "/api/security/tasks", usr(h::tasks_list), Access::User);
  add("POST", "/api/scan/{service_id:int}/start", usr(h::scan_service_start), Access::User);
  add("GET", "/api/task/{task_id}/status", pub(h::task_status), Access::Public);
  add("GET", "/api/v1/schedules", usr(h::schedules_list), Access::User);
  add("DELETE", "/api/v1/schedules/{schedule_id:int}", usr(h::schedules_delete), Access::User);
  // Issue 9 §2 (docs/scan.md "OWASP scan"): the inline OWASP scan.
  add("POST", "/api/security/owasp/scan/{target_url:path}", usr(h::owasp_scan), Access::User);
  add("GET", "/api/security/owasp/report/{target_url:path}", usr(h::owasp_report_docx), Access::User);
  add("GET", "/api/security/scan-log", usr(h::scan_log), Access::User);
  // Issue 9 §2 (docs/scan.md "Endpoint discovery").
  add("GET", "/api/security/endpoints/{target_url:path}", usr(h::endpoints_discover), Access::User);
  // Issue 9 §2 (docs/scan.md "API check"): the spec's route and its /api twin.
  for (const char* prefix : {"/api/security", "/api"})
    add("POST", std::string(prefix) + "/api-check/{target_url:path}", usr(h::api_check), Access::User);
  // XXE and SSRF (docs/scan.md "XXE and SSRF"); /oast/{token}[/…] records a target's interaction,
  // any method, no token (the probe's token is the secret). HEAD is the GET route's.
  add("GET", "/api/audit/xxe/{target_url:path}", usr(h::audit_xxe), Access::User);
  add("GET", "/api/audit/ssrf/{target_url:path}", usr(h::audit_ssrf), Access::User);
  for (const char* method : {"GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"})
    add(method, "/oast/{interaction:path}", pub(h::oast_interaction), Access::Public);
  // Issue 9 §2 (docs/scan.md "Auth scan").
  add("POST", "/api/security/auth-scan/{target_url:path}", usr(h::auth_scan), Access::User);
  return r;
}

}  // namespace dozor::http
