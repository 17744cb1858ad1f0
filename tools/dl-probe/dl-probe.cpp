//===- dl-probe.cpp - measure this machine's memory hierarchy ---*- C++ -*-===//
//
// Measures the read bandwidth and the load latency of each cache level and
// of memory on the running machine, and writes a machine file (JSON) that
// dl-rank-variants / dl-compile read with --machine-file. Capacities come
// from sysfs (CacheModel::detect), except the last level's, which is
// measured: it is shared by all the cores of the chip (in a VM also with
// other tenants' cores), and its reported size overstates what one core's
// working sets can keep (here 32 MiB reported, reads slow down from about
// 8 MiB). Bandwidth: the fastest of streaming reads of a buffer of half a
// level's capacity (of 8x the last level's for memory), repeated for
// --min-time; latency: a pointer chase through a random cyclic permutation
// of cache lines in such a buffer. Units: ns and bytes/ns. The probe pins
// itself to the core it starts on. Where it may run on a second CPU, it
// also measures what cores cost each other (the machine file's "cores"):
// writing next to another core's writes, which dl-decide-parallelism
// charges threads dividing an output into adjacent parts, and an empty
// parallel region of libomp, the OpenMP runtime the generated code calls.
//
//===----------------------------------------------------------------------===//

#include "dl/Analysis/CacheModel.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <memory>
#include <numeric>
#include <random>
#include <thread>
#include <vector>

#ifdef __linux__
#include <sched.h>
#endif

using namespace mlir;
namespace cl = llvm::cl;

