//===- onednn-conv.cpp - oneDNN convolutions for onednn-bench -------------===//
//
// The `conv` mode (a convolution, grouped or depthwise, with dl's epilogues
// as post-ops) and the `bottleneck` mode (ResNet's identity block) of
// onednn-bench; see onednn-bench.cpp for the command line.
//
//===----------------------------------------------------------------------===//

#include "onednn-bench.h"

namespace onednn_bench {
namespace {

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

} // namespace

void runConv(const std::vector<std::string> &pos, const Options &opts) {
  if (pos.size() != 9)
    throw UsageError("conv expects N C K H W R S STRIDE PAD");
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
  dim groups = opts.groups;
  if (c % groups != 0 || k % groups != 0)
    throw UsageError("--groups must divide C and K");
  dim oh = (h + 2 * pad - r) / stride + 1, ow = (w + 2 * pad - s) / stride + 1;
  checkElements({double(n), double(c), double(h), double(w)}, "input");
  checkElements({double(k), double(c / groups), double(r), double(s)},
                "weights");
  checkElements({double(n), double(k), double(oh), double(ow)}, "output");

  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);

  dnnl::memory::desc srcAny({n, c, h, w}, dt::f32, tag::any);
  // Grouped weights are G x K/G x C/G x R x S (goihw).
  dnnl::memory::dims weiDims =
      groups == 1 ? dnnl::memory::dims{k, c, r, s}
                  : dnnl::memory::dims{groups, k / groups, c / groups, r, s};
  dnnl::memory::desc weiAny(weiDims, dt::f32, tag::any);
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

  std::vector<float> srcData(n * c * h * w), weiData(k * (c / groups) * r * s);
  fillRandom(srcData, 1);
  fillRandom(weiData, 2);
  dnnl::memory userSrc({{n, c, h, w}, dt::f32, tag::nchw}, engine,
                       srcData.data());
  dnnl::memory userWei({weiDims, dt::f32, groups == 1 ? tag::oihw : tag::goihw},
                       engine, weiData.data());
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

  double flops = 2.0 * n * k * oh * ow * (c / groups) * r * s;
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
  // A grouped convolution does few flops per byte: it also reports the
  // bytes of its input, weights and output per second.
  double bytes =
      groups == 1
          ? 0
          : 4.0 * (n * c * h * w + n * k * oh * ow + k * (c / groups) * r * s);
  printResult("conv", result, flops, opts.threads, pd.impl_info_str(), sum,
              bytes);
}

void runBottleneck(const std::vector<std::string> &pos, const Options &opts) {
  if (pos.size() != 5)
    throw UsageError("bottleneck expects N C MID H W");
  dim n = parseInt(pos[0], "N", 1), c = parseInt(pos[1], "C", 1),
      mid = parseInt(pos[2], "MID", 1), h = parseInt(pos[3], "H", 1),
      w = parseInt(pos[4], "W", 1);
  if (c % 16 != 0 || mid % 16 != 0)
    throw UsageError("bottleneck needs C and MID multiples of 16");
  checkElements({double(n), double(c), double(h), double(w)}, "input");
  checkElements({double(c), double(mid), 9.0}, "weights");

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

} // namespace onednn_bench
