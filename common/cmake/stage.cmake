# bx_stage(): the whole CMakeLists.txt of a stage directory stages/NN-name/.
# It turns the directory into
#   stage_NN                the library (every .cpp of the directory)
#   its component           component.wasm, the Spin component (wasm build)
#   its CLI                 cli.wasm / cli, the harness linked with the stage
#   its variants            cli-<name>.wasm: kept mistakes, traps, sweep builds
#   variants.json           what the scripts need to know about them
# and, in the sanitizer build, the tokenizer copies the fuzz targets link.
#
#   bx_stage([VARIANTS name...] [TRAPS name...] [SWEEP name=DEF,DEF...]
#            [SWEEP_BASE name] [HARNESS_COMMANDS command...] [PREINITIALISE])
#
#   VARIANTS dlanes    a failed idea kept so its failure can be shown: built
#                      with BX_VARIANT_DLANES=1, it must FAIL the check
#                      (make check STAGE=NN VARIANT=dlanes);
#   TRAPS nearest ...  a failed idea whose failure is shown by the stage's
#                      kernel check (a HARNESS_COMMAND such as check-quant), not
#                      necessarily by the logit check: the inputs that trip
#                      it (a NaN, an exact .5 tie) may never occur in a real
#                      corpus. Built like VARIANTS; the logit check on them is
#                      reported, not required to fail.
#   SWEEP t2x4=BX_TILE_TOKENS=2,BX_TILE_OUTPUTS=4 ...   exact alternatives
#                      (another tile shape, another row count): each must
#                      PASS the check, and `make bench-sweep STAGE=NN` times
#                      them beside the stage itself, which SWEEP_BASE names.
#   PREINITIALISE      the stage's components are pre-initialised at build
#                      time (`wasmtime wizer`, bx_component): what the service
#                      builds from embedded data before a request is in the
#                      memory image. component_cold.wasm, built on demand,
#                      is the same component without that step: the test
#                      that looks for the tokenizer's tables in the image
#                      must fail on it.
#   HARNESS_COMMANDS check-gelu ...: harness commands that only some stages can
#                      run, because they call an optional part of the stage
#                      interface (check-gelu calls gelu_in_place,
#                      common/stage/gelu_kernel.hpp). Each is
#                      common/harness/stage-commands/cmd_<name>.cpp, compiled
#                      into this stage's CLIs (and its variants'); CTest runs
#                      what common/harness/tests.cmake defines for it.
#
# A BX_VARIANT_X in the stage's sources that VARIANTS or TRAPS does not
# declare fails the configure step (check-variants.cmake).
include("${CMAKE_CURRENT_LIST_DIR}/check-variants.cmake")

function(bx_stage)
  get_filename_component(_name "${CMAKE_CURRENT_SOURCE_DIR}" NAME)  # "00-naive"
  if(NOT _name MATCHES "^([0-9][0-9])-")
    message(FATAL_ERROR "stage directory '${_name}' must be named NN-name")
  endif()
  set(_nn "${CMAKE_MATCH_1}")
  set(_lib stage_${_nn})
  cmake_parse_arguments(_arg "PREINITIALISE" "SWEEP_BASE" "VARIANTS;SWEEP;HARNESS_COMMANDS;TRAPS" ${ARGN})

  bx_check_declared_variants(${_name} "${CMAKE_CURRENT_SOURCE_DIR}" ${_arg_VARIANTS} ${_arg_TRAPS})
  # An edit to any of the stage's files configures again, so the check above
  # sees a variant the moment it is written.
  file(GLOB_RECURSE _stage_files "${CMAKE_CURRENT_SOURCE_DIR}/*.cpp" "${CMAKE_CURRENT_SOURCE_DIR}/*.hpp")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_stage_files})

  bx_glob(_sources "${CMAKE_CURRENT_SOURCE_DIR}/*.cpp")
  set(_preinit "")
  if(_arg_PREINITIALISE)
    set(_preinit PREINITIALISE)
    set_property(GLOBAL APPEND PROPERTY BX_STAGE_PREINITIALISED "${_name}")
  endif()
  _bx_stage_library(${_name} ${_nn} "${_sources}" ${_preinit})
  _bx_stage_commands(${_name} ${_lib} "${_arg_HARNESS_COMMANDS}" _command_objects)
  set(_libs ${_lib})
  if(BX_SANITIZE)
    _bx_stage_fuzz_copies(${_nn} "${_sources}" _fuzz_libs)
    list(APPEND _libs ${_fuzz_libs})
  endif()
  _bx_stage_variants(${_name} ${_lib} "${_sources}" "${_command_objects}"
                     "${_arg_VARIANTS}" "${_arg_TRAPS}" "${_arg_SWEEP}" _variant_libs)
  list(APPEND _libs ${_variant_libs})
  _bx_stage_manifest(${_name} "${_arg_VARIANTS}" "${_arg_TRAPS}" "${_arg_SWEEP}" "${_arg_SWEEP_BASE}"
                     "${_arg_HARNESS_COMMANDS}")

  # Stages in build order, for tests and the Makefile (lowest number first).
  set_property(GLOBAL APPEND PROPERTY BX_STAGES "${_name}")

  # For bx_stage_data(), called next in the same CMakeLists.txt.
  set(BX_STAGE_LIBS ${_libs} PARENT_SCOPE)
  set(BX_STAGE_NAME ${_name} PARENT_SCOPE)
  set(BX_STAGE_NUM ${_nn} PARENT_SCOPE)
