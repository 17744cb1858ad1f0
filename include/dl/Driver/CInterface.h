//===- CInterface.h - a C header for generated libraries --------*- C++ -*-===//
//
// The pieces of the C interface (Driver.h's CInterface): its header, the C
// source of its functions, and the redirection of the generated code's
// failed run-time checks to libDLRuntime's checked calls.
//
//===----------------------------------------------------------------------===//

#ifndef DL_DRIVER_CINTERFACE_H
#define DL_DRIVER_CINTERFACE_H

#include "dl/Driver/Driver.h"

namespace llvm {
class Module;
} // namespace llvm

namespace mlir {
namespace dl {

/// The header: the prototypes and `<prefix>_last_error`, documented.
std::string writeCHeader(const CInterface &interface);

/// The C source of the interface's functions.
std::string writeCSource(const CInterface &interface);

/// Calls of abort and puts (failed cf.assert checks) become calls of
/// dl_check_failed and dl_check_message.
void redirectRunTimeChecks(llvm::Module &module);

} // namespace dl
} // namespace mlir

#endif // DL_DRIVER_CINTERFACE_H
