#pragma once
// Dozor's configuration: one TOML file, every key overridable by DOZOR_<SECTION>_<KEY>.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace dozor::config {

struct ServerConfig {
  std::string socket = "/run/dozor/fcgi.sock";
  unsigned socket_mode = 0660;
  int workers = 0;  // 0 = number of cores
  int threads = 16;
  std::int64_t max_requests = 0;
  std::int64_t max_body = 1 << 20;
  int shutdown_timeout = 10;
  // Files the workers share (the check slots); the service's StateDirectory when packaged.
  std::string state_dir = "/var/lib/dozor";
  // The key nginx sends with every request (DOZOR_NGINX_KEY, docs/install.md "The FastCGI
  // sockets"): the first line of this file. Empty: no check (a socket nothing else can reach).
  std::string nginx_key_file = "/etc/dozor/nginx-fcgi.key";
  std::string nginx_key;  // read by dozor-fcgi (read_nginx_key), never by load()
};

struct DatabaseConfig {
  std::string socket = "/run/mysqld/mysqld.sock";
  std::string host;
  int port = 3306;
  std::string name = "dozor";
  std::string user = "dozor";
  std::string password;
  // A file whose first line is the password (root-only; under systemd a credential). load()
  // reads it into `password`; setting both is an error.
  std::string password_file;
  int connect_timeout = 3;
  // Connections per process; 0 = automatic (see pool_size_for). The whole stack must stay under
  // half of MariaDB's default max_connections (151) whatever the number of cores.
  int pool_size = 0;
  int pool_wait_ms = 2000;     // a request waits this long for a connection, then 503
  int statement_timeout = 10;  // seconds; the server aborts a statement past it
};

// dozor-fcgi shares this many connections among all its workers.
constexpr int kFcgiConnectionBudget = 48;
// Default worker processes: the cores, at most this many (threads carry the concurrency).
constexpr int kMaxDefaultWorkers = 8;

enum class ProcessKind { FcgiWorker, Daemon, Tool };

struct AuthConfig {
  std::string jwt_secret_file = "/etc/dozor/jwt.key";
  std::int64_t token_lifetime = 43200;
  int max_failures = 5;            // per (account, client) before a block; also the device cookie's free tries
  int lockout_seconds = 60;        // the first block; doubles per further failure, capped (docs/login.md)
  int client_max_failures = 20;    // per client (IPv4 address, IPv6 /64), any names
  int account_max_failures = 100;  // per account from clients without its device cookie
  int device_cookie_days = 180;    // lifetime of the device cookie a successful login sets
  int hash_concurrency = 2;        // argon2 hashes running at once per process
  int hash_queue = 8;              // logins that may wait for one; more get 429 at once
  int min_password_length = 8;
};

struct MonitorConfig {
  int timeout = 10;  // seconds per check, redirects included
  // dozord (docs/monitoring.md)
  int failures_to_down = 2;
  int successes_to_up = 1;
  std::string location = "default";  // [A-Za-z0-9._-]{1,64}: stored in every check row
  // Locations that must each see a failure before a service is down (at most the live ones).
  int confirm_locations = 1;
  int lease_seconds = 30;           // a dead dozord's services are taken over after this
  int max_in_flight = 2000;         // checks one dozord runs at once
  int retention_days = 30;          // raw checks
  int rollup_retention_days = 400;  // hourly and daily rollups
  int cert_warning_days = 14;       // a certificate expiring sooner is told once per day
};

// Per-user and global bounds that keep a few users from starving the rest.
struct LimitsConfig {
  int services_per_user = 1000;
  int groups_per_user = 200;
  int check_slots = 0;  // one-shot checks at once, all workers together; 0 = workers × threads / 2
  int check_slots_per_user = 2;
};

