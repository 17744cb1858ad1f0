//===- onednn-bench.h - oneDNN reference timings, shared parts --*- C++ -*-===//
//
// What the modes of onednn-bench share: the parsed command line, argument
// checks, deterministic data, the timing loop and the JSON result line. Each
// mode (onednn-conv.cpp, onednn-layers.cpp) builds its primitives and times
// them with these.
//
//===----------------------------------------------------------------------===//

#ifndef DL_BENCHMARKS_ONEDNN_BENCH_H
#define DL_BENCHMARKS_ONEDNN_BENCH_H

#include <dnnl.hpp>

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace onednn_bench {

using Clock = std::chrono::steady_clock;

/// Raised for invalid command lines; reported on stderr with exit code 1.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Options {
  int threads = 0;
  double minTime = 0.5;
  long minReps = 5;
  long warmup = 2;
  /// A matmul's B in oneDNN's blocked layout (reordered untimed), or plain.
  bool plainB = false;
  /// Batch normalization: batch statistics, fused ReLU.
  bool training = false;
  bool relu = false;
  /// Batch normalization and pooling: activations in nChw16c, else nchw.
  bool blockedLayout = false;
  /// Convolution post-ops: empty, bias_relu, bn_relu or sum_relu.
  std::string postOps;
  /// Convolution groups (the channels for a depthwise convolution).
  long groups = 1;
  /// Pooling: average (padding counted, as PyTorch's default) or maximum.
  bool average = false;
  /// The options given on the command line, for the per-mode checks.
  std::set<std::string> given;
};

struct Result {
  double medianMs = 0;
  long reps = 0;
};

using dim = dnnl::memory::dim;
using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;
using PrimitiveRun =
    std::pair<dnnl::primitive, std::unordered_map<int, dnnl::memory>>;

/// Parses an integer in [minValue, kMaxValue]; throws UsageError naming
/// \p what otherwise.
long parseInt(const std::string &text, const char *what, long minValue);

/// Throws unless a tensor with dimensions \p dims fits within the largest
/// accepted tensor.
void checkElements(std::initializer_list<double> dims, const char *what);

/// Fills \p data with deterministic pseudo-random values in [-1, 1].
void fillRandom(std::vector<float> &data, uint32_t seed);

/// Returns a memory object in \p desc holding \p user, reordering once if the
/// primitive chose a layout different from the user's plain one.
dnnl::memory toPrimitiveLayout(dnnl::memory user,
                               const dnnl::memory::desc &desc,
                               const dnnl::engine &engine,
                               dnnl::stream &stream);

/// Runs \p prim once, reorders its output into \p plainDst and returns the sum
/// of the output elements.
double checksum(const dnnl::primitive &prim,
                const std::unordered_map<int, dnnl::memory> &args,
                dnnl::memory dst, dnnl::memory plainDst, dnnl::stream &stream);

/// Times \p runs, executed one after the other: warmup runs, then timed
/// runs until both the minimum number of repetitions and the minimum total
/// time are reached.
Result timePrimitives(const std::vector<PrimitiveRun> &runs,
                      dnnl::stream &stream, const Options &opts);

Result timePrimitive(const dnnl::primitive &prim,
                     const std::unordered_map<int, dnnl::memory> &args,
                     dnnl::stream &stream, const Options &opts);

/// Prints the result line; \p flops (or, for memory-bound kinds, the bytes
/// in \p bytes when non-zero) give the rates.
void printResult(const char *kind, const Result &result, double flops,
                 int threads, const char *impl, double sum, double bytes = 0);

// The modes; each takes its positional arguments.
void runConv(const std::vector<std::string> &pos, const Options &opts);
void runBottleneck(const std::vector<std::string> &pos, const Options &opts);
void runGemm(const std::vector<std::string> &pos, const Options &opts);
void runBatchNorm(const std::vector<std::string> &pos, const Options &opts);
void runPool(const std::vector<std::string> &pos, const Options &opts);
void runInnerProduct(const std::vector<std::string> &pos, const Options &opts);
void runPeak(const std::vector<std::string> &pos, const Options &opts);

} // namespace onednn_bench

#endif // DL_BENCHMARKS_ONEDNN_BENCH_H
