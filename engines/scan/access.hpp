#pragma once
// Who may actively scan what (issue 9 §3, docs/scan.md "Who may scan what"). An active scan is
// attack traffic, so a user scans only the sites of their own services — matched by host name,
// any scheme or port — unless they are an admin, an admin granted them any target, or the
// install says so for everyone (scanner.scan_any_target). Every decision is logged.
#include <cstdint>
#include <string>
#include <string_view>

#include "db/database.hpp"
#include "db/users_repo.hpp"

namespace dozor::scan {

enum class Reason { Admin, Grant, Everyone, OwnService, NotOwned };
std::string_view to_string(Reason r);  // "admin", "grant", "everyone", "own_service", "not_owned"

struct Decision {
  bool allowed = false;
  Reason reason = Reason::NotOwned;
};

// The host of an http(s) URL, lower case ("" when it is none).
std::string target_host(std::string_view url);

Decision decide(db::Connection& c, const db::users::User& caller, const std::string& target, bool scan_any_target);

// decide(), then the scan log's entry for it (`kind` the scan's name, `via` inline | task).
Decision decide_and_log(db::Database& db, const db::users::User& caller, const std::string& kind,
                        const std::string& target, std::string_view via, bool scan_any_target);

}  // namespace dozor::scan
