#include "engines/vault/vault.hpp"

#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <iostream>

#include "engines/errors.hpp"
#include "engines/limits.hpp"
#include "engines/vault/audited.hpp"
#include "engines/vault/serve.hpp"

namespace dozor::vault {
namespace {

// The random tag of a name stored in a drop box (12 hex digits: a collision is never expected).
constexpr std::size_t kDropTagBytes = 6;

const char* right_name(Rights need) {
  if (need.del) return "delete";
  if (need.write) return "write";
  return "read";
}

}  // namespace

void require(const Access& a, const VaultPath& p, Rights need) {
  Rights r = a.rights_on(p);
  if ((!need.read || r.read) && (!need.write || r.write) && (!need.del || r.del)) return;
  if (a.may_see(p)) throw Forbidden(std::string("You do not have the ") + right_name(need) + " right here");
  throw NotFound("Not found");
}

// Moving or deleting a folder whole takes everything inside along: a rule beneath it that
// withholds a right of `need` (a protected subfolder) refuses the whole action, or the subfolder
// would leave its rule (renamed under the caller's home) or go to the caller's trash. Only
// rules whose path exists count: a rule for a name not there protects nothing yet.
void Vault::require_subtree(const Access& a, const VaultPath& p, Rights need) {
  for (const auto& inner : a.lacking_beneath(p, need))
    if (store_.stat(inner))
      throw Forbidden(std::string("Something inside is protected: you do not have the ") + right_name(need) +
                      " right on all of this folder");
}

// Putting content at `to` plants it under every rule beneath `to`: each such rule that withholds
// writing refuses the whole move when the moved content has something at its path (`holds`
// is asked with the path under `to`). Rules for names the content does not have receive nothing.
void Vault::require_destination(const Access& a, const VaultPath& to,
                                const std::function<bool(const VaultPath&)>& holds) {
  for (const auto& inner : a.lacking_beneath(to, {false, true, false}))
    if (holds(inner))
      throw Forbidden(
          "Something inside would land in a protected folder: you do not have the write right on all of "
          "the destination");
}

// A caller who cannot read where a new entry goes (a drop box) must not learn which names exist
// there: what it creates takes a name of its own, the wanted one with a random tag, whether the
// wanted name is free or not, and nothing is ever replaced.
VaultPath Vault::placed(const Access& a, const VaultPath& wanted) {
  if (a.may_read(wanted) || wanted.is_root()) return wanted;
  unsigned char raw[kDropTagBytes];
  randombytes_buf(raw, sizeof raw);
  char hex[sizeof raw * 2 + 1];
  sodium_bin2hex(hex, sizeof hex, raw, sizeof raw);
  return wanted.parent().child(VaultPath::tagged_name(wanted.name(), hex));
}

Vault::Vault(db::Database& db, const config::VaultConfig& cfg) : db_(db), cfg_(cfg), store_(cfg.root) {
  int removed = store_.clean_temps();
  if (removed > 0) std::cerr << "vault: removed " << removed << " abandoned temporary files\n";
}

Access Vault::access_for(const db::users::User& u) {
  std::vector<db::vault::RuleRow> rows;
  std::optional<db::vault::HomeRow> home;
  db_.run(
      [&](db::Connection& c) {
        rows = db::vault::rules_of(c, u.id);
        home = db::vault::find_home(c, u.id);
      },
      db::Retry::OnLostConnection);
  // The implicit home rule holds only once the home is this account's (docs/vault.md "Homes").
  bool has_home = home && home->state == "ready" ? keep_home(u) : ensure_home(u);
  std::vector<Rule> rules;
  for (const auto& r : rows) {
    try {
      rules.push_back({r.id, VaultPath::parse(r.path), {r.read, r.write, r.del}});
    } catch (const InvalidPath&) {
      // Stored paths are canonical; one that is not (edited by hand) grants nothing.
    }
  }
  return Access(std::move(rules), u.is_admin, has_home ? u.username : std::string());
}

void Vault::audit(const Actor& a, const std::string& action, const std::string& path, const std::string& target,
                  const std::string& outcome) {
  write_audit(db_, a, action, path, target, outcome);
}

void write_audit(db::Database& db, const Actor& a, const std::string& action, const std::string& path,
                 const std::string& target, const std::string& outcome) {
  try {
    db::vault::AuditRow row;
    if (a.user.id > 0) row.user_id = a.user.id;  // 0: dozorctl, no account
    row.username = a.user.username;
    row.remote_addr = a.remote_addr;
    row.action = action;
    row.path = path;
    row.target = target;
    row.outcome = outcome;
    db.run([&](db::Connection& c) { db::vault::insert_audit(c, row); }, db::Retry::Never);
  } catch (const std::exception& e) {
    std::cerr << "vault: audit row not written (" << action << " " << path << "): " << e.what() << "\n";
  }
}

VaultPath Vault::start_folder(const db::users::User& u) {
  Access access = access_for(u);  // makes the home when it is not made yet
  try {
    VaultPath home = home_of(u.username);
    auto st = store_.stat(home);
    if (st && st->is_dir && access.may_read(home)) return home;
  } catch (const InvalidPath&) {
    // A user name that cannot be a folder name has no home: the top.
  }
  return VaultPath();
}

Listing Vault::browse(const Actor& a, const VaultPath& p) {
  // Every account's home exists from its creation: one made where no dozor-fcgi ran (dozorctl)
  // is made by the time anyone lists where it lives.
  if (p.is_root() || p == VaultPath().child(kHomeFolder)) ensure_homes();
  Access access = access_for(a.user);
  if (!access.may_see(p)) throw NotFound("Not found");
  auto st = store_.stat(p);
  if (!st || !st->is_dir) throw NotFound("Not found");
  Listing out{p, access.rights_on(p), {}};
  for (auto& e : store_.list(p)) {
    if (!access.may_see(p.child(e.name))) continue;
    out.entries.push_back(std::move(e));
    if (out.entries.size() >= limits::kVaultListEntries) break;
  }
  std::sort(out.entries.begin(), out.entries.end(), [](const Entry& x, const Entry& y) {
    if (x.is_dir != y.is_dir) return x.is_dir;
    return x.name < y.name;
  });
  return out;
}

FileRef Vault::open_for_download(const Actor& a, const VaultPath& p) {
  require(access_for(a.user), p, {true, false, false});
  Fd f = store_.open_read(p);
  auto st = store_.stat(p);
  return {p, st ? st->size : 0, {}};
}

FileRef Vault::open_for_view(const Actor& a, const VaultPath& p) {
  require(access_for(a.user), p, {true, false, false});
  Fd f = store_.open_read(p);
  auto st = store_.stat(p);
  return {p, st ? st->size : 0, sniff_mime(f.get())};
}

std::optional<std::string> Vault::read_whole(const Actor& a, const VaultPath& p, std::int64_t max_bytes) {
  require(access_for(a.user), p, {true, false, false});
  Fd f = store_.open_read(p);
  struct stat st {};
  if (fstat(f.get(), &st) != 0 || !S_ISREG(st.st_mode)) throw NotFound("Not found");
  if (st.st_size > max_bytes) return std::nullopt;
  std::string bytes;
  bytes.reserve(static_cast<std::size_t>(st.st_size));
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(f.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error("vault: cannot read " + p.display());
    if (n == 0) break;
    // The file may have grown since fstat: the bound holds for what is read, not what was stat'ed.
    if (static_cast<std::int64_t>(bytes.size()) + n > max_bytes) return std::nullopt;
    bytes.append(buf, static_cast<std::size_t>(n));
  }
  return bytes;
}

VaultPath Vault::create_folder(const Actor& a, const VaultPath& wanted) {
  std::string target;  // audited() reads it after the action: a drop box's stored name
  return audited(db_, a, "create_folder", wanted.display(), target, [&] {
    Access access = access_for(a.user);
    require(access, wanted, {false, true, false});
    VaultPath p = placed(access, wanted);
    if (!(p == wanted)) target = "stored as " + p.display();
    store_.make_dir(p);
    return p;
  });
}

std::int64_t Vault::write_limit(const Actor& a, std::int64_t freed) {
  if (cfg_.quota <= 0) return cfg_.max_upload;
  std::int64_t used = 0;
  db_.run([&](db::Connection& c) { used = db::vault::usage_of(c, a.user.id); }, db::Retry::OnLostConnection);
  return std::min(cfg_.max_upload, std::max<std::int64_t>(cfg_.quota - used + freed, 0));
}

Saved Vault::save_file(const Actor& a, const VaultPath& wanted, std::string_view content) {
  std::string target;  // audited() reads it after the action: a drop box's stored name
  return audited(db_, a, "save_file", wanted.display(), target, [&] {
    Access access = access_for(a.user);
    require(access, wanted, {false, true, false});
    VaultPath p = placed(access, wanted);
    if (!(p == wanted)) target = "stored as " + p.display();
    auto existing = store_.stat(p);
    if (existing && existing->is_dir) throw Conflict("a folder with that name exists");
    // Replacing a file removes its content, as an upload's overwrite does: the delete right decides.
    if (existing) require(access, p, {false, true, true});
    return write_version(a, "save_file", p, existing.has_value(), content, nullptr);
  });
}

Saved Vault::save_version(const Actor& a, const VaultPath& p, std::string_view content,
                          std::int64_t* previous_trash_id) {
  return audited(db_, a, "docedit_save", p.display(), "", [&] {
    Access access = access_for(a.user);
    require(access, p, {false, true, false});
    auto existing = store_.stat(p);
    if (existing && existing->is_dir) throw Conflict("a folder with that name exists");
    if (existing) require(access, p, {false, true, true});  // a new version replaces the file
    return write_version(a, "docedit_save", p, existing.has_value(), content, previous_trash_id);
  });
}

Saved Vault::write_version(const Actor& a, const std::string& action, const VaultPath& p, bool replace,
                           std::string_view content, std::int64_t* previous_trash_id) {
  auto file = store_.begin_write(p, write_limit(a, 0));  // the old version stays, and counts
  file.write(content);                                   // all of it written before the old version is kept
  std::string checked = check_malware(a, action, p, file);
  std::int64_t trash_id = 0;
  if (replace) {
    // The previous version is linked into the trash, then the new one replaces the name in
    // one rename: readers see the old file or the new one, never none.
    db_.run([&](db::Connection& c) { trash_id = db::vault::insert_trash(c, a.user.id, p.display(), false); },
            db::Retry::Never);
    try {
      std::int64_t size = store_.link_to_trash(p, a.user.id, trash_id);
      db_.run([&](db::Connection& c) { db::vault::set_trash_size(c, trash_id, size); }, db::Retry::Never);
    } catch (...) {
      db_.run([&](db::Connection& c) { db::vault::delete_trash(c, trash_id); }, db::Retry::Never);
      throw;
    }
  }
  // Replace only what was judged: a file that appeared at a free name meanwhile is a conflict,
  // never replaced without the delete right being asked.
  file.commit(replace);
  db_.run([&](db::Connection& c) { db::vault::add_usage(c, a.user.id, file.size()); }, db::Retry::Never);
  if (previous_trash_id) *previous_trash_id = trash_id;
  return Saved{p, file.size(), replace, checked};
}

std::string Vault::check_malware(const Actor& a, const std::string& action, const VaultPath& p,
                                 const PendingFile& file) {
  if (!malware_check_) return {};
  if (file.size() == 0) return "clean";  // nothing to scan
  try {
    return malware_check_(a, p.name(), file.fd(), file.size());
  } catch (const Infected& e) {
    audit(a, action, p.display(), e.signature, "infected");
    throw;
  }
}

void Vault::rename(const Actor& a, const VaultPath& from, const VaultPath& wanted, VaultPath* moved_to) {
  std::string target = wanted.display();  // audited() reads it after the action: the place it took
  audited(db_, a, "rename", from.display(), target, [&] {
    Access access = access_for(a.user);
    // Moving away deletes the old name: write and delete there; the new name needs write.
    require(access, from, {false, true, true});
    require(access, wanted, {false, true, false});
    require_movable(from);
    // The whole folder moves: every protected part inside must allow moving away too ...
    require_subtree(access, from, {false, true, true});
    VaultPath to = placed(access, wanted);
    target = to.display();
    if (store_.stat(to)) {
      // Taking the place of an entry would remove it: that is the delete right's to allow.
      require(access, to, {false, true, true});
      throw Conflict("an entry with that name exists");
    }
    // ... and every rule beneath the destination that would receive part of it must allow writing.
    require_destination(access, to, [&](const VaultPath& inner) {
      try {
        return store_.stat(inner.rebased(to, from)).has_value();
      } catch (const InvalidPath&) {
        return false;  // deeper or longer than any path: nothing can be there
      }
    });
    store_.rename(from, to);
    if (moved_to) *moved_to = to;
  });
}

std::int64_t Vault::remove(const Actor& a, const VaultPath& p) {
  return audited(db_, a, "delete", p.display(), "", [&] {
    Access access = access_for(a.user);
    require(access, p, {false, false, true});
    if (p.is_root()) throw Conflict("the root cannot be deleted");
    require_movable(p);
    require_subtree(access, p, {false, false, true});
    auto st = store_.stat(p);
    if (!st) throw NotFound("Not found");
    purge_expired(a.user.id);
    std::int64_t id = 0;
    db_.run([&](db::Connection& c) { id = db::vault::insert_trash(c, a.user.id, p.display(), st->is_dir); },
            db::Retry::Never);
    try {
      std::int64_t size = store_.move_to_trash(p, a.user.id, id);
      db_.run([&](db::Connection& c) { db::vault::set_trash_size(c, id, size); }, db::Retry::Never);
    } catch (...) {
      db_.run([&](db::Connection& c) { db::vault::delete_trash(c, id); }, db::Retry::Never);
      throw;
    }
    return id;
  });
}

VaultPath Vault::restore(const Actor& a, std::int64_t trash_id) {
  std::optional<db::vault::TrashRow> row;
  db_.run([&](db::Connection& c) { row = db::vault::find_trash(c, a.user.id, trash_id); }, db::Retry::OnLostConnection);
  std::string target = row ? row->original_path : "";
  std::string what = std::to_string(trash_id);  // audited() reads it after the action
  return audited(db_, a, "restore", target, what, [&] {
    if (!row) throw NotFound("Not found");
    VaultPath wanted = VaultPath::parse(row->original_path);
    Access access = access_for(a.user);
    require(access, wanted, {false, true, false});
    VaultPath to = placed(access, wanted);
    if (!(to == wanted)) what += ", restored as " + to.display();
    // A folder comes back whole: no rule beneath its place may withhold writing what it holds.
    require_destination(access, to, [&](const VaultPath& inner) {
      return store_.trash_holds(a.user.id, trash_id, inner.rebased(to, VaultPath()));
    });
    store_.restore(a.user.id, trash_id, to);
    db_.run([&](db::Connection& c) { db::vault::delete_trash(c, trash_id); }, db::Retry::Never);
    return to;
  });
}

void Vault::purge_expired(std::int64_t user_id) {
  std::vector<db::vault::TrashRow> rows;
  db_.run([&](db::Connection& c) { rows = db::vault::expired_trash(c, user_id, cfg_.trash_days); },
          db::Retry::OnLostConnection);
  purge_rows(rows);
}

int Vault::purge_expired_all(int limit) {
  std::vector<db::vault::TrashRow> rows;
  db_.run([&](db::Connection& c) { rows = db::vault::expired_trash_all(c, cfg_.trash_days, limit); },
          db::Retry::OnLostConnection);
  purge_rows(rows);
  return static_cast<int>(rows.size());
}

// The files go first: a crash between the two leaves a row whose purge finds nothing left to
// remove, never a file that no row accounts for.
void Vault::purge_rows(const std::vector<db::vault::TrashRow>& rows) {
  for (const auto& r : rows) {
    store_.purge(r.user_id, r.id);
    db_.run(
        [&](db::Connection& c) {
          // Once only, whoever purges it (a worker and dozord may race): the row decides.
          c.transaction([&] {
            if (db::vault::delete_trash(c, r.id)) db::vault::add_usage(c, r.user_id, -r.size);
          });
        },
        db::Retry::Never);
  }
}

std::vector<TrashItem> Vault::trash(const Actor& a) {
  purge_expired(a.user.id);
  std::vector<db::vault::TrashRow> rows;
  db_.run([&](db::Connection& c) { rows = db::vault::trash_of(c, a.user.id); }, db::Retry::OnLostConnection);
  std::vector<TrashItem> out;
  out.reserve(rows.size());
  for (const auto& r : rows) out.push_back({r.id, r.original_path, r.is_dir, r.size, r.trashed_at});
  return out;
}

std::vector<db::vault::RuleRow> Vault::rules() { return list_rules(db_); }
std::int64_t Vault::grant(const Actor& admin, std::int64_t user_id, const VaultPath& p, Rights r) {
  return grant_rule(db_, admin, user_id, p, r);
}
bool Vault::revoke(const Actor& admin, std::int64_t user_id, const VaultPath& p) {
  return revoke_rule(db_, admin, user_id, p);
}

std::vector<db::vault::RuleRow> list_rules(db::Database& db) {
  std::vector<db::vault::RuleRow> rows;
  db.run([&](db::Connection& c) { rows = db::vault::all_rules(c); }, db::Retry::OnLostConnection);
  return rows;
}

std::int64_t grant_rule(db::Database& db, const Actor& admin, std::int64_t user_id, const VaultPath& p, Rights r) {
  std::string what = std::string(r.read ? "r" : "-") + (r.write ? "w" : "-") + (r.del ? "d" : "-");
  return audited(db, admin, "grant", p.display(), "user " + std::to_string(user_id) + " " + what, [&] {
    std::int64_t id = 0;
    db.run(
        [&](db::Connection& c) {
          if (!db::users::find_by_id(c, user_id)) throw NotFound("User not found");
          id = db::vault::upsert_rule(c, {0, user_id, {}, p.relative(), r.read, r.write, r.del});
        },
        db::Retry::Never);
    return id;
  });
}

bool revoke_rule(db::Database& db, const Actor& admin, std::int64_t user_id, const VaultPath& p) {
  return audited(db, admin, "revoke", p.display(), "user " + std::to_string(user_id), [&] {
    bool removed = false;
    db.run([&](db::Connection& c) { removed = db::vault::delete_rule_at(c, user_id, p.relative()); }, db::Retry::Never);
    if (!removed) throw NotFound("No such rule");
    return removed;
  });
}

std::vector<db::vault::AuditRow> Vault::audit_log(std::int64_t before_id, int limit) {
  std::vector<db::vault::AuditRow> rows;
  db_.run([&](db::Connection& c) { rows = db::vault::audit_page(c, before_id, limit); }, db::Retry::OnLostConnection);
  return rows;
}

std::vector<Saved> Vault::upload(const Actor& a, const VaultPath& folder, bool overwrite, const std::string& boundary,
                                 const std::function<std::size_t(char*, std::size_t)>& read) {
  std::optional<Upload> up;
  return audited(db_, a, "upload", folder.display(), "", [&] {
    up.emplace(*this, a, folder, overwrite);
    MultipartParser parser(boundary, *up);
    std::string buf(std::size_t{64} * 1024, '\0');  // memory per upload: this chunk plus one part header block
    while (std::size_t n = read(buf.data(), buf.size())) parser.feed(std::string_view(buf.data(), n));
    parser.finish();
    return up->saved();
  });
}

// ---- Upload

Upload::Upload(Vault& v, const Actor& a, VaultPath folder, bool overwrite)
    : vault_(v),
      actor_(a),
      folder_(std::move(folder)),
      overwrite_(overwrite),
      access_(v.access_for(a.user)),
      quota_left_(INT64_MAX) {
  require(access_, folder_, {false, true, false});
  auto st = v.store().stat(folder_);
  if (!st || !st->is_dir) throw NotFound("Not found");
  if (v.config().quota > 0) {
    std::int64_t used = 0;
    v.db().run([&](db::Connection& c) { used = db::vault::usage_of(c, a.user.id); }, db::Retry::OnLostConnection);
    quota_left_ = std::max<std::int64_t>(v.config().quota - used, 0);
  }
}

void Upload::on_part(const PartHeaders& h) {
  if (!h.filename) throw MultipartError("only file parts are accepted (field '" + h.name + "')");
  VaultPath wanted = folder_.child(*h.filename);  // InvalidPath: refused, never cleaned
  // A folder the caller cannot read (a drop box): a name of its own, never a replacement.
  current_path_ = vault_.placed(access_, wanted);
  auto existing = vault_.store().stat(current_path_);
  current_exists_ = existing.has_value();
  if (existing) {
    if (existing->is_dir) throw Conflict("a folder with that name exists");
    if (!overwrite_ || !(current_path_ == wanted))
      throw Conflict("a file with that name exists (send overwrite=true to replace it)");
    // Replacing a file removes its old content: the delete right decides.
    require(access_, current_path_, {false, true, true});
  } else {
    require(access_, current_path_, {false, true, false});
  }
  std::int64_t room = quota_left_ + (existing ? existing->size : 0);
  current_.emplace(vault_.store().begin_write(current_path_, std::min(vault_.config().max_upload, room)));
}

void Upload::on_data(std::string_view bytes) {
  if (current_) current_->write(bytes);
}

void Upload::on_part_end() {
  if (!current_) return;
  std::int64_t size = current_->size();
  std::string checked;
  try {
    checked = vault_.check_malware(actor_, "upload", current_path_, *current_);
  } catch (...) {
    current_.reset();  // the unnamed file goes with its descriptor
    throw;
  }
  // Replace only what on_part judged: a file that appeared at the name since then (the check
  // may take long) is a conflict, not replaced without the delete right being asked.
  std::int64_t old_size = current_->commit(overwrite_ && current_exists_);
  current_.reset();
  std::int64_t delta = size - old_size;
  quota_left_ = std::max<std::int64_t>(quota_left_ - delta, 0);
  vault_.db().run([&](db::Connection& c) { db::vault::add_usage(c, actor_.user.id, delta); }, db::Retry::Never);
  vault_.audit(actor_, "upload", current_path_.display(),
               std::to_string(size) + " bytes" + (checked.rfind("not scanned", 0) == 0 ? ", " + checked : ""), "ok");
  saved_.push_back({current_path_, size, current_exists_, checked});
}

}  // namespace dozor::vault
