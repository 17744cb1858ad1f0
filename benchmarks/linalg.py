#!/usr/bin/env python3
"""TOSA through linalg into dl, against the same ops written in dl directly.

`linalg.py [--threads 1,2] [--rounds 3] [--only REGEX]` writes each shape
twice:
  - as TOSA (`tosa.matmul`; `tosa.conv2d` on NHWC input and FHWC filter
    with a bias), lowered by the stock `mlir-opt-22`
    (tosa-to-linalg-named, tosa-to-linalg, tosa-to-arith, tosa-to-tensor)
    to linalg on tensors, which `dl-compile` raises (convert-linalg-to-dl)
    and bufferizes;
  - in dl directly: `dl.matmul` on row-major buffers; `dl.conv2d` on NCHW /
    KCRS buffers followed by `dl.bias_add` (what a dl user writes).
Both are checked against the reference lowering once (`dl-compile --run`:
for the TOSA program, the same linalg not raised), then timed interleaved
(`dl-compile --bench`, pinned to CPUs 0..threads-1, the order reversed
every other round; the median over rounds of the per-run medians). Each
row prints both times and raised/direct = direct_ms / raised_ms (above 1:
the raised program is faster); the last line per thread count is
  linalg raised/direct: geomean=<g> min=<m> threads=<t> shapes=<n>
"""

import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run  # noqa: E402  (the harness' paths and pinning)

# (name, kind, sizes): GEMM M, N, K; convolution N, H, W, C, K, R, stride, pad
# (TOSA wants (H + 2 pad - R) divisible by the stride).
SHAPES = [
    ("gemm_512x256x384", "gemm", (512, 256, 384)),
    ("gemm_128x1024x1024", "gemm", (128, 1024, 1024)),
    ("gemm_197x301x499", "gemm", (197, 301, 499)),
    ("conv_56x56_64_64_r3", "conv", (1, 56, 56, 64, 64, 3, 1, 1)),
    ("conv_28x28_128_128_r3", "conv", (1, 28, 28, 128, 128, 3, 1, 1)),
    ("conv_14x14_256_256_r3", "conv", (1, 14, 14, 256, 256, 3, 1, 1)),
    ("conv_56x56_64_256_r1", "conv", (1, 56, 56, 64, 256, 1, 1, 0)),
    ("conv_29x29_256_512_r1_st2", "conv", (1, 29, 29, 256, 512, 1, 2, 0)),
    ("conv_30x30_37_61_r3", "conv", (1, 30, 30, 37, 61, 3, 1, 1)),
]


def tosa_gemm(m, n, k):
    return f"""
func.func @f(%a: tensor<1x{m}x{k}xf32>, %b: tensor<1x{k}x{n}xf32>) -> tensor<1x{m}x{n}xf32> {{
  %zp = "tosa.const"() <{{values = dense<0.0> : tensor<1xf32>}}> : () -> tensor<1xf32>
  %c = tosa.matmul %a, %b, %zp, %zp : (tensor<1x{m}x{k}xf32>, tensor<1x{k}x{n}xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x{m}x{n}xf32>
  return %c : tensor<1x{m}x{n}xf32>
}}
"""


def direct_gemm(m, n, k):
    return f"""
func.func @f(%a: memref<{m}x{k}xf32>, %b: memref<{k}x{n}xf32>, %c: memref<{m}x{n}xf32>) {{
  dl.matmul ins(%a, %b : memref<{m}x{k}xf32>, memref<{k}x{n}xf32>) outs(%c : memref<{m}x{n}xf32>)
  return
}}
"""


def conv_out(size, r, stride, pad):
    return (size + 2 * pad - r) // stride + 1


def tosa_conv(n, h, w, c, k, r, stride, pad):
    oh, ow = conv_out(h, r, stride, pad), conv_out(w, r, stride, pad)
    x, f, y = (f"tensor<{n}x{h}x{w}x{c}xf32>", f"tensor<{k}x{r}x{r}x{c}xf32>",
               f"tensor<{n}x{oh}x{ow}x{k}xf32>")
    return f"""
func.func @f(%x: {x}, %w: {f}, %b: tensor<{k}xf32>) -> {y} {{
  %zp = "tosa.const"() <{{values = dense<0.0> : tensor<1xf32>}}> : () -> tensor<1xf32>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {{acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: {pad}, {pad}, {pad}, {pad}>, stride = array<i64: {stride}, {stride}>}}
       : ({x}, {f}, tensor<{k}xf32>, tensor<1xf32>, tensor<1xf32>) -> {y}
  return %y : {y}
}}
"""


