//===- BlockConvLayouts.cpp - blocked layouts for plain convolutions ------===//
//
// The pass `dl-block-conv-layouts`: a plain-layout (NCHW/KCRS) dl.conv2d
// (any of its sizes may be dynamic) becomes dl.pack of its input and
// filter, the blocked convolution, and dl.unpack of its result; one with a
// few output channels stays plain, marked `pixel_vectors` (vectorized along
// its output pixels). The
// blocked form is the one whose inner band is a batch-reduce GEMM, so the
// scheduling passes and the microkernel outlining apply to convolutions written
// in the plain layout too. Between convolutions the activations then stay
// blocked: element-wise ops on buffers whose blocked copy is at hand run on the
// copies (their plain result unpacked), a pack of such a buffer reads the copy,
// and unpacks and plain buffers nobody reads any more are dropped. The rewrite
// stays on dl ops, so dl-opt shows the chosen blocks and the copies that
// remain. Written here because MLIR's generic layout propagation works on
// linalg/tensor ops, not on dl ops on memrefs.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/IR/DLDialect.h"
#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/Transforms/Blocking.h"
#include "dl/Dialect/DL/Transforms/Passes.h"
#include "dl/Dialect/DL/Transforms/Target.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_BLOCKCONVLAYOUTS
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;

namespace {

/// A buffer allocated in the function (memref.alloc) and used only by dl ops
/// and its deallocation: nothing outside the dl ops can see or alias it.
bool isLocalBuffer(Value buffer) {
  if (!buffer.getDefiningOp<memref::AllocOp>())
    return false;
  return llvm::all_of(buffer.getUsers(), [](Operation *user) {
    return isa<memref::DeallocOp>(user) ||
           isa_and_nonnull<DLDialect>(user->getDialect());
  });
}

/// True when `op`'s only effect is to write `buffer`: a dl op whose one
/// destination is `buffer` (it may read `buffer` too).
bool onlyWrites(Operation *op, Value buffer) {
  auto dps = dyn_cast<DestinationStyleOpInterface>(op);
  return dps && isa_and_nonnull<DLDialect>(op->getDialect()) &&
         dps.getNumDpsInits() == 1 && dps.getDpsInits()[0] == buffer;
}

/// The blocked copies of plain buffers, along one block's ops: a plain
/// buffer maps to a blocked scratch buffer holding the same values, from
/// the pack or unpack between them until either is written otherwise.
class BlockedCopies {
public:
  Value lookup(Value plain) const { return copies.lookup(plain); }
  void set(Value plain, Value blocked) { copies[plain] = blocked; }
  /// Forgets what a write of `buffer` makes stale: its own copy, what it is
  /// the copy of, and, when it is not local, the copies of all buffers that
  /// are not local either (arguments may alias each other).
  void written(Value buffer) {
    bool mayAlias = !isLocalBuffer(buffer);
    copies.remove_if([&](auto &entry) {
      return entry.first == buffer || entry.second == buffer ||
             (mayAlias && !isLocalBuffer(entry.first));
    });
  }
  void clear() { copies.clear(); }
  /// Whether `blocked` is the copy of `plain` and of no other buffer.
  bool onlyCopyOf(Value blocked, Value plain) const {
    return llvm::all_of(copies, [&](auto &entry) {
      return entry.second != blocked || entry.first == plain;
    });
  }

private:
  llvm::MapVector<Value, Value> copies;
};

/// The rewrite of one function; `scratch` holds the buffers it allocated.
class LayoutRewriter {
public:
  LayoutRewriter(func::FuncOp func, int64_t blockC, int64_t blockK,
                 bool wholeVectors)
      : func(func), blockC(blockC), blockK(blockK), wholeVectors(wholeVectors) {
  }

