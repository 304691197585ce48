# Script mode (cmake -P), run at every build by the quiver_build_info target
# (src/quiver/util/CMakeLists.txt): writes OUTPUT from TEMPLATE with the
# project VERSION and the git commit of SOURCE_DIR. configure_file rewrites
# OUTPUT only when its text changes, so a build without a new commit
# recompiles nothing and a new commit recompiles that one file.
#
# The commit is HEAD of the repository whose top level is SOURCE_DIR itself:
# a Quiver tree vendored inside another project's repository, or a source
# archive, or a machine without git, gets an empty commit (created_by is then
# "quiver version X.Y.Z" without "(build ...)").
set(QUIVER_VERSION "${VERSION}")
set(QUIVER_BUILD_COMMIT "")
find_program(QUIVER_GIT git)
if(QUIVER_GIT)
  execute_process(COMMAND "${QUIVER_GIT}" -C "${SOURCE_DIR}" rev-parse --show-toplevel
                  OUTPUT_VARIABLE top RESULT_VARIABLE top_rc
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(top_rc EQUAL 0)
    file(REAL_PATH "${top}" top)
    file(REAL_PATH "${SOURCE_DIR}" source)
    if(top STREQUAL source)
      execute_process(COMMAND "${QUIVER_GIT}" -C "${SOURCE_DIR}" rev-parse HEAD
                      OUTPUT_VARIABLE head RESULT_VARIABLE head_rc
                      OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      if(head_rc EQUAL 0 AND head MATCHES "^[0-9a-f]+$")
        set(QUIVER_BUILD_COMMIT "${head}")
      endif()
    endif()
  endif()
endif()
configure_file("${TEMPLATE}" "${OUTPUT}" @ONLY)
