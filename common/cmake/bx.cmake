# The build's vocabulary: the common libraries, the per-flavour platform
# pieces, and bx_stage(), which turns a directory stages/NN-name/ into its
# library, its HTTP component and its CLI.
#
# Source lists are globs with CONFIGURE_DEPENDS: a new .cpp file in a globbed
# directory (or a new stage directory) is picked up by the next `make build`,
# without anyone editing a list. Empty directories are fine.

set(BX_ROOT "${PROJECT_SOURCE_DIR}")
set(BX_NODE_TOOLS "${BX_ROOT}/common/node")
set(BX_JCO_JS "${BX_NODE_TOOLS}/node_modules/@bytecodealliance/jco/dist/jco.js")
set(BX_HTTP_WIT "${BX_ROOT}/common/http/wit")
find_program(BX_NODE node REQUIRED)

# Wasm executables: an 8 MiB stack placed *first* in memory, so an overflow
# runs below address 0 and traps instead of silently overwriting data (the
# default is 64 KiB after the data, which a 256x384 float buffer would blow).
set(BX_WASM_LINK_OPTIONS -Wl,--stack-first -Wl,-z,stack-size=8388608 -Wl,--strip-debug)

function(bx_glob out)
  file(GLOB _files CONFIGURE_DEPENDS ${ARGN})
  list(SORT _files)
  set(${out} "${_files}" PARENT_SCOPE)
endfunction()

# A library target needs at least one source: use an empty one while a
# directory has no .cpp files yet (other engineers are still writing them).
function(bx_nonempty_sources out name)
  set(_files ${ARGN})
  if(NOT _files)
    set(_empty "${CMAKE_CURRENT_BINARY_DIR}/${name}_empty.cpp")
    if(NOT EXISTS "${_empty}")
      file(WRITE "${_empty}" "// ${name} has no sources yet.\n")
    endif()
    set(_files "${_empty}")
  endif()
  set(${out} "${_files}" PARENT_SCOPE)
endfunction()

# ---- bx_embed: the model and tokenizer bytes (#embed), one object library ----
# Kept apart from bx_common so that an asset appearing or changing recompiles
# this one file, not all of common/ (its definitions would otherwise change
# bx_common's flags, on which every object depends).
#
# Only assets that exist are embedded. The globs (CONFIGURE_DEPENDS) re-run at
# every build, so when a file appears the build re-configures and embeds it;
# OBJECT_DEPENDS recompiles when its bytes change.
bx_glob(_bx_embed_sources "${BX_ROOT}/common/embed/*.cpp")
bx_nonempty_sources(_bx_embed_sources bx_embed ${_bx_embed_sources})
add_library(bx_embed OBJECT ${_bx_embed_sources})
target_include_directories(bx_embed PRIVATE "${BX_ROOT}")
target_compile_features(bx_embed PRIVATE cxx_std_20)
bx_glob(BX_MODEL_FILE "${BX_ROOT}/assets/model/model.bxm")
bx_glob(BX_TOKENIZER_FILE "${BX_ROOT}/assets/tokenizer/tokenizer.json")
foreach(_asset MODEL TOKENIZER)
  if(BX_${_asset}_FILE)
    target_compile_definitions(bx_embed PRIVATE "BX_EMBED_${_asset}=\"${BX_${_asset}_FILE}\"")
    set_property(SOURCE ${_bx_embed_sources} APPEND PROPERTY OBJECT_DEPENDS "${BX_${_asset}_FILE}")
    message(STATUS "bitexact: embedding ${BX_${_asset}_FILE}")
  else()
    message(STATUS "bitexact: no ${_asset} file yet; embedded_${_asset} span is empty")
  endif()
endforeach()

# ---- bx_common: everything that is the same in every stage and flavour ------
set(_bx_common_sources "${BX_ROOT}/common/http/headers.cpp")
foreach(_dir json text tokenizer model maths service timing)
  bx_glob(_found "${BX_ROOT}/common/${_dir}/*.cpp")
  list(APPEND _bx_common_sources ${_found})