  void run() {
    SmallVector<Conv2DOp> plainConvs;
    func.walk([&](Conv2DOp op) {
      // A convolution already marked pixel_vectors keeps its plain layout,
      // and so does one given an epilogue (its operands are plain; the
      // pipeline fuses after this pass, on the blocked convolution).
      if (hasBlockableLayout(op))
        plainConvs.push_back(op);
    });
    if (plainConvs.empty())
      return;
    // Blocks chosen in program order: a convolution whose input another
    // one produces (through ops that treat each channel alike) takes that
    // one's output block as its input block, so the chain between them
    // runs on one blocked copy, not relaid out through the plain layout.
    // A grouped convolution's input blocks are its groups': the dense
    // convolution producing its input takes them as its output blocks
    // when they are whole vectors of at most blockK channels.
    DenseMap<Operation *, int64_t> groupedInputBlock;
    int64_t vectorFloats = blockVectorFloats(blockK);
    for (Conv2DOp op : plainConvs) {
      Operation *producer = producingConv(op);
      if (op.getGroups() == 1 || !producer ||
          cast<Conv2DOp>(producer).getGroups() != 1)
        continue;
      std::optional<ConvChannelBlocks> blocks =
          chooseConvChannelBlocks(op, blockC, blockK, wholeVectors);
      if (blocks && blocks->input % vectorFloats == 0 &&
          blocks->input <= blockK)
        groupedInputBlock[producer] = blocks->input;
    }
    DenseMap<Operation *, ConvChannelBlocks> chosen;
    for (Conv2DOp op : plainConvs) {
      std::optional<ConvChannelBlocks> blocks =
          chooseConvChannelBlocks(op, blockC, blockK, wholeVectors);
      if (blocks && groupedInputBlock.count(op))
        blocks->output = groupedInputBlock.lookup(op);
      if (!blocks) {
        if (op.getGroups() == 1)
          op.setPixelVectors(true);
        continue;
      }
      // (A grouped convolution's input blocks are its groups'.)
      if (Operation *producer = producingConv(op);
          producer && op.getGroups() == 1) {
        auto known = chosen.find(producer);
        if (known != chosen.end())
          blocks->input = known->second.output;
      }
      chosen[op] = *blocks;
    }
    for (Conv2DOp op : plainConvs)
      if (chosen.count(op))
        blockConv(op, chosen[op]);
    SmallVector<Block *> blocks;
    func.walk([&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks) {
      reuseBlockedCopies(*block);
      eraseOverwrittenUnpacks(*block);
    }
    eraseUnreadWrites();
    deallocateScratch();
  }

private:
  MemRefType blockedType(ArrayRef<int64_t> shape) {
    return MemRefType::get(shape, Float32Type::get(func.getContext()));
  }

  /// Scratch of `type`, a blocked copy of the plain buffer `like`, its
  /// dynamic sizes taken from `like`: a dim is the same dim of `like`,
  /// except the channel blocks (dim 1 of an activation, dims 0 and 1 of a
  /// filter), ceil(channels / block) of the channels.
  Value allocateScratch(OpBuilder &b, Location loc, MemRefType type,
                        Value like) {
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (!type.isDynamicDim(d))
        continue;
      Value size = memref::DimOp::create(b, loc, like, d);
      std::optional<int64_t> blockDim;
      if (d == 1)
        blockDim = 4;
      else if (d == 0 && type.getRank() == 6)
        blockDim = 5;
      if (blockDim) {
        AffineExpr channels = b.getAffineSymbolExpr(0);
        size = affine::AffineApplyOp::create(
            b, loc,
            AffineMap::get(0, 1, channels.ceilDiv(type.getDimSize(*blockDim))),
            ValueRange{size});
      }
      sizes.push_back(size);
    }
    Value buffer = memref::AllocOp::create(b, loc, type, sizes);
    scratch.insert(buffer);
    return buffer;
  }

  /// The convolution in `op`'s block whose output `op` reads, directly or
  /// through ops that treat each channel alike (their activation input), or
  /// null.
  static Operation *producingConv(Conv2DOp op) {
    Value buffer = op.getInput();
    Operation *reader = op;
    while (true) {
      Operation *writer = nullptr;
      for (Operation *it = reader->getPrevNode(); it && !writer;
           it = it->getPrevNode()) {
        auto dps = dyn_cast<DestinationStyleOpInterface>(it);
        if (dps && llvm::is_contained(dps.getDpsInits(), buffer))
          writer = it;
      }
      if (!writer)
        return nullptr;
      if (isa<Conv2DOp>(writer))
        return writer;
      if (!isElementwise(writer) || isa<ConcatOp>(writer))
        return nullptr;
      auto inputs = cast<DestinationStyleOpInterface>(writer).getDpsInputs();
      auto activation = llvm::find_if(inputs, [](Value value) {
        return cast<MemRefType>(value.getType()).getRank() == 4;
      });
      if (activation == inputs.end())
        return nullptr;
      buffer = *activation;
      reader = writer;
    }
  }

