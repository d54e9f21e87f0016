# Registers one ctest test per GoogleTest suite of a built test executable (run after each link).
# Under Node (the wasm builds) each process spends about 0.25 s starting the suite's module, so one
# process per case (gtest_discover_tests) spent about 40 s of a 50 s run starting up; the native and
# ASan builds use the same scheme, so every preset counts and runs its tests alike. A failing case
# is still named in the output ctest prints on failure; a suite whose filter runs no case fails.
#
#   cmake -D TEST_EXECUTABLE=<file> -D TEST_RUNNER=<runner;args> -D TEST_WORKING_DIR=<dir>
#         -D OUTPUT=<file.cmake> -P gtest_suites.cmake
execute_process(
  COMMAND ${TEST_RUNNER} "${TEST_EXECUTABLE}" --gtest_list_tests
  WORKING_DIRECTORY "${TEST_WORKING_DIR}"
  OUTPUT_VARIABLE listing
  RESULT_VARIABLE status
  TIMEOUT 120)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${TEST_EXECUTABLE} --gtest_list_tests failed (${status}):\n${listing}")
endif()

# A suite is a line that does not start with a space: "softmax." or "kernels/kernel_set.  # …".
string(REPLACE "\n" ";" lines "${listing}")
set(script "")
set(count 0)
foreach(line IN LISTS lines)
  if(line MATCHES "^([A-Za-z0-9_/]+)\\.")
    set(suite "${CMAKE_MATCH_1}")
    string(APPEND script
           "add_test([=[${suite}.*]=] ${TEST_RUNNER} [=[${TEST_EXECUTABLE}]=] [=[--gtest_filter=${suite}.*]=])\n"
           "set_tests_properties([=[${suite}.*]=] PROPERTIES WORKING_DIRECTORY [=[${TEST_WORKING_DIR}]=]"
           " FAIL_REGULAR_EXPRESSION [=[\\[==========\\] 0 tests from]=])\n")
    math(EXPR count "${count} + 1")
  endif()
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "${TEST_EXECUTABLE} lists no test suite:\n${listing}")
endif()
file(WRITE "${OUTPUT}" "${script}")
