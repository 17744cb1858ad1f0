//===- FuseEpilogues.cpp - element-wise consumers into their producer -----===//
//
// The pass `dl-fuse-epilogues`: reduction-aware fusion of the element-wise
// ops that follow a convolution, a GEMM or a batch normalization into it
// (see the pass description in Passes.td). Legality is decided on the
// buffers the ops read and write, with MLIR's memory effects for the ops in
// between, not on op names: the consumer must read exactly the buffer the
// producer writes whole, nothing in between may touch it, and the
// consumer's other operands must already hold their values when the
// producer runs. Distinct buffers (SSA values that are not views of one
// another) are taken as distinct memory, as the dl verifiers take them.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/IR/DLOps.h"
#include "dl/Dialect/DL/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir {
namespace dl {
#define GEN_PASS_DEF_FUSEEPILOGUES
#include "dl/Dialect/DL/Transforms/Passes.h.inc"
} // namespace dl
} // namespace mlir

using namespace mlir;
using namespace mlir::dl;

namespace {

/// An element-wise op that reads a producer's output buffer: its steps as a
/// convolution epilogue's, its other operands, and the buffer it writes.
struct Consumer {
  SmallVector<PostOp> steps;
  SmallVector<Value> operands;
  Value output;
  std::optional<float> epsilon;
};

std::optional<Consumer> matchConsumer(Operation *op, Value buffer) {
  return llvm::TypeSwitch<Operation *, std::optional<Consumer>>(op)
      .Case([&](ReluOp relu) -> std::optional<Consumer> {
        if (relu.getInput() != buffer)
          return std::nullopt;
        return Consumer{{PostOp::relu}, {}, relu.getOutput(), {}};
      })
      .Case([&](Relu6Op relu) -> std::optional<Consumer> {
        if (relu.getInput() != buffer)
          return std::nullopt;
        return Consumer{{PostOp::relu6}, {}, relu.getOutput(), {}};
      })
      .Case([&](BiasAddOp bias) -> std::optional<Consumer> {
        if (bias.getInput() != buffer)
          return std::nullopt;
        return Consumer{
            {PostOp::bias_add}, {bias.getBias()}, bias.getOutput(), {}};
      })
      .Case([&](AddOp add) -> std::optional<Consumer> {
        if ((add.getLhs() == buffer) == (add.getRhs() == buffer))
          return std::nullopt;
        Value residual = add.getLhs() == buffer ? add.getRhs() : add.getLhs();
        return Consumer{{PostOp::add}, {residual}, add.getOutput(), {}};
      })
      .Case([&](BatchNormInferenceOp bn) -> std::optional<Consumer> {
        if (bn.getInput() != buffer)
          return std::nullopt;
        Consumer consumer{
            {PostOp::batch_norm_inference},
            {bn.getGamma(), bn.getBeta(), bn.getMean(), bn.getVariance()},
            bn.getOutput(),
            bn.getEpsilon().convertToFloat()};
        if (std::optional<Activation> activation = bn.getActivation())
          consumer.steps.push_back(
              *activation == Activation::relu ? PostOp::relu : PostOp::relu6);
        return consumer;
      })
      .Default([](Operation *) { return std::nullopt; });
}

/// `value` and every view of it (ViewLikeOpInterface results, transitively).
llvm::SmallPtrSet<Value, 8> getAliases(Value value) {
  llvm::SmallPtrSet<Value, 8> aliases;
  SmallVector<Value> work = {value};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!aliases.insert(v).second)
      continue;
    for (Operation *user : v.getUsers())
      if (auto view = dyn_cast<ViewLikeOpInterface>(user))
        if (view.getViewSource() == v)
          for (Value result : user->getResults())
            work.push_back(result);
  }
  return aliases;
}