namespace {

cl::OptionCategory category("dl-probe options");
cl::opt<std::string> outputFilename("o",
                                    cl::desc("Machine file to write (default: "
                                             "stdout)"),
                                    cl::value_desc("file"), cl::init("-"),
                                    cl::cat(category));
cl::opt<double> minTime("min-time",
                        cl::desc("Seconds each measurement runs at least"),
                        cl::init(0.2), cl::cat(category));

using Clock = std::chrono::steady_clock;
using Word8 = uint64_t __attribute__((vector_size(32)));

/// Sums the buffer 4 vectors at a time (independent accumulators, so loads,
/// not adds, bound the loop). Inlined into a generic and an AVX2 entry.
__attribute__((always_inline)) inline uint64_t sumWordsBody(const Word8 *data,
                                                            size_t count) {
  Word8 a = {}, b = {}, c = {}, d = {};
  for (size_t i = 0; i + 4 <= count; i += 4) {
    a += data[i];
    b += data[i + 1];
    c += data[i + 2];
    d += data[i + 3];
  }
  Word8 s = a + b + c + d;
  return s[0] + s[1] + s[2] + s[3];
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) uint64_t sumWordsAvx2(const Word8 *data,
                                                      size_t count) {
  return sumWordsBody(data, count);
}
#endif

/// The widest loads this CPU has (32-byte ones where AVX2 is there).
uint64_t sumWords(const Word8 *data, size_t count) {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx2"))
    return sumWordsAvx2(data, count);
#endif
  return sumWordsBody(data, count);
}

/// Bytes per ns of reading `bytes` over and over: the fastest read, or the
/// median one (for sizes the other cores' traffic makes vary).
double readBandwidth(size_t bytes, uint64_t &sink, bool median = false) {
  std::vector<Word8> buffer(std::max<size_t>(4, bytes / sizeof(Word8)));
  for (size_t i = 0; i < buffer.size(); ++i)
    buffer[i] = Word8{i, i + 1, i + 2, i + 3};
  sink += sumWords(buffer.data(), buffer.size()); // Warm up.
  // Small buffers are read several times per timing: one read of L1's half
  // takes about the clock's resolution.
  size_t passes = std::max<size_t>(1, (1 << 20) / bytes);
  double seconds = 0.0;
  std::vector<double> rates;
  while (seconds < minTime || rates.size() < 3) {
    auto start = Clock::now();
    for (size_t pass = 0; pass < passes; ++pass)
      sink += sumWords(buffer.data(), buffer.size());
    double t = std::chrono::duration<double>(Clock::now() - start).count();
    seconds += t;
    rates.push_back(passes * buffer.size() * sizeof(Word8) / (t * 1e9));
  }
  if (!median)
    return *std::max_element(rates.begin(), rates.end());
  std::nth_element(rates.begin(), rates.begin() + rates.size() / 2,
                   rates.end());
  return rates[rates.size() / 2];
}

/// Reads the last level must serve at a size for that size to count as
/// usable. Half (the bandwidth half-way between the level's and memory's)
/// was the rule before: on this project's VM the sweep reads 108-118
/// bytes/ns up to 16 MiB, then 72-80 at 22.6 MiB, which is 0.7 of the reads
/// served and straddles the half-way line (74-77), so the probe gave 16 MiB
/// in one run and 22.6 in the next, and the larger figure made square_2k's
/// pick at two threads a k-split that keeps C in the L3 (0.88 of oneDNN in
/// that harness run, 1.00 with 16 MiB).
constexpr double kMinServedFraction = 0.9;

/// The largest buffer, from twice the level below up to twice the reported
/// capacity in steps of sqrt(2), at whose median read bandwidth the level
/// still serves kMinServedFraction of the reads (CacheModel::servedFraction,
/// with the smallest size's bandwidth as the level's own).
int64_t capacitySweep(int64_t below, int64_t reported, double memoryBandwidth,
                      uint64_t &sink) {
  double inside = 0.0;
  int64_t usable = 2 * below;
  for (double bytes = 2.0 * below; bytes <= 2.0 * reported;
       bytes *= std::sqrt(2.0)) {
    double bandwidth =
        readBandwidth(static_cast<size_t>(bytes), sink, /*median=*/true);
    if (inside == 0.0)
      inside = bandwidth;
    if (dl::CacheModel::servedFraction(bandwidth, inside, memoryBandwidth) <
        kMinServedFraction)
      break;
    usable = static_cast<int64_t>(bytes);
  }
  return usable;
}

/// The part of the last cache level one core can use: the smallest of three
/// sweeps. What the other cores (of this machine, or of other tenants of a
/// VM's host) keep in the shared level varies while the probe runs; one
/// sweep found 16 MiB of this VM's 32 MiB usable, the next 23 MiB (under
/// the half-way rule that kMinServedFraction replaced).
int64_t usableCapacity(int64_t below, int64_t reported, double memoryBandwidth,
                       uint64_t &sink) {
  int64_t usable = capacitySweep(below, reported, memoryBandwidth, sink);
  for (int sweep = 1; sweep < 3; ++sweep)
    usable =
        std::min(usable, capacitySweep(below, reported, memoryBandwidth, sink));
  return usable;
}

/// ns per dependent load in a random cycle through `bytes` of cache lines.
double loadLatency(size_t bytes, uint64_t &sink) {
  constexpr size_t line = 64 / sizeof(size_t);
  size_t lines = std::max<size_t>(2, bytes / 64);
  std::vector<size_t> order(lines);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin() + 1, order.end(), std::mt19937_64(42));
  std::vector<size_t> next(lines * line);
  for (size_t i = 0; i < lines; ++i)
    next[order[i] * line] = order[(i + 1) % lines] * line;
  size_t position = 0, hops = 0;
  double seconds = 0.0;
  while (seconds < minTime) {
    auto start = Clock::now();
    for (size_t i = 0; i < lines; ++i)
      position = next[position];
    seconds += std::chrono::duration<double>(Clock::now() - start).count();
    hops += lines;
  }
  sink += position;
  return seconds * 1e9 / hops;
}

/// Lets the calling thread run on `cpus` only; false where it cannot (not
/// Linux).
bool pinTo(std::initializer_list<int> cpus) {
#ifdef __linux__
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int cpu : cpus)
    CPU_SET(cpu, &set);
  return sched_setaffinity(0, sizeof(set), &set) == 0;
