#pragma once
// Who may do what where: pure decisions over a user's rules (no I/O).
//
// A rule grants rights on a canonical path prefix, matched on whole components. The most
// specific rule covering a path decides alone (a rule with no rights on /Shared/Secret denies
// what one on /Shared grants). Every user has an implicit home rule — read, write and delete on
// /home/<username> — unless a rule of theirs names that exact path. Admins hold every right
// everywhere (they manage the rules).
#include <cstdint>
#include <string>
#include <vector>

#include "engines/vault/path.hpp"

namespace dozor::vault {

struct Rights {
  bool read = false;
  bool write = false;
  bool del = false;
  friend bool operator==(const Rights&, const Rights&) = default;
};

struct Rule {
  std::int64_t id = 0;  // 0 for the implicit home rule
  VaultPath prefix;
  Rights rights;
};

inline constexpr const char* kHomeFolder = "home";
// Where the homes of deleted accounts (and whatever a new account found at its name) are kept:
// /home-archive/<name>~<account id or "found">~<UTC time>. Admins reach it; no implicit rule does.
inline constexpr const char* kHomeArchiveFolder = "home-archive";

// The home folder of a user: /home/<username>. Throws InvalidPath for a name that cannot be one.
VaultPath home_of(const std::string& username);

class Access {
 public:
  // `username`: whose implicit home rule applies; "" for none (an account whose home is not made
  // yet holds no right on /home/<name>: what lies there may be someone else's).
  Access(std::vector<Rule> rules, bool is_admin, const std::string& username);

  Rights rights_on(const VaultPath& p) const;
  bool may_read(const VaultPath& p) const { return rights_on(p).read; }
  // A folder the caller may open although it cannot read it: it lies on the way to a folder
  // it can read (/home for /home/alice). Its listing shows only what leads there.
  bool may_pass(const VaultPath& folder) const;
  // Shown in a listing: readable, or on the way to something readable.
  bool may_see(const VaultPath& p) const { return may_read(p) || may_pass(p); }
  // The prefixes of the rules strictly beneath `p` on which the caller lacks a right of `need`:
  // what moving or deleting `p` whole would carry away (or put under another rule) although
  // those rules withhold it. Empty for an admin.
  std::vector<VaultPath> lacking_beneath(const VaultPath& p, Rights need) const;

  const std::vector<Rule>& rules() const { return rules_; }
  bool is_admin() const { return admin_; }

 private:
  std::vector<Rule> rules_;  // explicit rules plus the home rule
  bool admin_;
};

}  // namespace dozor::vault
