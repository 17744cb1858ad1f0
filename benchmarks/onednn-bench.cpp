//===- onednn-bench.cpp - oneDNN reference timings ------------------------===//
//
// Times a single f32 convolution (grouped and depthwise included), matmul,
// inner product, pooling or batch normalization with oneDNN, or a ResNet
// bottleneck block's three convolutions, or measures the machine's fp32 FMA
// peak, and prints one line of JSON on stdout. oneDNN is the bar the dl
// compiler is compared against in the benchmark harness, and the peak mode
// gives the roofline both are measured against. This file holds the command
// line, the shared helpers (onednn-bench.h) and the peak; the primitives are
// in onednn-conv.cpp and onednn-layers.cpp.
//
// Usage:
//   onednn-bench conv N C K H W R S STRIDE PAD [options] [--groups G]
//       [--post-ops bias_relu|bn_relu|sum_relu|bn_train_relu]
//   onednn-bench gemm M N K [options] [--b-layout blocked|plain]
//   onednn-bench linear N IN OUT [options]
//   onednn-bench pool N C H W R S STRIDE PAD [--avg] [--layout plain|blocked]
//   onednn-bench bnorm N C H W [--training] [--relu] [--layout plain|blocked]
//   onednn-bench bottleneck N C MID H W [options]
//   onednn-bench peak [--threads T]
// Options: --threads T (default: all cores), --min-time SEC (0.5),
//          --min-reps R (5), --warmup W (2).
// Weights: a convolution's filter, an inner product's weights, and by default
// a matmul's B, are given in the layout oneDNN picks for the primitive (format
// tag `any`), reordered before the timing, as weights packed once for
// inference are. With `--b-layout plain` B is row-major (K x N) and whatever
// oneDNN does with it is timed. `--groups G` splits a convolution's channels
// into G groups (G = C = K: depthwise). `--post-ops` fuses into the
// convolution what dl's epilogues compute: a bias then ReLU (the
// convolution's bias), a per-channel scale and shift (batch normalization at
// inference, as binary post-ops) then ReLU, or the sum with the destination's
// previous contents (a residual) then ReLU; `bn_train_relu` runs the
// convolution (forward training) and then a batch normalization (training,
// fused ReLU) of its output, timed together. `linear` is a fully connected
// layer with a bias (PyTorch's nn.Linear: N rows of IN features to OUT).
// Pooling takes the maximum, or with `--avg` the average counting the
// padding (PyTorch's default), over R x S windows. A batch normalization
// (scale and shift, epsilon 1e-3) computes the batch statistics with
// `--training`, else uses given ones; `--relu` fuses oneDNN's ReLU. `--layout
// blocked` holds pooling's and batch normalization's activations in nChw16c
// (convolutions take oneDNN's pick). Memory-bound kinds (pool, linear,
// bnorm, depthwise conv) also report the bytes they must move per second.
// A bottleneck is ResNet's identity block at inference: 1x1 (C -> MID),
// 3x3 (padding 1), 1x1 (MID -> C) convolutions, each with batch
// normalization as binary scale and shift post-ops, ReLU after the first two
// and, after the third, the residual (the block's input, as a full-tensor
// binary add) then ReLU; activations in nChw16c, the three convolutions
// timed together.
//
// Threading: the Debian libdnnl build uses the OpenMP runtime (it links
// libgomp, and dnnl_config.h defines DNNL_CPU_RUNTIME as DNNL_RUNTIME_OMP), so
// the thread count is set with omp_set_num_threads before any primitive is
// created; this file must be compiled with -fopenmp. Other oneDNN runtimes
// (TBB, threadpool) are rejected at compile time and, in case the header and
// the library disagree, at run time.
//
//===----------------------------------------------------------------------===//

#include "onednn-bench.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <thread>

#if DNNL_CPU_RUNTIME != DNNL_RUNTIME_OMP
#error "onednn-bench requires a oneDNN build with the OpenMP CPU runtime"
#endif

namespace onednn_bench {
namespace {

constexpr long kMaxReps = 100000;

/// Largest accepted dimension, padding or thread count; keeps index and FLOP
/// arithmetic far from overflow.
constexpr long kMaxValue = 1 << 20;

/// Largest accepted tensor, in elements.
constexpr double kMaxElements = 1ull << 32;

} // namespace

long parseInt(const std::string &text, const char *what, long minValue) {
  char *end = nullptr;
  errno = 0;
  long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno != 0 || value < minValue ||
      value > kMaxValue)
    throw UsageError(std::string("invalid ") + what + ": '" + text +
                     "' (expected an integer in [" + std::to_string(minValue) +
                     ", " + std::to_string(kMaxValue) + "])");
  return value;
}

