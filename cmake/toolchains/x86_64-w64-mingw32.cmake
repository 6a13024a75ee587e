# Cross-compiling the C core and its C tests for Windows (x86-64) with
# Debian's gcc-mingw-w64-x86-64; the test programs run under wine where it is
# installed (tests/c/run_cross.sh):
#   cmake -S . -B build/mingw -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/x86_64-w64-mingw32.cmake -DTHREES_BUILD_C_TESTS=ON
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR AMD64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
# static runtime: the .exe files run under wine without the mingw DLLs
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
