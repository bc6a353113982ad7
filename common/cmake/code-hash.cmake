# bx_code_text(<file> <out>): the code a stage's shipped build compiles from a
# source file, as text:
#   - without the book's marker lines, which open and close named snippets
#     (see same-code.cmake), every line that holds only a // comment, and
#     blank lines: none of them changes the code, and a stage's files
#     describe their own stage in their comments;
#   - without the branches its knobs switch off. A knob is a macro the file
#     defaults to 0 (`#ifndef X` / `#define X 0` / `#endif`): a failed idea
#     kept buildable (BX_VARIANT_*) or a sweep's alternative. The shipped
#     build defines none of them, so the default goes, `#if X ... #else`
#     goes, and what `#else` holds stays. A stage that keeps a failed idea
#     and the next stage, which no longer carries it, then have the same code;
#   - with a tuning macro's default written in its place: `#ifndef X` /
#     `#define X 4` / `#endif` and `= X;` read as `= 4;`, which is what the
#     shipped build compiles. A stage that sweeps X and the next, which
#     writes the value it kept, then have the same code.
# bx_code_hash(<file> <out>): SHA-256 of that text.
#
# Script mode prints the hash of several files at once, one per line, for
# shell scripts that must agree with CTest (common/harness/check-results.sh):
#   cmake -DFILES="a;b" -P common/cmake/code-hash.cmake
cmake_policy(VERSION 3.25)  # the project's policies, in script mode (cmake -P) too

function(bx_code_text file out)
  file(READ "${file}" _text)
  string(REGEX REPLACE "[ \t]*(//|#)[ \t]*(end-snippet|snippet:)[^\n]*\n" "" _text "${_text}")
  string(REGEX REPLACE "\n[ \t]*//[^\n]*" "" _text "\n${_text}")
  string(REGEX REPLACE "\n[ \t]*\n" "\n" _text "${_text}")
  string(REGEX REPLACE "\n[ \t]*\n" "\n" _text "${_text}")  # the runs the first pass left
  _bx_strip_knobs("${file}" "${_text}" _text)
  while(_text MATCHES "\n#ifndef ([A-Z][A-Z0-9_]*)\n#define ([A-Z][A-Z0-9_]*) ([1-9][0-9]*)\n#endif\n")
    if(NOT CMAKE_MATCH_1 STREQUAL CMAKE_MATCH_2)
      message(FATAL_ERROR "${file}: #ifndef ${CMAKE_MATCH_1} defines ${CMAKE_MATCH_2}")
    endif()
    set(_macro "${CMAKE_MATCH_1}")
    set(_value "${CMAKE_MATCH_3}")
    string(REPLACE "${CMAKE_MATCH_0}" "\n" _text "${_text}")
    string(REGEX REPLACE "([^A-Za-z0-9_])${_macro}([^A-Za-z0-9_])" "\\1${_value}\\2" _text "${_text}")
  endwhile()
  set(${out} "${_text}" PARENT_SCOPE)
endfunction()

