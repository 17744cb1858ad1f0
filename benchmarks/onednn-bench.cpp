//===- onednn-bench.cpp - oneDNN reference timings ------------------------===//
//
// Times a single f32 convolution, matmul or batch normalization with oneDNN,
// or a ResNet bottleneck block's three convolutions, or measures the
// machine's fp32 FMA peak, and prints one line of JSON on stdout. oneDNN is
// the bar the dl compiler is compared against in the benchmark harness, and
// the peak mode gives the roofline both are measured against.
//
// Usage:
//   onednn-bench conv N C K H W R S STRIDE PAD [options]
//       [--post-ops bias_relu|bn_relu|sum_relu|bn_train_relu]
//   onednn-bench gemm M N K [options] [--b-layout blocked|plain]
//   onednn-bench bnorm N C H W [--training] [--relu] [--layout plain|blocked]
//   onednn-bench bottleneck N C MID H W [options]
//   onednn-bench peak [--threads T]
// Options: --threads T (default: all cores), --min-time SEC (0.5),
//          --min-reps R (5), --warmup W (2).
// Weights: a convolution's filter, and by default a matmul's B, are given in
// the layout oneDNN picks for the primitive (format tag `any`), reordered
// before the timing, as weights packed once for inference are. With
// `--b-layout plain` B is row-major (K x N) and whatever oneDNN does with it
// is timed. `--post-ops` fuses into the convolution what dl's epilogues
// compute: a bias then ReLU (the convolution's bias), a per-channel scale and
// shift (batch normalization at inference, as binary post-ops) then ReLU, or
// the sum with the destination's previous contents (a residual) then ReLU;
// `bn_train_relu` runs the convolution (forward training) and then a batch
// normalization (training, fused ReLU) of its output, timed together.
// A batch normalization (scale and shift, epsilon 1e-3) computes
// the batch statistics with `--training`, else uses given ones; `--relu`
// fuses oneDNN's ReLU; `--layout blocked` holds the activations in nChw16c.
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

#include <dnnl.hpp>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#if DNNL_CPU_RUNTIME != DNNL_RUNTIME_OMP
#error "onednn-bench requires a oneDNN build with the OpenMP CPU runtime"
#endif

namespace {

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
  bool bLayoutGiven = false;
  /// Batch normalization: batch statistics, fused ReLU, nChw16c layout.
  bool training = false;
  bool relu = false;
  bool blockedLayout = false;
  bool bnOptionGiven = false;
  /// Convolution post-ops: empty, bias_relu, bn_relu or sum_relu.
  std::string postOps;
};

struct Result {
  double medianMs = 0;
  long reps = 0;
};

constexpr long kMaxReps = 100000;

/// Largest accepted dimension, padding or thread count; keeps index and FLOP
/// arithmetic far from overflow.
constexpr long kMaxValue = 1 << 20;

/// Largest accepted tensor, in elements.
constexpr double kMaxElements = 1ull << 32;

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

/// Throws unless a tensor with dimensions \p dims fits within kMaxElements.
void checkElements(std::initializer_list<double> dims, const char *what) {
  double elements = 1;
  for (double dim : dims)
    elements *= dim;
  if (elements > kMaxElements)
    throw UsageError(std::string(what) + " has too many elements");
}

double parseDouble(const std::string &text, const char *what) {
  char *end = nullptr;
  errno = 0;
  double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno != 0 || !(value >= 0))
    throw UsageError(std::string("invalid ") + what + ": '" + text +
                     "' (expected a number >= 0)");
  return value;
}

