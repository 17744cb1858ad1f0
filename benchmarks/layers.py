#!/usr/bin/python3
"""The layers around the dense convolutions: dl's pooling, depthwise and
grouped convolutions and fully connected layers against oneDNN's pooling,
convolution with groups and inner product.

`layers.py [--threads 1,2] [--rounds 3] [--min-time 0.2] [--only KIND,...]
[--random K --seed S] [--out DIR]` builds each layer as dl IR with the
Python package (`dl.mlir_text.FunctionWriter`, as `dl.from_torch` writes
it: the fully connected layer is `FunctionWriter.linear`), compiles it with
`dl.compile` and times it with `Function.time` (a C++ loop, no Python
between calls), and times oneDNN's primitive with `onednn-bench`, pinned to
the same CPUs (taskset for oneDNN, sched_setaffinity for this process).
Pooling and depthwise convolutions run on the blocked layout the networks
keep between convolutions (N x C/16 x H x W x 16; oneDNN's nChw16c). A
grouped convolution (`FunctionWriter.grouped_conv2d`, dl.conv2d's
`groups`) runs on the plain layout: dl's time includes its copies into and
out of the blocked layout, oneDNN's reorders of its input are untimed. The
fully connected layer takes PyTorch's row-major input and weights as
`FunctionWriter.linear_weight` binds them (dl.constant: packed once;
oneDNN's inner product reorders its weights once, untimed). Each dl output
is first checked against PyTorch's on the same data (largest absolute
difference at most 1e-4 of the largest magnitude).

The layers: those of ResNet, VGG, GoogLeNet, DenseNet, MobileNetV2,
EfficientNet-B0 and AlexNet's original groups (batch 1, a few at batch 8),
plus `--random K` random
shapes per kind. Each row is timed in `--rounds` interleaved rounds (order
reversed every other round); figures are medians over rounds. Prints a
table with GB/s (the bytes each layer must move: input, weights, output)
and writes DIR/layers.csv; the last line per thread count is
`layers dl/onednn: pool=<g> depthwise=<g> grouped=<g> linear=<g> threads=<t>`
(geomeans of oneDNN's time over dl's).
"""

import argparse
import csv
import math
import os
import random
import statistics
import sys

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run as harness  # noqa: E402

BLOCK = 16
TOLERANCE = 1e-4

# (kind, N, C, H, W, window, stride, padding)
POOLS = [
    ("max", 1, 64, 112, 112, 3, 2, 1),    # ResNet's stem
    ("max", 1, 64, 224, 224, 2, 2, 0),    # VGG16
    ("max", 1, 512, 28, 28, 2, 2, 0),     # VGG16
    ("max", 1, 480, 14, 14, 3, 1, 1),     # GoogLeNet's branch pool
    ("avg", 1, 128, 56, 56, 2, 2, 0),     # DenseNet's transition
    ("avg", 1, 2048, 7, 7, 7, 1, 0),      # ResNet-50's global pool
    ("avg", 1, 1280, 7, 7, 7, 1, 0),      # MobileNetV2's global pool
    ("max", 8, 64, 112, 112, 3, 2, 1),
]
# (N, C, H, W, window, stride); padding window // 2.
DEPTHWISE = [
    (1, 32, 112, 112, 3, 1),              # MobileNetV2
    (1, 96, 112, 112, 3, 2),
    (1, 144, 56, 56, 3, 1),
    (1, 144, 56, 56, 3, 2),
    (1, 192, 28, 28, 3, 1),
    (1, 384, 14, 14, 3, 1),
    (1, 576, 14, 14, 3, 2),
    (1, 960, 7, 7, 3, 1),
    (1, 240, 28, 28, 5, 1),               # EfficientNet-B0
    (1, 672, 14, 14, 5, 2),
    (8, 144, 56, 56, 3, 1),
]
# (N, C, K, H, W, window, stride, groups); padding window // 2.
GROUPED = [
    (1, 128, 128, 56, 56, 3, 1, 2),
    (1, 256, 256, 28, 28, 3, 1, 4),
    (1, 512, 512, 14, 14, 3, 1, 8),
    (1, 384, 384, 13, 13, 3, 1, 2),       # AlexNet's original two groups
    (1, 256, 512, 28, 28, 1, 1, 4),
    (8, 128, 128, 28, 28, 3, 1, 4),
    (1, 128, 128, 56, 56, 3, 1, 32),      # ResNeXt-50 32x4d
    (1, 256, 256, 56, 56, 3, 2, 32),
    (1, 512, 512, 14, 14, 3, 1, 32),
    (1, 1024, 1024, 7, 7, 3, 1, 32),
    (1, 104, 104, 28, 28, 3, 1, 13),      # RegNetY-400MF
    (1, 440, 440, 7, 7, 3, 1, 55),
]
# (N, IN, OUT)
LINEARS = [
    (1, 2048, 1000),                      # ResNet-50
    (1, 1280, 1000),                      # MobileNetV2
    (1, 25088, 4096),                     # VGG16
    (1, 4096, 4096),
    (8, 2048, 1000),
    (8, 4096, 4096),
    (64, 1024, 1024),
]


