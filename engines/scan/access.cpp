#include "engines/scan/access.hpp"

#include <boost/url/parse.hpp>

#include "db/scan_access_repo.hpp"
#include "db/services_repo.hpp"
#include "engines/net/url_check.hpp"

namespace dozor::scan {

std::string_view to_string(Reason r) {
  switch (r) {
    case Reason::Admin: return "admin";
    case Reason::Grant: return "grant";
    case Reason::Everyone: return "everyone";
    case Reason::OwnService: return "own_service";
    case Reason::NotOwned: break;
  }
  return "not_owned";
}

std::string target_host(std::string_view url) {
  if (net::check_http_url(url)) return {};
  const std::string normal = net::normalize_http_url(url);  // the view below points into it
  auto parsed = boost::urls::parse_uri(normal);
  if (!parsed) return {};
  return std::string(parsed->encoded_host());
}

Decision decide(db::Connection& c, const db::users::User& caller, const std::string& target, bool scan_any_target) {
  if (caller.is_admin) return {true, Reason::Admin};
  if (scan_any_target) return {true, Reason::Everyone};
  if (db::scan_access::has_grant(c, caller.id)) return {true, Reason::Grant};
  auto host = target_host(target);
  if (!host.empty())
    for (const auto& s : db::services::list_by_user(c, caller.id))
      if (target_host(s.url) == host) return {true, Reason::OwnService};
  return {false, Reason::NotOwned};
}

Decision decide_and_log(db::Database& db, const db::users::User& caller, const std::string& kind,
                        const std::string& target, std::string_view via, bool scan_any_target) {
  Decision d;
  db.run([&](db::Connection& c) { d = decide(c, caller, target, scan_any_target); }, db::Retry::OnLostConnection);
  db::scan_access::LogEntry e;
  e.user_id = caller.id;
  e.kind = kind;
  e.target = target;
  e.via = std::string(via);
  e.allowed = d.allowed;
  e.reason = std::string(to_string(d.reason));
  db.run([&](db::Connection& c) { db::scan_access::log(c, e); }, db::Retry::Never);
  return d;
}

}  // namespace dozor::scan
