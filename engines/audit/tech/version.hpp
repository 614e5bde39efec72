#pragma once
// Version strings as libraries and products write them ("1.12.4", "3.0.0-rc.1", "v2.6.14",
// "1.8b2"), ordered semver-ish (docs/audit.md "Technologies"): digit runs compare as integers,
// missing numeric parts count as 0 ("1.2" == "1.2.0"), a letter part marks a pre-release that
// sorts below the release ("3.0.0-rc1" < "3.0.0") and above the previous one; "+build" is ignored.
#include <string>
#include <string_view>

namespace dozor::audit::tech {

// <0, 0 or >0 as a is older than, the same as or newer than b.
int compare_versions(std::string_view a, std::string_view b);

// at_or_above <= v < below; an empty bound is open.
bool version_in_range(std::string_view v, std::string_view at_or_above, std::string_view below);

// A captured version worth keeping: starts with a digit, only [0-9A-Za-z._+-], at most
// limits::tech::kVersionChars long.
bool plausible_version(std::string_view v);

}  // namespace dozor::audit::tech
