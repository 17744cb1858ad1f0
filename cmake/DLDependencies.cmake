# The libraries dl's analyses link besides MLIR, as imported targets:
# ISL::isl and PkgConfig::IPOPT. Included by dl's build and by the installed
# DLConfig.cmake (a consumer of the package links them through dl's targets).
# isl: the headers come from libisl-dev (isl has no CMake package). The code
# comes from libLLVM.so when it exports isl (Debian links Polly, and with it an
# isl 0.25+ built on IMath with small-integer fast paths, into libLLVM): a host
# that loads libLLVM first (mlir-opt with DLPlugin.so) resolves every isl
# call there anyway, so all of dl's ways in run one isl,
# and the ranking's counts run about 1.6x faster than on Debian's GMP build.
# Otherwise libisl.so (DL_ISL_FROM_LLVM=OFF forces it).
find_path(ISL_INCLUDE_DIR isl/ctx.h REQUIRED)
include(CheckLibraryExists)
check_library_exists(LLVM isl_version "${LLVM_LIBRARY_DIR}" DL_LLVM_EXPORTS_ISL)
option(DL_ISL_FROM_LLVM "Use the isl that libLLVM.so exports, when it does" ON)
if(NOT TARGET ISL::isl)
  add_library(ISL::isl INTERFACE IMPORTED)
  set_target_properties(ISL::isl PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES ${ISL_INCLUDE_DIR})
  if(DL_ISL_FROM_LLVM AND DL_LLVM_EXPORTS_ISL)
    message(STATUS "isl: the one libLLVM.so exports")
    target_link_libraries(ISL::isl INTERFACE LLVM)
  else()
    find_library(ISL_LIBRARY isl REQUIRED)
    message(STATUS "isl: ${ISL_LIBRARY}")
    target_link_libraries(ISL::isl INTERFACE ${ISL_LIBRARY})
  endif()
endif()

# Ipopt (coinor-libipopt-dev) ships a pkg-config file only.
find_package(PkgConfig REQUIRED)
pkg_check_modules(IPOPT REQUIRED IMPORTED_TARGET ipopt)
