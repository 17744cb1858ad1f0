# dl.compile from Python: each op against numpy (float32 tolerances stated
# per check), results returned and written in place, and every error raised
# as dl.Error with its location.
# RUN: %python %s | FileCheck %s

import tempfile

import numpy as np

import dl

rng = np.random.default_rng(0)


def rand(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def check(name, got, want, tol=1e-4):
    err = float(np.max(np.abs(got - want)) / max(1.0, np.max(np.abs(want))))
    print(f"{name}: {'ok' if err <= tol else f'MISMATCH {err}'}")


def tensor(shape):
    return "tensor<" + "".join(f"{s}x" for s in shape) + "f32>"


def unary(op, shape, attrs="", out_shape=None):
    out_shape = out_shape or shape
    return f"""
    func.func @f(%x: {tensor(shape)}) -> {tensor(out_shape)} {{
      %e = tensor.empty() : {tensor(out_shape)}
      %r = dl.{op} ins(%x : {tensor(shape)}) outs(%e : {tensor(out_shape)})
             {attrs} -> {tensor(out_shape)}
      return %r : {tensor(out_shape)}
    }}"""


def pool_reference(x, window, stride, pad, kind, include_pad=True):
    n, c, h, w = x.shape
    top, left, bottom, right = pad
    oh = (h + top + bottom - window[0]) // stride[0] + 1
    ow = (w + left + right - window[1]) // stride[1] + 1
    out = np.zeros((n, c, oh, ow), np.float32)
    for i in range(oh):
        for j in range(ow):
            r0, c0 = i * stride[0] - top, j * stride[1] - left
            rows = slice(max(r0, 0), min(r0 + window[0], h))
            cols = slice(max(c0, 0), min(c0 + window[1], w))
            part = x[:, :, rows, cols]
            if kind == "max":
                out[:, :, i, j] = part.max(axis=(2, 3))
            else:
                count = (window[0] * window[1] if include_pad else
                         part.shape[2] * part.shape[3])
                out[:, :, i, j] = part.sum(axis=(2, 3)) / count
    return out


# CHECK: relu: ok
x = rand(3, 5, 7, 2)
check("relu", dl.compile(unary("relu", x.shape)).f(x), np.maximum(x, 0))

# CHECK: relu6: ok
x = rand(4, 9) * 8
check("relu6", dl.compile(unary("relu6", x.shape)).f(x), np.clip(x, 0, 6))

# The activations with exp against numpy (float32 tolerance 1e-5 of the
# largest magnitude), from -100 to 100 (exp overflows and underflows).
# CHECK: sigmoid: ok
# CHECK: silu: ok
# CHECK: hard_sigmoid: ok
# CHECK: hard_swish: ok
x = rand(4, 33) * 8
x[0, :6] = [-100, -88, -1e-3, 0, 88, 100]
x64 = x.astype(np.float64)
sigmoid = 1 / (1 + np.exp(-x64))
hard_sigmoid = np.clip(x64 / 6 + 0.5, 0, 1)
for op, want in (("sigmoid", sigmoid), ("silu", x64 * sigmoid),
                 ("hard_sigmoid", hard_sigmoid),
                 ("hard_swish", x64 * hard_sigmoid)):
    check(op, dl.compile(unary(op, x.shape)).f(x), want, tol=1e-5)

# CHECK: mul broadcast: ok
x, s_ = rand(2, 5, 3, 4), rand(2, 5, 1, 1)
m = dl.compile(f"""
func.func @f(%x: {tensor(x.shape)}, %s: {tensor(s_.shape)}) -> {tensor(x.shape)} {{
  %e = tensor.empty() : {tensor(x.shape)}
  %r = dl.mul ins(%x, %s : {tensor(x.shape)}, {tensor(s_.shape)}) outs(%e : {tensor(x.shape)}) -> {tensor(x.shape)}
  return %r : {tensor(x.shape)}
}}""")
check("mul broadcast", m.f(x, s_), x * s_, tol=0)

# CHECK: concat: ok
# CHECK: concat axis 3: ok
for axis in (1, 3):
    parts = [rand(2, 3, 4, 5), rand(2, 3, 4, 5) if axis == 3 else rand(2, 6, 4, 5)]
    out = list(parts[0].shape)
    out[axis] = parts[0].shape[axis] + parts[1].shape[axis]
    m = dl.compile(f"""
    func.func @f(%a: {tensor(parts[0].shape)}, %b: {tensor(parts[1].shape)}) -> {tensor(out)} {{
      %e = tensor.empty() : {tensor(out)}
      %r = dl.concat ins(%a, %b : {tensor(parts[0].shape)}, {tensor(parts[1].shape)})
             outs(%e : {tensor(out)}) {{axis = {axis}}} -> {tensor(out)}
      return %r : {tensor(out)}
    }}""")
    check("concat" + ("" if axis == 1 else f" axis {axis}"), m.f(*parts),
          np.concatenate(parts, axis=axis), tol=0)

# CHECK: max_pool2d: ok
x = rand(2, 5, 9, 11)
m = dl.compile(unary("max_pool2d", x.shape,
                     "{window = array<i64: 3, 3>, strides = array<i64: 2, 2>, "
                     "padding = array<i64: 1, 1, 2, 1>}", (2, 5, 5, 6)))
check("max_pool2d", m.f(x),
      pool_reference(x, (3, 3), (2, 2), (1, 1, 2, 1), "max"))

# CHECK: avg_pool2d: ok
# CHECK: avg_pool2d exclude padding: ok
for include in (True, False):
    m = dl.compile(unary(
        "avg_pool2d", x.shape,
        "{window = array<i64: 3, 2>, strides = array<i64: 2, 2>, "
        "padding = array<i64: 1, 1, 0, 0>, count_include_pad = "
        f"{'true' if include else 'false'}}}", (2, 5, 4, 6)))
    check("avg_pool2d" + ("" if include else " exclude padding"), m.f(x),
          pool_reference(x, (3, 2), (2, 2), (1, 1, 0, 0), "avg", include))

# Depthwise convolutions (strides, padding, dilation) against numpy, by the
# optimized and the reference lowering.
# CHECK-COUNT-6: depthwise_conv2d: ok


def depthwise_reference(x, f, stride, pad, dilation):
    n, c, h, w = x.shape
    rows, cols, _ = f.shape
    top, left, bottom, right = pad
    padded = np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)))
    oh = (h + top + bottom - dilation[0] * (rows - 1) - 1) // stride[0] + 1
    ow = (w + left + right - dilation[1] * (cols - 1) - 1) // stride[1] + 1
    out = np.zeros((n, c, oh, ow), np.float32)
    for r in range(rows):
        for s in range(cols):
            r0, s0 = r * dilation[0], s * dilation[1]
            out += padded[:, :, r0:r0 + stride[0] * (oh - 1) + 1:stride[0],
                          s0:s0 + stride[1] * (ow - 1) + 1:stride[1]] * \
                f[r, s].reshape(1, -1, 1, 1)
    return out


