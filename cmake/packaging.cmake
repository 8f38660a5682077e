# SPDX-License-Identifier: BSL-1.0
# Packaging: a Debian package `esign` of what the install rules install (headers, CMake package,
# pkg-config file, which Meson's dependency('esign') reads, esign-reference-server, esign-schema),
# with the server's man page, the licence and the changelogs where Debian places them. Included at
# the end of the top-level CMakeLists.txt. Made from a built tree by
#   cpack --config BUILD_DIR/CPackConfig.cmake -G DEB -B OUT      (tests/package/deb_check.sh)
# CPack first builds the tree's `all` target, then installs under /usr. The binaries are
# stripped; a package for others comes from a Release tree (README, "Installing the Debian
# package").
#
# One package rather than -dev and server packages: its users are developers who run the server
# beside the code that uses the headers, and one package is one install, one removal.
if(NOT PROJECT_IS_TOP_LEVEL OR NOT ESIGN_INSTALL)
    return()
endif()

# Each program's --help as its man page, made at build time from the built program
# (cmake/help_to_man.py), so the page is the program's own text. Not in a sanitizer build: such a
# program is never packaged, and ThreadSanitizer's may not even start on every kernel.
if(NOT CMAKE_CROSSCOMPILING AND NOT ESIGN_SANITIZE)
    set(esign_man_pages "")
    foreach(program IN ITEMS esign-reference-server esign-schema)
        if(NOT TARGET ${program})
            continue()
        endif()
        find_package(Python3 REQUIRED COMPONENTS Interpreter)
        set(page "${PROJECT_BINARY_DIR}/man/${program}.1.gz")
        add_custom_command(OUTPUT "${page}"
            COMMAND "${CMAKE_COMMAND}" -E make_directory "${PROJECT_BINARY_DIR}/man"
            COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/cmake/help_to_man.py"
                $<TARGET_FILE:${program}> "esign ${PROJECT_VERSION}" "${page}"
            DEPENDS ${program} "${PROJECT_SOURCE_DIR}/cmake/help_to_man.py"
            COMMENT "Writing the man page of ${program} from its --help"
            VERBATIM)
        list(APPEND esign_man_pages "${page}")
    endforeach()
    if(esign_man_pages)
        add_custom_target(esign_man_pages ALL DEPENDS ${esign_man_pages})
        install(FILES ${esign_man_pages} DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
    endif()
endif()

# The licence, where Debian looks for it (share/doc/esign/copyright).
install(FILES "${PROJECT_SOURCE_DIR}/LICENSE" DESTINATION "${CMAKE_INSTALL_DOCDIR}" RENAME copyright)

set(ESIGN_PACKAGE_MAINTAINER "esign maintainers <maintainers@esign.example>" CACHE STRING
    "The Maintainer field of the Debian package")

# The changelogs Debian expects beside it, compressed as its tools do (gzip -9n: no name, no
# time): changelog.gz, the project's CHANGELOG.md; changelog.Debian.gz, the package's own entry
# (its date: configuration time, or SOURCE_DATE_EPOCH when set, for a reproducible package).
set(esign_doc_build_dir "${PROJECT_BINARY_DIR}/doc")
string(TIMESTAMP esign_changelog_date "%a, %d %b %Y %H:%M:%S +0000" UTC)
file(WRITE "${esign_doc_build_dir}/changelog.Debian.in"
    "esign (${PROJECT_VERSION}-1) unstable; urgency=medium\n\n"
    "  * esign ${PROJECT_VERSION}, packaged by its build (CPack); its changes are in changelog.gz.\n\n"
    " -- ${ESIGN_PACKAGE_MAINTAINER}  ${esign_changelog_date}\n")
find_program(ESIGN_GZIP gzip REQUIRED)
set(esign_changelogs "")
foreach(pair IN ITEMS "${PROJECT_SOURCE_DIR}/CHANGELOG.md=changelog"
                      "${esign_doc_build_dir}/changelog.Debian.in=changelog.Debian")
    string(REGEX REPLACE "=.*" "" source "${pair}")
    string(REGEX REPLACE ".*=" "" name "${pair}")
    add_custom_command(OUTPUT "${esign_doc_build_dir}/${name}.gz"
        COMMAND "${CMAKE_COMMAND}" -E copy "${source}" "${esign_doc_build_dir}/${name}"
        COMMAND "${ESIGN_GZIP}" -9nf "${esign_doc_build_dir}/${name}"
        DEPENDS "${source}"
        COMMENT "Compressing ${name}.gz"
        VERBATIM)
    list(APPEND esign_changelogs "${esign_doc_build_dir}/${name}.gz")
endforeach()
add_custom_target(esign_changelogs ALL DEPENDS ${esign_changelogs})
install(FILES ${esign_changelogs} DESTINATION "${CMAKE_INSTALL_DOCDIR}")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME esign)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_CONTACT "${ESIGN_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")

# esign_VERSION-1_ARCH.deb; the architecture is dpkg's (`dpkg --print-architecture`, CPack's
# default), the Homepage project()'s HOMEPAGE_URL when it has one.
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${ESIGN_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "C++20 e-signature API model (header-only) and its reference server")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "esign models an e-signature service's API in C++20 types whose rules are in
the type (bounded strings, e-mail patterns compiled to a DFA, ranges), with
decoding that reports every problem with its path, and errors as values.
.
This package holds the headers with their CMake package (find_package(esign))
and pkg-config file (also read by Meson's dependency('esign')), and
esign-reference-server, an in-memory HTTP server of the whole API for tests
and local development, with esign-schema, its JSON Schema and OpenAPI export.")
# The runtime libraries the binaries link (dpkg-shlibdeps: libc, libstdc++, OpenSSL, Boost.JSON,
# fmt...), and what a program using the headers needs to compile and link (libssl-dev: the
# headers under esign/client/, which esign.hpp does not include, need OpenSSL).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libboost1.81-dev, libboost-json1.81-dev, libfmt-dev (>= 9), libssl-dev")

include(CPack)
