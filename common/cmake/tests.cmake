# CTest for the build's own rules (picked up by tests/CMakeLists.txt).

# An undeclared BX_VARIANT_ fails the configure step (check-variants.cmake):
# the last stage, checked as configured, passes; the same stage with a branch
# of an undeclared variant planted in a header must fail.
get_property(_bx_stages GLOBAL PROPERTY BX_STAGES)
list(GET _bx_stages -1 _bx_last)
bx_declared_variants(${_bx_last} _bx_declared)
list(JOIN _bx_declared "," _bx_declared_arg)  # ";" would split the test's argument
foreach(_plant 0 1)
  if(_plant)
    set(_name "build: variants mutant undeclared is caught")
    set(_expect "undeclared variant.*BX_VARIANT_PLANTED")
    set(_labels "quick;mutant")
  else()
    set(_name "build: ${_bx_last} declares every variant in its sources")
    set(_expect "every BX_VARIANT_ is declared")
    set(_labels "quick")
  endif()
  add_test(NAME "${_name}"
           COMMAND ${CMAKE_COMMAND} "-DSTAGE=${_bx_last}" "-DDIR=${BX_ROOT}/stages/${_bx_last}"
                   "-DDECLARED=${_bx_declared_arg}" -DPLANT=${_plant} -P "${BX_ROOT}/common/cmake/check-variants.cmake"
           WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
  set_tests_properties("${_name}" PROPERTIES LABELS "${_labels}" PASS_REGULAR_EXPRESSION "${_expect}")
endforeach()