struct ScannerConfig {
  bool allow_private_targets = false;
  // Scanners (docs/audit.md); defaults are engines/limits.hpp's.
  std::string ca_file;                   // trust anchors instead of the system's (a private CA)
  int request_timeout = 10;              // seconds per request, redirects included
  int max_body_bytes = 5 * 1024 * 1024;  // decoded bytes of one answer
  int per_host_concurrency = 8;          // requests in flight to one origin
  int per_host_interval_ms = 10;         // gap between request starts to one origin
  int crawl_seconds = 60;                // a whole crawl
  int audit_seconds = 60;                // a whole audit (crawl and every step; docs/audit.md)
  // The template scanner's extra folders of Nuclei-format templates, separated by ':'; the shipped
  // set (share/scan/templates beside paths.audit_data) is always read first.
  std::string templates_dirs;
  // Out-of-band proofs of XXE and SSRF (docs/scan.md "XXE and SSRF"): the public base URL
  // (scheme://host[:port]) under which targets reach this Dozor's /oast/{token}; empty = disabled,
  // in-band proofs only.
  std::string oast_base_url;
  // nginx's listener of its own for /oast/ (plain HTTP, nothing else served there): ADDRESS:PORT
  // entries, space or comma separated ("0.0.0.0:8880 [::]:8880"); empty: no such listener.
  std::string oast_listen;
  std::string geoip_db;  // a MaxMind DB file (GeoLite2/GeoIP2 City, Country or ASN); empty: Debian's geoip-database
  // Active scans of any target for every user (a single-user install); otherwise only admins and
  // users an admin granted it scan beyond their own services' hosts (docs/scan.md).
  bool scan_any_target = false;
  // The transition to proof of control (docs/scan.md "Who may scan what"): services that existed
  // before the upgrade (migration 0028) stay actively scannable without proof for 30 days; false
  // ends that at once.
  bool ownership_grace = true;
  // The DNS server ("address" or "address:port", IPv4 or [IPv6]) asked for the TXT record of a
  // proof of control; empty = the first nameserver of /etc/resolv.conf. Tests point it at a local one.
  std::string dns_resolver;
};

// Background tasks (docs/tasks.md): dozord's runners and the queue's limits.
struct TasksConfig {
  int runners = 2;           // tasks one dozord runs at once
  int per_user = 2;          // running tasks of one user, every dozord together
  int queued_per_user = 50;  // queued and running tasks of one user; more are refused (429)
  int max_attempts = 3;      // claims of one task; a runner that died past this fails it
  int lease_seconds = 60;    // renewed every second while it runs; a dead runner's task returns after it
  int task_seconds = 600;    // time budget of one task
  int keep_days = 30;        // finished tasks are deleted after this
};

struct NotifyConfig {
  std::string telegram_api_base = "https://api.telegram.org";  // a self-hosted Bot API server may be named
  std::string language = "en";                                 // en | ru
  // The sender of e-mail channels that name no from_addr ("dozor@example.com"); empty: such a
  // channel is not sent to (docs/notifications.md). Never the channel's SMTP login.
  std::string smtp_from;
};

// dozor-analyzer (docs/analyzer.md): its own socket and process pool, the model bundle, limits.
struct AnalyzerConfig {
  std::string socket = "/run/dozor-analyzer/analyzer.sock";
  unsigned socket_mode = 0660;
  int workers = 1;  // processes; each loads the model
  int threads = 4;  // documents analysed at once per process
  std::string model = "/usr/share/dozor/analyzer";
  std::int64_t max_document = 50LL << 20;  // bytes of one document (413 above)
  int max_pages = 2000;                    // pages of one PDF (422 above)
  int max_seconds = 60;                    // extraction and detection of one document (422 past it)
  // Each non-admin user's budget per hour (429 past it; 0 unlimited), shared by the workers.
  std::int64_t user_documents_per_hour = 2000;
  std::int64_t user_bytes_per_hour = 4LL << 30;
  std::int64_t user_pages_per_hour = 100000;
  std::int64_t user_seconds_per_hour = 3600;
  // Images and PDF pages without a text layer read by Tesseract (docs/analyzer.md "OCR"); off by
  // default: it costs seconds per page and needs the tesseract-ocr-<lang> data installed.
  bool ocr = false;
  std::string ocr_languages = "rus+eng";
  bool fetch_urls = false;  // {"url": ...} bodies; the packaged unit has no network
  int fetch_timeout = 30;   // seconds for one URL
  // The analyzer's own key from nginx (as server.nginx_key_file; not dozor-fcgi's).
  std::string nginx_key_file = "/etc/dozor/nginx-analyzer.key";
  // nginx's internal listener for the analyzer and who may reach it (nginx/render).
  std::string listen = "127.0.0.1:8181";
  std::string networks = "127.0.0.1/32,::1/128";  // comma or space separated
};