/// Splits \p args into positional arguments (returned) and options (stored in
/// \p opts). Only --threads is accepted when \p timingOptions is false.
std::vector<std::string> parseArgs(const std::vector<std::string> &args,
                                   Options &opts, bool timingOptions) {
  std::vector<std::string> positional;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &arg = args[i];
    if (arg.rfind("--", 0) != 0) {
      positional.push_back(arg);
      continue;
    }
    if (arg == "--training" || arg == "--relu") {
      if (!timingOptions)
        throw UsageError("unknown option '" + arg + "'");
      (arg == "--training" ? opts.training : opts.relu) = true;
      opts.bnOptionGiven = true;
      continue;
    }
    bool known =
        arg == "--threads" ||
        (timingOptions && (arg == "--layout" || arg == "--post-ops")) ||
        (timingOptions && (arg == "--min-time" || arg == "--min-reps" ||
                           arg == "--warmup" || arg == "--b-layout"));
    if (!known)
      throw UsageError("unknown option '" + arg + "'");
    if (i + 1 == args.size())
      throw UsageError("missing value for '" + arg + "'");
    const std::string &value = args[++i];
    if (arg == "--threads")
      opts.threads = static_cast<int>(parseInt(value, "--threads", 1));
    else if (arg == "--min-time")
      opts.minTime = parseDouble(value, "--min-time");
    else if (arg == "--min-reps")
      opts.minReps = parseInt(value, "--min-reps", 1);
    else if (arg == "--b-layout") {
      if (value != "blocked" && value != "plain")
        throw UsageError("invalid --b-layout: '" + value +
                         "' (expected blocked or plain)");
      opts.plainB = value == "plain";
      opts.bLayoutGiven = true;
    } else if (arg == "--post-ops") {
      if (value != "bias_relu" && value != "bn_relu" && value != "sum_relu" &&
          value != "bn_train_relu")
        throw UsageError("invalid --post-ops: '" + value +
                         "' (expected bias_relu, bn_relu, sum_relu or "
                         "bn_train_relu)");
      opts.postOps = value;
    } else if (arg == "--layout") {
      if (value != "blocked" && value != "plain")
        throw UsageError("invalid --layout: '" + value +
                         "' (expected blocked or plain)");
      opts.blockedLayout = value == "blocked";
      opts.bnOptionGiven = true;
    } else
      opts.warmup = parseInt(value, "--warmup", 0);
  }
  return positional;
}

/// Fills \p data with deterministic pseudo-random values in [-1, 1].
void fillRandom(std::vector<float> &data, uint32_t seed) {
  uint32_t state = seed;
  for (float &value : data) {
    state = state * 1664525u + 1013904223u;
    value = static_cast<float>(state >> 8) / static_cast<float>(1u << 23) - 1;
  }
}

/// Returns a memory object in \p desc holding \p user, reordering once if the
/// primitive chose a layout different from the user's plain one.
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

/// Runs \p prim once, reorders its output into \p plainDst and returns the sum
/// of the output elements.
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

using PrimitiveRun =
    std::pair<dnnl::primitive, std::unordered_map<int, dnnl::memory>>;

/// Times \p runs, executed one after the other: warmup runs, then timed
/// runs until both the minimum number of repetitions and the minimum total
/// time are reached.
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
                 int threads, const char *impl, double sum) {
  std::printf("{\"system\":\"onednn\",\"kind\":\"%s\",\"median_ms\":%.6g,"
              "\"gflops\":%.6g,\"reps\":%ld,\"threads\":%d,\"impl\":\"%s\","
              "\"checksum\":%.9g}\n",
              kind, result.medianMs, flops / (result.medianMs * 1e6),
              result.reps, threads, impl, sum);
}

/// A convolution's primitive descriptor: the direct algorithm, or oneDNN's
/// pick where it has no direct implementation for the shape.
dnnl::convolution_forward::primitive_desc
makeConvPd(const dnnl::engine &engine, dnnl::prop_kind prop,
           const dnnl::memory::desc &src, const dnnl::memory::desc &wei,
           const dnnl::memory::desc *bias, const dnnl::memory::desc &dst,
           dnnl::memory::dim stride, dnnl::memory::dim pad,
           const dnnl::primitive_attr &attr) {
  auto make = [&](dnnl::algorithm alg) {
    auto desc = bias ? dnnl::convolution_forward::desc(
                           prop, alg, src, wei, *bias, dst, {stride, stride},
                           {pad, pad}, {pad, pad})
                     : dnnl::convolution_forward::desc(prop, alg, src, wei, dst,
                                                       {stride, stride},
                                                       {pad, pad}, {pad, pad});
    return dnnl::convolution_forward::primitive_desc(desc, attr, engine);
  };
  try {
    return make(dnnl::algorithm::convolution_direct);
  } catch (const dnnl::error &e) {
    if (e.status != dnnl_unimplemented)
      throw;
    return make(dnnl::algorithm::convolution_auto);
  }
}