void checkElements(std::initializer_list<double> dims, const char *what) {
  double elements = 1;
  for (double dim : dims)
    elements *= dim;
  if (elements > kMaxElements)
    throw UsageError(std::string(what) + " has too many elements");
}

void fillRandom(std::vector<float> &data, uint32_t seed) {
  uint32_t state = seed;
  for (float &value : data) {
    state = state * 1664525u + 1013904223u;
    value = static_cast<float>(state >> 8) / static_cast<float>(1u << 23) - 1;
  }
}

dnnl::memory toPrimitiveLayout(dnnl::memory user,
                               const dnnl::memory::desc &desc,
                               const dnnl::engine &engine,
                               dnnl::stream &stream) {
  if (user.get_desc() == desc)
    return user;
  dnnl::memory converted(desc, engine);
  dnnl::reorder(user, converted).execute(stream, user, converted);
  stream.wait();
  return converted;
}

double checksum(const dnnl::primitive &prim,
                const std::unordered_map<int, dnnl::memory> &args,
                dnnl::memory dst, dnnl::memory plainDst, dnnl::stream &stream) {
  prim.execute(stream, args);
  stream.wait();
  if (dst.get_desc() != plainDst.get_desc()) {
    dnnl::reorder(dst, plainDst).execute(stream, dst, plainDst);
    stream.wait();
  } else
    plainDst = dst;
  const float *data = static_cast<const float *>(plainDst.get_data_handle());
  size_t count = plainDst.get_desc().get_size() / sizeof(float);
  double sum = 0;
  for (size_t i = 0; i < count; ++i)
    sum += data[i];
  return sum;
}

Result timePrimitives(const std::vector<PrimitiveRun> &runs,
                      dnnl::stream &stream, const Options &opts) {
  auto execute = [&] {
    for (const auto &[prim, args] : runs)
      prim.execute(stream, args);
    stream.wait();
  };
  for (long i = 0; i < opts.warmup; ++i)
    execute();
  std::vector<double> times;
  double total = 0;
  while (static_cast<long>(times.size()) < kMaxReps &&
         (static_cast<long>(times.size()) < opts.minReps ||
          total < opts.minTime)) {
    auto start = Clock::now();
    execute();
    double seconds =
        std::chrono::duration<double>(Clock::now() - start).count();
    times.push_back(seconds);
    total += seconds;
  }
  std::sort(times.begin(), times.end());
  size_t n = times.size();
  double median = n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
  return {median * 1e3, static_cast<long>(n)};
}

Result timePrimitive(const dnnl::primitive &prim,
                     const std::unordered_map<int, dnnl::memory> &args,
                     dnnl::stream &stream, const Options &opts) {
  return timePrimitives({{prim, args}}, stream, opts);
}

void printResult(const char *kind, const Result &result, double flops,
                 int threads, const char *impl, double sum, double bytes) {
  std::printf("{\"system\":\"onednn\",\"kind\":\"%s\",\"median_ms\":%.6g,"
              "\"gflops\":%.6g,",
              kind, result.medianMs, flops / (result.medianMs * 1e6));
  if (bytes > 0)
    std::printf("\"gbytes_per_s\":%.6g,", bytes / (result.medianMs * 1e6));
  std::printf("\"reps\":%ld,\"threads\":%d,\"impl\":\"%s\","
              "\"checksum\":%.9g}\n",
              result.reps, threads, impl, sum);
}

namespace {

double parseDouble(const std::string &text, const char *what) {
  char *end = nullptr;
  errno = 0;
  double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno != 0 || !(value >= 0))
    throw UsageError(std::string("invalid ") + what + ": '" + text +
                     "' (expected a number >= 0)");
  return value;
}

/// The options each mode accepts besides the timing options (all modes but
/// peak) and --threads (all modes).
const std::map<std::string, std::set<std::string>> kModeOptions = {
    {"conv", {"--post-ops", "--groups"}},
    {"gemm", {"--b-layout"}},
    {"linear", {}},
    {"pool", {"--avg", "--layout"}},
    {"bnorm", {"--training", "--relu", "--layout"}},
    {"bottleneck", {}},
    {"peak", {}},
};

bool isFlag(const std::string &option) {
  return option == "--training" || option == "--relu" || option == "--avg";
}

