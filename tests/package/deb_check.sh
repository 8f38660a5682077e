#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# The Debian package end to end (issue 39): made from a built tree, installed, used, removed.
#
#   tests/package/deb_check.sh BUILD_DIR
#
# BUILD_DIR: a configured and built esign tree (ESIGN_INSTALL ON, the server built), e.g.
# build/gcc. In order:
#   1. cpack -G DEB into BUILD_DIR/deb-check/ (CPack builds the tree's `all` first: nothing to do
#      in a built tree);
#   2. its contents: the server and esign-schema, every header of include/, the CMake package,
#      esign.pc and esign-client.pc, the two man pages, the copyright (the licence), the changelogs; nothing
#      outside /usr;
#   3. apt-get install -y ./esign_*.deb;
#   4. its Depends: the -dev packages the headers need, and the package of every shared library
#      the installed server links (found with ldd and dpkg -S);
#   5. tests/consumer/main.cpp built against /usr with find_package (tests/consumer/CMakeLists.txt),
#      pkg-config, and Meson (tests/consumer/meson.build), and run; client.cpp with pkg-config
#      (esign-client.pc as installed), the other two finding esign::client / esign-client only
#      (CI time: the client's headers are a minute of g++ per build; the same CMake and Meson
#      files are built against by the consumer tests of an installed tree);
#   6. the public conformance suite (../shared/conformance) against /usr/bin/esign-reference-server;
#   7. man esign-reference-server;
#   8. apt-get remove -y esign: no file of the package left (dpkg -L taken before), only shared
#      folders.
# Exits non-zero at the first failure with a line "deb_check: FAILED: ...". Needs root (apt-get)
# and, beyond the build's packages: dpkg-dev (dpkg-shlibdeps, for Depends), man-db (man).
# The package is removed on any exit once installed, so that a failure leaves no esign in /usr;
# an esign package installed before the run is removed first.
set -euo pipefail

fail() {
    echo "deb_check: FAILED: $*" >&2
    exit 1
}
say() { echo "deb_check: [${SECONDS}s] $*"; }