def random_shapes(rng, count):
    """`count` random rows of each kind, in the ranges of the lists."""
    pools, depthwise, grouped, linears = [], [], [], []
    for _ in range(count):
        window = rng.choice([2, 3, 5])
        stride = rng.choice([1, 2, window])
        h = rng.randint(window, 120)
        pools.append((rng.choice(["max", "avg"]), rng.choice([1, 1, 4]),
                      rng.randint(1, 600), h, rng.randint(window, 120), window,
                      stride, rng.randint(0, window // 2)))
        window = rng.choice([3, 5])
        depthwise.append((rng.choice([1, 1, 4]), rng.randint(8, 1000),
                          rng.randint(4, 120), rng.randint(4, 120), window,
                          rng.choice([1, 2])))
        groups = rng.choice([2, 4, 8, 16, 32])
        window = rng.choice([1, 3])
        per_group = rng.randint(1, 64)
        grouped.append((rng.choice([1, 1, 4]), groups * per_group,
                        groups * rng.choice([per_group, rng.randint(1, 64)]),
                        rng.randint(7, 60),
                        rng.randint(7, 60), window, rng.choice([1, 2]),
                        groups))
        linears.append((rng.choice([1, 1, 2, 8, 33]), rng.randint(16, 8192),
                        rng.randint(16, 4096)))
    return pools, depthwise, grouped, linears


def output_size(size, window, stride, pad):
    return (size + 2 * pad - window) // stride + 1


def to_blocked(x):
    """N x C x H x W as N x C/16 x H x W x 16 (the last block padded with
    zeros)."""
    n, c, h, w = x.shape
    blocks = -(-c // BLOCK)
    padded = np.zeros((n, blocks * BLOCK, h, w), np.float32)
    padded[:, :c] = x
    return np.ascontiguousarray(
        padded.reshape(n, blocks, BLOCK, h, w).transpose(0, 1, 3, 4, 2))


def from_blocked(y, c):
    n, blocks, h, w, _ = y.shape
    return y.transpose(0, 1, 4, 2, 3).reshape(n, blocks * BLOCK, h, w)[:, :c]


def blocked_shape(n, c, h, w):
    return (n, -(-c // BLOCK), h, w, BLOCK)


def pool_layer(row, rng):
    """(name, MLIR text, dl arguments, check, onednn-bench arguments,
    bytes)."""
    kind, n, c, h, w, window, stride, pad = row
    oh, ow = (output_size(s, window, stride, pad) for s in (h, w))
    writer = dl.mlir_text.FunctionWriter("layer")
    x = writer.argument(blocked_shape(n, c, h, w))
    attrs = (f"window = array<i64: {window}, {window}>, strides = "
             f"array<i64: {stride}, {stride}>, padding = array<i64: "
             f"{pad}, {pad}, {pad}, {pad}>")
    y = writer.op(f"{kind}_pool2d", [x],
                  writer.empty(blocked_shape(n, c, oh, ow)), attrs)
    data = rng.uniform(-1, 1, (n, c, h, w)).astype(np.float32)
    torch_pool = F.max_pool2d if kind == "max" else F.avg_pool2d

    def check(result):
        expected = torch_pool(torch.from_numpy(data), window, stride, pad)
        return from_blocked(result, c), expected.numpy()

    name = f"{kind}pool {n}x{c}x{h}x{w} {window}x{window}/{stride} p{pad}"
    args = ["pool", n, c, h, w, window, window, stride, pad, "--layout",
            "blocked"] + (["--avg"] if kind == "avg" else [])
    return (name, writer.finish([y]), [to_blocked(data)], check, args,
            4 * n * c * (h * w + oh * ow))


def depthwise_layer(row, rng):
    n, c, h, w, window, stride = row
    pad = window // 2
    oh, ow = (output_size(s, window, stride, pad) for s in (h, w))
    writer = dl.mlir_text.FunctionWriter("layer")
    x = writer.argument(blocked_shape(n, c, h, w))
    f = writer.argument((window, window, c), constant=True)
    attrs = (f"strides = array<i64: {stride}, {stride}>, padding = "
             f"array<i64: {pad}, {pad}, {pad}, {pad}>")
    y = writer.op("depthwise_conv2d", [x, f],
                  writer.empty(blocked_shape(n, c, oh, ow)), attrs)
    data = rng.uniform(-1, 1, (n, c, h, w)).astype(np.float32)
    filt = rng.uniform(-1, 1, (c, 1, window, window)).astype(np.float32)

    def check(result):
        expected = F.conv2d(torch.from_numpy(data), torch.from_numpy(filt),
                            stride=stride, padding=pad, groups=c)
        return from_blocked(result, c), expected.numpy()

    name = f"depthwise {n}x{c}x{h}x{w} {window}x{window}/{stride}"
    args = ["conv", n, c, c, h, w, window, window, stride, pad, "--groups", c]
    return (name, writer.finish([y]),
            [to_blocked(data),
             np.ascontiguousarray(filt[:, 0].transpose(1, 2, 0))], check, args,
            4 * (n * c * (h * w + oh * ow) + c * window * window))


def grouped_layer(row, rng):
    n, c, k, h, w, window, stride, groups = row
    pad = window // 2
    oh, ow = (output_size(s, window, stride, pad) for s in (h, w))
    writer = dl.mlir_text.FunctionWriter("layer")
    x = writer.argument((n, c, h, w))
    data = rng.uniform(-1, 1, (n, c, h, w)).astype(np.float32)
    weights = rng.uniform(-1, 1, (k, c // groups, window, window)).astype(
        np.float32)
    weight = writer.argument(weights.shape, constant=True)
    attrs = (f"strides = array<i64: {stride}, {stride}>, padding = "
             f"array<i64: {pad}, {pad}, {pad}, {pad}>")
    y = writer.grouped_conv2d(x, weight, (n, k, oh, ow), attrs, groups)

    def check(result):
        expected = F.conv2d(torch.from_numpy(data), torch.from_numpy(weights),
                            stride=stride, padding=pad, groups=groups)
        return result, expected.numpy()

    name = f"grouped {n}x{c}x{h}x{w}->{k} {window}x{window}/{stride} g{groups}"
    args = ["conv", n, c, k, h, w, window, window, stride, pad, "--groups",
            groups]
    return (name, writer.finish([y]), [data, weights], check, args,
            4 * (n * c * h * w + n * k * oh * ow + weights.size))


def linear_layer(row, rng):
    n, inputs, features = row
    writer = dl.mlir_text.FunctionWriter("layer")
    data = rng.uniform(-1, 1, (n, inputs)).astype(np.float32)
    weights = rng.uniform(-1, 1, (features, inputs)).astype(np.float32)
    biases = rng.uniform(-1, 1, (features,)).astype(np.float32)
    bound = np.ascontiguousarray(writer.linear_weight(weights, n))
    x = writer.argument((n, inputs))
    weight = writer.argument(bound.shape, constant=True)
    bias = writer.argument((features,), constant=True)
    y = writer.linear(x, weight, bias, n, features)

    def check(result):
        expected = F.linear(torch.from_numpy(data), torch.from_numpy(weights),
                            torch.from_numpy(biases))
        return result, expected.numpy()

    name = f"linear {n}x{inputs}->{features}"
    return (name, writer.finish([y]), [data, bound, biases], check,
            ["linear", n, inputs, features],
            4 * (n * inputs + features * inputs + features + n * features))


KINDS = {"pool": pool_layer, "depthwise": depthwise_layer,
         "grouped": grouped_layer, "linear": linear_layer}


def time_layer(layer, threads, onednn, rounds, min_time):
    """(dl ms, oneDNN ms, oneDNN's implementation) of `layer`, medians of
    interleaved rounds; exits if dl's output is wrong."""
    name, text, arrays, check, onednn_args, _ = layer
    function = dl.compile(text, threads=threads, cache=False).layer
    got, expected = check(function(*arrays))
    scale = max(float(np.abs(expected).max()), 1e-30)
    error = float(np.abs(got - expected).max()) / scale
    if not error <= TOLERANCE:
        sys.exit(f"error: {name}: dl's output differs from PyTorch's "
                 f"(largest difference {error:.2e} of the largest magnitude)")
    out = np.empty(function.result_shapes[0], np.float32)
    times = {"dl": [], "onednn": []}
    impl = ""
    for r in range(rounds):
        for system in (["dl", "onednn"] if r % 2 == 0 else ["onednn", "dl"]):
            if system == "dl":
                seconds = function.time(*arrays, out=out, min_time=min_time)
                times["dl"].append(statistics.median(seconds) * 1e3)
            else:
                result = harness.run_json(
                    [onednn] + [str(a) for a in onednn_args] +
                    ["--threads", str(threads), "--min-time", str(min_time)],
                    threads)
                times["onednn"].append(result["median_ms"])
                impl = result["impl"]
    return (statistics.median(times["dl"]), statistics.median(times["onednn"]),
            impl)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    parser.add_argument("--out", default=None,
                        help="output directory (default: <build>/benchmarks)")
    parser.add_argument("--threads", default=f"1,{os.cpu_count()}",
                        help="comma-separated thread counts")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--min-time", type=float, default=0.2,
                        help="seconds each system is timed per round")
    parser.add_argument("--only", default=",".join(KINDS),
                        help="comma-separated kinds: "
                             "pool,depthwise,grouped,linear")
    parser.add_argument("--random", type=int, default=0, metavar="K",
                        help="also K random shapes per kind")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--skip-lists", action="store_true",
                        help="only the random shapes")
    args = parser.parse_args()

    global dl
    sys.path.insert(0, os.path.join(args.build, "python_packages"))
    import dl  # noqa: E402
    import dl.mlir_text  # noqa: E402,F401
    _, _, onednn, out = harness.harness_paths(args.build, args.out)
    kinds = args.only.split(",")
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        sys.exit(f"error: unknown kind {unknown[0]} (expected one of "
                 f"{', '.join(KINDS)})")
    rows = {kind: [] for kind in KINDS}
    if not args.skip_lists:
        rows = {"pool": list(POOLS), "depthwise": list(DEPTHWISE),
                "grouped": list(GROUPED), "linear": list(LINEARS)}
    for kind, shapes in zip(KINDS, random_shapes(random.Random(args.seed),
                                                 args.random)):
        rows[kind] += shapes

    records = []
    for threads in [int(t) for t in args.threads.split(",")]:
        os.sched_setaffinity(0, range(threads))
        print(f"== {threads} thread(s)", flush=True)
        ratios = {kind: [] for kind in kinds}
        for kind in kinds:
            for row in rows[kind]:
                layer = KINDS[kind](row, np.random.default_rng(0))
                dl_ms, onednn_ms, impl = time_layer(
                    layer, threads, onednn, args.rounds, args.min_time)
                name, nbytes = layer[0], layer[-1]
                ratio = onednn_ms / dl_ms
                ratios[kind].append(ratio)
                print(f"{name:42} dl {dl_ms:8.4f} ms {nbytes / dl_ms / 1e6:6.1f}"
                      f" GB/s  onednn {onednn_ms:8.4f} ms "
                      f"{nbytes / onednn_ms / 1e6:6.1f} GB/s  dl/onednn "
                      f"{ratio:5.2f}  ({impl})", flush=True)
                records.append({"threads": threads, "kind": kind,
                                "layer": name, "dl_ms": dl_ms,
                                "onednn_ms": onednn_ms, "ratio": ratio,
                                "bytes": nbytes, "onednn_impl": impl})
        summary = " ".join(
            f"{kind}={math.exp(statistics.mean(map(math.log, r))):.3f}"
            for kind, r in ratios.items() if r)
        print(f"layers dl/onednn: {summary} threads={threads}", flush=True)
    path = os.path.join(out, "layers.csv")
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(records[0]))
        writer.writeheader()
        writer.writerows(records)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