/// Checks \p value against \p allowed; returns it.
const std::string &checkChoice(const std::string &option,
                               const std::string &value,
                               std::initializer_list<const char *> allowed) {
  std::string list;
  for (const char *choice : allowed) {
    if (value == choice)
      return value;
    list += (list.empty() ? "" : ", ") + std::string(choice);
  }
  throw UsageError("invalid " + option + ": '" + value + "' (expected " + list +
                   ")");
}

/// Splits \p args of \p mode into positional arguments (returned) and
/// options (stored in \p opts).
std::vector<std::string> parseArgs(const std::string &mode,
                                   const std::vector<std::string> &args,
                                   Options &opts) {
  const std::set<std::string> &modeOptions = kModeOptions.at(mode);
  bool timing = mode != "peak";
  std::vector<std::string> positional;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &arg = args[i];
    if (arg.rfind("--", 0) != 0) {
      positional.push_back(arg);
      continue;
    }
    bool timingOption =
        arg == "--min-time" || arg == "--min-reps" || arg == "--warmup";
    if (!(arg == "--threads" || (timing && timingOption) ||
          modeOptions.count(arg))) {
      bool known = arg == "--threads" || timingOption;
      for (const auto &[other, options] : kModeOptions)
        known |= options.count(arg) > 0;
      throw UsageError((known ? "option '" + arg + "' does not apply to " + mode
                              : "unknown option '" + arg + "'"));
    }
    opts.given.insert(arg);
    if (isFlag(arg)) {
      (arg == "--training" ? opts.training
       : arg == "--relu"   ? opts.relu
                           : opts.average) = true;
      continue;
    }
    if (i + 1 == args.size())
      throw UsageError("missing value for '" + arg + "'");
    const std::string &value = args[++i];
    if (arg == "--threads")
      opts.threads = static_cast<int>(parseInt(value, "--threads", 1));
    else if (arg == "--min-time")
      opts.minTime = parseDouble(value, "--min-time");
    else if (arg == "--min-reps")
      opts.minReps = parseInt(value, "--min-reps", 1);
    else if (arg == "--warmup")
      opts.warmup = parseInt(value, "--warmup", 0);
    else if (arg == "--groups")
      opts.groups = parseInt(value, "--groups", 1);
    else if (arg == "--b-layout")
      opts.plainB = checkChoice(arg, value, {"blocked", "plain"}) == "plain";
    else if (arg == "--layout")
      opts.blockedLayout =
          checkChoice(arg, value, {"plain", "blocked"}) == "blocked";
    else
      opts.postOps = checkChoice(
          arg, value, {"bias_relu", "bn_relu", "sum_relu", "bn_train_relu"});
  }
  return positional;
}

constexpr double kPeakSeconds = 0.3;
constexpr long kPeakChunk = 1 << 20;

/// Runs `Chains` independent FMA chains on `Vec` (a GCC vector of floats)
/// for about kPeakSeconds; returns the number of vector FMAs per second and
/// stores a value derived from the accumulators in \p sink so the loop
/// cannot be removed. Inlined into the ISA-specific entry points below, whose
/// target attributes make `acc * mul + add` one FMA instruction (GNU mode
/// contracts floating-point expressions).
template <typename Vec, int Chains>
__attribute__((always_inline)) inline double fmaRate(float *sink) {
  Vec acc[Chains];
#pragma GCC unroll 16
  for (int i = 0; i < Chains; ++i)
    acc[i] = Vec{} + static_cast<float>(i);
  const Vec mul = Vec{} + 0.999999f;
  const Vec add = Vec{} + 1e-6f;
  long fmas = 0;
  auto start = Clock::now();
  double elapsed = 0;
  do {
    for (long it = 0; it < kPeakChunk; ++it) {
      // Fully unrolled so that the chains live in registers; the empty asm
      // stops the compiler from simplifying them.
#pragma GCC unroll 16
      for (int i = 0; i < Chains; ++i) {
        acc[i] = acc[i] * mul + add;
        __asm__ volatile("" : "+v"(acc[i]));
      }
    }
    fmas += Chains * kPeakChunk;
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  } while (elapsed < kPeakSeconds);
  Vec total = acc[0];
#pragma GCC unroll 16
  for (int i = 1; i < Chains; ++i)
    total += acc[i];
  *sink = total[0];
  return fmas / elapsed;
}

using Float8 = float __attribute__((vector_size(32)));
using Float16 = float __attribute__((vector_size(64)));