  /// pack input and filter, convolve blocked in `blocks`, unpack the
  /// result.
  void blockConv(Conv2DOp op, ConvChannelBlocks blocks) {
    ArrayRef<int64_t> input = op.getInput().getType().getShape();
    ArrayRef<int64_t> filter = op.getFilter().getType().getShape();
    ArrayRef<int64_t> output = op.getOutput().getType().getShape();
    auto [cb, kb] = blocks;
    int64_t channels = getConvChannels(op),
            outChannels = getConvOutChannels(op);
    int64_t vectorFloats = blockVectorFloats(blockK);
    // The kernels' vector dimension is the output channels: a few of them
    // leave most lanes of every register idle.
    // Not where the convolution becomes a GEMM along its input windows.
    if (!ShapedType::isDynamic(outChannels) && 2 * outChannels < vectorFloats &&
        !runsAsWindowGemm(op, vectorFloats))
      op.emitRemark("dl-block-conv-layouts: ")
          << outChannels << " output channels fill " << outChannels << " of "
          << vectorFloats
          << " lanes of the microkernels' vectors; expect a fraction of the "
             "peak";
    auto blocksOf = [](int64_t size, int64_t block) {
      return ShapedType::isDynamic(size) ? size : channelBlocks(size, block);
    };
    int64_t cBlocks = blocksOf(channels, cb);
    int64_t kBlocks = blocksOf(outChannels, kb);
    // A grouped convolution's blocks hold whole groups: blocks of one group
    // are grouped as its channels are, and blocks of several groups are a
    // group each, reading their own input blocks.
    int64_t groups = op.getGroups(), blockGroups = 1, filterCBlocks = cBlocks;
    if (groups > 1) {
      blockGroups = outChannels / groups % kb == 0 ? groups : kBlocks;
      filterCBlocks = cBlocks / blockGroups;
    }

    OpBuilder b(op);
    Location loc = op.getLoc();
    Value blockedInput = allocateScratch(
        b, loc, blockedType({input[0], cBlocks, input[2], input[3], cb}),
        op.getInput());
    // A version's occupancy decision (dl-parametric-versioning) holds for
    // the copies of its activations too: their nests run over images,
    // channel blocks and rows as the convolution's do.
    auto copyOccupancy = [&](Operation *copy) {
      for (StringRef name : {DLDialect::getParallelDepthAttrName(),
                             DLDialect::getSequentialAttrName()})
        if (Attribute decided = op->getAttr(name))
          copy->setAttr(name, decided);
    };
    copyOccupancy(
        PackOp::create(b, loc, TypeRange{}, op.getInput(), blockedInput));
    Value blockedFilter = allocateScratch(
        b, loc,
        blockedType({kBlocks, filterCBlocks, filter[2], filter[3], cb, kb}),
        op.getFilter());
    PackOp::create(b, loc, TypeRange{}, op.getFilter(), blockedFilter, groups);
    Value blockedOutput = allocateScratch(
        b, loc, blockedType({output[0], kBlocks, output[2], output[3], kb}),
        op.getOutput());
    auto blockedConv = Conv2DOp::create(
        b, loc, TypeRange{},
        ValueRange{blockedInput, blockedFilter, blockedOutput}, op->getAttrs());
    if (groups > 1)
      blockedConv.setGroups(blockGroups);
    // Blocks of several groups of as many input as output channels, all
    // sizes static: the groups lie within the lanes of a block, whose
    // block-diagonal filter the batch-reduce kernels would multiply whole.
    int64_t outPerGroup = outChannels / std::max<int64_t>(groups, 1);
    if (groups > 1 && blockGroups == kBlocks && outPerGroup < kb && cb == kb &&
        channels == outChannels && op.getInput().getType().hasStaticShape() &&
        op.getOutput().getType().hasStaticShape())
      blockedConv.setGroupLanes(outPerGroup);
    copyOccupancy(
        UnpackOp::create(b, loc, TypeRange{}, blockedOutput, op.getOutput()));
    op.erase();
  }