[[ $# -eq 1 ]] || {
    echo "usage: $0 BUILD_DIR" >&2
    exit 2
}
[[ -f $1/CPackConfig.cmake ]] || fail "$1/CPackConfig.cmake missing: not an esign build tree configured with ESIGN_INSTALL ON"
build=$(cd "$1" && pwd)
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
conformance=$root/../shared/conformance
[[ -f $conformance/public_suite.py ]] || fail "$conformance/public_suite.py missing (the shared conformance suite)"
[[ $(id -u) -eq 0 ]] || fail "needs root (apt-get install, apt-get remove)"
for tool in cpack dpkg-deb dpkg-shlibdeps apt-get ldd readelf man pkg-config meson ninja python3; do
    command -v "$tool" >/dev/null || fail "$tool not found (dpkg-shlibdeps: dpkg-dev; man: man-db)"
done
# The tree's own cpack, and the compiler it was built with builds the consumers too.
cpack=$(sed -n 's/^CMAKE_CPACK_COMMAND:INTERNAL=//p' "$build/CMakeCache.txt")
[[ -n $cpack ]] || cpack=cpack
cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
[[ -n $cxx ]] || cxx=c++
launcher=()
if command -v ccache >/dev/null; then launcher=(ccache); fi
# Only what the package installs may be found: no prefix from the caller's environment.
unset PKG_CONFIG_PATH CMAKE_PREFIX_PATH CPATH CPLUS_INCLUDE_PATH
export DEBIAN_FRONTEND=noninteractive PYTHONDONTWRITEBYTECODE=1

installed() { [[ $(dpkg-query -W -f='${db:Status-Status}' esign 2>/dev/null) == installed ]]; }
if installed; then
    say "esign is installed already: removing it first (apt-get would not install the same version again)"
    apt-get remove -y -q esign >/dev/null
fi

work=$build/deb-check
rm -rf "$work"
mkdir -p "$work"
ours=0
cleanup() {
    if ((ours)) && installed; then
        echo "deb_check: removing the package after the failure" >&2
        apt-get purge -y -q esign >/dev/null || true
    fi
}
trap cleanup EXIT

# 1. The package -------------------------------------------------------------------------------
say "cpack -G DEB from $build"
cpack_status=0
"$cpack" --config "$build/CPackConfig.cmake" -G DEB -B "$work" >"$work/cpack.log" 2>&1 || cpack_status=$?
# CPack's staging tree holds a copy of the server: gone, so that nothing looking for the server
# under BUILD_DIR (the conformance suites walk it) finds that copy, stale after the next build.
rm -rf "$work/_CPack_Packages"
((cpack_status == 0)) || fail "cpack (log: $work/cpack.log): $(tail -5 "$work/cpack.log")"
debs=("$work"/esign_*.deb)
[[ ${#debs[@]} -eq 1 && -f ${debs[0]} ]] || fail "cpack made ${debs[*]}, not one esign_*.deb"
deb=${debs[0]}
deb_version=$(dpkg-deb -f "$deb" Version)
version=${deb_version%-*}  # the upstream version: the headers' ESIGN_VERSION_STRING
say "$(basename "$deb"): $(du -k "$deb" | cut -f1) KiB, version $deb_version"

# 2. Its contents ------------------------------------------------------------------------------
dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's|^\./|/|; s|/$||' | grep -v '^$' >"$work/contents"
for path in /usr/bin/esign-reference-server /usr/share/cmake/esign/esignConfig.cmake \
    /usr/share/cmake/esign/esignConfigVersion.cmake /usr/share/cmake/esign/esignTargets.cmake \
    /usr/share/pkgconfig/esign.pc /usr/share/pkgconfig/esign-client.pc /usr/share/man/man1/esign-reference-server.1.gz \
    /usr/bin/esign-schema /usr/share/man/man1/esign-schema.1.gz \
    /usr/share/doc/esign/copyright /usr/share/doc/esign/changelog.gz /usr/share/doc/esign/changelog.Debian.gz; do
    grep -qxF "$path" "$work/contents" || fail "the package lacks $path"
done
(cd "$root" && find include -type f -name '*.hpp' | sort) | while read -r header; do
    grep -qxF "/usr/$header" "$work/contents" || fail "the package lacks /usr/$header"
done
outside=$(grep -v '^/usr\(/\|$\)' "$work/contents" || true)
[[ -z $outside ]] || fail "the package has paths outside /usr: $outside"
dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/share/doc/esign/copyright | cmp -s - "$root/LICENSE" ||
    fail "/usr/share/doc/esign/copyright is not LICENSE"

# 3. Installed ---------------------------------------------------------------------------------
say "apt-get install -y $deb"
ours=1
apt-get install -y -q "$deb" >"$work/apt-install.log" 2>&1 ||
    fail "apt-get install (log: $work/apt-install.log): $(tail -5 "$work/apt-install.log")"
installed || fail "esign is not installed after apt-get install"
dpkg -L esign >"$work/files"
[[ -x /usr/bin/esign-reference-server ]] || fail "/usr/bin/esign-reference-server is not installed"
# CPACK_STRIP_FILES: no debugging information in the package (the gcc tree's is -g1).
if readelf -S --wide /usr/bin/esign-reference-server | grep -q '\.debug_'; then
    fail "/usr/bin/esign-reference-server is not stripped"
fi

# 4. Depends -----------------------------------------------------------------------------------
depends=$(dpkg-deb -f "$deb" Depends)
say "Depends: $depends"
depends_names=$(tr ',' '\n' <<<"$depends" | sed 's/([^)]*)//; s/[[:space:]]//g')
needs() { grep -qxF "$1" <<<"$depends_names" || fail "Depends lacks $1 ($2)"; }
for dev in libboost1.81-dev libboost-json1.81-dev libfmt-dev; do
    needs "$dev" "a program using the headers needs it to compile"
done
# The package of each shared library the server links (usrmerge: dpkg may know it under /lib or
# under /usr/lib).
libraries=$(ldd /usr/bin/esign-reference-server | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}')
[[ -n $libraries ]] || fail "ldd found no shared library in /usr/bin/esign-reference-server"
for lib in $libraries; do
    real=$(readlink -f "$lib")
    owner=""
    for candidate in "$lib" "$real" "${lib#/usr}" "${real#/usr}" "/usr$lib" "/usr$real"; do
        owner=$(dpkg -S "$candidate" 2>/dev/null | head -1 | cut -d: -f1) && [[ -n $owner ]] && break
    done
    [[ -n $owner ]] || fail "no Debian package owns $lib (linked by the server)"
    needs "$owner" "the server links $lib"
done
grep -q '^libssl' <<<"$depends_names" || fail "Depends lacks OpenSSL's runtime package"

# 5. A program using the installed headers -----------------------------------------------------
say "consumer: CMake find_package(esign) under /usr"
cmake_args=(-S "$root/tests/consumer" -B "$work/consumer-cmake" -G Ninja -DCMAKE_CXX_COMPILER="$cxx"
    -DESIGN_EXPECTED_PREFIX=/usr -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DESIGN_CONSUMER_CLIENT=OFF)
if ((${#launcher[@]})); then cmake_args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
{ cmake "${cmake_args[@]}" && cmake --build "$work/consumer-cmake"; } >"$work/consumer-cmake.log" 2>&1 ||
    fail "consumer (find_package) build (log: $work/consumer-cmake.log): $(tail -5 "$work/consumer-cmake.log")"
"$work/consumer-cmake/esign_consumer" || fail "consumer (find_package) run"
[[ ! -e "$work/consumer-cmake/esign_consumer_client" ]] || fail "ESIGN_CONSUMER_CLIENT=OFF built the client's consumer"

say "consumer: pkg-config esign"
[[ $(pkg-config --path esign) == /usr/share/pkgconfig/esign.pc ]] ||
    fail "pkg-config finds esign at '$(pkg-config --path esign 2>&1)', not /usr/share/pkgconfig/esign.pc"
[[ $(pkg-config --modversion esign) == "$version" ]] ||
    fail "pkg-config esign is version '$(pkg-config --modversion esign)', not $version"
# pkg_config_consumer PACKAGE SOURCE [COMPILE ARGUMENTS...]: tests/consumer/SOURCE compiled with
# `pkg-config --cflags PACKAGE`, then linked with its --libs (ccache caches compilations only),
# and run.
pkg_config_consumer() {
    local package=$1 source=$2 out="$work/consumer-pkg-config-$1"
    shift 2
    local cflags libs
    read -r -a cflags <<<"$(pkg-config --cflags "$package")"
    read -r -a libs <<<"$(pkg-config --libs "$package")"
    "${launcher[@]}" "$cxx" -std=c++20 -Wall -Wextra -Wpedantic -Werror "$@" -c "$root/tests/consumer/$source" \
        "${cflags[@]}" -o "$out.o" || fail "consumer of $package (pkg-config) compile"
    "$cxx" "$out.o" "${libs[@]}" -o "$out" || fail "consumer of $package (pkg-config) link"
    "$out" || fail "consumer of $package (pkg-config) run"
}
pkg_config_consumer esign main.cpp "-DESIGN_EXPECTED_VERSION=\"$version\""
say "consumer: pkg-config esign-client"
pkg_config_consumer esign-client client.cpp

say "consumer: Meson dependency('esign') and dependency('esign-client') (found, not built), no fallback"
{
    CXX="${launcher[*]} $cxx" meson setup "$work/consumer-meson" "$root/tests/consumer" --wrap-mode=nofallback -Dclient=false \
        --buildtype=plain &&
        meson compile -C "$work/consumer-meson" && meson test -C "$work/consumer-meson" --print-errorlogs
} >"$work/consumer-meson.log" 2>&1 ||
    fail "consumer (Meson) (log: $work/consumer-meson.log): $(tail -5 "$work/consumer-meson.log")"

# 6. The installed server passes the public conformance suite ----------------------------------
say "conformance: public_suite.py against /usr/bin/esign-reference-server"
ESIGN_SERVER=/usr/bin/esign-reference-server python3 "$conformance/public_suite.py" "$work" \
    >"$work/conformance.log" 2>&1 ||
    fail "public conformance suite (log: $work/conformance.log): $(grep -E '^FAIL|passed' "$work/conformance.log" | tail -5)"
summary=$(tail -1 "$work/conformance.log")
[[ $summary =~ ^conformance-public:\ [1-9][0-9]*\ passed,\ 0\ failed$ ]] || fail "conformance summary: $summary"
say "$summary"

# 7. The man pages -----------------------------------------------------------------------------
for program in esign-reference-server esign-schema; do
    [[ $(man -w $program) == /usr/share/man/man1/$program.1.gz ]] ||
        fail "man -w $program gives '$(man -w $program 2>&1)'"
    page=$(MANWIDTH=80 man $program 2>"$work/man.err") || fail "man $program: $(cat "$work/man.err")"
    for text in NAME SYNOPSIS DESCRIPTION OPTIONS; do
        grep -qx " *$text" <<<"$page" || fail "man $program lacks the section $text"
    done
    # Every option of --help is an entry of the page (cmake/help_to_man.py read the whole text).
    help_options=$(/usr/bin/$program --help | sed -n 's/^  \(-[-a-z0-9]*\).*/\1/p')
    [[ -n $help_options ]] || fail "$program --help lists no option"
    for option in $help_options; do
        grep -qE -- "^ +$option( |\$)" <<<"$page" || fail "man $program has no entry $option"
    done
    [[ ! -s $work/man.err ]] || fail "man $program warns: $(cat "$work/man.err")"
done

# 8. Removed, nothing left ---------------------------------------------------------------------
say "apt-get remove -y esign"
apt-get remove -y -q esign >"$work/apt-remove.log" 2>&1 || fail "apt-get remove (log: $work/apt-remove.log)"
installed && fail "esign is still installed after apt-get remove"
ours=0
left=()
while read -r path; do
    [[ -e $path || -L $path ]] || continue
    # A folder another package owns, or that holds others' files, stays (/usr/share/doc, ...).
    if [[ -d $path && ! -L $path ]] && { dpkg -S "$path" >/dev/null 2>&1 || [[ -n $(ls -A "$path") ]]; }; then
        continue
    fi
    left+=("$path")
done <"$work/files"
((${#left[@]} == 0)) || fail "left after apt-get remove: ${left[*]}"
say "removed: none of its $(wc -l <"$work/files") paths left but shared folders"

say "passed"
