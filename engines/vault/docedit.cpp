#include "engines/vault/docedit.hpp"

#include <sodium.h>

#include <algorithm>
#include <array>
#include <boost/json/parse.hpp>
#include <boost/url/encode.hpp>
#include <boost/url/parse.hpp>
#include <boost/url/rfc/unreserved_chars.hpp>
#include <charconv>

#include "db/users_repo.hpp"
#include "db/vault_docedit_repo.hpp"
#include "engines/auth/crypto.hpp"
#include "engines/auth/jwt.hpp"
#include "engines/errors.hpp"
#include "engines/limits.hpp"
#include "engines/net/scan_client.hpp"
#include "engines/text/ascii.hpp"
#include "engines/vault/docedit_token.hpp"

namespace dozor::vault {
namespace {

std::string lower_ext(std::string_view name) {
  auto dot = name.rfind('.');
  if (dot == std::string_view::npos || dot + 1 == name.size()) return "";
  std::string ext(name.substr(dot + 1));
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

std::string new_key() {
  std::array<unsigned char, 16> raw{};
  randombytes_buf(raw.data(), raw.size());
  std::array<char, 33> hex{};
  sodium_bin2hex(hex.data(), hex.size(), raw.data(), raw.size());
  return std::string(hex.data(), 32);
}

std::uint16_t port_of(const boost::urls::url_view& u) {
  if (u.has_port()) return u.port_number();
  return static_cast<std::uint16_t>(u.scheme_id() == boost::urls::scheme::https ? 443 : 80);
}

CallbackResult refused(std::string why) { return {1, false, std::move(why)}; }

db::vault_docedit::FileIdentity identity(const Entry& e) { return {e.ino, e.size, e.mtime_ns}; }

std::int64_t parse_id(std::string_view s) {
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size() && v > 0 ? v : 0;
}

}  // namespace

std::string document_type(std::string_view filename) {
  static const std::array<std::pair<const char*, const char*>, 16> kTypes{{
      {"docx", "word"},
      {"doc", "word"},
      {"odt", "word"},
      {"rtf", "word"},
      {"txt", "word"},
      {"docm", "word"},
      {"xlsx", "cell"},
      {"xls", "cell"},
      {"ods", "cell"},
      {"csv", "cell"},
      {"pptx", "slide"},
      {"ppt", "slide"},
      {"odp", "slide"},
      {"pdf", "pdf"},
      {"xlsm", "cell"},
      {"pptm", "slide"},
  }};
  auto ext = lower_ext(filename);
  for (const auto& [e, t] : kTypes)
    if (ext == e) return t;
  return "";
}

bool valid_doc_key(std::string_view key) {
  if (key.empty() || key.size() > limits::kVaultDocKeyBytes) return false;
  return std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '.' ||
           c == '_' || c == '=';
  });
}

bool same_origin(std::string_view url, std::string_view origin) {
  auto u = boost::urls::parse_absolute_uri(url);
  auto o = boost::urls::parse_absolute_uri(origin);
  if (!u || !o) return false;
  auto scheme = u->scheme_id();
  if (scheme != boost::urls::scheme::http && scheme != boost::urls::scheme::https) return false;
  if (scheme != o->scheme_id() || u->has_userinfo()) return false;
  return text::ascii_lower(u->host()) == text::ascii_lower(o->host()) && port_of(*u) == port_of(*o);
}

std::string editor_csp(const std::string& docserver_url) {
  std::string src = docserver_url.empty() ? "" : " " + docserver_url;
  return "default-src 'self'; script-src 'self'" + src + "; frame-src 'self'" + src +
         "; style-src 'self'; img-src 'self' data:; connect-src 'self'" + src +
         "; font-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'";
}

DocEdit::DocEdit(Vault& vault, const config::VaultConfig& cfg) : vault_(vault), cfg_(cfg) {}

std::optional<std::string> DocEdit::download_sig(std::string_view path, std::int64_t exp) const {
  std::string input = "vault-docedit-download\n" + std::string(path) + "\n" + std::to_string(exp);
  auto mac = auth::crypto::hmac_sha256(cfg_.docserver_jwt_secret, input);
  if (!mac) return std::nullopt;
  return auth::base64url_encode(*mac);
}

