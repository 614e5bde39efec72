# shellcheck shell=bash disable=SC2154 # repo and test_name come from the caller
# Shared by packaging/test-install and packaging/test-systemd: output helpers,
# the package to test, and clean Debian roots built with mmdebstrap from the
# Debian mirrors this host's apt is configured with (cached, never in the repo).
# Sourced; expects `repo` (the repository root) to be set.

# One clock for every process of a test (host, namespaces).
export DOZOR_TEST_T0=${DOZOR_TEST_T0:-$(date +%s)}
elapsed() { echo $(($(date +%s) - DOZOR_TEST_T0)); }
step() { printf '\n==> %s [%3ds] %s\n' "$test_name" "$(elapsed)" "$*"; }
note() { printf '    %s\n' "$*"; }
die() {
  printf '\n%s: FAILED: %s\n' "$test_name" "$*" >&2
  exit 1
}

require_tools() { # TOOL=PACKAGE...: installs the packages of missing tools
  local pair missing=()
  for pair in "$@"; do
    command -v "${pair%%=*}" >/dev/null || missing+=("${pair#*=}")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  note "installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null ||
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; } ||
    die "cannot install ${missing[*]}"
}

# The package to test: $1 if given, else the newest build/deb/dozor_*.deb,
# built by packaging/build-deb when there is none.
find_deb() {
  local deb=${1:-} f
  if [ -z "$deb" ]; then
    for f in "$repo"/build/deb/dozor_*.deb; do
      [ -e "$f" ] || continue
      if [ -z "$deb" ] || [ "$f" -nt "$deb" ]; then deb=$f; fi
    done
  fi
  if [ -z "$deb" ]; then
    note "no package in build/deb/: running packaging/build-deb" >&2
    "$repo/packaging/build-deb" >&2
    find_deb ""
    return
  fi
  deb=$(readlink -f "$deb")
  [ -f "$deb" ] || die "no such package: $deb"
  echo "$deb"
}

# "deb URI SUITE main" for each SUITE* that Debian serves from the mirrors this
# host uses: apt-cache policy has read every sources.list and .sources file.
# No host name is written into these scripts.
debian_sources() { # SUITE
  apt-cache policy | grep -q ' release .*o=Debian,' || apt-get update -qq
  apt-cache policy | awk -v suite="$1" '
    /^ *[0-9]+ (https?|file):/ { uri = $2; split($3, a, "/"); s = a[1]; next }
    /^ +release / {
      if (uri != "" && $0 ~ /o=Debian,/ && (s == suite || index(s, suite "-") == 1))
        print "deb " uri " " s " main"
      uri = ""
    }' | sort -u
}

# A minbase root of SUITE plus INCLUDE (comma-separated) as a tarball in CACHE,
# built once; prints its path.
base_root() { # CACHE SUITE INCLUDE
  local cache=$1 suite=$2 include=$3 sources key base line lines=()
  sources=$(debian_sources "$suite")
  [ -n "$sources" ] || die "no Debian $suite mirror configured in /etc/apt/sources.list*"
  while IFS= read -r line; do
    note "$line" >&2
    lines+=("$line")
  done <<<"$sources"
  # The cache key: whatever changes the root's content.
  key=$(printf '%s\n' "$suite" "$sources" "$include" "$(mmdebstrap --version)" | md5sum | cut -c1-12)
  base=$cache/base-$suite-$key.tar
  mkdir -p "$cache"
  if [ -f "$base" ]; then
    note "cached: $base ($(du -h "$base" | cut -f1), $((($(date +%s) - $(stat -c %Y "$base")) / 86400)) days old)" >&2
  else
    note "building $base with mmdebstrap (once; later runs reuse it)" >&2
    mmdebstrap --quiet --variant=minbase --format=tar --include="$include" \
      "$suite" "$base.partial" "${lines[@]}" >&2 || die "mmdebstrap failed"
    mv "$base.partial" "$base"
  fi
  echo "$base"
}

