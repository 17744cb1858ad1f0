//===- DLAttrs.cpp - dl dialect attributes ----------------------*- C++ -*-===//
//
// The `#dl.schedule` attribute: its textual form `<[kb:4, oh, kb],
// parallel = 0>`, its structural checks, and its checks against the
// dimensions of the op it schedules.
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/IR/DLAttrs.h"
#include "dl/Dialect/DL/IR/DLDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::dl;

#include "dl/Dialect/DL/IR/DLEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dl/Dialect/DL/IR/DLAttrs.cpp.inc"

void DLDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dl/Dialect/DL/IR/DLAttrs.cpp.inc"
      >();
}

Attribute ScheduleAttr::parse(AsmParser &parser, Type) {
  SmallVector<StringAttr> dims;
  SmallVector<int64_t> tiles;
  int64_t parallel = -1;
  auto parseLoop = [&]() -> ParseResult {
    StringRef name;
    int64_t tile = 0;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&name))
      return failure();
    if (succeeded(parser.parseOptionalColon())) {
      if (parser.parseInteger(tile))
        return failure();
      if (tile < 1)
        return parser.emitError(loc, "tile of '") << name << "' must be >= 1";
    }
    dims.push_back(parser.getBuilder().getStringAttr(name));
    tiles.push_back(tile);
    return success();
  };
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseLoop))
    return {};
  if (succeeded(parser.parseOptionalComma()) &&
      (parser.parseKeyword("parallel") || parser.parseEqual() ||
       parser.parseInteger(parallel)))
    return {};
  if (parser.parseGreater())
    return {};
  return parser.getChecked<ScheduleAttr>(parser.getContext(), dims, tiles,
                                         parallel);
}

void ScheduleAttr::print(AsmPrinter &printer) const {
  printer << "<[";
  llvm::interleaveComma(llvm::zip(getDims(), getTiles()), printer,
                        [&](auto loop) {
                          auto [dim, tile] = loop;
                          printer << dim.getValue();
                          if (tile > 0)
                            printer << ":" << tile;
                        });
  printer << "]";
  if (getParallel() >= 0)
    printer << ", parallel = " << getParallel();
  printer << ">";
}

LogicalResult ScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   ArrayRef<StringAttr> dims,
                                   ArrayRef<int64_t> tiles, int64_t parallel) {
  if (dims.empty())
    return emitError() << "a schedule needs at least one loop";
  if (dims.size() != tiles.size())
    return emitError() << "a schedule needs one tile entry per loop";
  if (llvm::any_of(tiles, [](int64_t tile) { return tile < 0; }))
    return emitError() << "schedule tiles must be >= 0";
  if (parallel < -1 || parallel >= static_cast<int64_t>(dims.size()))
    return emitError() << "parallel loop " << parallel
                       << " is not a loop of the schedule (0.."
                       << dims.size() - 1 << ")";
  return success();
}

FailureOr<SmallVector<ScheduledLoop>>
ScheduleAttr::getLoops(ArrayRef<ScheduleDim> dims,
                       function_ref<InFlightDiagnostic()> emitError) const {
  auto names = [&] {
    return llvm::join(
        llvm::map_range(dims, [](const ScheduleDim &d) { return d.name; }),
        ", ");
  };
  // A dimension's loops, outermost first: every loop but its last is a tile
  // loop stepping by its tile (which divides the previous loop's tile, or
  // the extent); the last steps by 1 through the innermost tile.
  SmallVector<ScheduledLoop> loops;
  SmallVector<unsigned> occurrences(dims.size(), 0);
  SmallVector<int64_t> spanOf(
      llvm::map_range(dims, [](const ScheduleDim &d) { return d.extent; }));
  SmallVector<bool> closed(dims.size(), false);
  for (auto [nameAttr, tile] : llvm::zip(getDims(), getTiles())) {
    StringRef name = nameAttr.getValue();
    const auto *it = llvm::find_if(
        dims, [&](const ScheduleDim &d) { return d.name == name; });
    if (it == dims.end())
      return emitError() << "schedule dimension '" << name << "' is not one of "
                         << names();
    unsigned dim = it - dims.begin();
    if (closed[dim])
      return emitError() << "schedule dimension '" << name
                         << "' has a loop after its point loop (every loop "
                            "but the last of a dimension needs a tile: "
                         << name << ":<tile>)";
    ++occurrences[dim];
    if (tile == 0) {
      closed[dim] = true;
      loops.push_back({dim, spanOf[dim], 1});
      continue;
    }
    if (spanOf[dim] % tile != 0)
      return emitError() << "tile " << tile << " of schedule dimension '"
                         << name << "' does not divide "
                         << (occurrences[dim] == 1 ? "its extent "
                                                   : "its enclosing tile ")
                         << spanOf[dim];
    loops.push_back({dim, spanOf[dim] / tile, tile});
    spanOf[dim] = tile;
  }
  for (auto [dim, d] : llvm::enumerate(dims)) {
    if (occurrences[dim] == 0) {
      if (!d.optional)
        return emitError() << "schedule misses dimension '" << d.name
                           << "' (needs all of " << names() << ")";
      loops.push_back({static_cast<unsigned>(dim), d.extent, 1});
      continue;
    }
    if (!closed[dim])
      return emitError() << "tile loop of schedule dimension '" << d.name
                         << "' has no point loop";
  }
  for (auto [dim, d] : llvm::enumerate(dims))
    if (d.innermost && loops.back().dim != dim)
      return emitError() << "the last loop of the schedule must be over '"
                         << d.name << "'";
  return loops;
}

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t vectorBits, int64_t maxBatchBytes,
                                 DenseI64ArrayAttr cacheBytes,
                                 DenseF64ArrayAttr latencies,
                                 DenseF64ArrayAttr bandwidths,
                                 FloatAttr nearWriteLineNs,
                                 FloatAttr forkJoinNs) {
  if (vectorBits < 1)
    return emitError() << "vector_bits must be >= 1, got " << vectorBits;
  if (maxBatchBytes < 0)
    return emitError() << "max_batch_bytes must be >= 0, got " << maxBatchBytes;
  if (cacheBytes.empty() ||
      llvm::any_of(cacheBytes.asArrayRef(), [](int64_t b) { return b <= 0; }))
    return emitError() << "cache_bytes must be one or more positive sizes";
  size_t entries = cacheBytes.size() + 1;
  for (auto [name, values] :
       {std::pair("latencies", latencies), std::pair("bandwidths", bandwidths)})
    if (values.size() != static_cast<int64_t>(entries) ||
        llvm::any_of(values.asArrayRef(), [](double v) { return !(v > 0); }))
      return emitError() << name << " must have " << entries
                         << " positive values (one per cache level, then "
                            "memory)";
  for (auto [name, cost] : {std::pair("near_write_line_ns", nearWriteLineNs),
                            std::pair("fork_join_ns", forkJoinNs)})
    if (cost && !(cost.getValueAsDouble() >= 0.0))
      return emitError() << name << " must be >= 0";
  return success();
}
