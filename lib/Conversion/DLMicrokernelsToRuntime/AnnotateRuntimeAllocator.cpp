//===- AnnotateRuntimeAllocator.cpp - the allocator returns fresh memory --===//
//
// The pass `dl-annotate-runtime-allocator`: memref.alloc lowers to calls of
// libDLRuntime's `_mlir_memref_to_llvm_alloc` (which keeps large scratch
// buffers between calls). LLVM knows malloc's result aliases nothing, not
// this function's, so a copy into a fresh buffer (a padded or subsampled
// input, a packed block) might overwrite its own source: its fully unrolled
// inner loops were left as scalar loads and stores. Marking the result
// `noalias` (true: a block it returns is reachable through no other live
// pointer, as with malloc) lets them vectorize.
//
//===----------------------------------------------------------------------===//

#include "dl/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_ANNOTATERUNTIMEALLOCATOR
#include "dl/Conversion/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;

namespace {

struct AnnotateRuntimeAllocatorPass
    : dl::impl::AnnotateRuntimeAllocatorBase<AnnotateRuntimeAllocatorPass> {
  void runOnOperation() override {
    for (StringRef name :
         {"_mlir_memref_to_llvm_alloc", "_mlir_memref_to_llvm_aligned_alloc"}) {
      auto allocator = getOperation().lookupSymbol<LLVM::LLVMFuncOp>(name);
      if (allocator && allocator.isExternal())
        allocator.setResultAttr(0, LLVM::LLVMDialect::getNoAliasAttrName(),
                                UnitAttr::get(&getContext()));
    }
  }
};

} // namespace
