// Homes (docs/vault.md "Homes"): /home/<username> is an account's own only once dozor-fcgi has
// made it for that account's id (vault_homes, migration 0023). Whatever a new account finds at
// its name — a deleted account's folder, something an admin put there — is archived first, and
// the folder of a deleted account is archived at once, so no account ever inherits another's files.
#include <sodium.h>

#include <iostream>

#include "engines/auth/username.hpp"
#include "engines/errors.hpp"
#include "engines/text/utc_time.hpp"
#include "engines/vault/audited.hpp"
#include "engines/vault/vault.hpp"

namespace dozor::vault {
namespace {

constexpr int kHomeClaimSeconds = 60;  // the lease of whoever makes a home (a crash frees it then)
constexpr int kHomesPerRound = 100;    // homes ensure_homes() makes in one call; the rest next time

// The actor of what the vault does by itself (audit rows without a user).
const db::users::User& system_user() {
  static const db::users::User u = [] {
    db::users::User s;
    s.username = "dozor";
    return s;
  }();
  return u;
}

}  // namespace

std::string archived_home_name(const std::string& name, const std::string& label, const std::string& stamp) {
  return name + "~" + label + "~" + stamp;
}

void Vault::ensure_dir(const VaultPath& p) {
  try {
    store_.make_dir(p);
  } catch (const Conflict&) {
    auto st = store_.stat(p);
    if (!st || !st->is_dir) throw;
  }
}

VaultPath Vault::archive(const VaultPath& home, const std::string& label) {
  VaultPath folder = VaultPath().child(kHomeArchiveFolder);
  ensure_dir(folder);
  std::string stamp = text::utc_now("%Y%m%dT%H%M%SZ");
  for (int attempt = 0;; ++attempt) {
    std::string name = archived_home_name(home.name(), label, stamp);
    if (attempt > 0) {
      unsigned char raw[3];
      randombytes_buf(raw, sizeof raw);
      char hex[sizeof raw * 2 + 1];
      sodium_bin2hex(hex, sizeof hex, raw, sizeof raw);
      name += std::string("-") + hex;
    }
    VaultPath to = folder.child(name);
    try {
      store_.rename(home, to);
      return to;
    } catch (const Conflict&) {
      if (attempt >= 3) throw;  // the same name in the same second, four times: give up for now
    }
  }
}

bool Vault::ensure_home(const db::users::User& u) {
  VaultPath home;
  try {
    home = home_of(u.username);
  } catch (const InvalidPath&) {
    // A name that is no file name ("..", ".vault-x") has no home: nothing to make, ever.
    try {
      db_.run(
          [&](db::Connection& c) {
            db::vault::insert_home(c, u.id, "ready");
            db::vault::set_home_ready(c, u.id);
          },
          db::Retry::OnLostConnection);
    } catch (const std::exception& e) {
      std::cerr << "vault: account " << u.id << ": " << e.what() << "\n";
    }
    return false;
  }
  try {
    std::optional<db::vault::HomeRow> row;
    db_.run(
        [&](db::Connection& c) {
          db::vault::insert_home(c, u.id, "new");  // an account written without one (by hand) is new
          row = db::vault::find_home(c, u.id);
        },
        db::Retry::OnLostConnection);
    if (!row) return false;  // the account went meanwhile
    if (row->state == "ready") return keep_home(u);
    bool claimed = false;
    db_.run([&](db::Connection& c) { claimed = db::vault::claim_home(c, u.id, row->state, kHomeClaimSeconds); },
            db::Retry::Never);
    if (!claimed) return false;  // another process is making it, or it changed state meanwhile
    if (row->state == "new") {
      // Nothing there is this account's: rules other users held on the path before the account
      // existed, and any folder at the name, belonged to someone or something else.
      int dropped = 0;
      db_.run([&](db::Connection& c) { dropped = db::vault::delete_rules_under(c, home.relative(), u.id); },
              db::Retry::Never);
      if (dropped > 0)
        write_audit(db_, {system_user(), "local"}, "home_rules", home.display(),
                    std::to_string(dropped) + " rules older than account " + std::to_string(u.id) + " removed", "ok");
      if (store_.stat(home)) {
        VaultPath to = archive(home, "found");
        write_audit(db_, {system_user(), "local"}, "archive_home", home.display(),
                    to.display() + " (found before account " + std::to_string(u.id) + " was given the name)", "ok");
      }
      ensure_dir(home.parent());
      store_.make_dir(home);  // Conflict: someone put a folder there since; the next attempt archives it
    } else {
      ensure_dir(home.parent());
      ensure_dir(home);  // 'adopt': the folder there has been this account's all along
    }
    db_.run([&](db::Connection& c) { db::vault::set_home_ready(c, u.id); }, db::Retry::Never);
    return true;
  } catch (const std::exception& e) {
    std::cerr << "vault: the home of account " << u.id << " is not made yet: " << e.what() << "\n";
    return false;
  }
}

bool Vault::keep_home(const db::users::User& u) {
  try {
    VaultPath home = home_of(u.username);
    if (!store_.stat(home)) {  // made before, removed by hand since: it comes back, empty
      ensure_dir(home.parent());
      ensure_dir(home);
    }
  } catch (const InvalidPath&) {
    return false;
  } catch (const std::exception& e) {
    std::cerr << "vault: the home of account " << u.id << " cannot be made again: " << e.what() << "\n";
  }
  return true;
}

int Vault::ensure_homes() {
  std::vector<std::pair<std::int64_t, std::string>> pending;
  try {
    db_.run([&](db::Connection& c) { pending = db::vault::homes_not_ready(c, kHomesPerRound); },
            db::Retry::OnLostConnection);
  } catch (const std::exception& e) {
    std::cerr << "vault: homes not made: " << e.what() << "\n";
    return 0;
  }
  int made = 0;
  for (const auto& [id, name] : pending) {
    db::users::User u;
    u.id = id;
    u.username = name;
    if (ensure_home(u)) ++made;
  }
  return made;
}

void Vault::archive_home(const Actor& admin, const db::users::User& gone) {
  VaultPath home;
  try {
    home = home_of(gone.username);
  } catch (const InvalidPath&) {
    return;
  }
  std::string target = "account " + std::to_string(gone.id) + " deleted";  // audited() reads it after the action
  try {
    audited(db_, admin, "archive_home", home.display(), target, [&] {
      // The name may already be another account's (deleted and made again meanwhile): its own
      // home, made by ensure_home, is never archived here.
      if (auto owner = owner_of_home(home); owner && owner->id != gone.id) {
        target += "; the name is account " + std::to_string(owner->id) + "'s now, nothing moved";
        return;
      }
      int dropped = 0;
      db_.run([&](db::Connection& c) { dropped = db::vault::delete_rules_under(c, home.relative(), std::nullopt); },
              db::Retry::Never);
      if (dropped > 0) target += "; " + std::to_string(dropped) + " rules on it removed";
      if (store_.stat(home)) target += "; moved to " + archive(home, std::to_string(gone.id)).display();
    });
  } catch (const std::exception& e) {
    // The account is gone already: a home left at its name is archived when a new account of
    // the name is given its home (ensure_home), never handed over.
    std::cerr << "vault: the home of deleted account " << gone.id << " stays at " << home.display() << ": " << e.what()
              << "\n";
  }
}

std::optional<db::users::User> Vault::owner_of_home(const VaultPath& p) {
  if (p.parts().size() != 2 || p.parts()[0] != kHomeFolder) return std::nullopt;
  auto canonical = auth::canonical_username(p.name());
  if (!canonical) return std::nullopt;
  std::optional<db::users::User> u;
  db_.run([&](db::Connection& c) { u = db::users::find_by_canonical(c, *canonical); }, db::Retry::OnLostConnection);
  try {
    if (u && home_of(u->username) == p) return u;
  } catch (const InvalidPath&) {
  }
  return std::nullopt;
}

void Vault::require_movable(const VaultPath& p) {
  if (p == VaultPath().child(kHomeFolder)) throw Conflict("the folder of the users' homes cannot be deleted or moved");
  if (owner_of_home(p)) throw Conflict("a user's home folder cannot be deleted or moved (its content can)");
}

}  // namespace dozor::vault
