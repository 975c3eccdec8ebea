#!/usr/bin/env bash
# numavm-kernel.sh: fetch the Debian kernel the NUMA VM boots, as an ELF vmlinux plus the few modules the guest loads.
#
# Result, in ${OMPNUMA_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ompnuma/vm}:
#   kernel-<package>/vmlinux      uncompressed kernel (boots ~3 s faster under TCG than vmlinuz)
#   kernel-<package>/modules/     overlay + virtio/9p modules, flat (the guest insmods them by name)
#   kernel-<package>/config       the kernel's build configuration, for reference
#   kernel -> kernel-<package>    the one tools/numavm/numavm.py uses
# Idempotent: when the package apt currently offers is already unpacked it only checks and exits.
set -euo pipefail

cache=${OMPNUMA_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ompnuma/vm}
modules=(overlay virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci
         netfs fscache 9pnet 9pnet_virtio 9p)
log() { printf 'numavm-kernel: %s\n' "$*" >&2; }

# The kernel package the distribution's meta-package points at is the current
# ABI (linux-image-6.1.0-<N>-amd64); fall back to the highest N apt knows.
pick_package() {
  local pkg
  pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
        sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*-amd64\)$/\1/p' | head -n1)
  if [ -z "$pkg" ]; then
    pkg=$(apt-cache search --names-only '^linux-image-[0-9.]+-[0-9]+-amd64$' 2>/dev/null |
          awk '{print $1}' | sort -V | tail -n1)
  fi
  printf '%s' "$pkg"
}

pkg=$(pick_package)
if [ -z "$pkg" ] && [ -e "$cache/kernel/vmlinux" ]; then
  exit 0  # apt lists unavailable, but a kernel is already in place
fi
if [ -z "$pkg" ]; then
  log "no linux-image package known to apt; running apt-get update"
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  pkg=$(pick_package)
  [ -n "$pkg" ] || { log "apt knows no linux-image-*-amd64 package"; exit 1; }
fi

dest="$cache/kernel-$pkg"
if [ -f "$dest/vmlinux" ] && [ -f "$dest/.complete" ]; then
  [ "$(readlink "$cache/kernel" 2>/dev/null)" = "kernel-$pkg" ] || ln -sfn "kernel-$pkg" "$cache/kernel"
  exit 0
fi

log "fetching $pkg"
mkdir -p "$cache"
work=$(mktemp -d "$cache/.fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
# apt-get download writes into the current directory; the _apt sandbox user
# may not write there, which only costs a warning.
(cd "$work" && apt-get download -q "$pkg" 2>&1 | grep -v '^W: Download is performed unsandboxed' >&2 || true)
deb=$(ls "$work"/*.deb 2>/dev/null | head -n1)
[ -n "$deb" ] || { log "apt-get download $pkg produced no .deb"; exit 1; }
dpkg -x "$deb" "$work/root"

vmlinuz=$(ls "$work"/root/boot/vmlinuz-* | head -n1)
mkdir -p "$work/out/modules"
# vmlinuz is a bzImage whose payload is one XZ stream: find its magic and
# decompress from there; what follows the stream is ignored (--single-stream).
offset=$(LC_ALL=C grep -abo $'\xfd7zXZ' "$vmlinuz" | head -n1 | cut -d: -f1)
[ -n "$offset" ] || { log "$vmlinuz has no XZ payload"; exit 1; }
# tail may die of SIGPIPE once xz has the whole stream; only xz's status counts.
set +o pipefail
tail -c +$((offset + 1)) "$vmlinuz" | xz -dc --single-stream > "$work/out/vmlinux"
[ "${PIPESTATUS[1]}" = 0 ] || { log "xz could not decompress $vmlinuz"; exit 1; }
set -o pipefail
[ "$(head -c 4 "$work/out/vmlinux" | od -An -c | tr -d ' ')" = '177ELF' ] ||
  { log "decompressed kernel is not an ELF file"; exit 1; }
cp "$work"/root/boot/config-* "$work/out/config"
for m in "${modules[@]}"; do
  ko=$(find "$work/root/lib/modules" -name "$m.ko" -print -quit)
  [ -n "$ko" ] || { log "module $m.ko missing from $pkg"; exit 1; }
  cp "$ko" "$work/out/modules/"
done
touch "$work/out/.complete"
rm -rf "$dest"
mv "$work/out" "$dest"
ln -sfn "kernel-$pkg" "$cache/kernel.tmp" && mv -T "$cache/kernel.tmp" "$cache/kernel"
# Older kernels are no longer used by anything.
for old in "$cache"/kernel-*; do
  [ "$old" = "$dest" ] || rm -rf "$old"
done
log "kernel ready in $dest"