def direct_conv(n, h, w, c, k, r, stride, pad):
    oh, ow = conv_out(h, r, stride, pad), conv_out(w, r, stride, pad)
    x, f, y = (f"memref<{n}x{c}x{h}x{w}xf32>", f"memref<{k}x{c}x{r}x{r}xf32>",
               f"memref<{n}x{k}x{oh}x{ow}xf32>")
    return f"""
func.func @f(%x: {x}, %w: {f}, %b: memref<{k}xf32>, %y: {y}) {{
  dl.conv2d ins(%x, %w : {x}, {f}) outs(%y : {y}) {{strides = array<i64: {stride}, {stride}>, padding = array<i64: {pad}, {pad}, {pad}, {pad}>}}
  dl.bias_add ins(%y, %b : {y}, memref<{k}xf32>) outs(%y : {y})
  return
}}
"""


def flops(kind, sizes):
    if kind == "gemm":
        m, n, k = sizes
        return 2.0 * m * n * k
    n, h, w, c, k, r, stride, pad = sizes
    return 2.0 * n * k * c * r * r * conv_out(h, r, stride, pad) * conv_out(w, r, stride, pad)


def tool_json(cmd, threads):
    proc = subprocess.run(run.pinned(cmd, threads), capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"error: {' '.join(cmd)} exited {proc.returncode}:\n{proc.stderr}")
    return json.loads(proc.stdout)["functions"][0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--min-time", type=float, default=0.2)
    parser.add_argument("--only", default="", help="regex on the shape names")
    parser.add_argument("--mlir-opt", default="mlir-opt-22")
    args = parser.parse_args()
    dl_compile = os.path.join(args.build, "bin", "dl-compile")
    threads_list = [int(t) for t in args.threads.split(",")]
    shapes = [s for s in SHAPES if re.search(args.only, s[0])]
    ratios = {t: [] for t in threads_list}
    with tempfile.TemporaryDirectory(prefix="dl-linalg-") as tmp:
        for name, kind, sizes in shapes:
            tosa_path = os.path.join(tmp, name + ".tosa.mlir")
            raised_path = os.path.join(tmp, name + ".linalg.mlir")
            direct_path = os.path.join(tmp, name + ".dl.mlir")
            with open(tosa_path, "w") as f:
                f.write((tosa_gemm if kind == "gemm" else tosa_conv)(*sizes))
            with open(direct_path, "w") as f:
                f.write((direct_gemm if kind == "gemm" else direct_conv)(*sizes))
            subprocess.run(
                [args.mlir_opt, tosa_path, "--pass-pipeline=builtin.module(func.func("
                 "tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor))",
                 "-o", raised_path], check=True)
            paths = {"raised": raised_path, "direct": direct_path}
            for what, path in paths.items():
                check = tool_json([dl_compile, path, "--run", "--json", "--threads",
                                   str(max(threads_list))], max(threads_list))
                if not check.get("ok", False):
                    sys.exit(f"error: {name} ({what}) differs from the reference: {check}")
            line = f"{name:28s}"
            for t in threads_list:
                times = {what: [] for what in paths}
                for rnd in range(args.rounds):
                    order = list(paths.items())
                    for what, path in (order if rnd % 2 == 0 else order[::-1]):
                        res = tool_json([dl_compile, path, "--bench", "--json",
                                         f"--bench-min-time={args.min_time}",
                                         "--threads", str(t)], t)
                        times[what].append(res["median_ms"])
                raised = statistics.median(times["raised"])
                direct = statistics.median(times["direct"])
                ratio = direct / raised
                ratios[t].append(ratio)
                gflops = flops(kind, sizes) / (raised * 1e6)
                line += (f" | t={t}: raised {raised:8.3f} ms ({gflops:6.1f} GFLOPS)"
                         f" direct {direct:8.3f} ms raised/direct {ratio:5.3f}")
            print(line, flush=True)
    for t in threads_list:
        values = ratios[t]
        if not values:
            continue
        geo = math.exp(sum(math.log(v) for v in values) / len(values))
        print(f"linalg raised/direct: geomean={geo:.3f} min={min(values):.3f} "
              f"threads={t} shapes={len(values)}")


if __name__ == "__main__":
    main()