#else
  return false;
#endif
}

/// Keeps the probe on the core it started on: every figure is one core's,
/// and a thread the kernel moves between cores mid-sweep reads its buffer
/// from another core's caches. Unpinned on this project's 2-core VM, the
/// probe measured L2 at 252-259 bytes/ns in some runs; pinned, 173-178
/// bytes/ns in every run (the L3's latency still varies with what other
/// cores do, 14-85 ns). Only on Linux; elsewhere the probe runs where the
/// scheduler puts it.
void stayOnThisCore() {
#ifdef __linux__
  int cpu = sched_getcpu();
  if (cpu >= 0 && !pinTo({cpu}))
    llvm::errs() << "dl-probe: warning: could not pin to CPU " << cpu
                 << "; figures may mix cores\n";
#endif
}

/// The CPUs this process may run on, before it pins itself (Linux only).
std::vector<int> allowedCpus() {
  std::vector<int> cpus;
#ifdef __linux__
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0)
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
      if (CPU_ISSET(cpu, &set))
        cpus.push_back(cpu);
#endif
  return cpus;
}

/// Writes `count` words at `data`, each `value`.
__attribute__((always_inline)) inline void
writeWordsBody(Word8 *data, size_t count, uint64_t value) {
  Word8 word = {value, value, value, value};
  for (size_t i = 0; i < count; ++i)
    data[i] = word;
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) void writeWordsAvx2(Word8 *data, size_t count,
                                                    uint64_t value) {
  writeWordsBody(data, count, value);
}
#endif

void writeWords(Word8 *data, size_t count, uint64_t value) {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx2"))
    return writeWordsAvx2(data, count, value);
#endif
  writeWordsBody(data, count, value);
}

/// Two threads meeting between the rounds of a measurement, as the threads
/// of a parallel region meet at its fork and join.
class SpinBarrier {
public:
  void wait() {
    unsigned generation = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) == 1) {
      arrived_.store(0, std::memory_order_relaxed);
      generation_.store(generation + 1, std::memory_order_release);
      return;
    }
    while (generation_.load(std::memory_order_acquire) == generation) {
    }
  }

private:
  std::atomic<unsigned> arrived_{0}, generation_{0};
};

/// The bytes of each thread's part in the near-write measurement: half of
/// the 256 KiB within which dl-decide-parallelism counts a thread's writes
/// as near the previous thread's (kNearWriteBytes).
constexpr size_t kNearPartBytes = 128 * 1024;
/// Where the second thread's part starts when it is not adjacent.
constexpr size_t kApartBytes = 4 << 20;

/// ns per round of two threads, on `cpus`, each writing its
/// kNearPartBytes part of `buffer` once a round between two barriers: the
/// second thread's part right after the first's (`adjacent`), or 4 MiB
/// away. The mean over the rounds of the slower thread's time, as a
/// parallel region waits for its slower thread.
double partWriteNs(Word8 *buffer, std::pair<int, int> cpus, bool adjacent,
                   int rounds) {
  size_t words = kNearPartBytes / sizeof(Word8);
  Word8 *parts[2] = {buffer,
                     buffer + (adjacent ? kNearPartBytes : kApartBytes) /
                                  sizeof(Word8)};
  SpinBarrier barrier;
  double nanos[2] = {0.0, 0.0};
  auto writer = [&](int index) {
    pinTo({index == 0 ? cpus.first : cpus.second});
    for (int round = 0; round < rounds; ++round) {
      barrier.wait();
      auto start = Clock::now();
      writeWords(parts[index], words, static_cast<uint64_t>(round));
      nanos[index] +=
          std::chrono::duration<double, std::nano>(Clock::now() - start)
              .count();
      barrier.wait();
    }
  };
  std::thread second(writer, 1);
  writer(0);
  second.join();
  return std::max(nanos[0], nanos[1]) / rounds;
}