endfunction()

# The library, the component (wasm) and the CLI.
function(_bx_stage_library name nn sources)
  set(_preinit ${ARGN})
  set(_lib stage_${nn})
  add_library(${_lib} STATIC ${sources})
  target_include_directories(${_lib} PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}")
  target_compile_definitions(${_lib} PUBLIC "BX_STAGE_NAME=\"${name}\"")
  target_link_libraries(${_lib} PUBLIC bx_common)
  if(BX_SANITIZE)
    # ASan and UBSan check this library as they check everything, but without
    # libFuzzer's coverage hooks: no fuzz target links it (they link the copies
    # _bx_stage_fuzz_copies makes), and those hooks put a call on every
    # comparison of the forward pass's loops, where the unit tests spend most
    # of their time under the sanitizers.
    target_compile_options(${_lib} PRIVATE -fno-sanitize=fuzzer-no-link)
  endif()

  if(WASI)
    bx_component(${_lib}_component ${_lib} bx_http_glue bx_router component ${_preinit})
    # Built on demand (make test / make mutant-http), not by `all`:
    bx_component(${_lib}_component_test ${_lib} bx_http_glue bx_router_test component_test ${_preinit})
    bx_component(${_lib}_component_mutant ${_lib} bx_http_glue_mutant bx_router_test component_mutant ${_preinit})
    set(_on_demand ${_lib}_component_test_core ${_lib}_component_mutant_core)
    if(_preinit)
      # The deliberate break of the pre-initialisation: the same stage, not pre-initialised.
      bx_component(${_lib}_component_cold ${_lib} bx_http_glue bx_router component_cold)
      list(APPEND _on_demand ${_lib}_component_cold_core)
    endif()
    foreach(_t ${_on_demand})
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
  # common/harness/tests.cmake), which keeps `make test` from compiling native
  # stages that no test runs.
  if(NOT WASI AND NOT nn STREQUAL "00")
    set_target_properties(${_lib} PROPERTIES EXCLUDE_FROM_ALL TRUE)
    if(TARGET ${_lib}_cli)
      set_target_properties(${_lib}_cli PROPERTIES EXCLUDE_FROM_ALL TRUE)
    endif()
  endif()
endfunction()

# HARNESS_COMMANDS: each command's object, compiled once (it calls only the
# optional stage interface, so it is the same for every stage and variant),
# linked into the stage's CLI. Sets <out> to the objects, for the variants.
function(_bx_stage_commands name lib commands out)
  set(_objects "")
  foreach(_command ${commands})
    string(REPLACE "-" "_" _file "${_command}")  # check-gelu -> cmd_check_gelu.cpp
    set(_source "${BX_ROOT}/common/harness/stage-commands/cmd_${_file}.cpp")
    if(NOT EXISTS "${_source}")
      message(FATAL_ERROR "${name}: no harness command '${_command}' (${_source})")
    endif()
    if(NOT TARGET bx_command_${_file})
      add_library(bx_command_${_file} OBJECT "${_source}")
      target_link_libraries(bx_command_${_file} PUBLIC bx_common)
    endif()
    list(APPEND _objects "$<TARGET_OBJECTS:bx_command_${_file}>")
    set_property(GLOBAL APPEND PROPERTY BX_STAGE_COMMANDS "${name}:${_command}")
  endforeach()
  if(_objects AND TARGET ${lib}_cli)
    target_sources(${lib}_cli PRIVATE ${_objects})
  endif()
  set(${out} "${_objects}" PARENT_SCOPE)
