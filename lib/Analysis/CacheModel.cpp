//===- CacheModel.cpp - cache hierarchy and PolyDL's cost -------*- C++ -*-===//
//
// Cache capacities from sysfs (or overrides), documented default latencies
// and bandwidths, and Algorithm 2 / eq. 1 of PolyDL.
//
//===----------------------------------------------------------------------===//

#include "dl/Analysis/CacheModel.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::dl;

CacheModel CacheModel::defaults() {
  CacheModel model;
  model.levels = {{"L1", 32 << 10, 4.0, 64.0},
                  {"L2", 512 << 10, 14.0, 32.0},
                  {"L3", 32 << 20, 50.0, 16.0}};
  return model;
}

/// Parses "32K", "512K", "32768K", "1M", "65536" into bytes; 0 on error.
static int64_t parseBytes(StringRef text) {
  text = text.trim();
  int64_t scale = 1;
  if (text.ends_with_insensitive("k"))
    scale = 1 << 10;
  else if (text.ends_with_insensitive("m"))
    scale = 1 << 20;
  else if (text.ends_with_insensitive("g"))
    scale = int64_t(1) << 30;
  if (scale != 1)
    text = text.drop_back();
  int64_t value;
  if (text.getAsInteger(10, value) || value <= 0)
    return 0;
  return value * scale;
}

/// The contents of a sysfs file, read to its end: sysfs reports every file
/// as 4 KiB long, and MemoryBuffer::getFile pads what it reads to that size
/// with NULs, which then defeat every comparison and number parse (the
/// detection fell back to the defaults on every machine).
static std::string readFile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFileAsStream(path);
  if (!buffer)
    return "";
  return (*buffer)->getBuffer().trim().str();
}

CacheModel CacheModel::detect() {
  CacheModel model = defaults();
  for (int index = 0; index < 8; ++index) {
    std::string dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    std::string type = readFile(dir + "/type");
    if (type.empty())
      break;
    if (type == "Instruction")
      continue;
    int64_t level;
    if (StringRef(readFile(dir + "/level")).getAsInteger(10, level) ||
        level < 1 || level > static_cast<int64_t>(model.levels.size()))
      continue;
    if (int64_t bytes = parseBytes(readFile(dir + "/size")))
      model.levels[level - 1].bytes = bytes;
  }
  return model;
}

LogicalResult CacheModel::overrideSizes(StringRef spec, std::string &error) {
  SmallVector<StringRef> items;
  spec.split(items, ',', -1, /*KeepEmpty=*/false);
  for (StringRef item : items) {
    auto [name, size] = item.split('=');
    auto *level = llvm::find_if(levels, [&](const CacheLevel &l) {
      return StringRef(l.name).equals_insensitive(name.trim());
    });
    if (level == levels.end()) {
      error = ("unknown cache level '" + name.trim() +
               "' (expected L1, L2 "
               "or L3)")
                  .str();
      return failure();
    }
    int64_t bytes = parseBytes(size);
    if (bytes <= 0) {
      error = ("cache size '" + size.trim() + "' of " + name.trim() +
               " must be a positive number of bytes (K/M/G allowed)")
                  .str();
      return failure();
    }
    level->bytes = bytes;
  }
  return success();
}

FailureOr<CacheModel> CacheModel::readMachineFile(StringRef path,
                                                  std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) {
    error = ("cannot read machine file '" + path +
             "': " + buffer.getError().message())
                .str();
    return failure();
  }
  auto fail = [&](const Twine &why) {
    error = ("machine file '" + path + "': " + why).str();
    return failure();
  };
  llvm::Expected<llvm::json::Value> parsed =
      llvm::json::parse((*buffer)->getBuffer());
  if (!parsed)
    return fail(llvm::toString(parsed.takeError()));
  const llvm::json::Object *root = parsed->getAsObject();
  const llvm::json::Array *levels = root ? root->getArray("levels") : nullptr;
  const llvm::json::Object *memory = root ? root->getObject("memory") : nullptr;
  if (!levels || levels->empty() || !memory)
    return fail("needs a non-empty \"levels\" array and a \"memory\" object");
  auto positive = [](const llvm::json::Object &object, StringRef key) {
    std::optional<double> value = object.getNumber(key);
    return value && *value > 0 ? value : std::nullopt;
  };
  CacheModel model;
  for (const llvm::json::Value &entry : *levels) {
    const llvm::json::Object *level = entry.getAsObject();
    std::optional<StringRef> name =
        level ? level->getString("name") : std::nullopt;
    std::optional<double> bytes, latency, bandwidth;
    if (level) {
      bytes = positive(*level, "bytes");
      latency = positive(*level, "latency");
      bandwidth = positive(*level, "bandwidth");
    }
    if (!name || !bytes || !latency || !bandwidth)
      return fail("each level needs a name and positive bytes, latency and "
                  "bandwidth");
    model.levels.push_back(
        {name->str(), static_cast<int64_t>(*bytes), *latency, *bandwidth});
  }
  std::optional<double> latency = positive(*memory, "latency");
  std::optional<double> bandwidth = positive(*memory, "bandwidth");
  if (!latency || !bandwidth)
    return fail("memory needs positive latency and bandwidth");
  model.memoryLatency = *latency;
  model.memoryBandwidth = *bandwidth;
  if (const llvm::json::Value *cores = root->get("cores")) {
    const llvm::json::Object *object = cores->getAsObject();
    if (!object)
      return fail("\"cores\" must be an object");
    for (auto [key, cost] :
         {std::pair(StringRef("near_write_line_ns"), &model.nearWriteLineNs),
          std::pair(StringRef("fork_join_ns"), &model.forkJoinNs)}) {
      if (!object->get(key))
        continue;
      std::optional<double> value = object->getNumber(key);
      if (!value || *value < 0.0)
        return fail("\"cores\": " + key + " must be a number >= 0");
      *cost = *value;
    }
  }
  return model;
}