struct PathsConfig {
  std::string migrations = "/usr/share/dozor/migrations";
  std::string common_passwords = "/usr/share/dozor/passwords/common-passwords.txt";
  // The audit's data files (docs/audit.md): fingerprints, vulnerable libraries, exposures, compliance
  // keyword lists, scanner templates — one folder per engine.
  std::string audit_data = "/usr/share/dozor/audit";
};

// The file vault (docs/vault.md).
struct VaultConfig {
  std::string root = "/var/lib/dozor-vault";
  // Origins a mutating request may come from ("https://files.example.com", space separated).
  // Empty: the request's own https://Host (a cross-site page cannot set another site's Host).
  std::string origins;
  std::int64_t max_upload = std::int64_t{1} << 30;  // bytes per uploaded file
  std::int64_t quota = std::int64_t{10} << 30;      // bytes a user's uploads may add; 0 = no quota
  int trash_days = 30;
  int session_idle = 1800;       // seconds without a request before a session ends
  int session_absolute = 43200;  // seconds after login when a session ends regardless
  // Document editing (docs/vault.md "Document editing"): the ONLYOFFICE-compatible document
  // server's origin ("https://docs.example.com"; empty: editing is off), the shared JWT secret
  // (never logged; or docserver_jwt_secret_file, read at load like database.password_file), and
  // the networks nginx lets reach the callback and the signed download (rendered by nginx/render).
  std::string docserver_url;
  std::string docserver_jwt_secret;
  std::string docserver_jwt_secret_file;
  std::string docserver_networks = "127.0.0.1/32 ::1/128";
  // The malware check of uploads (docs/vault.md "Malware check"): dozor-analyzer loads ClamAV's
  // signatures from clamav_database and every uploaded file up to analyzer.max_document bytes is
  // scanned before it takes its name; an infected one is refused.
  bool clamav = false;
  std::string clamav_database = "/var/lib/clamav";
};

// What the nginx site takes from the config besides the sections' own keys (nginx_includes.hpp).
struct NginxConfig {
  // Networks besides loopback that may reach /monitoring/ and /metrics (space or comma separated).
  std::string internal_networks;
};

struct Config {
  ServerConfig server;
  DatabaseConfig database;
  AuthConfig auth;
  MonitorConfig monitor;
  LimitsConfig limits;
  NotifyConfig notify;
  ScannerConfig scanner;
  TasksConfig tasks;
  PathsConfig paths;
  VaultConfig vault;
  AnalyzerConfig analyzer;
  NginxConfig nginx;
};

// Thrown with every problem found, one per line.
struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses TOML text, then applies overrides from `env` ("DOZOR_SERVER_WORKERS=4" entries).
// Unknown sections or keys are errors: a typo must not silently fall back to a default.
Config parse(const std::string& toml_text, const std::vector<std::string>& env);

// Whether load() reads the secret files the config names. dozor-analyzer skips them: it uses
// neither the database nor the document server, and its unit hides those files from it.
enum class Secrets { Read, Skip };

// Reads the file (path empty → $DOZOR_CONFIG or /etc/dozor/dozor.toml) and the process environment,
// then database.password_file (read_password_file) and vault.docserver_jwt_secret_file.
Config load(std::string path, Secrets secrets = Secrets::Read);

// Sets database.password from the first line of database.password_file, when that is set.
// Throws ConfigError when the file cannot be read or database.password is set as well.
void read_password_file(Config& c);
// vault.docserver_jwt_secret_file into vault.docserver_jwt_secret (load() calls it).
void read_docserver_secret_file(Config& c);
// The key in `path` (its first line: 32 to 256 of A-Z a-z 0-9 _ -, so that it is safe inside an
// nginx directive), or "" when `path` is empty. Throws ConfigError naming `key` otherwise.
std::string read_nginx_key(const std::string& path, const char* key);

// The pool size of one process of `kind`: database.pool_size when set, else automatic.
int pool_size_for(const Config& c, ProcessKind kind);

// The path load() would read.
std::string resolve_path(std::string path);

}  // namespace dozor::config