/// The view ops (memref.collapse_shape / expand_shape, outermost first)
/// from the buffer a convolution's output views to that output, as
/// dl-merge-conv-rows leaves them.
SmallVector<Operation *> getOutputViews(Value output) {
  SmallVector<Operation *> views;
  while (Operation *def = output.getDefiningOp()) {
    if (!isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(def))
      break;
    views.insert(views.begin(), def);
    output = def->getOperand(0);
  }
  return views;
}

/// Whether a view keeps dims 1 and the last (the channel block and the
/// channel within it) as dims of their own, so per-channel steps index the
/// same channel through it.
bool keepsChannels(Operation *view) {
  SmallVector<ReassociationIndices> groups =
      TypeSwitch<Operation *, SmallVector<ReassociationIndices>>(view)
          .Case<memref::CollapseShapeOp, memref::ExpandShapeOp>(
              [](auto op) { return op.getReassociationIndices(); });
  return groups.size() >= 3 && groups[1] == ReassociationIndices{1} &&
         groups.back().size() == 1;
}

struct FuseEpiloguesPass
    : public dl::impl::FuseEpiloguesBase<FuseEpiloguesPass> {
  using FuseEpiloguesBase::FuseEpiloguesBase;

  void runOnOperation() override {
    if (failed(verifyBufferForm(getOperation(), getArgument())))
      return signalPassFailure();
    SmallVector<Operation *> producers;
    getOperation().walk([&](Operation *op) {
      if (isa<Conv2DOp, MatmulOp, BatchNormInferenceOp, BatchNormTrainingOp>(
              op))
        producers.push_back(op);
    });
    DominanceInfo dominance(getOperation());
    for (Operation *producer : producers) {
      if (fused.contains(producer))
        continue;
      while (fuseNext(producer, dominance)) {
      }
    }
  }

  /// The ops fused into others (erased).
  llvm::DenseSet<Operation *> fused;

  /// Whether `op`'s effects on memory are known and touch none of
  /// `buffers`.
  static bool leavesAlone(Operation *op,
                          const llvm::SmallPtrSet<Value, 8> &buffers) {
    std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
        getEffectsRecursively(op);
    if (!effects)
      return false;
    return llvm::all_of(*effects, [&](const MemoryEffects::EffectInstance &e) {
      Value value = e.getValue();
      if (!value)
        return isa<MemoryEffects::Allocate>(e.getEffect());
      return !buffers.contains(value);
    });
  }

  /// Erases `unpack` if its destination is unpacked into again from the
  /// same source before anything touches it (dl-block-conv-layouts leaves
  /// such a pair around an element-wise op it moved to the blocked copy):
  /// then it does not read the producer's output, and the op after it may
  /// fuse.
  static bool eraseIfOverwritten(UnpackOp unpack) {
    llvm::SmallPtrSet<Value, 8> dest = getAliases(unpack.getDest());
    for (Operation *next = unpack->getNextNode(); next;
         next = next->getNextNode()) {
      auto overwrite = dyn_cast<UnpackOp>(next);
      if (overwrite && overwrite.getDest() == unpack.getDest() &&
          overwrite.getSource() == unpack.getSource()) {
        unpack.erase();
        return true;
      }
      if (!leavesAlone(next, dest))
        return false;
    }
    return false;
  }

  /// The output operand of a producer (a batch normalization's normalized
  /// output).
  static Value getOutput(Operation *producer) {
    return cast<DestinationStyleOpInterface>(producer).getDpsInits()[0];
  }

  /// The buffer `producer` writes whole, under the views of its output (a
  /// convolution's, as dl-merge-conv-rows leaves them).
  static Value getWrittenBuffer(Operation *producer) {
    Value output = getOutput(producer);
    SmallVector<Operation *> views = isa<Conv2DOp>(producer)
                                         ? getOutputViews(output)
                                         : SmallVector<Operation *>();
    return views.empty() ? output : views.front()->getOperand(0);
  }

  /// Fuses the next consumer of `producer`'s output; false when there is
  /// none that may fuse (with a remark why, if asked).
  bool fuseNext(Operation *producer, DominanceInfo &dominance) {
    Value buffer = getWrittenBuffer(producer);
    llvm::SmallPtrSet<Value, 8> bufferAliases = getAliases(buffer);
    // The first op after the producer that uses the buffer, and the ops in
    // between.
    SmallVector<Operation *> between;
    Operation *next = producer->getNextNode();
    while (next) {
      bool usesBuffer = false;
      next->walk([&](Operation *nested) {
        for (Value operand : nested->getOperands())
          usesBuffer |= bufferAliases.contains(operand);
      });
      if (!usesBuffer) {
        between.push_back(next);
        next = next->getNextNode();
        continue;
      }
      auto unpack = dyn_cast<UnpackOp>(next);
      Operation *after = next->getNextNode();
      if (!unpack || unpack.getSource() != buffer ||
          !eraseIfOverwritten(unpack))
        break;
      next = after;
    }
    if (!next)
      return false;
    auto conv = dyn_cast<Conv2DOp>(producer);
    auto training = dyn_cast<BatchNormTrainingOp>(next);
    if (conv && training && training.getInput() == buffer)
      return fuseStatistics(conv, training);
    std::optional<Consumer> consumer = matchConsumer(next, buffer);
    if (!consumer)
      return false;
    if (std::optional<std::string> reason = checkLegality(
            producer, buffer, next, between, *consumer, dominance)) {
      if (reportFallbacks)
        next->emitRemark(llvm::formatv(
            "dl-fuse-epilogues: not fused into the {0} that writes its "
            "input: {1}",
            producer->getName(), *reason));
      return false;
    }
    apply(producer, buffer, next, *consumer);
    return true;
  }

  /// Has `conv` write the row statistics of its output, which `training`
  /// reads right after it, for `training` to merge instead of sweeping its
  /// input: the conv output is then read once more, to normalize, instead
  /// of twice. The normalization itself stays where it is: it needs the
  /// statistics of the whole output. Returns false (with a remark why, if
  /// asked) where the statistics stay in `training`.
  bool fuseStatistics(Conv2DOp conv, BatchNormTrainingOp training) {
    ShapedType out = conv.getOutput().getType();
    const char *reason = nullptr;
    if (conv.getRowStatistics() || training.getRowStatistics())
      return false;
    if (!conv.isBlocked())
      reason = "the convolution has the plain layout";
    else if (conv.getGroupLanes())
      reason = "the convolution's groups lie within its lanes (group_lanes: "
               "its epilogue runs after it, not per tile)";
    else if (!out.hasStaticShape() ||
             !training.getInput().getType().hasStaticShape())
      reason = "a size is dynamic";
    else if (!llvm::all_of(getOutputViews(conv.getOutput()), keepsChannels))
      reason = "the convolution writes a view of the buffer that does not "
               "keep its channel dims";
    if (reason) {
      if (reportFallbacks)
        training->emitRemark(llvm::formatv(
            "dl-fuse-epilogues: statistics not fused into the dl.conv2d "
            "that writes its input: {0}",
            reason));
      return false;
    }
    OpBuilder b(conv);
    auto rowsType = MemRefType::get({out.getDimSize(0), out.getDimSize(2), 2,
                                     out.getDimSize(1) * out.getDimSize(4)},
                                    b.getF32Type());
    Value rows = memref::AllocOp::create(b, conv.getLoc(), rowsType);
    conv.getRowStatisticsMutable().assign(rows);
    training.getRowStatisticsMutable().assign(rows);
    b.setInsertionPointAfter(training);
    memref::DeallocOp::create(b, training.getLoc(), rows);
    return false;
  }

  /// Why `consumer` (`consumerOp`, reading `buffer`, after the ops
  /// `between`) may not fuse into `producer`, or nothing when it may.
  std::optional<std::string> checkLegality(Operation *producer, Value buffer,
                                           Operation *consumerOp,
                                           ArrayRef<Operation *> between,
                                           const Consumer &consumer,
                                           DominanceInfo &dominance) {
    if (isa<BatchNormInferenceOp, BatchNormTrainingOp>(producer)) {
      // Batch normalization: only an activation, and only one.
      if (consumer.steps.size() != 1 ||
          !llvm::is_contained({PostOp::relu, PostOp::relu6}, consumer.steps[0]))
        return std::string("a batch normalization fuses only an "
                           "activation (its statistics need all of its "
                           "input before any output)");
      if (producer->hasAttr("activation"))
        return std::string("the batch normalization has an activation "
                           "already");
    } else {
      SmallVector<Operation *> views = getOutputViews(getOutput(producer));
      bool perChannel = llvm::any_of(consumer.steps, [](PostOp step) {
        return step == PostOp::bias_add || step == PostOp::batch_norm_inference;
      });
      if (perChannel && !llvm::all_of(views, keepsChannels))
        return std::string("the convolution writes a view of the buffer "
                           "that does not keep its channel dims");
      if (llvm::is_contained(consumer.steps, PostOp::add) && !views.empty() &&
          !llvm::all_of(views, [&](Operation *view) {
            auto collapse = dyn_cast<memref::CollapseShapeOp>(view);
            auto residualType =
                cast<MemRefType>(consumer.operands[0].getType());
            return !collapse || residualType.getLayout().isIdentity();
          }))
        return std::string("the residual cannot take the view the "
                           "convolution writes through");
      if (llvm::is_contained(consumer.steps, PostOp::batch_norm_inference) &&
          llvm::is_contained(
              getPostOps(producer->getAttrOfType<ArrayAttr>("epilogue")),
              PostOp::batch_norm_inference))
        return std::string("the epilogue has a batch normalization already");
    }
    for (Value operand : consumer.operands)
      if (!dominance.properlyDominates(operand, producer))
        return std::string("an operand is defined after the producer");
    bool inPlace = consumer.output == buffer;
    if (!inPlace) {
      // The producer would overwrite its new output (zeroing each tile
      // before its reduction) before the epilogue reads an operand there:
      // `dl.add ins(%x, %conv) outs(%x)`.
      llvm::SmallPtrSet<Value, 8> outputAliases = getAliases(consumer.output);
      if (llvm::any_of(consumer.operands, [&](Value operand) {
            return outputAliases.contains(operand);
          }))
        return std::string("its output is also its other operand, which the "
                           "producer would overwrite before reading it");
      // The producer writes the consumer's output instead: its own buffer
      // must be a scratch nobody else reads.
      auto alloc = buffer.getDefiningOp<memref::AllocOp>();
      if (!alloc)
        return std::string("it writes another buffer and the producer's is "
                           "not a local allocation");
      for (Operation *user : buffer.getUsers()) {
        bool producerView = isa<memref::CollapseShapeOp>(user) &&
                            user->isBeforeInBlock(producer);
        if (user != producer && user != consumerOp && !producerView &&
            !isa<memref::DeallocOp>(user))
          return std::string("it writes another buffer and the producer's "
                             "is read elsewhere");
      }
      // An allocation without operands defined after the producer moves up
      // to it (apply).
      auto outputAlloc = consumer.output.getDefiningOp<memref::AllocOp>();
      if (!dominance.properlyDominates(consumer.output, producer) &&
          (!outputAlloc || outputAlloc->getNumOperands() != 0 ||
           outputAlloc->getBlock() != producer->getBlock()))
        return std::string("its output is defined after the producer");
    }
    // Nothing in between may touch the buffers the fusion moves accesses of.
    llvm::SmallPtrSet<Value, 8> written = getAliases(consumer.output);
    llvm::SmallPtrSet<Value, 8> read;
    for (Value operand : consumer.operands)
      for (Value alias : getAliases(operand))
        read.insert(alias);
    for (Operation *op : between) {
      std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
          getEffectsRecursively(op);
      if (!effects)
        return llvm::formatv("'{0}' in between has unknown effects",
                             op->getName())
            .str();
      for (const MemoryEffects::EffectInstance &effect : *effects) {
        if (isa<MemoryEffects::Allocate>(effect.getEffect()))
          continue; // A new buffer holds nothing yet.
        Value value = effect.getValue();
        bool isWrite =
            isa<MemoryEffects::Write, MemoryEffects::Free>(effect.getEffect());
        if (!value && (isWrite || isa<MemoryEffects::Read>(effect.getEffect())))
          return llvm::formatv("'{0}' in between accesses memory it does "
                               "not name",
                               op->getName())
              .str();
        if (!value)
          continue;
        if (written.contains(value))
          return llvm::formatv("'{0}' in between accesses its output",
                               op->getName())
              .str();
        if (isWrite && read.contains(value))
          return llvm::formatv("'{0}' in between writes one of its operands",
                               op->getName())
              .str();
      }
    }
    return std::nullopt;
  }

  /// Records `consumerOp` on `producer` and erases it.
  void apply(Operation *producer, Value buffer, Operation *consumerOp,
             const Consumer &consumer) {
    OpBuilder b(producer);
    MLIRContext *ctx = producer->getContext();
    // `value` seen through the views the convolution writes through.
    auto throughViews = [&](Value value) {
      if (!isa<Conv2DOp>(producer))
        return value;
      for (Operation *view : getOutputViews(getOutput(producer))) {
        IRMapping mapping;
        mapping.map(view->getOperand(0), value);
        value = b.clone(*view, mapping)->getResult(0);
      }
      return value;
    };
    // A convolution's or a GEMM's epilogue gets the steps and operands.
    auto appendSteps = [&](auto heavy) {
      SmallVector<Attribute> steps;
      if (std::optional<ArrayAttr> epilogue = heavy.getEpilogue())
        llvm::append_range(steps, *epilogue);
      for (PostOp step : consumer.steps)
        steps.push_back(PostOpAttr::get(ctx, step));
      heavy.setEpilogueAttr(ArrayAttr::get(ctx, steps));
      if (consumer.epsilon)
        heavy.setEpilogueEpsilonAttr(b.getF32FloatAttr(*consumer.epsilon));
      bool residual = consumer.steps.front() == PostOp::add;
      for (Value operand : consumer.operands)
        heavy.getEpilogueOperandsMutable().append(
            residual ? throughViews(operand) : operand);
    };
    if (auto conv = dyn_cast<Conv2DOp>(producer)) {
      appendSteps(conv);
    } else if (auto matmul = dyn_cast<MatmulOp>(producer)) {
      appendSteps(matmul);
    } else {
      producer->setAttr("activation", ActivationAttr::get(
                                          ctx, consumer.steps[0] == PostOp::relu
                                                   ? Activation::relu
                                                   : Activation::relu6));
    }
    producer->setLoc(
        FusedLoc::get(ctx, {producer->getLoc(), consumerOp->getLoc()}));
    fused.insert(consumerOp);
    consumerOp->erase();
    if (consumer.output == buffer)
      return;
    // The producer writes the consumer's output; its scratch goes, with the
    // views it wrote through.
    if (Operation *def = consumer.output.getDefiningOp();
        def && def->getBlock() == producer->getBlock() &&
        producer->isBeforeInBlock(def))
      def->moveBefore(producer); // An allocation (checkLegality).
    auto dps = cast<DestinationStyleOpInterface>(producer);
    OpOperand &init = dps.getDpsInitsMutable()[0];
    Value oldOutput = init.get();
    init.assign(throughViews(consumer.output));
    while (oldOutput != buffer && oldOutput.use_empty()) {
      Operation *view = oldOutput.getDefiningOp();
      oldOutput = view->getOperand(0);
      view->erase();
    }
    if (llvm::all_of(buffer.getUsers(), [](Operation *user) {
          return isa<memref::DeallocOp>(user);
        })) {
      for (Operation *user : llvm::make_early_inc_range(buffer.getUsers()))
        user->erase();
      buffer.getDefiningOp()->erase();
    }
  }
};

} // namespace