endforeach()
# The router is compiled per variant (production / test routes), see below.
list(FILTER _bx_common_sources EXCLUDE REGEX "/common/service/router[^/]*\\.cpp$")
add_library(bx_common STATIC ${_bx_common_sources} $<TARGET_OBJECTS:bx_embed>)
target_include_directories(bx_common PUBLIC "${BX_ROOT}")
target_compile_features(bx_common PUBLIC cxx_std_20)
# The page (GET /) is #embed-ded by page.cpp: an edit to it must rebuild that object.
bx_glob(_bx_page_files "${BX_ROOT}/common/service/page/*")
set_property(SOURCE "${BX_ROOT}/common/service/page.cpp" APPEND PROPERTY OBJECT_DEPENDS ${_bx_page_files})

# ---- the router, in two variants --------------------------------------------
# BX_HAVE_REDACT: POST /redact is routed once common/service/redact.cpp exists.
bx_glob(_bx_redact "${BX_ROOT}/common/service/redact.cpp")
if(_bx_redact)
  set(BX_HAVE_REDACT 1)
else()
  set(BX_HAVE_REDACT 0)
endif()
bx_glob(_bx_router_sources "${BX_ROOT}/common/service/router*.cpp")
foreach(_variant bx_router bx_router_test)
  add_library(${_variant} OBJECT ${_bx_router_sources})
  target_link_libraries(${_variant} PUBLIC bx_common)
  target_compile_definitions(${_variant} PRIVATE BX_HAVE_REDACT=${BX_HAVE_REDACT})
endforeach()
target_compile_definitions(bx_router_test PRIVATE BX_TEST_ROUTES=1)
set_target_properties(bx_router_test PROPERTIES EXCLUDE_FROM_ALL TRUE)

# ---- platform pieces: one per flavour ---------------------------------------
# posix: CLI wasm (preview1 via wasi-libc) and native.
bx_glob(_bx_posix_sources "${BX_ROOT}/common/timing/posix/*.cpp")
add_library(bx_platform_posix OBJECT ${_bx_posix_sources})
target_link_libraries(bx_platform_posix PUBLIC bx_common)

if(WASI)
  # component: the wasi:http export and direct WASI 0.2.0 imports. OBJECT
  # libraries, because exported functions in a static archive would never be
  # pulled into the link (nothing references them).
  bx_glob(_bx_component_sources
          "${BX_ROOT}/common/timing/component/*.cpp"
          "${BX_ROOT}/common/http/*.cpp")
  list(REMOVE_ITEM _bx_component_sources "${BX_ROOT}/common/http/headers.cpp")
  foreach(_variant bx_http_glue bx_http_glue_mutant)
    add_library(${_variant} OBJECT ${_bx_component_sources})
    target_link_libraries(${_variant} PUBLIC bx_common)
  endforeach()
  # make mutant-http: a binding that reads the body's return area 4 bytes off.
  target_compile_definitions(bx_http_glue_mutant PRIVATE BX_MUTANT_RETAREA=1)
  set_target_properties(bx_http_glue_mutant PROPERTIES EXCLUDE_FROM_ALL TRUE)
endif()

# ---- the CLI harness (common/harness/*.cpp), once, linked into every stage ----
bx_glob(_bx_harness_sources "${BX_ROOT}/common/harness/*.cpp")
if(_bx_harness_sources)
  add_library(bx_harness OBJECT ${_bx_harness_sources})
  target_link_libraries(bx_harness PUBLIC bx_common)
endif()

