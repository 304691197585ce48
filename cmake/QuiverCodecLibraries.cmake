# The compression libraries (Debian's libsnappy-dev zlib1g-dev libzstd-dev
# liblz4-dev libbrotli-dev, installed by scripts/install-deps.sh), each found
# once, here, through pkg-config, as IMPORTED GLOBAL targets so that they
# resolve wherever Quiver's static libraries are linked:
#   PkgConfig::QUIVER_SNAPPY  PkgConfig::QUIVER_ZLIB  PkgConfig::QUIVER_ZSTD
#   PkgConfig::QUIVER_LZ4     PkgConfig::QUIVER_BROTLI
# Only src/quiver/compression/ includes their headers (the codecs, used by
# Parquet pages and IPC body buffers), and src/quiver/util/crc32.cc zlib's
# (the CRC-32 of Parquet page headers).
include_guard(GLOBAL)
find_package(PkgConfig REQUIRED)
pkg_check_modules(QUIVER_SNAPPY REQUIRED IMPORTED_TARGET GLOBAL snappy)
pkg_check_modules(QUIVER_ZLIB REQUIRED IMPORTED_TARGET GLOBAL zlib)
pkg_check_modules(QUIVER_ZSTD REQUIRED IMPORTED_TARGET GLOBAL libzstd)
pkg_check_modules(QUIVER_LZ4 REQUIRED IMPORTED_TARGET GLOBAL liblz4)
pkg_check_modules(QUIVER_BROTLI REQUIRED IMPORTED_TARGET GLOBAL libbrotlienc libbrotlidec)