/// What a core loses per cache line it writes next to another core's
/// writes (CacheModel::nearWriteLineNs): two threads each write 128 KiB,
/// the second thread's part right after the first's, against the same
/// with the parts 4 MiB apart; the median over 7 pairs of the difference
/// per line, at least 0. On this project's 2-core VM, writing two halves
/// of a 230 KB C cost the second thread 3 ns a line in some hours and
/// nothing in others (docs/heuristics.md, "Parallelism model").
std::optional<double> nearWriteLineNs(std::pair<int, int> cpus) {
  constexpr int kPairs = 7, kRounds = 1000;
  // Page-aligned, as the buffers of the ops are (a std::vector's elements
  // need not be aligned to a Word8's 32 bytes, which the stores assume).
  std::unique_ptr<Word8, decltype(&std::free)> buffer(
      static_cast<Word8 *>(
          std::aligned_alloc(4096, kApartBytes + kNearPartBytes)),
      &std::free);
  if (!buffer)
    return std::nullopt;
  partWriteNs(buffer.get(), cpus, true, kRounds / 10); // Warm up.
  std::vector<double> extra;
  for (int pair = 0; pair < kPairs; ++pair) {
    double near = partWriteNs(buffer.get(), cpus, true, kRounds);
    double apart = partWriteNs(buffer.get(), cpus, false, kRounds);
    extra.push_back((near - apart) / (kNearPartBytes / 64));
  }
  std::nth_element(extra.begin(), extra.begin() + kPairs / 2, extra.end());
  return std::max(0.0, extra[kPairs / 2]);
}

/// libomp's entry points that the generated code's parallel regions call
/// (the stable ABI every compiler's OpenMP lowering targets), looked up in
/// the OpenMP runtime the JIT loads: DL_OPENMP_LIBRARY, else the one CMake
/// found. The probe does not link it: a missing runtime only leaves the
/// region's cost unmeasured.
struct KmpIdent {
  int32_t reserved1, flags, reserved2, reserved3;
  const char *source;
};
using KmpMicrotask = void (*)(int32_t *, int32_t *, ...);
using KmpForkCall = void (*)(KmpIdent *, int32_t, KmpMicrotask, ...);
using KmpPushNumThreads = void (*)(KmpIdent *, int32_t, int32_t);
using KmpGlobalThreadNum = int32_t (*)(KmpIdent *);

void emptyRegion(int32_t *, int32_t *, ...) {}

