# cmake -DA=<file;file...> -DB=<file;file...> -P same-code.cmake
# Succeeds when each file of A has the same code as its partner in B: the same
# bytes once the book's snippet markers (`// snippet: name`, `// end-snippet`)
# are taken out, and the branches a knob switches off in the shipped build
# (code-hash.cmake) (MUTATE=1: B with one subtraction turned round; MUTATE=knob:
# B with its first knob's test inverted; both must fail), since a stage copied from the previous one drops the markers
# its own chapter does not use. Used by CTest to carry a kernel's exhaustive
# proof over to a later stage that did not change the kernel.
include("${CMAKE_CURRENT_LIST_DIR}/code-hash.cmake")
list(LENGTH A _count_a)
list(LENGTH B _count_b)
if(NOT _count_a EQUAL _count_b)
  message(FATAL_ERROR "same-code: A and B must list as many files")
endif()
math(EXPR _last "${_count_a} - 1")
foreach(_i RANGE ${_last})
  list(GET A ${_i} _a)
  list(GET B ${_i} _b)
  bx_code_hash("${_a}" _hash_a)
  bx_code_hash("${_b}" _hash_b)
  if(MUTATE STREQUAL "knob")  # the mutant: B's first knob tested the other way round
    file(READ "${_b}" _raw)
    string(FIND "${_raw}" "\n#if BX_" _at)
    if(_at LESS 0)
      message(FATAL_ERROR "same-code: the knob mutant needs an '#if BX_...' in ${_b}")
    endif()
    string(SUBSTRING "${_raw}" 0 ${_at} _head)
    math(EXPR _at "${_at} + 5")
    string(SUBSTRING "${_raw}" ${_at} -1 _tail)
    get_filename_component(_name "${_b}" NAME)
    set(_b "${CMAKE_CURRENT_BINARY_DIR}/same-code-knob-mutant-${_name}")
    file(WRITE "${_b}" "${_head}\n#if !${_tail}")
    bx_code_hash("${_b}" _hash_b)
  elseif(MUTATE)  # the mutant: B's code with its first `x - 1.0f` turned round
    bx_code_text("${_b}" _text)
    string(FIND "${_text}" "ax - 1.0f" _at)
    if(_at LESS 0)
      message(FATAL_ERROR "same-code: the mutant needs 'ax - 1.0f' in ${_b}")
    endif()
    string(REPLACE "ax - 1.0f" "1.0f - ax" _text "${_text}")
    string(SHA256 _hash_b "${_text}")
  endif()
  if(NOT _hash_a STREQUAL _hash_b)
    message(FATAL_ERROR "same-code: ${_b} is not ${_a} (beyond snippet markers): its own proof must run")
  endif()
  message(STATUS "same code: ${_b} = ${_a}")
endforeach()
