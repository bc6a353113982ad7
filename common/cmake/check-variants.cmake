# bx_check_declared_variants(<stage> <dir> <declared>...): every BX_VARIANT_X
# that a stage's sources mention must be one its bx_stage() call declares
# (VARIANTS or TRAPS; `pmin-swapped` declares BX_VARIANT_PMIN_SWAPPED). A
# failed idea lives in the stage that keeps it runnable; a later stage that
# copies the file deletes the branch instead of carrying it, dead, forward.
# Fails the configure step, naming the file and the macro.
#
# Script mode, for CTest: the check on one stage directory, and with PLANT=1
# on a copy of it (under the working directory) into whose first header a
# branch of an undeclared BX_VARIANT_PLANTED is written: the mutant, which
# must fail.
#   cmake -DSTAGE=<name> -DDIR=<dir> -DDECLARED="a;b" [-DPLANT=1] -P common/cmake/check-variants.cmake
cmake_policy(VERSION 3.25)

function(bx_variant_macro name out)  # pmin-swapped -> BX_VARIANT_PMIN_SWAPPED
  string(TOUPPER "${name}" _upper)
  string(REPLACE "-" "_" _upper "${_upper}")
  set(${out} "BX_VARIANT_${_upper}" PARENT_SCOPE)
endfunction()

# bx_declared_variants(<stage> <out>): the names bx_stage() declared for a
# configured stage, kept mistakes (VARIANTS) and traps (TRAPS) alike.
function(bx_declared_variants stage out)
  get_property(_failing GLOBAL PROPERTY BX_STAGE_VARIANTS)
  get_property(_traps GLOBAL PROPERTY BX_STAGE_TRAPS)
  set(_names "")
  foreach(_entry ${_failing} ${_traps})
    if(_entry MATCHES "^${stage}:(.*)$")
      list(APPEND _names "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  set(${out} "${_names}" PARENT_SCOPE)
endfunction()

function(bx_check_declared_variants stage dir)
  set(_declared "")
  foreach(_name ${ARGN})
    bx_variant_macro("${_name}" _macro)
    list(APPEND _declared "${_macro}")
  endforeach()
  file(GLOB_RECURSE _files "${dir}/*.cpp" "${dir}/*.hpp")
  list(SORT _files)
  set(_problems "")
  foreach(_file ${_files})
    file(STRINGS "${_file}" _lines REGEX "BX_VARIANT_[A-Z0-9_]+")
    foreach(_line ${_lines})
      string(REGEX MATCHALL "BX_VARIANT_[A-Z0-9_]+" _macros "${_line}")
      foreach(_macro ${_macros})
        if(NOT _macro IN_LIST _declared)
          file(RELATIVE_PATH _rel "${dir}" "${_file}")
          list(APPEND _problems "${_rel}: ${_macro}")
        endif()
      endforeach()
    endforeach()
  endforeach()
  if(_problems)
    list(REMOVE_DUPLICATES _problems)
    list(JOIN _problems "\n  " _list)
    message(FATAL_ERROR "${stage}: undeclared variant (declare it in bx_stage(VARIANTS ...) or delete its branch):\n  ${_list}")
  endif()
endfunction()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  if(PLANT)
    set(_copy "${CMAKE_CURRENT_BINARY_DIR}/planted-variant/${STAGE}")
    file(REMOVE_RECURSE "${_copy}")
    file(COPY "${DIR}/" DESTINATION "${_copy}")
    file(GLOB _headers "${_copy}/*.hpp")
    list(SORT _headers)
    list(GET _headers 0 _header)
    file(APPEND "${_header}" "#if BX_VARIANT_PLANTED\n#endif\n")
    set(DIR "${_copy}")
  endif()
  string(REPLACE "," ";" DECLARED "${DECLARED}")
  bx_check_declared_variants("${STAGE}" "${DIR}" ${DECLARED})
  message(STATUS "${STAGE}: every BX_VARIANT_ is declared")
endif()