// The key of the file as it is now: the path's key while the file is still the one it was issued
// for, else a new one (the file changed by another route: upload, save, rename, delete). Only an
// opener with the write right becomes the user the session's saves are recorded for; a viewer
// changes nothing of that.
std::string DocEdit::key_for(const std::string& path, const db::vault_docedit::FileIdentity& file,
                             std::int64_t writer_id) {
  std::string key;
  vault_.db().run(
      [&](db::Connection& c) {
        for (int attempt = 0; attempt < 3 && key.empty(); ++attempt) {
          if (auto row = db::vault_docedit::find_by_path(c, path)) {
            if (row->file && *row->file == file) {
              if (writer_id > 0) db::vault_docedit::set_opened_by(c, path, writer_id);
              key = row->doc_key;
            } else {
              auto fresh = new_key();
              if (db::vault_docedit::replace_key(c, path, row->doc_key, fresh, file, writer_id)) key = fresh;
            }
          } else {
            auto fresh = new_key();
            if (db::vault_docedit::insert_key(c, path, fresh, writer_id, file)) key = fresh;
          }
        }
      },
      db::Retry::OnLostConnection);
  if (key.empty()) throw std::runtime_error("cannot assign a document key");
  return key;
}

EditorLaunch DocEdit::open(const Actor& a, const VaultPath& p, const std::string& vault_origin, std::int64_t now) {
  if (!enabled()) throw NotFound("document editing is not configured");
  Access access = vault_.access_for(a.user);
  require(access, p, {true, false, false});
  auto st = vault_.store().stat(p);
  if (!st || st->is_dir) throw NotFound("Not found");
  std::string type = document_type(p.name());
  if (type.empty()) throw NotFound("not an office document");
  // Saving an edit replaces the file: write and delete, as an upload's overwrite needs.
  Rights rights = access.rights_on(p);
  bool can_write = rights.write && rights.del;

  std::string path = p.display();
  std::string key = key_for(path, identity(*st), can_write ? a.user.id : 0);
  std::int64_t exp = now + limits::kVaultDocDownloadSeconds;
  auto sig = download_sig(path, exp);
  if (!sig) throw std::runtime_error("cannot sign the download URL: HMAC failed");
  std::string url = vault_origin +
                    "/vault/docedit_download?path=" + boost::urls::encode(path, boost::urls::unreserved_chars) +
                    "&exp=" + std::to_string(exp) + "&sig=" + *sig;

  boost::json::object config{
      {"document",
       {{"fileType", lower_ext(p.name())},
        {"key", key},
        {"title", p.name()},
        {"url", url},
        {"permissions", {{"edit", can_write}, {"download", true}, {"print", true}}}}},
      {"documentType", type},
      {"editorConfig",
       {{"callbackUrl", vault_origin + "/vault/docedit_callback"},
        {"mode", can_write ? "edit" : "view"},
        {"user", {{"id", std::to_string(a.user.id)}, {"name", a.user.username}}}}},
  };
  boost::json::object signed_payload = config;
  signed_payload["iat"] = now;
  signed_payload["exp"] = now + limits::kVaultDocConfigSeconds;
  config["token"] = sign_hs256(signed_payload, cfg_.docserver_jwt_secret);
  return {cfg_.docserver_url + "/web-apps/apps/api/documents/api.js", std::move(config)};
}

FileRef DocEdit::signed_download(std::string_view path, std::string_view exp_text, std::string_view sig,
                                 std::int64_t now) {
  if (!enabled()) throw NotFound("document editing is not configured");
  std::int64_t exp = 0;
  auto [end, ec] = std::from_chars(exp_text.data(), exp_text.data() + exp_text.size(), exp);
  if (ec != std::errc() || end != exp_text.data() + exp_text.size() || exp <= now ||
      exp > now + limits::kVaultDocDownloadSeconds)
    throw Forbidden("the download link has expired");
  auto expected = download_sig(path, exp);
  if (!expected || !auth::crypto::equal_constant_time(*expected, sig))
    throw Forbidden("the download link is not valid");
  VaultPath p = VaultPath::parse(path);
  auto st = vault_.store().stat(p);
  if (!st || st->is_dir) throw NotFound("Not found");
  return {p, st->size, ""};
}

