# The compression libraries (Debian's libsnappy-dev zlib1g-dev libzstd-dev
# liblz4-dev libbrotli-dev, installed by scripts/install-deps.sh), each found
# once, here, through pkg-config, as IMPORTED GLOBAL targets so that they
# resolve wherever Quiver's static libraries are linked:
#   PkgConfig::QUIVER_SNAPPY  PkgConfig::QUIVER_ZLIB
#   PkgConfig::QUIVER_LZ4     PkgConfig::QUIVER_BROTLI
# and zstd as the target quiver_zstd (below: the pinned release built from
# source, or the system libzstd when that is at least as new or the source is
# missing).
# Only src/quiver/compression/ includes their headers (the codecs, used by
# Parquet pages and IPC body buffers), and src/quiver/util/crc32.cc zlib's
# (the CRC-32 of Parquet page headers).
include_guard(GLOBAL)
find_package(PkgConfig REQUIRED)
pkg_check_modules(QUIVER_SNAPPY REQUIRED IMPORTED_TARGET GLOBAL snappy)
pkg_check_modules(QUIVER_ZLIB REQUIRED IMPORTED_TARGET GLOBAL zlib)
pkg_check_modules(QUIVER_LZ4 REQUIRED IMPORTED_TARGET GLOBAL liblz4)
pkg_check_modules(QUIVER_BROTLI REQUIRED IMPORTED_TARGET GLOBAL libbrotlienc libbrotlidec)

# zstd. Quiver pins zstd 1.5.7, the release pyarrow 26 (Arrow C++'s bundled
# zstd) and arrow-rs (zstd-sys) link: Debian 12's libzstd 1.5.4 compresses
# the same pages measurably slower at level 1 (docs/design.md "The zstd
# Quiver links"). scripts/install-deps.sh (make deps) unpacks its lib/ tree
# into QUIVER_ZSTD_SOURCE_DIR; built here as the static library quiver_zstd
# (compression and decompression, no legacy formats, no dictionary builder,
# single-threaded; always optimized, as a system library is, and without the
# sanitizers; its symbols hidden in the Python extension so that it never
# interposes another copy in the process). A system libzstd at least as new
# is used instead; so is an older one when the source is missing (a warning).
set(QUIVER_ZSTD_PINNED 1.5.7)
set(QUIVER_ZSTD_SOURCE_DIR "${PROJECT_SOURCE_DIR}/build/deps/zstd-${QUIVER_ZSTD_PINNED}" CACHE PATH
    "zstd ${QUIVER_ZSTD_PINNED}'s source tree (scripts/install-deps.sh unpacks it)")
pkg_check_modules(QUIVER_ZSTD_SYSTEM QUIET IMPORTED_TARGET GLOBAL libzstd)
if(QUIVER_ZSTD_SYSTEM_FOUND AND NOT QUIVER_ZSTD_SYSTEM_VERSION VERSION_LESS QUIVER_ZSTD_PINNED)
  set(quiver_zstd_bundled OFF)
elseif(EXISTS "${QUIVER_ZSTD_SOURCE_DIR}/lib/zstd.h")
  set(quiver_zstd_bundled ON)
elseif(QUIVER_ZSTD_SYSTEM_FOUND)
  message(WARNING "zstd ${QUIVER_ZSTD_PINNED}'s source is not in ${QUIVER_ZSTD_SOURCE_DIR} (make deps "
                  "unpacks it): linking the system libzstd ${QUIVER_ZSTD_SYSTEM_VERSION} (slower compression)")
  set(quiver_zstd_bundled OFF)
else()
  message(FATAL_ERROR "zstd: neither its source in ${QUIVER_ZSTD_SOURCE_DIR} (make deps) nor libzstd-dev")
endif()

if(quiver_zstd_bundled)
  enable_language(ASM)
  set(quiver_zstd_lib "${QUIVER_ZSTD_SOURCE_DIR}/lib")
  file(GLOB quiver_zstd_sources CONFIGURE_DEPENDS
       "${quiver_zstd_lib}/common/*.c" "${quiver_zstd_lib}/compress/*.c"
       "${quiver_zstd_lib}/decompress/*.c" "${quiver_zstd_lib}/decompress/*.S")
  add_library(quiver_zstd STATIC ${quiver_zstd_sources})
  set_target_properties(quiver_zstd PROPERTIES POSITION_INDEPENDENT_CODE ON C_VISIBILITY_PRESET hidden
                        EXPORT_NAME zstd)
  target_include_directories(quiver_zstd SYSTEM PUBLIC $<BUILD_INTERFACE:${quiver_zstd_lib}>)
  # zstd.h marks its API visibility("default") unless these are defined.
  target_compile_definitions(quiver_zstd
    PUBLIC ZSTDLIB_VISIBLE= ZSTDERRORLIB_VISIBLE= ZDICTLIB_VISIBLE=
    PRIVATE ZSTD_LEGACY_SUPPORT=0 NDEBUG)
  target_compile_options(quiver_zstd PRIVATE -O3)
  message(STATUS "zstd: ${QUIVER_ZSTD_PINNED} built from ${QUIVER_ZSTD_SOURCE_DIR}")
else()
  add_library(quiver_zstd INTERFACE)
  set_target_properties(quiver_zstd PROPERTIES EXPORT_NAME zstd)
  target_link_libraries(quiver_zstd INTERFACE PkgConfig::QUIVER_ZSTD_SYSTEM)
  message(STATUS "zstd: the system libzstd ${QUIVER_ZSTD_SYSTEM_VERSION}")
endif()
