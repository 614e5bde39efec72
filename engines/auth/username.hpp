#pragma once
#include "engines/limits.hpp"
// One canonical form of a username, used wherever a name is compared or stored for comparison:
// the login route, account creation (API and dozorctl) and users.username_canonical (UNIQUE,
// binary collation). Two spellings are one name exactly when their canonical forms are equal.
//
// The rule (docs/login.md): Unicode NFKC_Casefold (NFKC + full case folding + removal of
// default-ignorable code points such as zero-width spaces, joiners and bidi controls), every
// space separator (NBSP, ideographic space, ...) as U+0020, spaces trimmed at both ends and
// runs collapsed; a name holding control, format, private-use, unassigned or line/paragraph
// separator characters after that has no canonical form.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace dozor::auth {

constexpr std::size_t kMaxUsernameChars = limits::kUsernameChars;  // users.username / username_canonical VARCHAR(64)
constexpr std::size_t kMaxUsernameInputBytes =
    limits::kUsernameInputBytes;  // longer input is refused before any Unicode work

// The canonical form, or nullopt when the input is not UTF-8, too long, empty after
// normalisation, or holds a character that no name may hold. A login with such a name is
// answered like an unknown one.
std::optional<std::string> canonical_username(std::string_view raw);

// NFKC_Casefold alone (no character rules): how passwords are compared with the common list
// and with the username. nullopt when `text` is not UTF-8.
std::optional<std::string> fold(std::string_view text);

// Characters (code points) of valid UTF-8; bytes are not characters.
std::size_t utf8_chars(std::string_view text);

struct NewNameCheck {
  std::string canonical;  // set when problem is empty
  std::string problem;    // why the name cannot be registered, for a 422 or dozorctl message
};

// The stricter rule for names being created: besides having a canonical form, the name as
// typed holds no white space and no invisible, control or bidi character (they would be
// stored in the display name), and it is at most kMaxUsernameChars characters.
NewNameCheck check_new_username(std::string_view raw);

}  // namespace dozor::auth