# Links glue + router + stage + common into a core module and turns it into a
# component: <out_dir>/<out_name>.wasm. `jco embed` attaches our WIT world
# (common/http/wit), `jco new` wraps the module; no adapter, since the core
# module makes no preview1 calls (jco new fails if it does, which is the check).
function(bx_component target stage_lib glue router out_name)
  set(_core ${target}_core)
  add_executable(${_core})
  target_link_libraries(${_core} PRIVATE ${glue} ${router} ${stage_lib} bx_common)
  # No crt1 (its _start/_initialize would pull in preview1 calls): no entry
  # point; the handler runs the global constructors itself.
  target_link_options(${_core} PRIVATE -nostartfiles -Wl,--no-entry ${BX_WASM_LINK_OPTIONS})
  set_target_properties(${_core} PROPERTIES OUTPUT_NAME "${out_name}.core"
                        RUNTIME_OUTPUT_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
  set(_core_wasm "${CMAKE_CURRENT_BINARY_DIR}/${out_name}.core.wasm")
  set(_embedded "${CMAKE_CURRENT_BINARY_DIR}/${out_name}.embedded.wasm")
  set(_component "${CMAKE_CURRENT_BINARY_DIR}/${out_name}.wasm")
  file(GLOB_RECURSE _wit CONFIGURE_DEPENDS "${BX_HTTP_WIT}/*.wit")
  add_custom_command(
    OUTPUT "${_component}"
    COMMAND ${CMAKE_COMMAND} -E env "NODE_OPTIONS=--import=${BX_ROOT}/common/host/jco-preopens.mjs"
            "${BX_NODE}" "${BX_JCO_JS}" embed --wit "${BX_HTTP_WIT}" --world-name service
            -o "${_embedded}" "${_core_wasm}"
    COMMAND "${BX_NODE}" "${BX_JCO_JS}" new "${_embedded}" -o "${_component}"
    DEPENDS ${_core} ${_wit} "${BX_ROOT}/common/host/jco-preopens.mjs"
    COMMENT "Componentising ${out_name}.wasm (${target})"
    VERBATIM)
  add_custom_target(${target} DEPENDS "${_component}")
endfunction()

# bx_mutated_copy(<out> <source> <point> <from> <to>): a deliberate break for a
# check to catch. When <source> has a line `// mutation-point: <point>`, writes
# a copy of it under this directory's build tree in which the next line's first
# <from> is <to>, and sets <out> to the copy's path; otherwise sets <out> empty.
# The copy is rewritten only when it changes, and follows edits of <source>.
function(bx_mutated_copy out source point from to)
  set(${out} "" PARENT_SCOPE)
  file(READ "${source}" _text)
  string(FIND "${_text}" "mutation-point: ${point}\n" _at)
  if(_at LESS 0)
    return()
  endif()
  string(LENGTH "mutation-point: ${point}\n" _marker_length)
  math(EXPR _line_start "${_at} + ${_marker_length}")
  string(SUBSTRING "${_text}" 0 ${_line_start} _before)
  string(SUBSTRING "${_text}" ${_line_start} -1 _after)
  string(FIND "${_after}" "\n" _line_end)
  string(SUBSTRING "${_after}" 0 ${_line_end} _line)
  string(SUBSTRING "${_after}" ${_line_end} -1 _rest)
  string(FIND "${_line}" "${from}" _hit)
  if(_hit LESS 0)
    message(FATAL_ERROR "${source}: the line after 'mutation-point: ${point}' has no '${from}'")
  endif()
  string(SUBSTRING "${_line}" 0 ${_hit} _head)
  string(LENGTH "${from}" _from_length)
  math(EXPR _tail_at "${_hit} + ${_from_length}")
  string(SUBSTRING "${_line}" ${_tail_at} -1 _tail)
  get_filename_component(_base "${source}" NAME)
  set(_copy "${CMAKE_CURRENT_BINARY_DIR}/mutant-${point}/${_base}")
  file(WRITE "${_copy}.new" "${_before}${_head}${to}${_tail}${_rest}")
  configure_file("${_copy}.new" "${_copy}" COPYONLY)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${source}")
  set(${out} "${_copy}" PARENT_SCOPE)
endfunction()

# bx_stage(): the whole CMakeLists.txt of a stage directory stages/NN-name/.
function(bx_stage)
  get_filename_component(_name "${CMAKE_CURRENT_SOURCE_DIR}" NAME)  # "00-naive"
  if(NOT _name MATCHES "^([0-9][0-9])-")
    message(FATAL_ERROR "stage directory '${_name}' must be named NN-name")
  endif()
  set(_nn "${CMAKE_MATCH_1}")
  set(_lib stage_${_nn})

  bx_glob(_sources "${CMAKE_CURRENT_SOURCE_DIR}/*.cpp")
  bx_nonempty_sources(_sources ${_lib} ${_sources})
  add_library(${_lib} STATIC ${_sources})
  target_include_directories(${_lib} PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}")
  target_compile_definitions(${_lib} PUBLIC "BX_STAGE_NAME=\"${_name}\"")
  target_link_libraries(${_lib} PUBLIC bx_common)

  if(WASI)
    bx_component(${_lib}_component ${_lib} bx_http_glue bx_router component)
    # Built on demand (make test / make mutant-http), not by `all`:
    bx_component(${_lib}_component_test ${_lib} bx_http_glue bx_router_test component_test)
    bx_component(${_lib}_component_mutant ${_lib} bx_http_glue_mutant bx_router_test component_mutant)
    foreach(_t ${_lib}_component_test_core ${_lib}_component_mutant_core)
      set_target_properties(${_t} PROPERTIES EXCLUDE_FROM_ALL TRUE)
    endforeach()
    add_custom_target(${_lib}_component_all ALL DEPENDS ${_lib}_component)
  endif()

  if(TARGET bx_harness)
    add_executable(${_lib}_cli)
    target_link_libraries(${_lib}_cli PRIVATE bx_harness bx_platform_posix ${_lib} bx_common)
    set_target_properties(${_lib}_cli PROPERTIES OUTPUT_NAME cli
                          RUNTIME_OUTPUT_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
    if(WASI)
      target_link_options(${_lib}_cli PRIVATE ${BX_WASM_LINK_OPTIONS})
    endif()
  endif()

  # The native build is a cross-check: by default it builds only stage 00 (the
  # unit tests link it, and CTest compares it with the wasm reference). Any other
  # stage's native CLI is built on demand (`make check NATIVE=1` names its
  # target), or by `all` when a CTest test needs it (bx_needs_native_cli in
  # common/harness/tests.cmake), which keeps `make test` from compiling twelve
  # native stages that no test runs.
  if(NOT WASI AND NOT _nn STREQUAL "00")
    set_target_properties(${_lib} PROPERTIES EXCLUDE_FROM_ALL TRUE)
    if(TARGET ${_lib}_cli)
      set_target_properties(${_lib}_cli PROPERTIES EXCLUDE_FROM_ALL TRUE)
    endif()
  endif()

  # A variant changes forward-pass knobs only, never the tokenizer: its library
  # compiles the stage's other sources again with its definitions, and its CLI
  # takes the tokenizer's objects (unigram*, tokenizer_*, vocab_blob*) from the
  # stage's own library, which it links after the variant's.
  set(_variant_sources "")
  foreach(_source ${_sources})
    get_filename_component(_base "${_source}" NAME)
    if(NOT _base MATCHES "^(unigram|tokenizer_|vocab_blob)")
      list(APPEND _variant_sources "${_source}")
    endif()
  endforeach()

  # Variants: the same sources built again with other definitions, as a CLI
  # named cli-<name> beside cli (wasm only: the checks and the timings run the
  # shipped flavour). No component: a variant is never served. Two kinds:
  #   VARIANTS dlanes    a failed idea kept so its failure can be shown: built
  #                      with BX_VARIANT_DLANES=1, it must FAIL the check
  #                      (make check STAGE=NN VARIANT=dlanes);
  #   SWEEP t2x4=BX_TILE_TOKENS=2,BX_TILE_OUTPUTS=4 ...   exact alternatives
  #                      (another tile shape, another row count): each must
  #                      PASS the check, and `make bench-sweep STAGE=NN` times
  #                      them beside the stage itself, which SWEEP_BASE names.
  #   TRAPS nearest ...  a failed idea whose failure is shown by the stage's
  #                      kernel check (a HARNESS_COMMAND such as quantchk), not
  #                      necessarily by the logit check: the inputs that trip
  #                      it (a NaN, an exact .5 tie) may never occur in a real
  #                      corpus. Built like VARIANTS; the logit check on them is
  #                      reported, not required to fail.
  # build/wasm/stages/NN-name/variants.json lists them all for the scripts.
  #
  # HARNESS_COMMANDS geluchk ...: harness commands that only some stages can
  # run, because they call an optional part of the stage interface (geluchk
  # calls gelu_in_place, common/stage/gelu_kernel.hpp). Each is
  # common/harness/stage-commands/cmd_<name>.cpp, compiled into this stage's
  # CLIs (and its variants'); CTest runs what common/harness/tests.cmake
  # defines for that command.
  cmake_parse_arguments(_arg "" "SWEEP_BASE" "VARIANTS;SWEEP;HARNESS_COMMANDS;TRAPS" ${ARGN})
  set(_extra_commands "")
  foreach(_command ${_arg_HARNESS_COMMANDS})
    set(_source "${BX_ROOT}/common/harness/stage-commands/cmd_${_command}.cpp")
    if(NOT EXISTS "${_source}")
      message(FATAL_ERROR "${_name}: no harness command '${_command}' (${_source})")
    endif()
    # The command only calls the optional stage interface, so its object is the
    # same for every stage and variant: compiled once, linked into each CLI.
    if(NOT TARGET bx_command_${_command})
      add_library(bx_command_${_command} OBJECT "${_source}")
      target_link_libraries(bx_command_${_command} PUBLIC bx_common)
    endif()
    list(APPEND _extra_commands "$<TARGET_OBJECTS:bx_command_${_command}>")
    set_property(GLOBAL APPEND PROPERTY BX_STAGE_COMMANDS "${_name}:${_command}")
  endforeach()
  if(_extra_commands AND TARGET ${_lib}_cli)
    target_sources(${_lib}_cli PRIVATE ${_extra_commands})
  endif()
  set(_libs ${_lib})
  # The sanitizer build's fuzz targets (tests/fuzz) put two stages' tokenizers
  # in one program (the differential target: stage 00's Unigram step against
  # the last stage's), which their shared namespace forbids. So each stage
  # there also gets its tokenizer sources compiled with bx::stage renamed
  # bx::stage_NN (a macro: `stage` is no other identifier in those files).
  if(BX_SANITIZE)
    set(_tokenizer_sources "")
    foreach(_source ${_sources})
      get_filename_component(_base "${_source}" NAME)
      if(_base MATCHES "^(unigram|tokenizer_|vocab_blob)")
        list(APPEND _tokenizer_sources "${_source}")
      endif()
    endforeach()
    if(_tokenizer_sources)
      add_library(${_lib}_tokenizer_renamed STATIC EXCLUDE_FROM_ALL ${_tokenizer_sources})
      target_include_directories(${_lib}_tokenizer_renamed PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}")
      target_compile_definitions(${_lib}_tokenizer_renamed PRIVATE "stage=stage_${_nn}")
      target_link_libraries(${_lib}_tokenizer_renamed PUBLIC bx_common)
      list(APPEND _libs ${_lib}_tokenizer_renamed)
      # Mutants of that copy, one per mutation point marked in the tokenizer's
      # files (`// mutation-point: <name>`; bx_mutated_copy): the tokenizer's
      # files copied to mutant-<name>/, the marked one mutated, compiled as
      # ${_lib}_tokenizer_<name> whose include path puts the copies first.
      # tiebreak: the post's `>` made `>=` (as `make tokcheck-mutant`), which
      # the differential fuzz target must catch; piece-order: the blob reader
      # leaves the last piece's offsets unchecked (the blob fuzz target).
      bx_glob(_tokenizer_files "${CMAKE_CURRENT_SOURCE_DIR}/unigram*" "${CMAKE_CURRENT_SOURCE_DIR}/tokenizer_*"
              "${CMAKE_CURRENT_SOURCE_DIR}/vocab_blob*")
      foreach(_point "tiebreak| > | >= " "piece-order|id < blob.pieces_|id + 1 < blob.pieces_")
        string(REPLACE "|" ";" _point "${_point}")
        list(GET _point 0 _point_name)
        list(GET _point 1 _point_from)
        list(GET _point 2 _point_to)
        set(_point_copies "")
        set(_mutated FALSE)
        foreach(_file ${_tokenizer_files})
          bx_mutated_copy(_copy "${_file}" ${_point_name} "${_point_from}" "${_point_to}")
          if(_copy)
            set(_mutated TRUE)
          else()
            get_filename_component(_base "${_file}" NAME)
            set(_copy "${CMAKE_CURRENT_BINARY_DIR}/mutant-${_point_name}/${_base}")
            configure_file("${_file}" "${_copy}" COPYONLY)
          endif()
          list(APPEND _point_copies "${_copy}")
        endforeach()
        if(NOT _mutated)
          continue()
        endif()
        list(FILTER _point_copies INCLUDE REGEX "\\.cpp$")
        add_library(${_lib}_tokenizer_${_point_name} STATIC EXCLUDE_FROM_ALL ${_point_copies})
        target_include_directories(${_lib}_tokenizer_${_point_name} BEFORE PUBLIC "${CMAKE_CURRENT_BINARY_DIR}/mutant-${_point_name}")
        target_include_directories(${_lib}_tokenizer_${_point_name} PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}")
        target_compile_definitions(${_lib}_tokenizer_${_point_name} PRIVATE "stage=stage_${_nn}")
        target_link_libraries(${_lib}_tokenizer_${_point_name} PUBLIC bx_common)
        list(APPEND _libs ${_lib}_tokenizer_${_point_name})
      endforeach()
    endif()
  endif()
  set(_failing_json "")
  set(_sweep_json "")
  set(_traps_json "")
  set(_trap_entries "")
  foreach(_trap ${_arg_TRAPS})
    list(APPEND _trap_entries "trap:${_trap}")
  endforeach()
  foreach(_entry ${_arg_VARIANTS} ${_arg_SWEEP} ${_trap_entries})
    set(_kind failing)
    if(_entry MATCHES "^trap:(.*)$")
      set(_entry "${CMAKE_MATCH_1}")
      set(_kind trap)
    endif()
    if(_entry MATCHES "^([a-z0-9]+)=(.*)$")
      set(_variant "${CMAKE_MATCH_1}")
      string(REPLACE "," ";" _defs "${CMAKE_MATCH_2}")
      set(_kind sweep)
    elseif(_entry MATCHES "^[a-z0-9]+(-[a-z0-9]+)*$")
      set(_variant "${_entry}")
      string(TOUPPER "${_variant}" _upper)
      string(REPLACE "-" "_" _upper "${_upper}")  # pmin-swapped: BX_VARIANT_PMIN_SWAPPED
      set(_defs "BX_VARIANT_${_upper}=1")
    else()
      message(FATAL_ERROR "${_name}: variant '${_entry}' is not name (a-z, 0-9, dashes) or name=DEF,DEF")
    endif()
    if(_kind STREQUAL "sweep")
      list(APPEND _sweep_json "\"${_variant}\": \"${CMAKE_MATCH_2}\"")
      set_property(GLOBAL APPEND PROPERTY BX_STAGE_SWEEP "${_name}:${_variant}")
    elseif(_kind STREQUAL "trap")
      list(APPEND _traps_json "\"${_variant}\"")
      set_property(GLOBAL APPEND PROPERTY BX_STAGE_TRAPS "${_name}:${_variant}")
    else()
      list(APPEND _failing_json "\"${_variant}\"")
      set_property(GLOBAL APPEND PROPERTY BX_STAGE_VARIANTS "${_name}:${_variant}")
    endif()
    if(NOT WASI)
      continue()
    endif()
    set(_vlib ${_lib}_${_variant})
    list(APPEND _libs ${_vlib})
    add_library(${_vlib} STATIC ${_variant_sources})
    target_include_directories(${_vlib} PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}")
    target_compile_definitions(${_vlib} PUBLIC "BX_STAGE_NAME=\"${_name}\"" ${_defs})
    target_link_libraries(${_vlib} PUBLIC bx_common)
    if(TARGET bx_harness)
      add_executable(${_vlib}_cli)
      target_link_libraries(${_vlib}_cli PRIVATE bx_harness bx_platform_posix ${_vlib} ${_lib} bx_common)
      if(_extra_commands)
        target_sources(${_vlib}_cli PRIVATE ${_extra_commands})
      endif()
      set_target_properties(${_vlib}_cli PROPERTIES OUTPUT_NAME cli-${_variant}
                            RUNTIME_OUTPUT_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
      target_link_options(${_vlib}_cli PRIVATE ${BX_WASM_LINK_OPTIONS})
    endif()
  endforeach()
  list(JOIN _failing_json ", " _failing_json)
  list(JOIN _traps_json ", " _traps_json)
  list(JOIN _sweep_json ", " _sweep_json)
  set(_commands_json "")
  foreach(_command ${_arg_HARNESS_COMMANDS})
    list(APPEND _commands_json "\"${_command}\"")
  endforeach()
  list(JOIN _commands_json ", " _commands_json)
  file(CONFIGURE OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/variants.json"
       CONTENT "{\"stage\": \"${_name}\", \"failing\": [${_failing_json}], \"traps\": [${_traps_json}], \"sweep_base\": \"${_arg_SWEEP_BASE}\", \"sweep\": {${_sweep_json}}, \"commands\": [${_commands_json}]}\n")

  # Stages in build order, for tests and the Makefile (lowest number first).
  set_property(GLOBAL APPEND PROPERTY BX_STAGES "${_name}")

  # For bx_stage_data(), called next in the same CMakeLists.txt.
  set(BX_STAGE_LIBS ${_libs} PARENT_SCOPE)
  set(BX_STAGE_NAME ${_name} PARENT_SCOPE)
  set(BX_STAGE_NUM ${_nn} PARENT_SCOPE)
endfunction()

# ---- programs for the build host ---------------------------------------------
# bx_host_tool(<target> <sources>...): an executable that runs on the machine
# doing the build (a generator), linked with common's json, text and tokenizer
# code. The native flavour builds it like any target. In the wasm flavour the
# compiler makes wasm, so the tool is a small separate CMake project
# (common/cmake/host-tool) built with the native toolchain. Sets
# <target>_EXE (the program's path), <target>_DEPENDS (what a custom command
# that runs it must depend on) and <target>_HOST_EXE (the wasm flavour's
# program, under this build's root) in the caller's scope.
function(bx_host_tool target)
  set(_sources ${ARGN})
  # Stages copy their generator from the stage before (05 to 12 keep 04's), so
  # a tool whose code is an earlier tool's (its sources and the stage headers
  # they include, snippet markers aside) is that tool: built once, run by all.
  include("${BX_ROOT}/common/cmake/code-hash.cmake")
  set(_pending ${_sources})
  set(_seen "")
  set(_hash "")
  while(_pending)
    list(POP_FRONT _pending _file)
    if(_file IN_LIST _seen OR NOT EXISTS "${_file}")
      continue()
    endif()
    list(APPEND _seen "${_file}")
    bx_code_hash("${_file}" _h)
    get_filename_component(_base "${_file}" NAME)
    string(APPEND _hash "${_base}:${_h};")
    file(STRINGS "${_file}" _includes REGEX "^[ \t]*#[ \t]*include[ \t]+\"[^\"]+\"")
    foreach(_line ${_includes})
      string(REGEX REPLACE "^[^\"]*\"([^\"]+)\".*$" "\\1" _inc "${_line}")
      foreach(_dir "${CMAKE_CURRENT_SOURCE_DIR}" "${CMAKE_CURRENT_SOURCE_DIR}/build-time")
        if(EXISTS "${_dir}/${_inc}")
          list(APPEND _pending "${_dir}/${_inc}")
        endif()
      endforeach()
    endforeach()
  endwhile()
  string(SHA256 _hash "${_hash}")
  get_property(_owner GLOBAL PROPERTY BX_HOST_TOOL_${_hash})
  if(NOT _owner)
    set(_owner ${target})
    set_property(GLOBAL PROPERTY BX_HOST_TOOL_${_hash} ${target})
    set_property(GLOBAL PROPERTY BX_HOST_TOOL_${_hash}_BIN "${CMAKE_CURRENT_BINARY_DIR}/${target}-host")
  endif()
  get_property(_owner_bin GLOBAL PROPERTY BX_HOST_TOOL_${_hash}_BIN)
  # Where the wasm flavour's copy is (the one the shipped data comes from),
  # written with this build's root: the determinism test swaps the root.
  set(${target}_HOST_EXE "${_owner_bin}/${_owner}" PARENT_SCOPE)

  if(NOT WASI)
    # Natively a plain executable, built on demand (by a stage that needs its
    # data; the stages from 04 on are not in the native `all`).
    add_executable(${target} EXCLUDE_FROM_ALL ${_sources})
    target_include_directories(${target} PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
    target_link_libraries(${target} PRIVATE bx_common)
    set(${target}_EXE "$<TARGET_FILE:${target}>" PARENT_SCOPE)
    set(${target}_DEPENDS ${target} PARENT_SCOPE)
    return()
  endif()
  if(NOT _owner STREQUAL target)
    set(${target}_EXE "${_owner_bin}/${_owner}" PARENT_SCOPE)
    set(${target}_DEPENDS ${_owner} "${_owner_bin}/${_owner}" PARENT_SCOPE)
    return()
  endif()
  include(ExternalProject)
  set(_bin "${CMAKE_CURRENT_BINARY_DIR}/${target}-host")
  ExternalProject_Add(${target}
    SOURCE_DIR "${BX_ROOT}/common/cmake/host-tool"
    BINARY_DIR "${_bin}"
    PREFIX "${_bin}/ep"
    CMAKE_ARGS "-DCMAKE_TOOLCHAIN_FILE=${BX_ROOT}/common/cmake/native-clang.cmake"
               -DCMAKE_BUILD_TYPE=Release
    CMAKE_CACHE_ARGS "-DBX_ROOT:PATH=${BX_ROOT}" "-DBX_TOOL_NAME:STRING=${target}"
                     "-DBX_TOOL_SOURCES:STRING=${_sources}"
                     "-DBX_TOOL_INCLUDE_DIR:PATH=${CMAKE_CURRENT_SOURCE_DIR}"
    INSTALL_COMMAND ""
    BUILD_ALWAYS TRUE            # its own make decides whether a source changed
    BUILD_BYPRODUCTS "${_bin}/${target}"
    USES_TERMINAL_BUILD FALSE)
  set(${target}_EXE "${_bin}/${target}" PARENT_SCOPE)
  set(${target}_DEPENDS ${target} "${_bin}/${target}" PARENT_SCOPE)
endfunction()

# bx_stage_data([NAME <name>] GENERATOR <src>... INPUT <file> OUTPUTS <name>... EMBED_IN <src>)
# Data a stage computes at build time instead of at every request (stage 04's
# vocabulary blob). The GENERATOR sources form a host program that is run as
#     generator INPUT <build dir>/<name>...
# and must write every output. The stage's libraries (and variants) get
# BX_DATA_<NAME>="<path>" (name upper-cased, non-alphanumerics as _) to #embed
# in the EMBED_IN source, which recompiles when an output changes. Nothing
# generated is committed. CTest runs the generator twice more and compares
# bytes: it must be deterministic (common/harness/tests.cmake).
function(bx_stage_data)
  cmake_parse_arguments(_arg "" "NAME;INPUT;EMBED_IN" "GENERATOR;OUTPUTS" ${ARGN})
  if(NOT BX_STAGE_LIBS)
    message(FATAL_ERROR "bx_stage_data() comes after bx_stage() in the stage's CMakeLists.txt")
  endif()
  list(TRANSFORM _arg_GENERATOR PREPEND "${CMAKE_CURRENT_SOURCE_DIR}/")
  # A stage with a second generator names it (NAME weights): its targets and
  # tests then carry the name.
  set(_suffix "")
  if(_arg_NAME)
    set(_suffix "_${_arg_NAME}")
  else()
    set(_arg_NAME "-")  # the tests' entry below: no name
  endif()
  set(_tool stage_${BX_STAGE_NUM}_generator${_suffix})
  bx_host_tool(${_tool} ${_arg_GENERATOR})
  set(_dir "${CMAKE_CURRENT_BINARY_DIR}/data")
  set(_outputs "")
  set(_definitions "")
  foreach(_out ${_arg_OUTPUTS})
    list(APPEND _outputs "${_dir}/${_out}")
    string(MAKE_C_IDENTIFIER "${_out}" _id)
    string(TOUPPER "${_id}" _id)
    list(APPEND _definitions "BX_DATA_${_id}=\"${_dir}/${_out}\"")
  endforeach()
  add_custom_command(
    OUTPUT ${_outputs}
    COMMAND ${CMAKE_COMMAND} -E make_directory "${_dir}"
    COMMAND ${${_tool}_EXE} "${_arg_INPUT}" ${_outputs}
    DEPENDS ${${_tool}_DEPENDS} "${_arg_INPUT}"
    COMMENT "Generating ${BX_STAGE_NAME}'s build-time data: ${_arg_OUTPUTS}"
    VERBATIM)
  add_custom_target(stage_${BX_STAGE_NUM}_data${_suffix} DEPENDS ${_outputs})
  foreach(_lib ${BX_STAGE_LIBS})
    add_dependencies(${_lib} stage_${BX_STAGE_NUM}_data${_suffix})
    target_compile_definitions(${_lib} PRIVATE ${_definitions})
  endforeach()
  set_property(SOURCE "${CMAKE_CURRENT_SOURCE_DIR}/${_arg_EMBED_IN}" APPEND PROPERTY OBJECT_DEPENDS ${_outputs})
  # For the determinism test: stage|generator|input|outputs (;-list as ,)|name.
  string(REPLACE ";" "," _out_list "${_outputs}")
  set_property(GLOBAL APPEND PROPERTY BX_STAGE_DATA
               "${BX_STAGE_NAME}|${${_tool}_HOST_EXE}|${_arg_INPUT}|${_out_list}|${_arg_NAME}")
endfunction()