# Unpacks BASE into ROOT, after removing what an earlier run left in WORK.
fresh_root() { # BASE WORK ROOT
  local base=$1 work=$2 root=$3
  if [ -d "$work" ]; then
    # Only leftovers of an earlier run: refuse if anything is still mounted there.
    if findmnt -rn -o TARGET | grep -q "^$work"; then die "something is still mounted under $work"; fi
    rm -rf --one-file-system "$work"
  fi
  mkdir -p "$root"
  tar -C "$root" -xf "$base"
}

# The changelog's top version at COMMIT.
changelog_version_at() { # COMMIT
  git -C "$repo" show "$1:packaging/debian/changelog" | dpkg-parsechangelog -l - -S Version
}

# The last commit whose changelog carries a version other than CURRENT, found without
# tags: walk the changelog's history back while it still says CURRENT, then step to the
# parent of the oldest such commit. Prints nothing in a shallow or one-version history.
release_before() { # CURRENT
  local current=$1 c oldest=
  for c in $(git -C "$repo" rev-list HEAD -- packaging/debian/changelog); do
    [ "$(changelog_version_at "$c")" = "$current" ] || break
    oldest=$c
  done
  [ -n "$oldest" ] || return 0
  c=$(git -C "$repo" rev-parse --verify --quiet "$oldest^") || return 0
  [ "$(changelog_version_at "$c")" != "$current" ] && echo "$c"
}

# The package of the previous release, to upgrade from: the newest tag v*
# reachable from HEAD whose version differs from this tree's package version,
# built from that commit in a temporary git worktree (once; cached in
# CACHE/previous/TAG-COMMIT/). DOZOR_TEST_PREVIOUS_DEB names a .deb instead.
# Prints its path.
previous_deb() { # CACHE
  local cache=$1 current tag commit dir deb tmp
  if [ -n "${DOZOR_TEST_PREVIOUS_DEB:-}" ]; then
    readlink -f "$DOZOR_TEST_PREVIOUS_DEB"
    return
  fi
  current=$(dpkg-parsechangelog -l "$repo/packaging/debian/changelog" -S Version)
  for tag in $(git -C "$repo" tag --merged HEAD --sort=-v:refname --list 'v[0-9]*'); do
    [ "${tag#v}" != "$current" ] && break
    tag=
  done
  if [ -n "${tag:-}" ]; then
    commit=$(git -C "$repo" rev-parse "$tag^{commit}")
  else
    # A checkout without tags (CI's clean clone has none): the previous release is the
    # parent of the commit that first carried this version in the changelog.
    commit=$(release_before "$current")
    [ -n "$commit" ] || die "no release before $current: no v* tag is reachable from HEAD and the changelog's history has no earlier version (docs/packaging.md)"
    tag=v$(changelog_version_at "$commit")
    note "no v* tag in this checkout; $tag is ${commit:0:12}, the last commit before $current" >&2
  fi
  dir=$cache/previous/$tag-${commit:0:12}
  deb=$(find "$dir" -maxdepth 1 -name 'dozor_*.deb' ! -name '*dbgsym*' 2>/dev/null | head -n 1)
  if [ -z "$deb" ]; then
    note "building the $tag package from $commit in a temporary worktree (once; cached in $dir)" >&2
    tmp=$(mktemp -d /var/tmp/dozor-previous-XXXXXX)
    git -C "$repo" worktree add --quiet --detach "$tmp/src" "$commit" >&2
    if ! DOZOR_SKIP_LINTIAN=1 "$tmp/src/packaging/build-deb" >"$tmp/build.log" 2>&1; then
      tail -n 30 "$tmp/build.log" >&2
      git -C "$repo" worktree remove --force "$tmp/src"
      die "building the $tag package failed"
    fi
    mkdir -p "$dir"
    cp "$tmp"/src/build/deb/dozor_*.deb "$dir/"
    rm -f "$dir"/*dbgsym*
    git -C "$repo" worktree remove --force "$tmp/src"
    rm -rf "$tmp"
    deb=$(find "$dir" -maxdepth 1 -name 'dozor_*.deb' | head -n 1)
  fi
  [ -n "$deb" ] || die "no package for $tag in $dir"
  echo "$deb"
}
