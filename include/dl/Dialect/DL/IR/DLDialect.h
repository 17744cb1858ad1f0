//===- DLDialect.h - the dl dialect -----------------------------*- C++ -*-===//
//
// Declares the `dl` dialect class (generated from DLOps.td).
//
//===----------------------------------------------------------------------===//

#ifndef DL_DIALECT_DL_IR_DLDIALECT_H
#define DL_DIALECT_DL_IR_DLDIALECT_H

#include "mlir/IR/Dialect.h"

#include "dl/Dialect/DL/IR/DLOpsDialect.h.inc"

#endif // DL_DIALECT_DL_IR_DLDIALECT_H
