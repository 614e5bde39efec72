// dozorctl: administration from the shell — migrations, users, config check, notifications.
#include <unistd.h>

#include <boost/json/parse.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "db/database.hpp"
#include "db/migrations.hpp"
#include "engines/auth/auth_service.hpp"
#include "engines/auth/password_policy.hpp"
#include "engines/config/config.hpp"
#include "engines/config/database_params.hpp"
#include "engines/config/nginx_includes.hpp"
#include "engines/errors.hpp"
#include "engines/net/egress_policy.hpp"
#include "engines/net/multi_fetch.hpp"
#include "engines/notify/outbox.hpp"
#include "engines/report/audit_report.hpp"
#include "engines/users/user_admin.hpp"
#include "engines/vault/vault.hpp"
#include "handlers/validation.hpp"

namespace {

constexpr const char* kUsage =
    "usage: dozorctl [--config FILE] COMMAND\n"
    "       dozorctl --version | --help\n"
    "  --config FILE    configuration (default $DOZOR_CONFIG or /etc/dozor/dozor.toml); the database\n"
    "                   password comes from its database.password_file (root-only: run as root)\n"
    "  migrate                                   apply database migrations\n"
    "  user add --username U --email E [--admin] --password-stdin\n"
    "  user passwd --username U --password-stdin\n"
    "  user list\n"
    "  vault grant --username U --path P [--read] [--write] [--delete]\n"
    "                                            set U's rights on the path prefix P (none = deny)\n"
    "  vault revoke --username U --path P        remove U's rule on P\n"
    "  vault rules                               list every vault rule\n"
    "  config check                              validate the config file and the JWT key\n"
    "  nginx-config [--out DIR] [--defaults]     write the nginx lines the site takes from the config\n"
    "                                            (allow lists, analyzer listener, body limits) to DIR\n"
    "                                            (default /etc/dozor/nginx); then reload nginx\n"
    "  notify send-pending                       deliver the due notifications once (dozord does it\n"
    "                                            every second; this is for scripts and tests)\n"
    "  report-docx --input AUDIT.json [--lang ru|en] --output FILE.docx\n"
    "                                            render a stored audit's JSON as the DOCX report\n"
    "                                            (no config or database needed)\n";

dozor::db::Database open_db(const dozor::config::Config& cfg) {
  return dozor::db::Database(dozor::config::connection_params(cfg, dozor::config::ProcessKind::Tool));
}

// The password policy (length, common list, username) is applied by the users engine, as
// for the API.
std::string read_password() {
  std::string pw;
  std::getline(std::cin, pw);
  return pw;
}

dozor::auth::PasswordPolicy password_policy(const dozor::config::Config& cfg) {
  return dozor::auth::PasswordPolicy::load(cfg.paths.common_passwords,
                                           static_cast<std::size_t>(cfg.auth.min_password_length));
}

std::string option(const std::vector<std::string>& args, const std::string& name) {
  for (std::size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == name) return args[i + 1];
  return {};
}

bool flag(const std::vector<std::string>& args, const std::string& name) {
  for (const auto& a : args)
    if (a == name) return true;
  return false;
}

// Each file replaced whole (a temporary beside it, then rename): nginx never reads half a file.
int nginx_config_command(const dozor::config::Config& cfg, const std::vector<std::string>& args) {
  std::filesystem::path dir = option(args, "--out");
  if (dir.empty()) dir = "/etc/dozor/nginx";
  std::filesystem::create_directories(dir);
  for (const auto& inc : dozor::config::nginx_includes(cfg)) {
    auto path = dir / inc.file;
    auto tmp = dir / (inc.file + ".tmp");
    {
      std::ofstream out(tmp, std::ios::trunc);
      out << inc.text;
      out.flush();
      if (!out) throw std::runtime_error("cannot write " + tmp.string());
    }
    std::filesystem::permissions(tmp, std::filesystem::perms(0644));
    std::filesystem::rename(tmp, path);
    std::cout << "nginx-config: wrote " << path.string() << "\n";
  }
  std::cout << "nginx-config: reload nginx to apply (systemctl reload nginx)\n";
  return 0;
}

int user_command(const dozor::config::Config& cfg, const std::vector<std::string>& args) {
  auto db = open_db(cfg);
  const std::string sub = args.size() > 1 ? args[1] : "";
  if (sub == "list") {
    for (const auto& u : dozor::users::list(db))
      std::cout << u.id << "\t" << u.username << "\t" << u.email << "\t" << (u.is_admin ? "admin" : "user") << "\t"
                << (u.is_active ? "active" : "inactive") << "\n";
    return 0;
  }
  std::string username = option(args, "--username");
  if (username.empty() || !flag(args, "--password-stdin")) {
    std::cerr << kUsage;
    return 2;
  }
  if (sub == "add") {
    std::string email = option(args, "--email");
    if (!dozor::handlers::is_valid_email(email)) throw std::runtime_error("invalid e-mail address: " + email);
    auto u =
        dozor::users::create(db, password_policy(cfg), {username, email, read_password(), flag(args, "--admin"), true});
    std::cout << "created user " << u.username << " (id " << u.id << (u.is_admin ? ", admin" : "") << ")\n";
    return 0;
  }
  if (sub == "passwd") {
    // Any spelling of the name finds the account, as at login.
    auto u = dozor::users::find_by_name(db, username);
    if (!u) throw std::runtime_error("no such user: " + username);
    dozor::users::Update up;
    up.password = read_password();
    dozor::users::update(db, password_policy(cfg), u->id, up);
    std::cout << "password changed for " << u->username << "; existing tokens are revoked\n";
    return 0;
  }
  std::cerr << kUsage;
  return 2;
}

// Vault rules (docs/vault.md): the same engine calls as /api/admin/vault/rules, audited as
// done by "dozorctl" from the shell.
int vault_command(const dozor::config::Config& cfg, const std::vector<std::string>& args) {
  auto db = open_db(cfg);
  const std::string sub = args.size() > 1 ? args[1] : "";
  if (sub == "rules") {
    for (const auto& r : dozor::vault::list_rules(db))
      std::cout << r.username << "\t/" << r.path << "\t" << (r.read ? "r" : "-") << (r.write ? "w" : "-")
                << (r.del ? "d" : "-") << "\n";
    return 0;
  }
  std::string username = option(args, "--username");
  std::string raw_path = option(args, "--path");
  if ((sub != "grant" && sub != "revoke") || username.empty() || raw_path.empty()) {
    std::cerr << kUsage;
    return 2;
  }
  auto user = dozor::users::find_by_name(db, username);
  if (!user) throw std::runtime_error("no such user: " + username);
  auto path = dozor::vault::VaultPath::parse(raw_path);
  dozor::db::users::User shell;
  shell.username = "dozorctl";
  shell.id = 0;
  dozor::vault::Actor actor{shell, "local"};
  if (sub == "grant") {
    dozor::vault::Rights r{flag(args, "--read"), flag(args, "--write"), flag(args, "--delete")};
    dozor::vault::grant_rule(db, actor, user->id, path, r);
    std::cout << "vault: " << user->username << " on " << path.display() << ": " << (r.read ? "r" : "-")
              << (r.write ? "w" : "-") << (r.del ? "d" : "-") << "\n";
  } else {
    dozor::vault::revoke_rule(db, actor, user->id, path);
    std::cout << "vault: rule of " << user->username << " on " << path.display() << " removed\n";
  }
  return 0;
}

// The report the audit routes send, from a file: the renderer is proven without a stack.
int report_docx_command(const std::vector<std::string>& args) {
  const std::string input = option(args, "--input");
  const std::string output = option(args, "--output");
  const std::string lang_code = flag(args, "--lang") ? option(args, "--lang") : "ru";
  const auto lang = dozor::report::lang_from(lang_code);
  if (input.empty() || output.empty() || !lang) {
    std::cerr << kUsage;
    return 2;
  }
  std::ifstream in(input, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + input);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const auto value = boost::json::parse(text);
  if (!value.is_object()) throw std::runtime_error(input + ": the audit JSON must be an object");
  const auto started = std::chrono::steady_clock::now();
  const std::string bytes = dozor::report::render_audit_docx(value.get_object(), {*lang, {}});
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
  std::ofstream out(output, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw std::runtime_error("cannot write " + output);
  std::cout << "report: " << output << ": " << bytes.size() << " bytes in " << ms.count() << " ms\n"
            << "Content-Disposition: "
            << dozor::report::content_disposition(dozor::report::report_filename(value.get_object())) << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args;
  std::string config_path;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--config" && i + 1 < argc)
      config_path = argv[++i];
    else
      args.push_back(a);
  }
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::cout << kUsage;
    return 0;
  }
  if (!args.empty() && args[0] == "--version") {
    std::cout << "dozorctl " << DOZOR_VERSION << "\n";
    return 0;
  }
  if (args.empty()) {
    std::cerr << kUsage;
    return 2;
  }
  try {
    if (args[0] == "report-docx") return report_docx_command(args);
    if (args[0] == "nginx-config")
      return nginx_config_command(flag(args, "--defaults") ? dozor::config::Config{} : dozor::config::load(config_path),
                                  args);
    auto cfg = dozor::config::load(config_path);
    if (args[0] == "migrate") {
      dozor::db::init_driver();
      auto db = open_db(cfg);
      // Version 3 needs ICU's NFKC_Casefold, which SQL lacks (db/migrations/0003_login_hardening.sql).
      auto applied = dozor::db::migrate(db, cfg.paths.migrations, {{3, dozor::users::fill_canonical_usernames}});
      if (applied.empty()) std::cout << "migrate: schema is up to date\n";
      for (int v : applied) std::cout << "migrate: applied " << v << "\n";
      return 0;
    }
    if (args[0] == "vault") {
      dozor::db::init_driver();
      return vault_command(cfg, args);
    }
    if (args[0] == "user") {
      dozor::db::init_driver();
      return user_command(cfg, args);
    }
    if (args[0] == "notify" && args.size() > 1 && args[1] == "send-pending") {
      dozor::db::init_driver();
      dozor::net::global_init();
      auto db = open_db(cfg);
      dozor::net::EgressPolicy egress(cfg.scanner.allow_private_targets);
      dozor::notify::OutboxOptions opts;
      opts.owner = "dozorctl:" + std::to_string(getpid());
      opts.language = dozor::notify::parse_language(cfg.notify.language);
      opts.send = dozor::notify::send_context(cfg, egress);
      auto stats = dozor::notify::deliver_pending(db, opts);
      std::cout << "notify: " << stats.sent << " sent, " << stats.failed << " failed (retried later)\n";
      return stats.failed ? 1 : 0;
    }
    if (args[0] == "config" && args.size() > 1 && args[1] == "check") {
      // What dozor-fcgi --check-config checks: the files its workers read at start.
      dozor::auth::load_jwt_key(cfg.auth.jwt_secret_file);
      password_policy(cfg);
      std::cout << "config: " << dozor::config::resolve_path(config_path) << " is valid\n";
      if (cfg.scanner.allow_private_targets)
        std::cout << "config: warning: scanner.allow_private_targets = true (development and tests only)\n";
      return 0;
    }
    std::cerr << kUsage;
    return 2;
  } catch (const dozor::InvalidField& e) {
    std::cerr << "dozorctl: " << e.field << ": " << e.what() << "\n";
    return 1;
  } catch (const dozor::vault::InvalidPath& e) {
    std::cerr << "dozorctl: invalid path: " << e.what() << "\n";
    return 1;
  } catch (const dozor::NotFound& e) {
    std::cerr << "dozorctl: " << e.what() << "\n";
    return 1;
  } catch (const dozor::Conflict& e) {
    std::cerr << "dozorctl: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "dozorctl: " << e.what() << "\n";
    return 1;
  }
}