for shape, size, stride, pad, dilation in [
        ((2, 5, 9, 11), 3, (2, 2), (1, 1, 1, 1), (1, 1)),
        ((1, 7, 8, 8), 3, (1, 1), (2, 2, 2, 2), (2, 2)),
        ((1, 3, 6, 5), 2, (1, 2), (0, 1, 1, 0), (1, 1))]:
    x, f = rand(*shape), rand(size, size, shape[1])
    want = depthwise_reference(x, f, stride, pad, dilation)
    text = f"""
    func.func @f(%x: {tensor(x.shape)}, %f: {tensor(f.shape)})
        -> {tensor(want.shape)} {{
      %e = tensor.empty() : {tensor(want.shape)}
      %r = dl.depthwise_conv2d ins(%x, %f : {tensor(x.shape)}, {tensor(f.shape)})
             outs(%e : {tensor(want.shape)})
             {{strides = array<i64: {stride[0]}, {stride[1]}>,
               padding = array<i64: {', '.join(map(str, pad))}>,
               dilations = array<i64: {dilation[0]}, {dilation[1]}>}}
             -> {tensor(want.shape)}
      return %r : {tensor(want.shape)}
    }}"""
    for reference in (False, True):
        check("depthwise_conv2d", dl.compile(text, reference=reference).f(x, f),
              want)

# A GEMM with B transposed plus a bias (a linear layer), several results.
# CHECK: linear: ok
# CHECK: linear relu: ok
a, w, b = rand(5, 12), rand(7, 12), rand(7)
m = dl.compile("""
func.func @linear(%a: tensor<5x12xf32>, %w: tensor<7x12xf32>, %b: tensor<7xf32>)
    -> (tensor<5x7xf32>, tensor<5x7xf32>) {
  %e = tensor.empty() : tensor<5x7xf32>
  %c = dl.matmul ins(%a, %w : tensor<5x12xf32>, tensor<7x12xf32>)
         outs(%e : tensor<5x7xf32>) {transpose_b} -> tensor<5x7xf32>
  %y = dl.bias_add ins(%c, %b : tensor<5x7xf32>, tensor<7xf32>)
         outs(%c : tensor<5x7xf32>) -> tensor<5x7xf32>
  %e2 = tensor.empty() : tensor<5x7xf32>
  %r = dl.relu ins(%y : tensor<5x7xf32>) outs(%e2 : tensor<5x7xf32>) -> tensor<5x7xf32>
  return %y, %r : tensor<5x7xf32>, tensor<5x7xf32>
}""", threads=1)
y, r = m.linear(a, w, b)
check("linear", y, a @ w.T + b)
check("linear relu", r, np.maximum(a @ w.T + b, 0))