  /// Walks `block`'s ops in order, tracking which plain buffers have an
  /// up-to-date blocked copy: an element-wise op on such buffers runs on the
  /// copies, its plain result unpacked from the blocked one (an unpack that
  /// is erased later if nobody reads it), and a pack of such a buffer into
  /// scratch is replaced by the copy.
  void reuseBlockedCopies(Block &block) {
    BlockedCopies copies;
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (auto unpack = dyn_cast<UnpackOp>(op)) {
        copies.written(unpack.getDest());
        if (scratch.contains(unpack.getSource()))
          copies.set(unpack.getDest(), unpack.getSource());
        continue;
      }
      if (auto pack = dyn_cast<PackOp>(op)) {
        Value copy = copies.lookup(pack.getSource());
        // The pack's destination is scratch of a blocked convolution, read
        // by that convolution only. (Filters too: a filter used twice is
        // packed once.)
        if (copy && copy.getType() == pack.getDest().getType() &&
            scratch.contains(pack.getDest())) {
          Value dest = pack.getDest();
          pack.erase();
          dest.replaceAllUsesWith(copy);
          scratch.remove(dest);
          dest.getDefiningOp()->erase();
          continue;
        }
        copies.written(pack.getDest());
        if (scratch.contains(pack.getDest()))
          copies.set(pack.getSource(), pack.getDest());
        continue;
      }
      if (isElementwise(&op)) {
        runOnCopies(&op, copies);
        continue;
      }
      if (auto dps = dyn_cast<DestinationStyleOpInterface>(op);
          dps && isa_and_nonnull<DLDialect>(op.getDialect())) {
        for (Value written : dps.getDpsInits())
          copies.written(written);
        continue;
      }
      if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
        copies.written(dealloc.getMemref());
        continue;
      }
      // Anything else may write any buffer it can reach, unless it declares
      // that it writes and frees nothing (an allocation, a pure op).
      auto effects = dyn_cast<MemoryEffectOpInterface>(op);
      if (!effects || effects.hasEffect<MemoryEffects::Write>() ||
          effects.hasEffect<MemoryEffects::Free>())
        copies.clear();
    }
  }

  /// The ops that run the same on each channel of either layout: the
  /// element-wise ones, pooling and depthwise convolution (whose results
  /// have other heights and widths), and concatenation along the channels
  /// (of whole blocks: along the channel blocks).
  static bool isElementwise(Operation *op) {
    if (auto concat = dyn_cast<ConcatOp>(op))
      return concat.getAxis() == 1;
    return isa<ReluOp, Relu6Op, SigmoidOp, SiluOp, HardSigmoidOp, HardSwishOp,
               AddOp, MulOp, BiasAddOp, BatchNormInferenceOp, MaxPool2DOp,
               AvgPool2DOp, DepthwiseConv2DOp>(op);
  }

  /// Whether the blocked copies `copy` and `other` of two operands of `op`
  /// can feed it together: the same type, or for a concatenation the same
  /// block, images and pixels, and every copy unpadded (checked by the
  /// caller).
  static bool compatibleCopies(Operation *op, Type copy, Type other) {
    if (copy == other)
      return true;
    ArrayRef<int64_t> a = cast<MemRefType>(copy).getShape(),
                      b = cast<MemRefType>(other).getShape();
    if (isa<ConcatOp>(op))
      return a[0] == b[0] && a[2] == b[2] && a[3] == b[3] && a[4] == b[4];
    // dl.mul's broadcast rhs (`copy`; `other` is lhs's): one pixel per
    // image and channel block.
    if (isa<MulOp>(op))
      return a[0] == b[0] && a[1] == b[1] && a[4] == b[4] && a[2] == 1 &&
             a[3] == 1;
    return false;
  }

  /// Replaces the per-channel `op` by the same op on the blocked copies of
  /// its activation operands, when all have one (of one type), and an
  /// unpack of its blocked result into its destination; otherwise its
  /// destination's copy is stale. (Pooling on a padded copy pools its zero
  /// padding channels into zeros.)
  /// Whether the blocked copy `copy` of a plain `NCHW` buffer of `type`
  /// has padding channels.
  static bool padded(Type copy, Type type) {
    ArrayRef<int64_t> blocked = cast<MemRefType>(copy).getShape();
    return blocked[1] * blocked[4] != cast<MemRefType>(type).getDimSize(1);
  }

  /// A copy of the static `bias` with zeros after it up to `size` entries:
  /// the bias of a padded blocked copy, whose padding channels stay zero.
  Value padBias(OpBuilder &b, Location loc, Value bias, int64_t size) {
    int64_t channels = cast<MemRefType>(bias.getType()).getDimSize(0);
    Value copy = allocateScratch(b, loc, blockedType({size}), bias);
    affine::buildAffineLoopNest(
        b, loc, {0}, {channels}, {1},
        [&](OpBuilder &lb, Location l, ValueRange i) {
          Value value = affine::AffineLoadOp::create(lb, l, bias, i);
          affine::AffineStoreOp::create(lb, l, value, copy, i);
        });
    Value zero =
        arith::ConstantFloatOp::create(b, loc, b.getF32Type(), APFloat(0.0f));
    affine::buildAffineLoopNest(b, loc, {channels}, {size}, {1},
                                [&](OpBuilder &lb, Location l, ValueRange i) {
                                  affine::AffineStoreOp::create(lb, l, zero,
                                                                copy, i);
                                });
    return copy;
  }

  void runOnCopies(Operation *op, BlockedCopies &copies) {
    auto dps = cast<DestinationStyleOpInterface>(op);
    Value dest = dps.getDpsInits()[0];
    auto destType = cast<MemRefType>(dest.getType());
    IRMapping mapping;
    Type copyType;
    bool perChannel = false;
    Value bias;
    for (OpOperand *input : dps.getDpsInputOperands()) {
      Value value = input->get();
      // A depthwise filter (R x S x C) is the same in both layouts, and
      // covers padding channels (the lowering leaves them zero).
      if (auto depthwise = dyn_cast<DepthwiseConv2DOp>(op);
          depthwise && value == depthwise.getFilter())
        continue;
      if (cast<MemRefType>(value.getType()).getRank() == 1) {
        perChannel = true; // The same vector in both layouts.
        if (isa<BiasAddOp>(op))
          bias = value;
        continue;
      }
      Value copy = copies.lookup(value);
      if (!copy ||
          (copyType && !compatibleCopies(op, copy.getType(), copyType)) ||
          (isa<ConcatOp>(op) && padded(copy.getType(), value.getType()))) {
        copies.written(dest);
        return;
      }
      if (!copyType)
        copyType = copy.getType();
      mapping.map(value, copy);
    }
    // Per-channel vectors have no entries for a padded copy's padding
    // channels (but a static bias, copied with zeros after it), and a
    // concatenation of whole blocks has whole blocks.
    bool paddedCopy = copyType && padded(copyType, destType);
    bool padsBias =
        paddedCopy && bias && cast<MemRefType>(bias.getType()).hasStaticShape();
    if (!copyType || destType.getRank() != 4 ||
        ((perChannel || isa<ConcatOp>(op)) && paddedCopy && !padsBias)) {
      copies.written(dest);
      return;
    }
    OpBuilder b(op->getContext());
    if (padsBias) {
      b.setInsertionPoint(op);
      ArrayRef<int64_t> blocked = cast<MemRefType>(copyType).getShape();
      mapping.map(bias,
                  padBias(b, op->getLoc(), bias, blocked[1] * blocked[4]));
    }
    b.setInsertionPointAfter(op);
    // The copy's layout at the destination's heights and widths (and
    // channels, of a concatenation).
    SmallVector<int64_t> destCopyShape(cast<MemRefType>(copyType).getShape());
    if (isa<ConcatOp>(op))
      destCopyShape[1] = destType.getDimSize(1) / destCopyShape[4];
    destCopyShape[2] = destType.getDimSize(2);
    destCopyShape[3] = destType.getDimSize(3);
    auto destCopyType =
        MemRefType::get(destCopyShape, destType.getElementType());
    // In place on the copy when the op is in place and the copy serves no
    // other buffer; otherwise into a new blocked buffer.
    Value destCopy = mapping.lookupOrNull(dest);
    if (!destCopy || !copies.onlyCopyOf(destCopy, dest))
      destCopy = allocateScratch(b, op->getLoc(), destCopyType, dest);
    mapping.map(dest, destCopy);
    b.clone(*op, mapping);
    UnpackOp::create(b, op->getLoc(), TypeRange{}, destCopy, dest);
    op->erase();
    copies.written(dest);
    copies.written(destCopy);
    copies.set(dest, destCopy);
  }

  /// Erases the unpacks in `block` whose destination is unpacked into again
  /// before anything may read it (an in-place ReLU after a batch norm, both
  /// run on blocked copies, unpacks into the same buffer twice). A buffer
  /// that is not local may be read through an alias by any op that reads
  /// another such buffer.
  void eraseOverwrittenUnpacks(Block &block) {
    SmallVector<UnpackOp> unpacks(block.getOps<UnpackOp>());
    for (UnpackOp unpack : unpacks) {
      Value dest = unpack.getDest();
      bool mayAlias = !isLocalBuffer(dest);
      for (Operation *next = unpack->getNextNode(); next;
           next = next->getNextNode()) {
        auto overwrite = dyn_cast<UnpackOp>(next);
        if (overwrite && overwrite.getDest() == dest) {
          unpack.erase();
          break;
        }
        if (mayRead(next, dest, mayAlias))
          break;
      }
    }
  }

  /// Whether `op` may read `buffer` (or, with `mayAlias`, any buffer that
  /// is not local).
  static bool mayRead(Operation *op, Value buffer, bool mayAlias) {
    if (isa<memref::AllocOp, memref::DeallocOp>(op))
      return false;
    auto dps = dyn_cast<DestinationStyleOpInterface>(op);
    if (!dps || !isa_and_nonnull<DLDialect>(op->getDialect()))
      return true;
    // A dl op reads its inputs, and an in-place one its destination.
    return llvm::any_of(op->getOperands(), [&](Value operand) {
      return operand == buffer || (mayAlias && !isLocalBuffer(operand));
    });
  }

  /// Erases the writes of local buffers that nothing reads afterwards: the
  /// users that only write a buffer (an unpack whose copy took over, an
  /// element-wise op also run on the copy) after its last other user, and
  /// the buffer itself when no other user is left. Repeats until nothing
  /// changes, since an erased writer may have been another buffer's reader.
  void eraseUnreadWrites() {
    bool changed = true;
    while (changed) {
      changed = false;
      SmallVector<memref::AllocOp> allocs;
      func.walk([&](memref::AllocOp alloc) { allocs.push_back(alloc); });
      for (memref::AllocOp alloc : allocs)
        changed |= eraseUnreadWrites(alloc);
    }
  }

  /// The step of eraseUnreadWrites for one buffer; true if it erased any op.
  bool eraseUnreadWrites(memref::AllocOp alloc) {
    Value buffer = alloc.getResult();
    Block *block = alloc->getBlock();
    if (!isLocalBuffer(buffer) ||
        llvm::any_of(buffer.getUsers(), [&](Operation *user) {
          return user->getBlock() != block;
        }))
      return false;
    // An in-place op uses the buffer twice.
    llvm::SetVector<Operation *> users(llvm::from_range, buffer.getUsers());
    Operation *lastReader = nullptr;
    for (Operation *user : users)
      if (!isa<memref::DeallocOp>(user) && !onlyWrites(user, buffer) &&
          (!lastReader || lastReader->isBeforeInBlock(user)))
        lastReader = user;
    SmallVector<Operation *> unread;
    for (Operation *user : users)
      if (onlyWrites(user, buffer) &&
          (!lastReader || lastReader->isBeforeInBlock(user)))
        unread.push_back(user);
    for (Operation *user : unread)
      user->erase();
    if (!lastReader) {
      for (Operation *user : llvm::make_early_inc_range(buffer.getUsers()))
        user->erase(); // The deallocation.
      scratch.remove(buffer);
      alloc.erase();
      return true;
    }
    return !unread.empty();
  }

  /// Frees each scratch buffer after its last user in its block.
  void deallocateScratch() {
    for (Value buffer : scratch) {
      Operation *last = buffer.getDefiningOp();
      Block *block = last->getBlock();
      for (Operation *user : buffer.getUsers()) {
        Operation *inBlock = block->findAncestorOpInBlock(*user);
        if (inBlock && last->isBeforeInBlock(inBlock))
          last = inBlock;
      }
      OpBuilder b(last->getContext());
      b.setInsertionPointAfter(last);
      memref::DeallocOp::create(b, buffer.getLoc(), buffer);
    }
  }

  func::FuncOp func;
  int64_t blockC, blockK;
  /// Output-channel blocks of whole vectors (Target::masksPartialVectors).
  bool wholeVectors;
  llvm::SetVector<Value> scratch;
};

struct BlockConvLayoutsPass
    : dl::impl::BlockConvLayoutsBase<BlockConvLayoutsPass> {
  using BlockConvLayoutsBase::BlockConvLayoutsBase;

  void runOnOperation() override {
    if (failed(verifyBufferForm(getOperation(), getArgument())))
      return signalPassFailure();
    if (blockC < 0 || blockK < 0) {
      getOperation().emitError("dl-block-conv-layouts: block-c and block-k "
                               "must be >= 0");
      return signalPassFailure();
    }
    Target target = getTarget(getOperation());
    int64_t columns = microkernelColumns(target.vectorBits);
    LayoutRewriter(getOperation(), blockC ? blockC : columns,
                   blockK ? blockK : columns, !target.masksPartialVectors())
        .run();
  }
};

} // namespace