llvm::json::Object CacheModel::toJSON() const {
  llvm::json::Array levelArray;
  for (const CacheLevel &level : levels)
    levelArray.push_back(llvm::json::Object{{"name", level.name},
                                            {"bytes", level.bytes},
                                            {"latency", level.latency},
                                            {"bandwidth", level.bandwidth}});
  llvm::json::Object result{
      {"levels", std::move(levelArray)},
      {"memory", llvm::json::Object{{"latency", memoryLatency},
                                    {"bandwidth", memoryBandwidth}}}};
  llvm::json::Object cores;
  if (nearWriteLineNs)
    cores["near_write_line_ns"] = *nearWriteLineNs;
  if (forkJoinNs)
    cores["fork_join_ns"] = *forkJoinNs;
  if (!cores.empty())
    result["cores"] = std::move(cores);
  return result;
}

std::string CacheModel::toMachineFile() const {
  return llvm::formatv("{0:2}", llvm::json::Value(toJSON())).str();
}

FailureOr<CacheModel> CacheModel::fromOptions(StringRef machineFile,
                                              StringRef sizes,
                                              std::string &error) {
  CacheModel model = detect();
  if (!machineFile.empty()) {
    FailureOr<CacheModel> read = readMachineFile(machineFile, error);
    if (failed(read))
      return failure();
    model = *read;
  }
  if (failed(model.overrideSizes(sizes, error)))
    return failure();
  return model;
}

FailureOr<CacheModel> CacheModel::fromPassOptions(Operation *op, StringRef pass,
                                                  StringRef machineFile,
                                                  StringRef sizes) {
  std::string error;
  FailureOr<CacheModel> model = fromOptions(machineFile, sizes, error);
  if (failed(model))
    op->emitError() << pass << ": " << error;
  return model;
}

double CacheModel::servedFraction(double bandwidth, double levelBandwidth,
                                  double memoryBandwidth) {
  double span = 1.0 / levelBandwidth - 1.0 / memoryBandwidth;
  if (span == 0.0)
    return 1.0;
  double served = (1.0 / bandwidth - 1.0 / memoryBandwidth) / span;
  return std::clamp(served, 0.0, 1.0);
}

LevelAssignment dl::assignToLevels(ArrayRef<int64_t> workingSetBytes,
                                   const CacheModel &model) {
  SmallVector<int64_t> sorted(workingSetBytes);
  llvm::sort(sorted);
  LevelAssignment assignment;
  assignment.bytesPerLevel.assign(model.levels.size(), 0);
  for (int64_t ws : sorted) {
    bool placed = false;
    for (auto [i, level] : llvm::enumerate(model.levels)) {
      if (ws + assignment.bytesPerLevel[i] <= level.bytes) {
        assignment.bytesPerLevel[i] += ws;
        placed = true;
        break;
      }
    }
    if (!placed)
      assignment.memoryBytes += ws;
  }
  for (auto [i, level] : llvm::enumerate(model.levels))
    assignment.cost +=
        assignment.bytesPerLevel[i] * level.latency / level.bandwidth;
  assignment.cost +=
      assignment.memoryBytes * model.memoryLatency / model.memoryBandwidth;
  return assignment;
}

LevelAssignment dl::assignTraffic(ArrayRef<Reuse> reuses,
                                  int64_t firstTouchBytes,
                                  const CacheModel &model) {
  LevelAssignment assignment;
  assignment.bytesPerLevel.assign(model.levels.size(), 0);
  assignment.memoryBytes = firstTouchBytes;
  for (const Reuse &reuse : reuses) {
    auto *level = llvm::find_if(model.levels, [&](const CacheLevel &level) {
      return reuse.distanceBytes <= level.bytes;
    });
    if (level == model.levels.end())
      assignment.memoryBytes += reuse.bytes;
    else
      assignment.bytesPerLevel[level - model.levels.begin()] += reuse.bytes;
  }
  for (auto [i, level] : llvm::enumerate(model.levels))
    assignment.cost += assignment.bytesPerLevel[i] / level.bandwidth;
  assignment.cost += assignment.memoryBytes / model.memoryBandwidth;
  return assignment;
}
