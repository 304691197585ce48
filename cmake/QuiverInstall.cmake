# Install rules and the exported CMake package, so that a C++ project can
#   find_package(quiver 0.1 REQUIRED)
#   target_link_libraries(app PRIVATE quiver::quiver)
# against an installed tree (cmake --install build/release --prefix P).
#
# Installed: every module's static library (quiver::<module>, e.g.
# quiver::parquet_writer, gathered by the interface target quiver::quiver),
# the public headers under include/quiver/, and lib/cmake/quiver/
# (quiverTargets.cmake, quiverConfig.cmake, quiverConfigVersion.cmake).
# The configuration file finds what the static libraries link (Threads, fmt,
# the pkg-config libraries below, dl).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(QUIVER_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/quiver")

# --- Public headers -------------------------------------------------------
# Every .h under src/quiver except *_internal.h (not installed, may change
# freely: docs/design.md) and the test utilities.
file(GLOB_RECURSE quiver_headers CONFIGURE_DEPENDS RELATIVE "${PROJECT_SOURCE_DIR}/src"
     "${PROJECT_SOURCE_DIR}/src/quiver/*.h")
set(QUIVER_PUBLIC_HEADERS "")
foreach(header IN LISTS quiver_headers)
  if(header MATCHES "test_util|/testdata/")
    continue()
  endif()
  if(header MATCHES "_internal\\.h$")
    continue()
  endif()
  list(APPEND QUIVER_PUBLIC_HEADERS "${header}")
  get_filename_component(dir "${header}" DIRECTORY)
  install(FILES "${PROJECT_SOURCE_DIR}/src/${header}" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/${dir}")
endforeach()

# --- Libraries and the export ----------------------------------------------
get_property(quiver_modules GLOBAL PROPERTY QUIVER_MODULES)
foreach(module IN LISTS quiver_modules)
  string(REGEX REPLACE "^quiver_" "" export_name "${module}")
  set_target_properties(${module} PROPERTIES EXPORT_NAME ${export_name})
endforeach()
# quiver_zstd: the pinned zstd built from source (a static library of its
# own) or an interface target over the system libzstd
# (cmake/QuiverCodecLibraries.cmake).
install(TARGETS quiver ${quiver_modules} quiver_zstd
        EXPORT quiverTargets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
        INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(EXPORT quiverTargets NAMESPACE quiver:: DESTINATION "${QUIVER_INSTALL_CMAKEDIR}")

# The pkg-config libraries the modules link, by the imported-target names
# (PkgConfig::<prefix>) the module CMakeLists give them: quiverConfig.cmake
# recreates the same targets. A module linking a PkgConfig:: target missing
# here stops the configuration, so that the package never lacks one.
set(quiver_pkg_config_XXHASH libxxhash)
set(quiver_pkg_config_QUIVER_SNAPPY snappy)
set(quiver_pkg_config_QUIVER_ZLIB zlib)
set(quiver_pkg_config_QUIVER_ZSTD_SYSTEM libzstd)
set(quiver_pkg_config_QUIVER_LZ4 liblz4)
set(quiver_pkg_config_QUIVER_BROTLI libbrotlienc libbrotlidec)
set(quiver_pkg_config_prefixes "")
foreach(module IN LISTS quiver_modules ITEMS quiver_zstd)
  get_target_property(links ${module} LINK_LIBRARIES)
  get_target_property(interface_links ${module} INTERFACE_LINK_LIBRARIES)
  foreach(link IN LISTS links interface_links)
    if(link MATCHES "^PkgConfig::(.+)$")
      if(NOT DEFINED quiver_pkg_config_${CMAKE_MATCH_1})
        message(FATAL_ERROR "${module} links ${link}: add its pkg-config modules to "
                            "cmake/QuiverInstall.cmake (quiver_pkg_config_${CMAKE_MATCH_1})")
      endif()
      list(APPEND quiver_pkg_config_prefixes "${CMAKE_MATCH_1}")
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES quiver_pkg_config_prefixes)
set(QUIVER_PKG_CONFIG_DEPENDENCIES "")
foreach(prefix IN LISTS quiver_pkg_config_prefixes)
  string(REPLACE ";" " " names "${quiver_pkg_config_${prefix}}")
  string(APPEND QUIVER_PKG_CONFIG_DEPENDENCIES "quiver_pkg_config_dependency(${prefix} ${names})\n")
endforeach()

configure_package_config_file(
  "${CMAKE_CURRENT_LIST_DIR}/quiverConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/quiverConfig.cmake"
  INSTALL_DESTINATION "${QUIVER_INSTALL_CMAKEDIR}")
# 0.x: a minor version may break the API.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/quiverConfigVersion.cmake"
                                 COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/quiverConfig.cmake"
              "${PROJECT_BINARY_DIR}/quiverConfigVersion.cmake"
        DESTINATION "${QUIVER_INSTALL_CMAKEDIR}")
