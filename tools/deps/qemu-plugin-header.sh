#!/usr/bin/env bash
# qemu-plugin-header.sh: fetch the installed QEMU's plugin API header (qemu-plugin.h) from Debian's qemu source package.
#
# No Debian binary package ships qemu-plugin.h, and the header is QEMU's
# (GPL-2.0-or-later), so it is never committed: this step downloads the source
# package of exactly the installed qemu version with a private apt source list
# (deb-src lines for the suites the installed package comes from, same URIs and
# keyring as the machine's own entries; the machine's apt state is untouched),
# and keeps only include/qemu/qemu-plugin.h, in
#   ${XDG_CACHE_HOME:-$HOME/.cache}/ompnuma/qemu-plugin/<source version>/qemu-plugin.h
# where CMake looks for it (tools/numaemu/CMakeLists.txt). Idempotent. Without
# QEMU, or when the download fails, it says why and exits 0: the emulated-NUMA
# plugin is then not built, and nothing else depends on it.
set -uo pipefail

log() { printf 'qemu-plugin-header: %s\n' "$*" >&2; }

cache=${XDG_CACHE_HOME:-$HOME/.cache}/ompnuma/qemu-plugin
binpkg=qemu-system-x86
if ! dpkg-query -W -f='${Status}' "$binpkg" 2>/dev/null | grep -q 'install ok installed'; then
  log "$binpkg is not installed: no plugin header needed"
  exit 0
fi
src=$(dpkg-query -W -f='${source:Package}' "$binpkg")
ver=$(dpkg-query -W -f='${source:Version}' "$binpkg")
dest="$cache/${ver//:/_}"
if [ -f "$dest/qemu-plugin.h" ]; then
  exit 0
fi

# The suites that carry the installed binary package: "URI suite/component" from apt's policy.
mapfile -t origins < <(apt-cache policy "$binpkg" 2>/dev/null |
  awk '$2 ~ /^(https?|file):/ && $3 ~ /\// {print $2, $3}' | sort -u)
if ((${#origins[@]} == 0)); then
  log "apt knows no archive for $binpkg: cannot fetch the $src source package (no emulated-NUMA plugin)"
  exit 0
fi

# The keyring the machine's own entry for a URI uses (deb822 Signed-By or one-line [signed-by=...]).
keyring_for() {
  local uri=$1 f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk -v uri="$uri" 'BEGIN{RS=""; FS="\n"}
      { hit=0; key="";
        for (i=1;i<=NF;i++) { if ($i ~ /^URIs:/) { n=split(substr($i,6),u," "); for (j=1;j<=n;j++) if (u[j]==uri || u[j]"/"==uri || u[j]==uri"/") hit=1 }
                             if ($i ~ /^Signed-By:/) { key=$i; sub(/^Signed-By:[ \t]*/,"",key) } }
        if (hit && key != "") { print key; exit } }' "$f"
  done | head -n1
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    grep -E "^deb .*${uri%/}/? " "$f" | sed -n 's/.*signed-by=\([^] ]*\).*/\1/p'
  done | head -n1
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/archives/partial" "$work/src"
list="$work/sources.list"
for o in "${origins[@]}"; do
  uri=${o%% *}; sc=${o#* }; suite=${sc%%/*}; comp=${sc#*/}
  key=$(keyring_for "$uri")
  [ -n "$key" ] || key=/usr/share/keyrings/debian-archive-keyring.gpg
  echo "deb-src [signed-by=$key] $uri $suite $comp" >> "$list"
done
log "fetching the $src $ver source package (about 25 MB) to extract qemu-plugin.h"
aptopts=(-o Dir::Etc::SourceList="$list" -o Dir::Etc::SourceParts=- -o Dir::State::Lists="$work/lists"
         -o Dir::Cache::Archives="$work/archives" -o APT::Sandbox::User=root -q)
if ! apt-get "${aptopts[@]}" update >"$work/update.log" 2>&1; then
  log "apt-get update with the private source list failed (no emulated-NUMA plugin):"
  tail -n 5 "$work/update.log" >&2
  exit 0
fi
if ! (cd "$work/src" && apt-get "${aptopts[@]}" source --download-only "$src=$ver") >"$work/source.log" 2>&1; then
  log "apt-get source $src=$ver failed (no emulated-NUMA plugin):"
  tail -n 5 "$work/source.log" >&2
  exit 0
fi
tarball=$(ls "$work"/src/*.orig.tar.* 2>/dev/null | head -n1)
if [ -z "$tarball" ]; then
  log "the $src source package has no upstream tarball (no emulated-NUMA plugin)"
  exit 0
fi
# Only the one header leaves the tarball; Debian's patches do not touch it.
member=$(tar -tf "$tarball" 2>/dev/null | grep -m1 '^[^/]*/include/qemu/qemu-plugin\.h$')
if [ -z "$member" ]; then
  log "$(basename "$tarball") holds no include/qemu/qemu-plugin.h (no emulated-NUMA plugin)"
  exit 0
fi
tar -xf "$tarball" -C "$work" "$member"
mkdir -p "$dest"
cp "$work/$member" "$dest/qemu-plugin.h.tmp" && mv "$dest/qemu-plugin.h.tmp" "$dest/qemu-plugin.h"
echo "$src $ver $(basename "$tarball")" > "$dest/SOURCE"
log "header ready: $dest/qemu-plugin.h"
