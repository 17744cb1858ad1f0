//===- KeepConstantPacks.cpp - pack weights once, keep the copies ---------===//
//
// The pass `dl-keep-constant-packs`: a dl.pack of a function argument marked
// `dl.constant` into a local buffer of static shape packs into a private
// memref.global instead, guarded by the address it was last packed from, so
// a model's filters are packed on the first call and read in place by the
// next ones (see the pass description in Passes.td). A guarded global
// rather than a pack at compile time: the weights are arguments, known only
// when the function is called.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/IR/DLDialect.h"
#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_KEEPCONSTANTPACKS
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;

namespace {

/// Whether `pack` copies a `dl.constant` argument of `fn` (or a transposed
/// view of one, dl-fold-layout-transposes') into a local buffer of static
/// shape, in its block, that nothing else writes.
bool packsConstant(func::FuncOp fn, PackOp pack) {
  Value source = pack.getSource();
  if (auto view = source.getDefiningOp<memref::TransposeOp>())
    source = view.getIn();
  auto arg = dyn_cast<BlockArgument>(source);
  if (!arg || arg.getOwner() != &fn.front() ||
      !fn.getArgAttr(arg.getArgNumber(), DLDialect::getConstantAttrName()))
    return false;
  auto alloc = pack.getDest().getDefiningOp<memref::AllocOp>();
  if (!alloc || !alloc.getType().hasStaticShape() ||
      alloc->getBlock() != pack->getBlock())
    return false;
  return llvm::all_of(alloc->getUsers(), [&](Operation *user) {
    if (user == pack || isa<memref::DeallocOp>(user))
      return true;
    // A dl op that only reads it.
    auto dps = dyn_cast<DestinationStyleOpInterface>(user);
    return dps && isa<DLDialect>(user->getDialect()) &&
           llvm::none_of(dps.getDpsInits(),
                         [&](Value init) { return init == alloc.getResult(); });
  });
}

struct KeepConstantPacksPass
    : dl::impl::KeepConstantPacksBase<KeepConstantPacksPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (auto fn : module.getOps<func::FuncOp>()) {
      if (fn.isExternal())
        continue;
      SmallVector<PackOp> packs;
      fn.walk([&](PackOp pack) {
        if (packsConstant(fn, pack))
          packs.push_back(pack);
      });
      for (auto [index, pack] : llvm::enumerate(packs))
        keepPacked(symbols, fn, pack, index);
    }
  }

  /// Rewrites `pack` (the `index`-th of `fn`) to pack into a global, when
  /// its source's address changed since the last time.
  void keepPacked(SymbolTable &symbols, func::FuncOp fn, PackOp pack,
                  size_t index) {
    auto alloc = pack.getDest().getDefiningOp<memref::AllocOp>();
    MemRefType type = alloc.getType();
    Location loc = pack.getLoc();
    MLIRContext *context = &getContext();
    OpBuilder moduleBuilder(context);
    moduleBuilder.setInsertionPoint(fn);
    // The packed copy (64-byte aligned, as the kernels' vectors) and the
    // address it was packed from (0: none yet).
    std::string name =
        ("__dl_packed_" + fn.getName() + "_" + Twine(index)).str();
    auto packed = memref::GlobalOp::create(
        moduleBuilder, loc, name, moduleBuilder.getStringAttr("private"), type,
        /*initial_value=*/Attribute(), /*constant=*/false,
        moduleBuilder.getI64IntegerAttr(64));
    symbols.insert(packed);
    auto sourceType = MemRefType::get({1}, moduleBuilder.getIndexType());
    auto source = memref::GlobalOp::create(
        moduleBuilder, loc, name + "_source",
        moduleBuilder.getStringAttr("private"), sourceType,
        DenseElementsAttr::get(
            RankedTensorType::get({1}, moduleBuilder.getIndexType()),
            moduleBuilder.getIndexAttr(0)),
        /*constant=*/false, /*alignment=*/IntegerAttr());
    symbols.insert(source);

    OpBuilder b(alloc);
    Value copy = memref::GetGlobalOp::create(b, alloc.getLoc(), type,
                                             packed.getSymName());
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
      if (isa<memref::DeallocOp>(user))
        user->erase();
    alloc.replaceAllUsesWith(copy);
    alloc.erase();

    b.setInsertionPoint(pack);
    Value address = memref::ExtractAlignedPointerAsIndexOp::create(
        b, loc, pack.getSource());
    Value lastBuffer =
        memref::GetGlobalOp::create(b, loc, sourceType, source.getSymName());
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value last = memref::LoadOp::create(b, loc, lastBuffer, zero);
    Value differs =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, address, last);
    auto ifOp = scf::IfOp::create(b, loc, differs, /*withElseRegion=*/false);
    pack->moveBefore(ifOp.thenBlock()->getTerminator());
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    memref::StoreOp::create(b, loc, address, lastBuffer, zero);
  }
};

} // namespace