# A blocked convolution (3x3, padding 1, stride 2) with batch normalization,
# against a direct numpy convolution.
# CHECK: conv2d batch_norm: ok
x, f = rand(2, 8, 9, 9), rand(16, 8, 3, 3)
gamma, beta, mean = rand(16), rand(16), rand(16)
var = np.abs(rand(16)) + 0.5
m = dl.compile("""
func.func @f(%x: tensor<2x8x9x9xf32>, %f: tensor<16x8x3x3xf32>,
             %g: tensor<16xf32>, %b: tensor<16xf32>, %m: tensor<16xf32>,
             %v: tensor<16xf32>) -> tensor<2x16x5x5xf32> {
  %e = tensor.empty() : tensor<2x16x5x5xf32>
  %c = dl.conv2d ins(%x, %f : tensor<2x8x9x9xf32>, tensor<16x8x3x3xf32>)
         outs(%e : tensor<2x16x5x5xf32>)
         {strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
         -> tensor<2x16x5x5xf32>
  %n = dl.batch_norm_inference ins(%c, %g, %b, %m, %v : tensor<2x16x5x5xf32>,
         tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
         outs(%c : tensor<2x16x5x5xf32>) {epsilon = 1.0e-5 : f32}
         -> tensor<2x16x5x5xf32>
  return %n : tensor<2x16x5x5xf32>
}""")
padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
conv = np.zeros((2, 16, 5, 5), np.float32)
for i in range(5):
    for j in range(5):
        patch = padded[:, :, 2 * i:2 * i + 3, 2 * j:2 * j + 3]
        conv[:, :, i, j] = np.einsum("ncrs,kcrs->nk", patch, f)
s = (gamma / np.sqrt(var + 1e-5)).reshape(1, -1, 1, 1)
want = (conv - mean.reshape(1, -1, 1, 1)) * s + beta.reshape(1, -1, 1, 1)
check("conv2d batch_norm", m.f(x, f, gamma, beta, mean, var), want)

# Filters marked dl.constant are packed on the first call and kept: a call
# with other weights (another address) packs again.
# CHECK: constant weights: ok
# CHECK: other weights: ok
# CHECK: the first weights again: ok
m = dl.compile("""
func.func @f(%x: tensor<1x16x6x6xf32>, %f: tensor<32x16x3x3xf32> {dl.constant})
    -> tensor<1x32x4x4xf32> {
  %e = tensor.empty() : tensor<1x32x4x4xf32>
  %c = dl.conv2d ins(%x, %f : tensor<1x16x6x6xf32>, tensor<32x16x3x3xf32>)
         outs(%e : tensor<1x32x4x4xf32>) -> tensor<1x32x4x4xf32>
  return %c : tensor<1x32x4x4xf32>
}""")
x, f1, f2 = rand(1, 16, 6, 6), rand(32, 16, 3, 3), rand(32, 16, 3, 3)


def conv_valid(x, f):
    out = np.zeros((1, f.shape[0], 4, 4), np.float32)
    for i in range(4):
        for j in range(4):
            out[:, :, i, j] = np.einsum("ncrs,kcrs->nk", x[:, :, i:i + 3, j:j + 3], f)
    return out


check("constant weights", m.f(x, f1), conv_valid(x, f1))
check("other weights", m.f(x, f2), conv_valid(x, f2))
check("the first weights again", m.f(x, f1), conv_valid(x, f1))

# A function on buffers writes its arguments in place.
# CHECK: in place: ok
# CHECK: in place, a copy: dl.Error: @add writes its arguments in place: argument #2 must be a writeable C-contiguous float32 numpy array
m = dl.compile("""
func.func @add(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %c: memref<4x4xf32>) {
  dl.add ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  return
}""")
a, b, c = rand(4, 4), rand(4, 4), np.zeros((4, 4), np.float32)
print("in place:", "ok" if m.add(a, b, c) is None and
      np.allclose(c, a + b) else "MISMATCH")
try:
    m.add(a, b, np.zeros((4, 4)))
except dl.Error as error:
    print("in place, a copy: dl.Error:", error)

