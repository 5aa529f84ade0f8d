# Cross-check against @noble/curves (included by CMakeLists.txt).  The test
# generates fresh vectors with node on every run, so it needs `npm ci` first;
# tests/oracle/run_noble.sh says so when node_modules is missing.
add_executable(test_noble ${PROJECT_SOURCE_DIR}/tests/oracle/test_noble.c)
target_link_libraries(test_noble PRIVATE cz_testfw)
add_test(NAME noble_crosscheck
         COMMAND ${PROJECT_SOURCE_DIR}/tests/oracle/run_noble.sh $<TARGET_FILE:test_noble>)
set_tests_properties(noble_crosscheck PROPERTIES TIMEOUT 900)

# Interoperability with snarkjs and circom2 (npm): proofs cross-verified both
# ways, tampering rejected by both, cuzk's .zkey proved by snarkjs.  Needs
# `npm ci`; about a minute, most of it snarkjs's powers-of-tau preparation.
add_test(NAME snarkjs_interop
         COMMAND ${PROJECT_SOURCE_DIR}/tests/oracle/run_snarkjs.sh $<TARGET_FILE:cuzk-bench>)
set_tests_properties(snarkjs_interop PROPERTIES TIMEOUT 900)

# cuzk-daemon against independent gRPC clients: Python (Debian's
# python3-grpcio, stubs from grpc_tools at run time) and Node (@grpc/grpc-js,
# @grpc/proto-loader) call every RPC over TCP and a unix socket; address
# conflicts and SIGTERM with calls in flight.  Needs `npm ci`; about a minute.
if(TARGET cuzk-daemon)
  add_test(NAME grpc_clients
           COMMAND ${PROJECT_SOURCE_DIR}/tests/oracle/run_grpc.sh $<TARGET_FILE:cuzk-daemon>)
  set_tests_properties(grpc_clients PROPERTIES TIMEOUT 300)
endif()

# cuzk-daemon against hostile clients and operators (issue 16): each attack
# and the answer it must get (tests/oracle/run_hostile.sh); the idle RSS
# check after the floods runs in Release builds only.  About two minutes.
if(TARGET cuzk-daemon)
  add_test(NAME grpc_hostile
           COMMAND ${PROJECT_SOURCE_DIR}/tests/oracle/run_hostile.sh $<TARGET_FILE:cuzk-daemon>
                   ${CMAKE_BUILD_TYPE})
  set_tests_properties(grpc_hostile PROPERTIES TIMEOUT 600)
endif()

# The Filecoin commands of cuzk (porep seal, c1-synth, c1-verify, verify;
# snap encode, verify; params) as an operator runs them: outputs, exit
# statuses 0 / 1 / 2 and messages (tests/oracle/run_fc_cli.sh).  A few
# seconds.
add_test(NAME fc_cli
         COMMAND ${PROJECT_SOURCE_DIR}/tests/oracle/run_fc_cli.sh $<TARGET_FILE:cuzk>
                 $<TARGET_FILE:test_fc_sector>)
set_tests_properties(fc_cli PROPERTIES TIMEOUT 300)

# docs/cli.md against the tools' command tables (scripts/cli-doc.sh
# --check): the reference equal to what cuzk and cuzk-bench say, every
# command's --help answering, every old cuzk-bench spelling naming its new
# cuzk command.  With the daemon (its client commands are in the
# document), in Release builds: a second.
if(TARGET cuzk-daemon AND CMAKE_BUILD_TYPE STREQUAL "Release")
  add_test(NAME cli_doc COMMAND ${PROJECT_SOURCE_DIR}/scripts/cli-doc.sh --check
                                $<TARGET_FILE:cuzk> $<TARGET_FILE:cuzk-bench>)
  set_tests_properties(cli_doc PROPERTIES TIMEOUT 60)
endif()