/// 12 chains of 8-wide FMAs (AVX2 has 16 vector registers).
__attribute__((target("avx2,fma"))) double fmaRateAvx2(float *sink) {
  return fmaRate<Float8, 12>(sink);
}

/// 16 chains of 16-wide FMAs.
__attribute__((target("avx512f"))) double fmaRateAvx512(float *sink) {
  return fmaRate<Float16, 16>(sink);
}

} // namespace

void runPeak(const std::vector<std::string> &pos, const Options &opts) {
  if (!pos.empty())
    throw UsageError("peak takes no positional arguments");
  bool avx512 = __builtin_cpu_supports("avx512f");
  if (!avx512 &&
      !(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")))
    throw std::runtime_error("peak mode needs AVX2+FMA or AVX-512");
  int lanes = avx512 ? 16 : 8;

  std::vector<double> rates(opts.threads);
  std::vector<float> sinks(opts.threads);
  std::atomic<int> ready{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < opts.threads; ++t)
    workers.emplace_back([&, t] {
      // Start all threads together so that they really run concurrently.
      ready.fetch_add(1);
      while (ready.load() < opts.threads)
        std::this_thread::yield();
      rates[t] = avx512 ? fmaRateAvx512(&sinks[t]) : fmaRateAvx2(&sinks[t]);
    });
  double vectorFmas = 0;
  for (int t = 0; t < opts.threads; ++t) {
    workers[t].join();
    vectorFmas += rates[t];
  }
  std::printf("{\"system\":\"peak\",\"gflops\":%.6g,\"threads\":%d,"
              "\"isa\":\"%s\"}\n",
              2.0 * lanes * vectorFmas / 1e9, opts.threads,
              avx512 ? "avx512" : "avx2");
}

namespace {

void printUsage() {
  std::fprintf(
      stderr,
      "usage:\n"
      "  onednn-bench conv N C K H W R S STRIDE PAD [options] [--groups G]\n"
      "      [--post-ops bias_relu|bn_relu|sum_relu|bn_train_relu]\n"
      "  onednn-bench gemm M N K [options] [--b-layout blocked|plain]\n"
      "  onednn-bench linear N IN OUT [options]\n"
      "  onednn-bench pool N C H W R S STRIDE PAD [options] [--avg]\n"
      "      [--layout plain|blocked]\n"
      "  onednn-bench bnorm N C H W [--training] [--relu] "
      "[--layout plain|blocked]\n"
      "  onednn-bench bottleneck N C MID H W [options]\n"
      "  onednn-bench peak [--threads T]\n"
      "options: --threads T, --min-time SEC, --min-reps R, --warmup W\n"
      "--b-layout: B in oneDNN's layout, reordered untimed (blocked, the\n"
      "  default), or row-major and handled in the timed run (plain)\n");
}

} // namespace
} // namespace onednn_bench

int main(int argc, char **argv) {
  using namespace onednn_bench;
  if (argc < 2) {
    printUsage();
    return 1;
  }
  std::string mode = argv[1];
  try {
    if (!kModeOptions.count(mode))
      throw UsageError("unknown mode '" + mode + "'");
    Options opts;
    opts.threads =
        static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    std::vector<std::string> pos =
        parseArgs(mode, std::vector<std::string>(argv + 2, argv + argc), opts);
    if (mode == "peak") {
      runPeak(pos, opts);
      return 0;
    }
    if (dnnl::version()->cpu_runtime != DNNL_RUNTIME_OMP) {
      std::fprintf(stderr, "error: libdnnl was not built with OpenMP\n");
      return 1;
    }
    // oneDNN sizes its thread pool from the OpenMP setting at primitive
    // creation, so this must precede any primitive descriptor.
    omp_set_num_threads(opts.threads);
    using Runner = void (*)(const std::vector<std::string> &, const Options &);
    const std::map<std::string, Runner> runners = {
        {"conv", runConv},           {"gemm", runGemm},
        {"linear", runInnerProduct}, {"pool", runPool},
        {"bnorm", runBatchNorm},     {"bottleneck", runBottleneck}};
    runners.at(mode)(pos, opts);
    return 0;
  } catch (const UsageError &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    printUsage();
  } catch (const dnnl::error &e) {
    std::fprintf(stderr, "error: oneDNN: %s (status %d)\n", e.what(),
                 static_cast<int>(e.status));
  } catch (const std::exception &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
  }
  return 1;
}
