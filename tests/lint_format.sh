#!/usr/bin/env bash
# Fails when a C++ file differs from .clang-format (ARCHITECTURE rule 6), or when there is
# nothing to check (an empty list must not pass silently).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(find fcgi handlers engines db programs tests/unit tests/fuzz -name '*.cpp' -o -name '*.hpp' | sort)
[ "${#files[@]}" -gt 20 ] || { echo "lint.format: only ${#files[@]} files found" >&2; exit 1; }
clang-format --dry-run -Werror "${files[@]}" </dev/null
echo "lint.format: ${#files[@]} files follow .clang-format"