std::optional<std::string> DocEdit::fetch(const std::string& url, std::string& why) {
  if (!same_origin(url, cfg_.docserver_url)) {
    why = "the file's url is not on the document server's origin";
    return std::nullopt;
  }
  net::ScanOptions options;
  options.per_host_interval = std::chrono::milliseconds(0);
  options.request_timeout = std::chrono::seconds(limits::kVaultDocFetchSeconds);
  options.max_body = static_cast<std::size_t>(limits::kVaultDocFetchBytes);
  options.max_redirects = 0;
  options.user_agent = "Dozor-Vault/1.0";
  net::ScanSession session(policy_, std::move(options));
  net::FetchRequest request;
  request.url = url;
  request.max_redirects = 0;
  request.oversize_is_error = true;
  auto outcome = session.fetch(std::move(request));
  if (!outcome.responded || outcome.kind != net::CheckError::None) {
    why = "fetching the edited file failed: " + outcome.error;
    return std::nullopt;
  }
  if (outcome.status != 200) {
    why = "the document server answered " + std::to_string(outcome.status);
    return std::nullopt;
  }
  if (outcome.truncated) {
    why = "the edited file is too large";
    return std::nullopt;
  }
  return std::move(outcome.body);
}

CallbackResult DocEdit::callback(std::string_view body, std::optional<std::string_view> authorization,
                                 std::int64_t now) {
  if (!enabled()) return refused("document editing is not configured");
  if (body.size() > limits::kVaultDocCallbackBytes) return refused("body too large");
  boost::system::error_code ec;
  auto parsed = boost::json::parse(body, ec);
  if (ec || !parsed.is_object()) return refused("body is not a JSON object");
  const auto& fields = parsed.as_object();

  // The claims: the body's token (claims = the callback's fields), else the header's (claims
  // wrap them as {"payload": {...}}). An unsigned callback is refused.
  std::optional<boost::json::object> claims;
  if (auto* t = fields.if_contains("token")) {
    if (!t->is_string()) return refused("token is not a string");
    claims = verify_hs256(t->as_string(), cfg_.docserver_jwt_secret, now);
    if (!claims) return refused("the body's token is not valid");
  } else if (authorization && authorization->size() > 7 &&
             text::ascii_lower(authorization->substr(0, 7)) == "bearer ") {
    auto outer = verify_hs256(authorization->substr(7), cfg_.docserver_jwt_secret, now);
    if (!outer) return refused("the header's token is not valid");
    auto* inner = outer->if_contains("payload");
    if (!inner || !inner->is_object()) return refused("the header's token has no payload");
    claims = inner->as_object();
  } else {
    return refused("no token");
  }
  // Only signed claims are acted on; a body that says something else is a forgery.
  for (const auto& [name, value] : fields) {
    if (name == "token") continue;
    auto* signed_value = claims->if_contains(name);
    if (!signed_value || *signed_value != value) return refused("the body differs from the signed claims");
  }

  auto* key_v = claims->if_contains("key");
  auto* status_v = claims->if_contains("status");
  if (!key_v || !key_v->is_string() || !valid_doc_key(key_v->as_string())) return refused("no valid key");
  if (!status_v || !status_v->is_int64() || status_v->as_int64() < 1 || status_v->as_int64() > 7 ||
      status_v->as_int64() == 5)
    return refused("no valid status");
  std::string key(key_v->as_string());
  auto status = status_v->as_int64();

  std::optional<db::vault_docedit::KeyRow> row;
  bool closed = false;
  vault_.db().run(
      [&](db::Connection& c) {
        row = db::vault_docedit::find_by_key(c, key);
        closed = !row && db::vault_docedit::is_closed(c, key);
      },
      db::Retry::OnLostConnection);
  if (!row) {
    // A key this vault closed with a save: the callback was already acted on (a replay, or the
    // document server repeating itself) — accepted, nothing written again.
    if (closed) return {0, false, "key already saved"};
    return refused("unknown key");
  }
  // 1 editing, 3 and 7 the document server's own saving errors, 4 closed without changes.
  if (status != 2 && status != 6) return {0, false, ""};

  auto* url_v = claims->if_contains("url");
  if (!url_v || !url_v->is_string()) return refused("no url");
  VaultPath p = VaultPath::parse(row->path);

  // Who saves: the first user of the signed `users` claim (the document server names the last
  // editor first; their id is the editor config's editorConfig.user.id) who may write the file
  // now (write and delete: a save replaces it), else the last opener with those rights. A viewer
  // is never one of them.
  std::vector<std::int64_t> candidates;
  if (auto* users_v = claims->if_contains("users"); users_v && users_v->is_array())
    for (const auto& u : users_v->as_array())
      if (u.is_string())
        if (auto id = parse_id(u.as_string())) candidates.push_back(id);
  if (row->opened_by > 0) candidates.push_back(row->opened_by);
  std::optional<db::users::User> saver;
  for (auto id : candidates) {
    std::optional<db::users::User> user;
    vault_.db().run([&](db::Connection& c) { user = db::users::find_by_id(c, id); }, db::Retry::OnLostConnection);
    if (!user || !user->is_active) continue;
    Rights rights = vault_.access_for(*user).rights_on(p);
    if (!rights.write || !rights.del) continue;
    saver = std::move(user);
    break;
  }
  if (!saver) return refused("no user of this session may write the file");
  Actor actor{*saver, "docserver"};

  // The file must still be the one the key was issued for (or its own last save): changed,
  // renamed or deleted by another route since, the edits are refused rather than written over
  // newer content or at a path the file left (docs/vault.md "Document editing").
  auto st = vault_.store().stat(p);
  if (!row->file || !st || st->is_dir || identity(*st) != *row->file) {
    vault_.audit(actor, "docedit_save", row->path, "the file changed since the editor opened it", "conflict");
    return refused("the file changed since the editor opened it");
  }

  // Each force-save (its url and changesurl) is claimed once, before anything is fetched: a
  // replay is accepted and neither fetches nor writes; a failed fetch or write releases it.
  std::string digest;
  if (status == 6) {
    std::string what(url_v->as_string());
    if (auto* changes = claims->if_contains("changesurl"); changes && changes->is_string())
      what += "\n" + std::string(changes->as_string());
    auto hex = auth::crypto::sha256_hex(what);
    if (!hex) return refused("cannot hash the force-save");
    digest = *hex;
    bool first = false;
    vault_.db().run([&](db::Connection& c) { first = db::vault_docedit::claim_forcesave(c, key, digest); },
                    db::Retry::Never);
    if (!first) return {0, false, "force-save already written"};
  }
  auto unclaim = [&] {
    if (status == 6)
      vault_.db().run([&](db::Connection& c) { db::vault_docedit::unclaim_forcesave(c, key, digest); },
                      db::Retry::Never);
  };

  std::string why;
  auto bytes = fetch(std::string(url_v->as_string()), why);
  if (!bytes) {
    unclaim();
    return refused(why);
  }

  // Status 2 ends the session: close the key first (one winner among replays), then write; a
  // failed write reopens it so the document server's retry can save. Status 6 (force-save) keeps
  // the key: the session goes on and its final status 2 comes with the same key.
  std::string fresh = new_key();
  if (status == 2) {
    bool won = false;
    vault_.db().run([&](db::Connection& c) { won = db::vault_docedit::rotate_key(c, row->path, key, fresh); },
                    db::Retry::Never);
    if (!won) return {0, false, "key already saved"};
  }
  try {
    vault_.save_version(actor, p, *bytes);
  } catch (const std::exception& e) {
    if (status == 2)
      vault_.db().run([&](db::Connection& c) { db::vault_docedit::reopen_key(c, row->path, fresh, key); },
                      db::Retry::Never);
    unclaim();
    return refused(std::string("the save failed: ") + e.what());
  }
  // The session's key (the new one after status 2) now belongs to the file just written.
  if (auto now_st = vault_.store().stat(p)) {
    const std::string& current = status == 2 ? fresh : key;
    vault_.db().run([&](db::Connection& c) { db::vault_docedit::set_identity(c, current, identity(*now_st)); },
                    db::Retry::OnLostConnection);
  }
  return {0, true, ""};
}

}  // namespace dozor::vault
