#pragma once
// The one type a vault file operation accepts: a path inside the vault, validated and made
// canonical once. Input that is not already a clean path is refused, never "cleaned": `..`,
// `.`, empty components, NUL and other control characters, bidirectional formatting controls,
// backslashes, invalid UTF-8 (which includes overlong encodings) and the names the vault
// reserves for itself. What remains is normalised to Unicode NFC, so two spellings of one name
// are one path — for the file system call and for the rights decision alike.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace dozor::vault {

// Why a path was refused (shown to the client as a 422 on the field that carried it).
struct InvalidPath : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline constexpr std::size_t kMaxNameBytes = 255;   // NAME_MAX of Linux file systems
inline constexpr std::size_t kMaxPathBytes = 1024;  // a vault path (vault_rules.path holds it)
inline constexpr std::size_t kMaxComponents = 64;   // folder depth
// The bidirectional formatting controls a name may not hold (U+202A-U+202E embeddings and
// overrides, U+2066-U+2069 isolates, U+200E/U+200F marks, U+061C the Arabic letter mark): they
// make a name display as another ("report\u202Efdp.exe" shows as "reportexe.pdf").
bool is_bidi_control(char32_t c);

// Names the vault writes for itself (temporary files between link and rename).
inline constexpr std::string_view kReservedPrefix = ".vault-";

class VaultPath {
 public:
  VaultPath() = default;  // the root of the vault

  // Parses a user-supplied path ("/a/b", "a/b", "/" or "" for the root; one trailing '/' is
  // allowed). Throws InvalidPath.
  static VaultPath parse(std::string_view raw);
  // One name (a file or folder name from an upload or a rename): the same rules, no '/'.
  static std::string parse_name(std::string_view raw);

  bool is_root() const { return parts_.empty(); }
  const std::vector<std::string>& parts() const { return parts_; }
  // "a/b/c" ("" for the root): what openat2 is given, relative to the root directory fd.
  std::string relative() const;
  // "/a/b/c" ("/" for the root): what users and the database see.
  std::string display() const;
  const std::string& name() const;               // the last component; the root has none (throws)
  VaultPath parent() const;                      // the root's parent is the root
  VaultPath child(std::string_view name) const;  // `name` is validated like parse_name

  // Whole-component prefix: "a/Secret" covers "a/Secret" and "a/Secret/x", never "a/Secretive".
  bool starts_with(const VaultPath& prefix) const;
  // Where this path (at or beneath `from`) is once `from` has moved to `to`: /a/P/RO/x rebased
  // from /a/P onto /S/Proj is /S/Proj/RO/x. Throws InvalidPath when it is not beneath `from`
  // or the result is too deep or too long.
  VaultPath rebased(const VaultPath& from, const VaultPath& to) const;

  // `name` with `tag` before its extension ("report.txt", "1a2b" → "report~1a2b.txt"; a name
  // without one, or a dot file, gets it at the end), the stem shortened at a character
  // boundary when the result would pass kMaxNameBytes. `name` is a valid name, `tag` ASCII.
  static std::string tagged_name(std::string_view name, std::string_view tag);

  friend bool operator==(const VaultPath&, const VaultPath&) = default;

 private:
  std::vector<std::string> parts_;
};

}  // namespace dozor::vault
