#include "engines/vault/rights.hpp"

namespace dozor::vault {

VaultPath home_of(const std::string& username) { return VaultPath().child(kHomeFolder).child(username); }

Access::Access(std::vector<Rule> rules, bool is_admin, const std::string& username)
    : rules_(std::move(rules)), admin_(is_admin) {
  try {
    VaultPath home = home_of(username);
    bool named = false;
    for (const auto& r : rules_)
      if (r.prefix == home) named = true;
    if (!named) rules_.push_back({0, home, {true, true, true}});
  } catch (const InvalidPath&) {
    // A username that is no valid file name has no home folder; its explicit rules still apply.
  }
}

Rights Access::rights_on(const VaultPath& p) const {
  if (admin_) return {true, true, true};
  const Rule* best = nullptr;
  for (const auto& r : rules_)
    if (p.starts_with(r.prefix) && (!best || r.prefix.parts().size() > best->prefix.parts().size())) best = &r;
  return best ? best->rights : Rights{};
}

std::vector<VaultPath> Access::lacking_beneath(const VaultPath& p, Rights need) const {
  std::vector<VaultPath> out;
  if (admin_) return out;
  for (const auto& r : rules_) {
    if (!r.prefix.starts_with(p) || r.prefix == p) continue;
    Rights have = rights_on(r.prefix);
    if ((need.read && !have.read) || (need.write && !have.write) || (need.del && !have.del)) out.push_back(r.prefix);
  }
  return out;
}

bool Access::may_pass(const VaultPath& folder) const {
  if (admin_) return true;
  for (const auto& r : rules_)
    if (r.rights.read && r.prefix.starts_with(folder) && r.prefix != folder && may_read(r.prefix)) return true;
  return false;
}

}  // namespace dozor::vault