void runConv(const std::vector<std::string> &pos, const Options &opts) {
  if (pos.size() != 9)
    throw UsageError("conv expects N C K H W R S STRIDE PAD");
  using dim = dnnl::memory::dim;
  dim n = parseInt(pos[0], "N", 1), c = parseInt(pos[1], "C", 1),
      k = parseInt(pos[2], "K", 1), h = parseInt(pos[3], "H", 1),
      w = parseInt(pos[4], "W", 1), r = parseInt(pos[5], "R", 1),
      s = parseInt(pos[6], "S", 1), stride = parseInt(pos[7], "STRIDE", 1),
      pad = parseInt(pos[8], "PAD", 0);
  if (h + 2 * pad < r || w + 2 * pad < s)
    throw UsageError("filter larger than the padded input");
  // Outputs that see only padding are left unwritten by some oneDNN
  // implementations (the checksum becomes NaN), so such shapes are refused.
  if (pad >= r || pad >= s)
    throw UsageError("PAD must be smaller than the filter");
  dim oh = (h + 2 * pad - r) / stride + 1, ow = (w + 2 * pad - s) / stride + 1;
  checkElements({double(n), double(c), double(h), double(w)}, "input");
  checkElements({double(k), double(c), double(r), double(s)}, "weights");
  checkElements({double(n), double(k), double(oh), double(ow)}, "output");

  using tag = dnnl::memory::format_tag;
  using dt = dnnl::memory::data_type;
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);

  dnnl::memory::desc srcAny({n, c, h, w}, dt::f32, tag::any);
  dnnl::memory::desc weiAny({k, c, r, s}, dt::f32, tag::any);
  dnnl::memory::desc dstAny({n, k, oh, ow}, dt::f32, tag::any);
  dnnl::memory::desc vectorDesc({k}, dt::f32, tag::a);
  dnnl::memory::desc perChannelDesc({1, k, 1, 1}, dt::f32, tag::nchw);
  bool withBias = opts.postOps == "bias_relu";
  dnnl::post_ops postOps;
  if (opts.postOps == "bn_relu") {
    postOps.append_binary(dnnl::algorithm::binary_mul, perChannelDesc);
    postOps.append_binary(dnnl::algorithm::binary_add, perChannelDesc);
  } else if (opts.postOps == "sum_relu") {
    postOps.append_sum(1.0f);
  }
  // bn_train_relu: a separate batch normalization primitive follows.
  bool trainingBatchNorm = opts.postOps == "bn_train_relu";
  if (!opts.postOps.empty() && !trainingBatchNorm)
    postOps.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
  dnnl::primitive_attr attr;
  attr.set_post_ops(postOps);
  dnnl::convolution_forward::primitive_desc pd =
      makeConvPd(engine,
                 trainingBatchNorm ? dnnl::prop_kind::forward_training
                                   : dnnl::prop_kind::forward_inference,
                 srcAny, weiAny, withBias ? &vectorDesc : nullptr, dstAny,
                 stride, pad, attr);

  std::vector<float> srcData(n * c * h * w), weiData(k * c * r * s);
  fillRandom(srcData, 1);
  fillRandom(weiData, 2);
  dnnl::memory userSrc({{n, c, h, w}, dt::f32, tag::nchw}, engine,
                       srcData.data());
  dnnl::memory userWei({{k, c, r, s}, dt::f32, tag::oihw}, engine,
                       weiData.data());
  dnnl::memory plainDst({{n, k, oh, ow}, dt::f32, tag::nchw}, engine);

  dnnl::memory src = toPrimitiveLayout(userSrc, pd.src_desc(), engine, stream);
  dnnl::memory wei =
      toPrimitiveLayout(userWei, pd.weights_desc(), engine, stream);
  dnnl::memory dst(pd.dst_desc(), engine);
  dnnl::convolution_forward conv(pd);
  std::unordered_map<int, dnnl::memory> args = {
      {DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei}, {DNNL_ARG_DST, dst}};
  // Per-channel operands of the post-ops: the bias, or the scale and shift.
  std::vector<float> bias(k), scale(k), shift(k);
  fillRandom(bias, 3);
  fillRandom(scale, 4);
  fillRandom(shift, 5);
  if (withBias)
    args[DNNL_ARG_BIAS] = dnnl::memory(vectorDesc, engine, bias.data());
  if (opts.postOps == "bn_relu") {
    args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1] =
        dnnl::memory(perChannelDesc, engine, scale.data());
    args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(1) | DNNL_ARG_SRC_1] =
        dnnl::memory(perChannelDesc, engine, shift.data());
  }
  if (opts.postOps == "sum_relu") {
    // The residual: the destination's contents before each run.
    std::vector<float> residual(n * k * oh * ow);
    fillRandom(residual, 6);
    dnnl::memory userResidual({{n, k, oh, ow}, dt::f32, tag::nchw}, engine,
                              residual.data());
    dnnl::reorder(userResidual, dst).execute(stream, userResidual, dst);
    stream.wait();
  }

  double flops = 2.0 * n * k * oh * ow * c * r * s;
  if (trainingBatchNorm) {
    // Batch normalization (training, fused ReLU) of the convolution's
    // output, in the layout the convolution chose.
    dnnl::batch_normalization_forward::primitive_desc bnPd(
        dnnl::batch_normalization_forward::desc(
            dnnl::prop_kind::forward_training, pd.dst_desc(), 1e-3f,
            dnnl::normalization_flags::use_scale |
                dnnl::normalization_flags::use_shift |
                dnnl::normalization_flags::fuse_norm_relu),
        engine);
    dnnl::memory bnDst(pd.dst_desc(), engine);
    std::unordered_map<int, dnnl::memory> bnArgs = {
        {DNNL_ARG_SRC, dst},
        {DNNL_ARG_DST, bnDst},
        {DNNL_ARG_SCALE, dnnl::memory(vectorDesc, engine, scale.data())},
        {DNNL_ARG_SHIFT, dnnl::memory(vectorDesc, engine, shift.data())},
        {DNNL_ARG_MEAN, dnnl::memory(vectorDesc, engine)},
        {DNNL_ARG_VARIANCE, dnnl::memory(vectorDesc, engine)},
        {DNNL_ARG_WORKSPACE, dnnl::memory(bnPd.workspace_desc(), engine)}};
    dnnl::batch_normalization_forward bnorm(bnPd);
    conv.execute(stream, args);
    double sum = checksum(bnorm, bnArgs, bnDst, plainDst, stream);
    Result result =
        timePrimitives({{conv, args}, {bnorm, bnArgs}}, stream, opts);
    std::string impl =
        std::string(pd.impl_info_str()) + "+" + bnPd.impl_info_str();
    printResult("conv", result, flops + 8.0 * n * k * oh * ow, opts.threads,
                impl.c_str(), sum);
    return;
  }
  double sum = checksum(conv, args, dst, plainDst, stream);
  Result result = timePrimitive(conv, args, stream, opts);
  printResult("conv", result, flops, opts.threads, pd.impl_info_str(), sum);
}