# Dynamic sizes: arguments of any size; results need out=.
# CHECK: dynamic: ok
# CHECK: dynamic without out=: dl.Error: @f: result #0 has a dynamic shape; pass the results' arrays as out=
m = dl.compile(unary("relu", ("?", 8)).replace("tensor.empty()",
               "tensor.empty(%n)").replace(
    "{\n      %e", "{\n      %z = arith.constant 0 : index\n"
    "      %n = tensor.dim %x, %z : tensor<?x8xf32>\n      %e"))
x, y = rand(5, 8), np.empty((5, 8), np.float32)
m.f(x, out=y)
check("dynamic", y, np.maximum(x, 0))
try:
    m.f(x)
except dl.Error as error:
    print("dynamic without out=:", "dl.Error:", error)

# The disk cache: compiling the same module again loads its code (which
# computes the same, and whose failed run-time checks still raise);
# cache=False compiles.
# CHECK: cache, compiled: from_cache=False
# CHECK: cache, loaded: from_cache=True
# CHECK: cache, loaded: ok
# CHECK: cache, loaded, failed check: dl.Error: @g failed
# CHECK: cache=False: from_cache=False
gemm = """func.func @g(%a: memref<?x64xf32>, %b: memref<64x48xf32>, %c: memref<?x48xf32>) {
  dl.matmul ins(%a, %b : memref<?x64xf32>, memref<64x48xf32>) outs(%c : memref<?x48xf32>)
  return
}"""
directory = tempfile.mkdtemp()
a, b = rand(37, 64), rand(64, 48)
for what in ("compiled", "loaded"):
    m = dl.compile(gemm, threads=1, cache=directory)
    print(f"cache, {what}: from_cache={m.from_cache}")
    c = np.zeros((37, 48), np.float32)
    m.g(a, b, c)
np.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-4)
print("cache, loaded: ok")
try:
    m.g(a, b, np.zeros((36, 48), np.float32))
except dl.Error as error:
    print("cache, loaded, failed check: dl.Error:", error)
print("cache=False: from_cache="
      f"{dl.compile(gemm, threads=1, cache=False).from_cache}")

# Errors: parse and verifier errors with their locations, unknown
# functions, wrong argument counts and shapes.
# CHECK: parse: dl.Error: cannot parse the module:
# CHECK-NEXT: -:2:3: error: custom op 'dl.nope' is unknown
try:
    dl.compile("func.func @f() {\n  dl.nope\n}")
except dl.Error as error:
    print("parse: dl.Error:", error)
# CHECK: verifier: dl.Error: cannot parse the module:
# CHECK-NEXT: -:2:3: error: 'dl.max_pool2d' op expects each padding in [0, window size), got 2 against a window height of 2
try:
    dl.compile("""func.func @f(%x: memref<1x1x4x4xf32>, %y: memref<1x1x4x4xf32>) {
  dl.max_pool2d ins(%x : memref<1x1x4x4xf32>) outs(%y : memref<1x1x4x4xf32>)
  {window = array<i64: 2, 2>, padding = array<i64: 2, 0, 0, 0>}
  return
}""")
except dl.Error as error:
    print("verifier: dl.Error:", error)
m = dl.compile(unary("relu", (2, 3)))
# CHECK: unknown function: AttributeError: 'no public function @g; the module has f'
try:
    m.g
except AttributeError as error:
    print("unknown function: AttributeError:", error)
# CHECK: arguments: dl.Error: @f takes 1 arguments, got 2
try:
    m.f(rand(2, 3), rand(2, 3))
except dl.Error as error:
    print("arguments: dl.Error:", error)
# CHECK: shape: dl.Error: @f: argument #0 has shape 3x2, expected 2x3
try:
    m.f(rand(3, 2))
except dl.Error as error:
    print("shape: dl.Error:", error)
# CHECK: signature: <dl.Function @f(2x3) -> (2x3)>
print("signature:", m.f)

# Function.time: the calls' seconds, at least min_reps of them, the results
# written (to out= when given); errors as for a call.
x = rand(2, 3)
out = np.empty((2, 3), np.float32)
seconds = m.f.time(x, out=out, min_time=0, min_reps=7, warmup=1)
# CHECK: time: 7 calls, positive: True, result: ok
print(f"time: {len(seconds)} calls, positive: {all(s > 0 for s in seconds)}",
      end=", ")
check("result", out, np.maximum(x, 0))
# CHECK: time, shape: dl.Error: @f: argument #0 has shape 3x2, expected 2x3
try:
    m.f.time(rand(3, 2))
except dl.Error as error:
    print("time, shape: dl.Error:", error)
