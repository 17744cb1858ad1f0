//===- onednn-layers.cpp - oneDNN layers for onednn-bench -----------------===//
//
// The `gemm`, `linear` (inner product), `pool` and `bnorm` modes of
// onednn-bench; see onednn-bench.cpp for the command line.
//
//===----------------------------------------------------------------------===//

#include "onednn-bench.h"

namespace onednn_bench {

void runGemm(const std::vector<std::string> &pos, const Options &opts) {
  if (pos.size() != 3)
    throw UsageError("gemm expects M N K");
  dim m = parseInt(pos[0], "M", 1), n = parseInt(pos[1], "N", 1),
      k = parseInt(pos[2], "K", 1);
  checkElements({double(m), double(k)}, "A");
  checkElements({double(k), double(n)}, "B");
  checkElements({double(m), double(n)}, "C");

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

void runInnerProduct(const std::vector<std::string> &pos, const Options &opts) {
  if (pos.size() != 3)
    throw UsageError("linear expects N IN OUT");
  dim n = parseInt(pos[0], "N", 1), in = parseInt(pos[1], "IN", 1),
      out = parseInt(pos[2], "OUT", 1);
  checkElements({double(n), double(in)}, "input");
  checkElements({double(out), double(in)}, "weights");
  checkElements({double(n), double(out)}, "output");

  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  dnnl::memory::desc srcDesc({n, in}, dt::f32, tag::nc);
  dnnl::memory::desc weiAny({out, in}, dt::f32, tag::any);
  dnnl::memory::desc biasDesc({out}, dt::f32, tag::a);
  dnnl::memory::desc dstDesc({n, out}, dt::f32, tag::nc);
  dnnl::inner_product_forward::primitive_desc pd(
      dnnl::inner_product_forward::desc(dnnl::prop_kind::forward_inference,
                                        srcDesc, weiAny, biasDesc, dstDesc),
      engine);

  std::vector<float> srcData(n * in), weiData(out * in), biasData(out);
  fillRandom(srcData, 1);
  fillRandom(weiData, 2);
  fillRandom(biasData, 3);
  // PyTorch's weights: OUT x IN, row-major (oi).
  dnnl::memory userWei({{out, in}, dt::f32, tag::oi}, engine, weiData.data());
  dnnl::memory dst(dstDesc, engine);
  std::unordered_map<int, dnnl::memory> args = {
      {DNNL_ARG_SRC, dnnl::memory(srcDesc, engine, srcData.data())},
      {DNNL_ARG_WEIGHTS,
       toPrimitiveLayout(userWei, pd.weights_desc(), engine, stream)},
      {DNNL_ARG_BIAS, dnnl::memory(biasDesc, engine, biasData.data())},
      {DNNL_ARG_DST, dst}};
  dnnl::inner_product_forward ip(pd);

  double sum = checksum(ip, args, dst, dst, stream);
  Result result = timePrimitive(ip, args, stream, opts);
  double bytes = 4.0 * (n * in + out * in + out + n * out);
  printResult("linear", result, 2.0 * n * in * out, opts.threads,
              pd.impl_info_str(), sum, bytes);
}

void runPool(const std::vector<std::string> &pos, const Options &opts) {
  if (pos.size() != 8)
    throw UsageError("pool expects N C H W R S STRIDE PAD");
  dim n = parseInt(pos[0], "N", 1), c = parseInt(pos[1], "C", 1),
      h = parseInt(pos[2], "H", 1), w = parseInt(pos[3], "W", 1),
      r = parseInt(pos[4], "R", 1), s = parseInt(pos[5], "S", 1),
      stride = parseInt(pos[6], "STRIDE", 1), pad = parseInt(pos[7], "PAD", 0);
  if (h + 2 * pad < r || w + 2 * pad < s)
    throw UsageError("window larger than the padded input");
  // As for dl.max_pool2d: every window overlaps the image.
  if (pad >= r || pad >= s)
    throw UsageError("PAD must be smaller than the window");
  dim oh = (h + 2 * pad - r) / stride + 1, ow = (w + 2 * pad - s) / stride + 1;
  checkElements({double(n), double(c), double(h), double(w)}, "input");

  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  tag layout = opts.blockedLayout ? tag::nChw16c : tag::nchw;
  dnnl::memory::desc srcDesc({n, c, h, w}, dt::f32, layout);
  dnnl::memory::desc dstDesc({n, c, oh, ow}, dt::f32, layout);
  dnnl::pooling_forward::primitive_desc pd(
      dnnl::pooling_forward::desc(
          dnnl::prop_kind::forward_inference,
          opts.average ? dnnl::algorithm::pooling_avg_include_padding
                       : dnnl::algorithm::pooling_max,
          srcDesc, dstDesc, {stride, stride}, {r, s}, {pad, pad}, {pad, pad}),
      engine);

  std::vector<float> srcData(n * c * h * w);
  fillRandom(srcData, 1);
  dnnl::memory userSrc({{n, c, h, w}, dt::f32, tag::nchw}, engine,
                       srcData.data());
  dnnl::memory dst(dstDesc, engine);
  dnnl::memory plainDst({{n, c, oh, ow}, dt::f32, tag::nchw}, engine);
  std::unordered_map<int, dnnl::memory> args = {
      {DNNL_ARG_SRC, toPrimitiveLayout(userSrc, srcDesc, engine, stream)},
      {DNNL_ARG_DST, dst}};
  dnnl::pooling_forward pool(pd);

  double sum = checksum(pool, args, dst, plainDst, stream);
  Result result = timePrimitive(pool, args, stream, opts);
  // One operation per window element.
  double flops = 1.0 * n * c * oh * ow * r * s;
  double bytes = 4.0 * (n * c * h * w + n * c * oh * ow);
  printResult("pool", result, flops, opts.threads, pd.impl_info_str(), sum,
              bytes);
}

void runBatchNorm(const std::vector<std::string> &pos, const Options &opts) {
  if (pos.size() != 4)
    throw UsageError("bnorm expects N C H W");
  dim n = parseInt(pos[0], "N", 1), c = parseInt(pos[1], "C", 1),
      h = parseInt(pos[2], "H", 1), w = parseInt(pos[3], "W", 1);
  checkElements({double(n), double(c), double(h), double(w)}, "input");
  if (opts.blockedLayout && c % 16 != 0)
    throw UsageError("--layout blocked needs C a multiple of 16");

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
  printResult("bnorm", result, flops, opts.threads, pd.impl_info_str(), sum,
              8.0 * n * c * h * w);
}

} // namespace onednn_bench