# The knobs' defaults and switched-off branches out of `text` (comment and
# blank lines already gone, so a default is three lines in a row). Branches
# may nest; `#elif` under a knob's `#if` is refused, not guessed at.
function(_bx_strip_knobs file text out)
  set(_knobs "")
  while(text MATCHES "\n#ifndef ([A-Z][A-Z0-9_]*)\n#define ([A-Z][A-Z0-9_]*) 0\n#endif\n")
    if(NOT CMAKE_MATCH_1 STREQUAL CMAKE_MATCH_2)
      message(FATAL_ERROR "${file}: #ifndef ${CMAKE_MATCH_1} defines ${CMAKE_MATCH_2}")
    endif()
    list(APPEND _knobs "${CMAKE_MATCH_1}")
    string(REPLACE "${CMAKE_MATCH_0}" "\n" text "${text}")
  endwhile()
  # A failed idea tested with `#if defined(BX_VARIANT_X)` and no default is a
  # knob too: the shipped build never defines it.
  while(text MATCHES "\n#if defined\\((BX_VARIANT_[A-Z0-9_]+)\\)\n")
    list(APPEND _knobs "${CMAKE_MATCH_1}")
    string(REPLACE "${CMAKE_MATCH_0}" "\n#if ${CMAKE_MATCH_1}\n" text "${text}")
  endwhile()
  list(REMOVE_DUPLICATES _knobs)
  foreach(_knob ${_knobs})
    foreach(_test "${_knob}" "!${_knob}")  # `#if X` keeps its #else; `#if !X` its body
      string(FIND "${text}" "\n#if ${_test}\n" _at)
      while(_at GREATER_EQUAL 0)
        string(SUBSTRING "${text}" 0 ${_at} _before)
        string(LENGTH "\n#if ${_test}" _open)
        math(EXPR _body_at "${_at} + ${_open}")
        string(SUBSTRING "${text}" ${_body_at} -1 _rest)  # starts with the body's "\n"
        _bx_branch_ends("${file}" "${_test}" "${_rest}" _else _end)
        if(_test MATCHES "^!")
          set(_from 0)
          set(_to ${_end})
          if(_else GREATER_EQUAL 0)
            set(_to ${_else})
          endif()
        elseif(_else GREATER_EQUAL 0)
          set(_from ${_else})
          set(_to ${_end})
        else()
          set(_from 0)
          set(_to 0)
        endif()
        math(EXPR _kept_length "${_to} - ${_from}")
        string(SUBSTRING "${_rest}" ${_from} ${_kept_length} _kept)
        string(REGEX REPLACE "^\n#else[^\n]*" "" _kept "${_kept}")
        string(SUBSTRING "${_rest}" ${_end} -1 _after)
        string(REGEX REPLACE "^\n#endif[^\n]*" "" _after "${_after}")
        set(text "${_before}${_kept}${_after}")
        string(FIND "${text}" "\n#if ${_test}\n" _at)
      endwhile()
    endforeach()
  endforeach()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# Where the `#else` (-1 if none) and the `#endif` of the conditional whose
# body `rest` begins are, following nested conditionals (offsets of the "\n"
# that starts each directive's line).
function(_bx_branch_ends file knob rest out_else out_end)
  set(_depth 1)
  set(_offset 0)
  set(_else -1)
  while(_depth GREATER 0)
    string(FIND "${rest}" "\n#" _hit)
    if(_hit LESS 0)
      message(FATAL_ERROR "${file}: #if ${knob} has no #endif")
    endif()
    math(EXPR _at "${_offset} + ${_hit}")
    math(EXPR _skip "${_hit} + 2")
    string(SUBSTRING "${rest}" ${_skip} -1 rest)
    math(EXPR _offset "${_at} + 2")
    if(rest MATCHES "^if")
      math(EXPR _depth "${_depth} + 1")
    elseif(rest MATCHES "^endif")
      math(EXPR _depth "${_depth} - 1")
      if(_depth EQUAL 0)
        set(${out_else} ${_else} PARENT_SCOPE)
        set(${out_end} ${_at} PARENT_SCOPE)
        return()
      endif()
    elseif(_depth EQUAL 1 AND rest MATCHES "^else")
      set(_else ${_at})
    elseif(_depth EQUAL 1 AND rest MATCHES "^elif")
      message(FATAL_ERROR "${file}: #if ${knob} has an #elif; write it as #else and #if")
    endif()
  endwhile()
endfunction()

function(bx_code_hash file out)
  bx_code_text("${file}" _text)
  string(SHA256 _hash "${_text}")
  set(${out} "${_hash}" PARENT_SCOPE)
endfunction()

# bx_include_closure(<out> <dirs> <file>...): the files and, recursively,
# every file they #include "..." that one of <dirs> (a ;-list) holds, each
# once, in the order met: the code a hash of those files must cover.
function(bx_include_closure out dirs)
  set(_pending ${ARGN})
  set(_seen "")
  while(_pending)
    list(POP_FRONT _pending _file)
    if(_file IN_LIST _seen OR NOT EXISTS "${_file}")
      continue()
    endif()
    list(APPEND _seen "${_file}")
    file(STRINGS "${_file}" _includes REGEX "^[ \t]*#[ \t]*include[ \t]+\"[^\"]+\"")
    foreach(_line ${_includes})
      string(REGEX REPLACE "^[^\"]*\"([^\"]+)\".*$" "\\1" _inc "${_line}")
      foreach(_dir ${dirs})
        if(EXISTS "${_dir}/${_inc}")
          list(APPEND _pending "${_dir}/${_inc}")
        endif()
      endforeach()
    endforeach()
  endwhile()
  set(${out} "${_seen}" PARENT_SCOPE)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE AND DEFINED FILES)
  foreach(_file ${FILES})
    bx_code_hash("${_file}" _hash)
    message("${_hash}")
  endforeach()
endif()
