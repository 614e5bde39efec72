#pragma once
// Every route's handler: decode + validate → one engine call → encode.
#include "fcgi/response.hpp"
#include "handlers/context.hpp"

namespace dozor::handlers {

using http::Response;

Response health(Context& ctx);
Response metrics(Context& ctx);
Response monitoring_health(Context& ctx);

Response auth_login(Context& ctx);
Response auth_verify(UserContext& ctx);
// nginx's auth subrequest for the analyzer (docs/analyzer.md "Who the caller is"): without a
// bearer token 204 naming no one (the analyzer answers its public routes, 404, 405, or 401);
// with a valid one 204 naming the caller in X-Dozor-Caller-{Id,Admin}; otherwise 401.
Response analyzer_caller(Context& ctx);

Response admin_list_users(UserContext& ctx);
Response admin_create_user(UserContext& ctx);
Response admin_update_user(UserContext& ctx);
Response admin_delete_user(UserContext& ctx);
Response admin_user_services(UserContext& ctx);
Response admin_user_groups(UserContext& ctx);
Response admin_user_channels(UserContext& ctx);
Response admin_me(UserContext& ctx);

Response services_list(UserContext& ctx);
Response services_create(UserContext& ctx);
Response services_update(UserContext& ctx);
Response groups_list(UserContext& ctx);
Response status_page(Context& ctx);
Response groups_create(UserContext& ctx);
Response groups_update(UserContext& ctx);
Response groups_delete(UserContext& ctx);
Response services_delete(UserContext& ctx);
Response services_check(UserContext& ctx);
Response services_history(UserContext& ctx);
Response services_incidents(UserContext& ctx);
Response analytics_summary(UserContext& ctx);

// XXE and SSRF with out-of-band proofs (docs/scan.md "XXE and SSRF")
Response audit_xxe(UserContext& ctx);
Response audit_ssrf(UserContext& ctx);
Response oast_interaction(Context& ctx);

// Background tasks (docs/tasks.md)
Response task_enqueue(UserContext& ctx);
Response scan_service_start(UserContext& ctx);
Response task_read(UserContext& ctx);
Response task_cancel(UserContext& ctx);
Response task_status(Context& ctx);
Response tasks_list(UserContext& ctx);
Response owasp_schedule(UserContext& ctx);
Response schedules_list(UserContext& ctx);
Response schedules_delete(UserContext& ctx);

Response kiosk_start(UserContext& ctx);
Response kiosk_stop(UserContext& ctx);
Response kiosk_next(UserContext& ctx);
Response kiosk_previous(UserContext& ctx);
Response kiosk_state(UserContext& ctx);

Response channels_list(UserContext& ctx);
Response channels_create(UserContext& ctx);
Response channels_update(UserContext& ctx);
Response channels_delete(UserContext& ctx);
Response notify_bulk(UserContext& ctx);
Response notify_test(UserContext& ctx);

// File vault (docs/vault.md)
Response vault_login(Context& ctx);
Response vault_logout(VaultContext& ctx);
Response vault_me(VaultContext& ctx);
Response vault_start(VaultContext& ctx);
Response vault_browse(VaultContext& ctx);
Response vault_download(VaultContext& ctx);
Response vault_view(VaultContext& ctx);
Response vault_analyze(VaultContext& ctx);
Response vault_upload(VaultContext& ctx);
Response vault_create_folder(VaultContext& ctx);
Response vault_save_file(VaultContext& ctx);
Response vault_rename(VaultContext& ctx);
Response vault_delete(VaultContext& ctx);
Response vault_trash(VaultContext& ctx);
Response vault_restore(VaultContext& ctx);
Response admin_vault_rules(UserContext& ctx);
Response admin_vault_grant(UserContext& ctx);
Response admin_vault_revoke(UserContext& ctx);
Response admin_vault_audit(UserContext& ctx);
Response audit_headers(UserContext& ctx);
Response crawl_site(UserContext& ctx);
Response audit_run(UserContext& ctx);
Response audit_full(UserContext& ctx);
Response audit_evidence(UserContext& ctx);
Response audit_report(UserContext& ctx);  // the DOCX of the latest stored audit
Response audit_service_grades(UserContext& ctx);
Response audit_batch(UserContext& ctx);
Response compliance_check(UserContext& ctx);
Response cms_detect(UserContext& ctx);  // handlers/tech.cpp
Response audit_tls(UserContext& ctx);
Response owasp_scan(UserContext& ctx);  // handlers/owasp.cpp
Response owasp_report(UserContext& ctx);
Response owasp_summary(UserContext& ctx);
Response owasp_report_docx(UserContext& ctx);
Response admin_scan_grant(UserContext& ctx);  // handlers/scan_access.cpp
Response admin_scan_revoke(UserContext& ctx);
Response admin_scan_log(UserContext& ctx);
Response scan_log(UserContext& ctx);
Response scan_verifications_list(UserContext& ctx);  // handlers/scan_verify.cpp
Response scan_verification_request(UserContext& ctx);
Response scan_verification_verify(UserContext& ctx);
Response scan_verification_delete(UserContext& ctx);
Response audit_geo(UserContext& ctx);
Response scanner_run(UserContext& ctx);         // handlers/scanner.cpp: the template scanner
Response endpoints_discover(UserContext& ctx);  // handlers/endpoints.cpp: endpoint discovery
Response api_check(UserContext& ctx);           // handlers/api_check.cpp: the API check
Response auth_scan(UserContext& ctx);           // handlers/auth_scan.cpp: the auth scan

}  // namespace dozor::handlers
