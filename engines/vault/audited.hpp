#pragma once
// Internal to the vault engine (vault.cpp, homes.cpp): one audit row per mutating action.
#include <string>
#include <type_traits>

#include "engines/errors.hpp"
#include "engines/vault/vault.hpp"

namespace dozor::vault {

// Runs a mutating action and writes its audit row: "ok", "denied" (403/404 by rights),
// "conflict", or "error"; the exception goes on to the caller. `path` and `target` are read when
// the row is written, after fn: fn may fill them in (the name a drop box stored under).
template <typename Fn>
auto audited(db::Database& v, const Actor& a, const std::string& action, const std::string& path,
             const std::string& target, Fn&& fn) {
  try {
    if constexpr (std::is_void_v<decltype(fn())>) {
      fn();
      write_audit(v, a, action, path, target, "ok");
    } else {
      auto result = fn();
      write_audit(v, a, action, path, target, "ok");
      return result;
    }
  } catch (const Infected&) {
    throw;  // its row names the file and the signature (Upload::on_part_end)
  } catch (const Forbidden&) {
    write_audit(v, a, action, path, target, "denied");
    throw;
  } catch (const NotFound&) {
    write_audit(v, a, action, path, target, "not_found");
    throw;
  } catch (const Conflict&) {
    write_audit(v, a, action, path, target, "conflict");
    throw;
  } catch (...) {
    write_audit(v, a, action, path, target, "error");
    throw;
  }
}

}  // namespace dozor::vault
