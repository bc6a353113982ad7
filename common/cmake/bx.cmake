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

# ---- bx_embed: the model and tokenizer bytes (#embed), one object library ----
# Kept apart from bx_common so that an asset appearing or changing recompiles
# this one file, not all of common/ (its definitions would otherwise change
# bx_common's flags, on which every object depends).
#
# Only assets that exist are embedded. The globs (CONFIGURE_DEPENDS) re-run at
# every build, so when a file appears the build re-configures and embeds it;
# OBJECT_DEPENDS recompiles when its bytes change.
bx_glob(_bx_embed_sources "${BX_ROOT}/common/embed/*.cpp")
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
if(BX_SANITIZE)
  # The scalar maths runs only inside forward passes, which no fuzz target
  # makes (fuzz_request stubs the model): sanitized, but without libFuzzer's
  # coverage hooks, which cost a call per comparison in its loops.
  bx_glob(_bx_maths_sources "${BX_ROOT}/common/maths/*.cpp")
  set_source_files_properties(${_bx_maths_sources} PROPERTIES COMPILE_OPTIONS -fno-sanitize=fuzzer-no-link)
endif()
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
  # The pre-initialiser's export, only for bx_component(... PREINITIALISE).
  bx_glob(_bx_preinit_sources "${BX_ROOT}/common/http/preinit/*.cpp")
  add_library(bx_http_preinit OBJECT ${_bx_preinit_sources})
  target_link_libraries(bx_http_preinit PUBLIC bx_common)
  # The wasmtime CLI of make setup-wasmtime (build/venv), for wizer.
  find_program(BX_WASMTIME_CLI wasmtime HINTS "${BX_ROOT}/build/venv/bin" NO_DEFAULT_PATH)
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
#
#   bx_component(target stage_lib glue router out_name [PREINITIALISE])
#
# PREINITIALISE: the core module also links the pre-initialiser's export
# (common/http/preinit/), and `wasmtime wizer` runs it at build time before the
# module becomes a component: <out_name>.core.init.wasm is the module with its
# memory as the export left it, and without the export.
function(bx_component target stage_lib glue router out_name)
  cmake_parse_arguments(_arg "PREINITIALISE" "" "" ${ARGN})
  set(_core ${target}_core)
  add_executable(${_core})
  target_link_libraries(${_core} PRIVATE ${glue} ${router} ${stage_lib} bx_common)
  if(_arg_PREINITIALISE)
    target_link_libraries(${_core} PRIVATE bx_http_preinit)
  endif()
  # No crt1 (its _start/_initialize would pull in preview1 calls): no entry
  # point; the handler runs the global constructors itself.
  target_link_options(${_core} PRIVATE -nostartfiles -Wl,--no-entry ${BX_WASM_LINK_OPTIONS})
  set_target_properties(${_core} PROPERTIES OUTPUT_NAME "${out_name}.core"
                        RUNTIME_OUTPUT_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
  set(_core_wasm "${CMAKE_CURRENT_BINARY_DIR}/${out_name}.core.wasm")
  set(_embedded "${CMAKE_CURRENT_BINARY_DIR}/${out_name}.embedded.wasm")
  set(_component "${CMAKE_CURRENT_BINARY_DIR}/${out_name}.wasm")
  set(_module "${_core_wasm}")
  set(_wizer_command "")
  if(_arg_PREINITIALISE)
    if(NOT BX_WASMTIME_CLI)
      message(FATAL_ERROR "${target}: PREINITIALISE needs the wasmtime CLI (make setup-wasmtime; BX_WASMTIME_CLI)")
    endif()
    set(_module "${CMAKE_CURRENT_BINARY_DIR}/${out_name}.core.init.wasm")
    # The engine's defaults accept our features (SIMD, bulk memory); the init
    # function is wizer's default name, which the module exports. Wizer must
    # instantiate the module, whose imports are wasi:http's and the clock's:
    # unknown-imports-trap gives each a body that traps, and the initialiser
    # calls none of them (were it to, wizer would fail, and the build with it).
    # snippet: wizer-step
    set(_wizer_command COMMAND ${CMAKE_COMMAND} -E env RUST_BACKTRACE=0
                               "${BX_WASMTIME_CLI}" wizer -W unknown-imports-trap=y
                               --init-func wizer-initialize -o "${_module}" "${_core_wasm}")
    # end-snippet
  endif()
  file(GLOB_RECURSE _wit CONFIGURE_DEPENDS "${BX_HTTP_WIT}/*.wit")
  add_custom_command(
    OUTPUT "${_component}"
    ${_wizer_command}
    # Node can abort now and then on a V8 CHECK that has nothing to do with
    # the module: rerun-on-signal.sh runs a step that died from a signal once more.
    COMMAND ${CMAKE_COMMAND} -E env "NODE_OPTIONS=--import=${BX_ROOT}/common/host/jco-preopens.mjs"
            sh "${BX_ROOT}/common/cmake/rerun-on-signal.sh"
            "${BX_NODE}" "${BX_JCO_JS}" embed --wit "${BX_HTTP_WIT}" --world-name service
            -o "${_embedded}" "${_module}"
    COMMAND sh "${BX_ROOT}/common/cmake/rerun-on-signal.sh" "${BX_NODE}" "${BX_JCO_JS}" new "${_embedded}" -o "${_component}"
    DEPENDS ${_core} ${_wit} "${BX_ROOT}/common/host/jco-preopens.mjs" "${BX_ROOT}/common/cmake/rerun-on-signal.sh"
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

# bx_stage(): the whole CMakeLists.txt of a stage directory (stage.cmake).
include("${CMAKE_CURRENT_LIST_DIR}/stage.cmake")

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
  # Stages copy their generator from the stage before (every stage from 05 on
  # keeps 04's tokenizer generator), so
  # a tool whose code is an earlier tool's (its sources and the stage headers
  # they include, snippet markers aside) is that tool: built once, run by all.
  include("${BX_ROOT}/common/cmake/code-hash.cmake")
  bx_include_closure(_files "${CMAKE_CURRENT_SOURCE_DIR};${CMAKE_CURRENT_SOURCE_DIR}/build-time" ${_sources})
  set(_hash "")
  foreach(_file ${_files})
    bx_code_hash("${_file}" _h)
    get_filename_component(_base "${_file}" NAME)
    string(APPEND _hash "${_base}:${_h};")
  endforeach()
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