void runGemm(const std::vector<std::string> &pos, const Options &opts) {
  if (pos.size() != 3)
    throw UsageError("gemm expects M N K");
  using dim = dnnl::memory::dim;
  dim m = parseInt(pos[0], "M", 1), n = parseInt(pos[1], "N", 1),
      k = parseInt(pos[2], "K", 1);
  checkElements({double(m), double(k)}, "A");
  checkElements({double(k), double(n)}, "B");
  checkElements({double(m), double(n)}, "C");

  using tag = dnnl::memory::format_tag;
  using dt = dnnl::memory::data_type;
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);

  dnnl::memory::desc aDesc({m, k}, dt::f32, tag::ab);
  dnnl::memory::desc bAny({k, n}, dt::f32, opts.plainB ? tag::ab : tag::any);
  dnnl::memory::desc cDesc({m, n}, dt::f32, tag::ab);
  dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(aDesc, bAny, cDesc),
                                  engine);

  std::vector<float> aData(m * k), bData(k * n);
  fillRandom(aData, 1);
  fillRandom(bData, 2);
  dnnl::memory a(aDesc, engine, aData.data());
  dnnl::memory userB({{k, n}, dt::f32, tag::ab}, engine, bData.data());
  dnnl::memory b = toPrimitiveLayout(userB, pd.weights_desc(), engine, stream);
  dnnl::memory c(cDesc, engine);
  dnnl::matmul matmul(pd);
  std::unordered_map<int, dnnl::memory> args = {
      {DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, c}};

  double sum = checksum(matmul, args, c, c, stream);
  Result result = timePrimitive(matmul, args, stream, opts);
  double flops = 2.0 * m * n * k;
  printResult("gemm", result, flops, opts.threads, pd.impl_info_str(), sum);
}