# The slow tests of a Filecoin proof family, Release builds only (scripts/
# test.sh runs them once, in build/release); label slow, so `ctest -LE
# slow` leaves them out:
#   cz_family_slow_tests(FAMILY KINDS PARAMS_TIMEOUT GRPC_TIMEOUT)
# adds FAMILY_params (tests/oracle/fc_params.sh KINDS, KINDS one of its
# comma-separated lists), the fixture of the others: the INSECURE 2KiB
# parameters (the .pce, .params and .vk under Filecoin's name, and their
# digests) made once per build in ${CMAKE_BINARY_DIR}/FAMILY-params, whose
# path it leaves in CZ_FAMILY_PARAMS (remove the folder to make them
# again); and, with the daemon, FAMILY_grpc (tests/oracle/
# run_FAMILY_grpc.sh): proofs through cuzk-daemon as Curio asks for them,
# checked by cuzk's FAMILY verify.
function(cz_family_slow_tests family kinds params_timeout grpc_timeout)
  string(TOUPPER ${family} up)
  set(dir ${CMAKE_BINARY_DIR}/${family}-params)
  set(CZ_${up}_PARAMS ${dir} PARENT_SCOPE)
  add_test(NAME ${family}_params
           COMMAND ${PROJECT_SOURCE_DIR}/tests/oracle/fc_params.sh ${kinds} $<TARGET_FILE:cuzk>
                   ${dir})
  set_tests_properties(${family}_params PROPERTIES TIMEOUT ${params_timeout} LABELS slow
                       PROCESSORS 2 FIXTURES_SETUP ${family}_params)
  if(TARGET cuzk-daemon)
    add_test(NAME ${family}_grpc
             COMMAND ${PROJECT_SOURCE_DIR}/tests/oracle/run_${family}_grpc.sh
                     $<TARGET_FILE:cuzk-daemon> $<TARGET_FILE:cuzk> ${dir})
    set_tests_properties(${family}_grpc PROPERTIES TIMEOUT ${grpc_timeout} LABELS slow
                         PROCESSORS 2 FIXTURES_REQUIRED ${family}_params)
  endif()
endfunction()

# PoRep: porep_params about 5 minutes of both cores once per build;
# porep_grpc: PoRep C2 from Python and Node, proofs checked by porep
# verify; refusals, missing parameters, PreloadSRS / EvictSRS, cancel, 16
# jobs under a budget of about two partitions, request ids, priorities and
# SIGTERM.  19 proofs, about 800 CPU seconds: 7 to 8 minutes of both cores.
# porep_e2e (tests/oracle/run_porep_e2e.sh): seal, the parameters as params
# left them, porep prove, porep verify valid and invalid, refused C1s.  The
# proof at the 2^22 domain takes a minute of every core.
#
# SnapDeals: snap_params about 5 minutes of both cores once per build;
# snap_grpc: a real 2KiB update proved as Curio sends it (raw commitments
# and CIDs), the proofs checked by snap verify; refusals, missing
# parameters, request ids.  Three proofs: about a minute.
#
# PoSt: post_params the WindowPoSt and WinningPoSt parameters, one after
# the other (one digest list), about 30 s of both cores once per build;
# post_grpc: 2KiB WindowPoSt partitions (full, short, V1 at partition 1)
# and WinningPoSt proofs, checked by post verify; default priorities,
# refusals, missing parameters, request ids.  Six proofs: about a minute.
if(CMAKE_BUILD_TYPE STREQUAL "Release")
  cz_family_slow_tests(porep porep 1800 3000)
  add_test(NAME porep_e2e
           COMMAND ${PROJECT_SOURCE_DIR}/tests/oracle/run_porep_e2e.sh $<TARGET_FILE:cuzk>
                   ${CZ_POREP_PARAMS})
  set_tests_properties(porep_e2e PROPERTIES TIMEOUT 1800 LABELS slow PROCESSORS 2
                       FIXTURES_REQUIRED porep_params)
  cz_family_slow_tests(snap snap 1800 1800)
  cz_family_slow_tests(post wpost,winning 600 900)
endif()