endfunction()

# The tokenizer's files of a stage: the Unigram step and what loads it.
function(_bx_tokenizer_sources sources out)
  set(_found "")
  foreach(_source ${sources})
    get_filename_component(_base "${_source}" NAME)
    if(_base MATCHES "^(unigram|tokenizer_|vocab_blob)")
      list(APPEND _found "${_source}")
    endif()
  endforeach()
  set(${out} "${_found}" PARENT_SCOPE)
endfunction()

# The sanitizer build's fuzz targets (tests/fuzz) put two stages' tokenizers
# in one program (the differential target: stage 00's Unigram step against
# the last stage's), which their shared namespace forbids. So each stage
# there also gets its tokenizer sources compiled with bx::stage renamed
# bx::stage_NN (a macro: `stage` is no other identifier in those files), and
# mutants of that copy, one per mutation point marked in the tokenizer's files
# (`// mutation-point: <name>`; bx_mutated_copy): the tokenizer's files copied
# to mutant-<name>/, the marked one mutated, compiled as
# stage_NN_tokenizer_<name> whose include path puts the copies first.
#   tiebreak      the post's `>` made `>=` (as `make check-tok-mutant`), which
#                 the differential fuzz target must catch;
#   piece-order   the blob reader leaves the last piece's offsets unchecked
#                 (the blob fuzz target).
# Sets <out> to the libraries made.
function(_bx_stage_fuzz_copies nn sources out)
  set(_lib stage_${nn})
  set(_made "")
  _bx_tokenizer_sources("${sources}" _tokenizer_sources)
  if(NOT _tokenizer_sources)
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  add_library(${_lib}_tokenizer_renamed STATIC EXCLUDE_FROM_ALL ${_tokenizer_sources})
  target_include_directories(${_lib}_tokenizer_renamed PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}")
  target_compile_definitions(${_lib}_tokenizer_renamed PRIVATE "stage=stage_${nn}")
  target_link_libraries(${_lib}_tokenizer_renamed PUBLIC bx_common)
  list(APPEND _made ${_lib}_tokenizer_renamed)

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
    set(_target ${_lib}_tokenizer_${_point_name})
    add_library(${_target} STATIC EXCLUDE_FROM_ALL ${_point_copies})
    target_include_directories(${_target} BEFORE PUBLIC "${CMAKE_CURRENT_BINARY_DIR}/mutant-${_point_name}")
    target_include_directories(${_target} PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}")
    target_compile_definitions(${_target} PRIVATE "stage=stage_${nn}")
    target_link_libraries(${_target} PUBLIC bx_common)
    list(APPEND _made ${_target})
  endforeach()
  set(${out} "${_made}" PARENT_SCOPE)
endfunction()