void runBottleneck(const std::vector<std::string> &pos, const Options &opts) {
  if (pos.size() != 5)
    throw UsageError("bottleneck expects N C MID H W");
  using dim = dnnl::memory::dim;
  dim n = parseInt(pos[0], "N", 1), c = parseInt(pos[1], "C", 1),
      mid = parseInt(pos[2], "MID", 1), h = parseInt(pos[3], "H", 1),
      w = parseInt(pos[4], "W", 1);
  if (c % 16 != 0 || mid % 16 != 0)
    throw UsageError("bottleneck needs C and MID multiples of 16");
  checkElements({double(n), double(c), double(h), double(w)}, "input");
  checkElements({double(c), double(mid), 9.0}, "weights");

  using tag = dnnl::memory::format_tag;
  using dt = dnnl::memory::data_type;
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  dnnl::memory::desc inDesc({n, c, h, w}, dt::f32, tag::nChw16c);
  dnnl::memory::desc midDesc({n, mid, h, w}, dt::f32, tag::nChw16c);
  dnnl::memory in(inDesc, engine), t1(midDesc, engine), t2(midDesc, engine),
      out(inDesc, engine);
  {
    std::vector<float> data(n * c * h * w);
    fillRandom(data, 1);
    dnnl::memory user({{n, c, h, w}, dt::f32, tag::nchw}, engine, data.data());
    dnnl::reorder(user, in).execute(stream, user, in);
    stream.wait();
  }

  // One convolution of the block: weights reordered to oneDNN's pick,
  // batch normalization's scale and shift, then the residual, then ReLU.
  std::vector<std::vector<float>> hostData;
  std::vector<PrimitiveRun> runs;
  std::string impl;
  double flops = 0;
  auto addConv = [&](dnnl::memory src, dnnl::memory dst, dim r, dim pad,
                     bool residual) {
    dnnl::memory::desc srcDesc = src.get_desc(), dstDesc = dst.get_desc();
    dim cin = srcDesc.dims()[1], cout = dstDesc.dims()[1];
    dnnl::memory::desc perChannel({1, cout, 1, 1}, dt::f32, tag::nchw);
    dnnl::post_ops postOps;
    postOps.append_binary(dnnl::algorithm::binary_mul, perChannel);
    postOps.append_binary(dnnl::algorithm::binary_add, perChannel);
    if (residual)
      postOps.append_binary(dnnl::algorithm::binary_add, inDesc);
    postOps.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
    dnnl::primitive_attr attr;
    attr.set_post_ops(postOps);
    dnnl::memory::desc weiAny({cout, cin, r, r}, dt::f32, tag::any);
    auto pd = makeConvPd(engine, dnnl::prop_kind::forward_inference, srcDesc,
                         weiAny, nullptr, dstDesc, 1, pad, attr);
    uint32_t seed = 2 + 3 * static_cast<uint32_t>(runs.size());
    hostData.emplace_back(cout * cin * r * r);
    fillRandom(hostData.back(), seed);
    dnnl::memory userWei({{cout, cin, r, r}, dt::f32, tag::oihw}, engine,
                         hostData.back().data());
    std::unordered_map<int, dnnl::memory> args = {
        {DNNL_ARG_SRC, src},
        {DNNL_ARG_WEIGHTS,
         toPrimitiveLayout(userWei, pd.weights_desc(), engine, stream)},
        {DNNL_ARG_DST, dst}};
    for (int i = 0; i < 2; ++i) {
      hostData.emplace_back(cout);
      fillRandom(hostData.back(), seed + 1 + i);
      args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(i) | DNNL_ARG_SRC_1] =
          dnnl::memory(perChannel, engine, hostData.back().data());
    }
    if (residual)
      args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(2) | DNNL_ARG_SRC_1] = in;
    runs.push_back({dnnl::convolution_forward(pd), args});
    impl += (impl.empty() ? "" : "+") + std::string(pd.impl_info_str());
    flops += 2.0 * n * cout * h * w * cin * r * r;
  };
  addConv(in, t1, 1, 0, false);
  addConv(t1, t2, 3, 1, false);
  addConv(t2, out, 1, 0, true);

  for (const auto &[prim, args] : runs)
    prim.execute(stream, args);
  dnnl::memory plainOut({{n, c, h, w}, dt::f32, tag::nchw}, engine);
  double sum =
      checksum(runs.back().first, runs.back().second, out, plainOut, stream);
  Result result = timePrimitives(runs, stream, opts);
  printResult("bottleneck", result, flops, opts.threads, impl.c_str(), sum);
}

