//===- BufferizableOpInterfaceImpl.h - dl ops on tensors --------*- C++ -*-===//
//
// Attaches MLIR's BufferizableOpInterface to the dl layer ops, so that
// `one-shot-bufferize` turns a tensor program of dl ops into the buffer form
// the dl passes optimize.
//
//===----------------------------------------------------------------------===//

#ifndef DL_DIALECT_DL_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
#define DL_DIALECT_DL_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
namespace dl {

/// Registers the bufferization models of the dl layer ops.
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);

} // namespace dl
} // namespace mlir

#endif // DL_DIALECT_DL_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