# Variants: the stage's sources built again with other definitions, as a CLI
# named cli-<name> beside cli (wasm only: the checks and the timings run the
# shipped flavour). No component: a variant is never served. A variant changes
# forward-pass knobs only, never the tokenizer: its library compiles the
# stage's other sources again with its definitions, and its CLI takes the
# tokenizer's objects from the stage's own library, which it links after the
# variant's. Sets <out> to the variants' libraries.
function(_bx_stage_variants name lib sources command_objects variants traps sweep out)
  set(_variant_sources "${sources}")
  _bx_tokenizer_sources("${sources}" _tokenizer_sources)
  if(_tokenizer_sources)
    list(REMOVE_ITEM _variant_sources ${_tokenizer_sources})
  endif()
  set(_made "")
  set(_entries "")
  foreach(_v ${variants})
    list(APPEND _entries "failing|${_v}")
  endforeach()
  foreach(_v ${traps})
    list(APPEND _entries "trap|${_v}")
  endforeach()
  foreach(_v ${sweep})
    list(APPEND _entries "sweep|${_v}")
  endforeach()
  foreach(_entry ${_entries})
    string(REGEX MATCH "^([a-z]+)\\|(.*)$" _ "${_entry}")
    set(_kind "${CMAKE_MATCH_1}")
    set(_spec "${CMAKE_MATCH_2}")
    if(_kind STREQUAL "sweep" AND _spec MATCHES "^([a-z0-9]+)=(.+)$")
      set(_variant "${CMAKE_MATCH_1}")
      string(REPLACE "," ";" _defs "${CMAKE_MATCH_2}")
      set_property(GLOBAL APPEND PROPERTY BX_STAGE_SWEEP "${name}:${_variant}")
    elseif(NOT _kind STREQUAL "sweep" AND _spec MATCHES "^[a-z0-9]+(-[a-z0-9]+)*$")
      set(_variant "${_spec}")
      bx_variant_macro("${_variant}" _macro)
      set(_defs "${_macro}=1")
      if(_kind STREQUAL "trap")
        set_property(GLOBAL APPEND PROPERTY BX_STAGE_TRAPS "${name}:${_variant}")
      else()
        set_property(GLOBAL APPEND PROPERTY BX_STAGE_VARIANTS "${name}:${_variant}")
      endif()
    else()
      message(FATAL_ERROR "${name}: ${_kind} '${_spec}' must be name=DEF,DEF (SWEEP) or name of a-z, 0-9, dashes")
    endif()
    if(NOT WASI)
      continue()
    endif()
    set(_vlib ${lib}_${_variant})
    list(APPEND _made ${_vlib})
    add_library(${_vlib} STATIC ${_variant_sources})
    target_include_directories(${_vlib} PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}")
    target_compile_definitions(${_vlib} PUBLIC "BX_STAGE_NAME=\"${name}\"" ${_defs})
    target_link_libraries(${_vlib} PUBLIC bx_common)
    if(TARGET bx_harness)
      add_executable(${_vlib}_cli)
      target_link_libraries(${_vlib}_cli PRIVATE bx_harness bx_platform_posix ${_vlib} ${lib} bx_common)
      if(command_objects)
        target_sources(${_vlib}_cli PRIVATE ${command_objects})
      endif()
      set_target_properties(${_vlib}_cli PROPERTIES OUTPUT_NAME cli-${_variant}
                            RUNTIME_OUTPUT_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
      target_link_options(${_vlib}_cli PRIVATE ${BX_WASM_LINK_OPTIONS})
    endif()
  endforeach()
  set(${out} "${_made}" PARENT_SCOPE)
endfunction()

# build/<flavour>/stages/NN-name/variants.json, for the scripts (check-results,
# bench, tile-code, cranelift-loop):
#   {"stage", "failing": [..], "traps": [..], "sweep_base", "sweep": {name: defs}, "commands": [..]}
function(_bx_stage_manifest name variants traps sweep sweep_base commands)
  set(_json "{}")
  string(JSON _json SET "${_json}" stage "\"${name}\"")
  foreach(_key_list "failing;variants" "traps;traps" "commands;commands")
    list(GET _key_list 0 _key)
    list(GET _key_list 1 _list)
    set(_array "[]")
    set(_i 0)
    foreach(_item ${${_list}})
      string(JSON _array SET "${_array}" ${_i} "\"${_item}\"")
      math(EXPR _i "${_i} + 1")
    endforeach()
    string(JSON _json SET "${_json}" ${_key} "${_array}")
  endforeach()
  string(JSON _json SET "${_json}" sweep_base "\"${sweep_base}\"")
  set(_sweep "{}")
  foreach(_entry ${sweep})
    string(REGEX MATCH "^([a-z0-9]+)=(.+)$" _ "${_entry}")
    string(JSON _sweep SET "${_sweep}" "${CMAKE_MATCH_1}" "\"${CMAKE_MATCH_2}\"")
  endforeach()
  string(JSON _json SET "${_json}" sweep "${_sweep}")
  file(CONFIGURE OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/variants.json" CONTENT "${_json}\n")
endfunction()