/// ns of an empty parallel region of two threads on `cpus` (libomp's fork
/// and join: what a region costs before its work), the median of 7 runs of
/// 2000 regions, or none where libomp cannot be loaded.
std::optional<double> forkJoinNs(std::pair<int, int> cpus) {
  const char *override = std::getenv("DL_OPENMP_LIBRARY");
  std::string path = override ? override : DL_OPENMP_LIBRARY_PATH;
  std::string error;
  auto library =
      llvm::sys::DynamicLibrary::getPermanentLibrary(path.c_str(), &error);
  if (!library.isValid())
    return std::nullopt;
  auto forkCall = reinterpret_cast<KmpForkCall>(
      library.getAddressOfSymbol("__kmpc_fork_call"));
  auto pushNumThreads = reinterpret_cast<KmpPushNumThreads>(
      library.getAddressOfSymbol("__kmpc_push_num_threads"));
  auto globalThreadNum = reinterpret_cast<KmpGlobalThreadNum>(
      library.getAddressOfSymbol("__kmpc_global_thread_num"));
  if (!forkCall || !pushNumThreads || !globalThreadNum)
    return std::nullopt;
  static KmpIdent ident = {0, /*KMP_IDENT_KMPC*/ 2, 0, 0,
                           ";unknown;unknown;0;0;;"};
  auto regions = [&](int count) {
    int32_t thread = globalThreadNum(&ident);
    auto start = Clock::now();
    for (int i = 0; i < count; ++i) {
      pushNumThreads(&ident, thread, 2);
      forkCall(&ident, 0, emptyRegion);
    }
    return std::chrono::duration<double, std::nano>(Clock::now() - start)
               .count() /
           count;
  };
  // From a thread of its own that may run on both CPUs, as the generated
  // code's first thread may (the probe's is pinned to one).
  constexpr int kRuns = 7, kRegions = 2000;
  std::vector<double> times;
  std::thread master([&] {
    pinTo({cpus.first, cpus.second});
    regions(kRegions / 10); // Starts libomp's thread.
    for (int run = 0; run < kRuns; ++run)
      times.push_back(regions(kRegions));
  });
  master.join();
  std::nth_element(times.begin(), times.begin() + kRuns / 2, times.end());
  return times[kRuns / 2];
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "dl-probe: measure cache and memory bandwidths and latencies of this "
      "machine and write a machine file for dl-compile --machine-file\n");
  std::vector<int> cpus = allowedCpus();
  stayOnThisCore();
  dl::CacheModel model = dl::CacheModel::detect();
  uint64_t sink = 0;
  size_t memoryBytes = 8 * static_cast<size_t>(model.levels.back().bytes);
  model.memoryBandwidth = readBandwidth(memoryBytes, sink);
  model.memoryLatency = loadLatency(memoryBytes, sink);
  if (model.levels.size() > 1) {
    dl::CacheLevel &last = model.levels.back();
    int64_t reported = last.bytes;
    last.bytes = usableCapacity(model.levels[model.levels.size() - 2].bytes,
                                reported, model.memoryBandwidth, sink);
    llvm::errs() << llvm::formatv(
        "{0}: {1} bytes reported, {2} usable by one core ({0} serves at "
        "least {3}% of the reads, from their bandwidth)\n",
        last.name, reported, last.bytes,
        static_cast<int>(kMinServedFraction * 100));
  }
  for (dl::CacheLevel &level : model.levels) {
    level.bandwidth = readBandwidth(level.bytes / 2, sink);
    level.latency = loadLatency(level.bytes / 2, sink);
    llvm::errs() << llvm::formatv(
        "{0}: {1} bytes, read {2:f1} bytes/ns, latency {3:f2} ns\n", level.name,
        level.bytes, level.bandwidth, level.latency);
  }
  llvm::errs() << llvm::formatv(
      "memory: read {0:f1} bytes/ns, latency {1:f2} ns (checksum {2})\n",
      model.memoryBandwidth, model.memoryLatency, sink % 10);
  int here = cpus.empty() ? -1 : sched_getcpu();
  auto other = llvm::find_if(cpus, [&](int cpu) { return cpu != here; });
  if (here >= 0 && other != cpus.end()) {
    model.nearWriteLineNs = nearWriteLineNs({here, *other});
    model.forkJoinNs = forkJoinNs({here, *other});
    pinTo({here});
    llvm::errs() << llvm::formatv(
        "cores: {0}, {1} (CPUs {2} and {3})\n",
        model.nearWriteLineNs
            ? llvm::formatv("{0:f2} ns more a line written next to another "
                            "core's writes",
                            *model.nearWriteLineNs)
                  .str()
            : "writes next to another core's not measured (no buffer)",
        model.forkJoinNs ? llvm::formatv("{0:f0} ns an empty parallel region",
                                         *model.forkJoinNs)
                               .str()
                         : "parallel regions not measured (libomp not found)",
        here, *other);
  } else {
    llvm::errs() << "cores: not measured (one CPU to run on)\n";
  }

  std::error_code ec;
  llvm::raw_fd_ostream os(outputFilename, ec);
  if (ec) {
    llvm::errs() << "dl-probe: error: cannot write '" << outputFilename
                 << "': " << ec.message() << "\n";
    return 1;
  }
  os << model.toMachineFile() << "\n";
  return 0;
}