void runBatchNorm(const std::vector<std::string> &pos, const Options &opts) {
  if (pos.size() != 4)
    throw UsageError("bnorm expects N C H W");
  using dim = dnnl::memory::dim;
  dim n = parseInt(pos[0], "N", 1), c = parseInt(pos[1], "C", 1),
      h = parseInt(pos[2], "H", 1), w = parseInt(pos[3], "W", 1);
  checkElements({double(n), double(c), double(h), double(w)}, "input");
  if (opts.blockedLayout && c % 16 != 0)
    throw UsageError("--layout blocked needs C a multiple of 16");

  using tag = dnnl::memory::format_tag;
  using dt = dnnl::memory::data_type;
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  dnnl::memory::desc dataDesc({n, c, h, w}, dt::f32,
                              opts.blockedLayout ? tag::nChw16c : tag::nchw);
  auto flags = dnnl::normalization_flags::use_scale |
               dnnl::normalization_flags::use_shift;
  if (!opts.training)
    flags |= dnnl::normalization_flags::use_global_stats;
  if (opts.relu)
    flags |= dnnl::normalization_flags::fuse_norm_relu;
  dnnl::batch_normalization_forward::primitive_desc pd(
      dnnl::batch_normalization_forward::desc(
          opts.training ? dnnl::prop_kind::forward_training
                        : dnnl::prop_kind::forward_inference,
          dataDesc, 1e-3f, flags),
      engine);

  std::vector<float> srcData(n * c * h * w), scaleData(c), shiftData(c),
      meanData(c), varData(c);
  fillRandom(srcData, 1);
  fillRandom(scaleData, 2);
  fillRandom(shiftData, 3);
  fillRandom(meanData, 4);
  for (dim i = 0; i < c; ++i)
    varData[i] = 1.0f + 0.5f * scaleData[i];
  dnnl::memory::desc vectorDesc({c}, dt::f32, tag::a);
  dnnl::memory userSrc({{n, c, h, w}, dt::f32, tag::nchw}, engine,
                       srcData.data());
  dnnl::memory src = toPrimitiveLayout(userSrc, dataDesc, engine, stream);
  dnnl::memory dst(dataDesc, engine);
  dnnl::memory plainDst({{n, c, h, w}, dt::f32, tag::nchw}, engine);
  dnnl::memory scale(vectorDesc, engine, scaleData.data()),
      shift(vectorDesc, engine, shiftData.data()),
      mean(vectorDesc, engine, meanData.data()),
      variance(vectorDesc, engine, varData.data());
  std::unordered_map<int, dnnl::memory> args = {
      {DNNL_ARG_SRC, src},     {DNNL_ARG_DST, dst},
      {DNNL_ARG_SCALE, scale}, {DNNL_ARG_SHIFT, shift},
      {DNNL_ARG_MEAN, mean},   {DNNL_ARG_VARIANCE, variance}};
  if (opts.training && opts.relu)
    args[DNNL_ARG_WORKSPACE] = dnnl::memory(pd.workspace_desc(), engine);
  dnnl::batch_normalization_forward bnorm(pd);

  double sum = checksum(bnorm, args, dst, plainDst, stream);
  Result result = timePrimitive(bnorm, args, stream, opts);
  // Counted as dl counts a batch normalization (OpWork.cpp): 4 flops per
  // element for inference, 8 for training.
  double flops = (opts.training ? 8.0 : 4.0) * n * c * h * w;
  printResult("bnorm", result, flops, opts.threads, pd.impl_info_str(), sum);
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

void printUsage() {
  std::fprintf(
      stderr,
      "usage:\n"
      "  onednn-bench conv N C K H W R S STRIDE PAD [options]\n"
      "      [--post-ops bias_relu|bn_relu|sum_relu|bn_train_relu]\n"
      "  onednn-bench gemm M N K [options] [--b-layout blocked|plain]\n"
      "  onednn-bench bnorm N C H W [--training] [--relu] "
      "[--layout plain|blocked]\n"
      "  onednn-bench bottleneck N C MID H W [options]\n"
      "  onednn-bench peak [--threads T]\n"
      "options: --threads T, --min-time SEC, --min-reps R, --warmup W\n"
      "--b-layout: B in oneDNN's layout, reordered untimed (blocked, the\n"
      "  default), or row-major and handled in the timed run (plain)\n");
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    printUsage();
    return 1;
  }
  std::string mode = argv[1];
  try {
    Options opts;
    opts.threads =
        static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    std::vector<std::string> pos = parseArgs(
        std::vector<std::string>(argv + 2, argv + argc), opts, mode != "peak");
    if (mode == "peak") {
      runPeak(pos, opts);
      return 0;
    }
    if (mode != "conv" && mode != "gemm" && mode != "bnorm" &&
        mode != "bottleneck")
      throw UsageError("unknown mode '" + mode + "'");
    if (dnnl::version()->cpu_runtime != DNNL_RUNTIME_OMP) {
      std::fprintf(stderr, "error: libdnnl was not built with OpenMP\n");
      return 1;
    }
    // oneDNN sizes its thread pool from the OpenMP setting at primitive
    // creation, so this must precede any primitive descriptor.
    omp_set_num_threads(opts.threads);
    if (mode != "gemm" && opts.bLayoutGiven)
      throw UsageError("--b-layout applies to gemm only");
    if (mode != "bnorm" && opts.bnOptionGiven)
      throw UsageError("--training, --relu and --layout apply to bnorm only");
    if (mode != "conv" && !opts.postOps.empty())
      throw UsageError("--post-ops applies to conv only");
    if (mode == "conv")
      runConv(pos, opts);
    else if (mode == "bnorm")
      runBatchNorm(pos, opts);
    else if (mode == "bottleneck")
      runBottleneck(pos, opts);
    else
      runGemm(pos, opts);
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
