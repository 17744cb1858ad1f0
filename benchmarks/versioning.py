#!/usr/bin/env python3
"""Dynamic sizes against static ones: dl-parametric-versioning's targets.

`versioning.py --threads 1,2` times, for each case and each size, three
builds of the same op at that size, interleaved in one run (`--rounds`
rounds, the order reversed every other round, each figure the median over
rounds of `dl-compile --bench` medians, pinned to CPUs 0..threads-1 as in
run.py):
  static       the op with the size written in its types;
  versioned    the op with dynamic sizes (`?`, run at the size through
               dl.run_shape), through the default pipeline
               (dl-parametric-versioning on);
  unversioned  the same dynamic op with `--versioning=false`, for contrast
               (one warm-up run and one timed run: where it runs plain
               loops, they take seconds; a convolution with static
               channels is blocked by dl-block-conv-layouts either way,
               without the occupancy versions).
Cases (`--cases`):
  gemm_m     GEMM with M dynamic (K = N = 512, `--inner`): the batch of a
             serving system;
  conv_n     3x3 convolution, 64 -> 64 channels (`--inner`), 28x28, padding
             1, with a dynamic batch;
  gemm_mnk   GEMM with M, N and K dynamic;
  conv_nhw   the convolution with dynamic batch, height and width;
  conv_all   the convolution with every size dynamic.
A convolution's size is `<images>x<height and width>` (padding 1: the
output is as wide), or one number n for n x (7n + 3) (conv_n: n x 28).
gemm_mnk's generic version is blocked (packed operands, the partial
blocks' kernels dispatched with run-time sizes; plain loops where every
size is at most 12); so are the convolutions' (channel blocks, dynamic
channels padded to whole blocks of 64, output rows in blocks of 128
columns, the last one's kernels dispatched with run-time rows). Each
dynamic build is also compiled once to an object file with and without
versioning: compile time and object size.
Output: a row per size:
  <case> <size> | t=<t>: static <ms> versioned <ms> (<static/versioned>)
                  unversioned <ms> (<static/unversioned>) | ...
then per case `compile: versioned <s> s <KiB> KiB, unversioned <s> s <KiB>
KiB`, a CSV (<out>/versioning.csv) and per thread count a last line
  versioning versioned/static: geomean=<g> min=<m> threads=<t> sizes=<n>
over all cases, where the ratio is static time
over versioned time (1: as fast as static).
"""

import argparse
import csv
import math
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import dl_paths, run_json  # noqa: E402

CONV_HW = 28

CASES = {
    # name: sizes
    "gemm_m": [1, 7, 63, 64, 65, 251, 509, 1024, 2047],
    "conv_n": [1, 2, 3, 4, 5, 7, 8, 9, 13],
    "gemm_mnk": [1, 7, 31, 63, 64, 65, 127, 251, 509],
    # A prime, 127-129 around the blocks of 128 output columns, large.
    "conv_nhw": ["1x7", "2x17", "3x24", "1x56", "2x59", "1x127", "1x128",
                 "1x129", "1x224"],
    "conv_all": ["1x7", "2x17", "3x24", "1x56", "2x59", "1x127", "1x128",
                 "1x129", "1x224"],
}


def memref(shape, dynamic):
    return "memref<" + "x".join("?" if d else str(s) for s, d in zip(shape, dynamic)) + "xf32>"


def arg(name, shape, dynamic):
    """(the function argument, its type)."""
    type_ = memref(shape, dynamic)
    text = f"%{name}: {type_}"
    if any(dynamic):
        text += " {dl.run_shape = array<i64: " + ", ".join(map(str, shape)) + ">}"
    return text, type_


def conv_shape(case, size):
    """(images, height = width) of a convolution case's `size`."""
    text = str(size)
    if "x" in text:
        n, hw = text.split("x")
        return int(n), int(hw)
    return int(text), CONV_HW if case == "conv_n" else 7 * int(text) + 3


def module(case, size, dynamic, inner):
    """The case's op at `size` as a function @f, with its dynamic sizes as
    `?` when `dynamic` (run at `size` through dl.run_shape); `inner` is the
    GEMM's N and K and the convolution's channels."""
    if case.startswith("gemm"):
        size = int(size)
        m, n, k = (size, size, size) if case == "gemm_mnk" else (size, inner, inner)
        dm = dynamic
        dnk = dynamic and case == "gemm_mnk"
        args = [arg("a", (m, k), (dm, dnk)), arg("b", (k, n), (dnk, dnk)),
                arg("c", (m, n), (dm, dnk))]
        types = [t for _, t in args]
        return (f"func.func @f({', '.join(a for a, _ in args)}) {{\n"
                f"  dl.matmul ins(%a, %b : {types[0]}, {types[1]}) outs(%c : {types[2]})\n"
                "  return\n}\n")
    n, hw = conv_shape(case, size)
    spatial = dynamic and case in ("conv_nhw", "conv_all")
    channels = dynamic and case == "conv_all"
    args = [arg("x", (n, inner, hw, hw), (dynamic, channels, spatial, spatial)),
            arg("w", (inner, inner, 3, 3), (channels,) * 4),
            arg("y", (n, inner, hw, hw), (dynamic, channels, spatial, spatial))]
    types = [t for _, t in args]
    return (f"func.func @f({', '.join(a for a, _ in args)}) {{\n"
            f"  dl.conv2d ins(%x, %w : {types[0]}, {types[1]}) outs(%y : {types[2]})"
            " {padding = array<i64: 1, 1, 1, 1>}\n"
            "  return\n}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    parser.add_argument("--out", default=None, help="output directory (default: <build>/benchmarks)")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--min-time", type=float, default=0.2)
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--sizes", default=None,
                        help="comma-separated sizes for every case (default: each case's own); "
                             "a convolution's as <images>x<height> or n for n x (7n + 3)")
    parser.add_argument("--inner", type=int, default=None,
                        help="the GEMMs' N and K (default 512) and the convolutions' "
                             "channels (default 64)")
    parser.add_argument("--skip-unversioned", action="store_true",
                        help="do not time the unversioned dynamic builds")
    args = parser.parse_args()

    dl_compile, out = dl_paths(args.build, args.out)
    threads = [int(t) for t in args.threads.split(",")]
    cases = args.cases.split(",")
    for case in cases:
        if case not in CASES:
            sys.exit(f"error: unknown case {case} (known: {', '.join(CASES)})")
    tmp = tempfile.mkdtemp(prefix="dl-versioning-")

    def inner(case):
        return args.inner or (512 if case.startswith("gemm") else 64)

    bench = ["--bench", "--json", f"--bench-min-time={args.min_time}"]
    rows = []
    ratios = {t: [] for t in threads}
    for case in cases:
        sizes = args.sizes.split(",") if args.sizes else CASES[case]
        for size in sizes:
            try:
                if case.startswith("gemm"):
                    int(size)
                else:
                    conv_shape(case, size)
            except ValueError:
                sys.exit(f"error: bad size '{size}' for {case} (a number, or "
                         "<images>x<height> for a convolution)")
        # Compile cost of the dynamic build (the same for every size).
        dyn_path = os.path.join(tmp, f"{case}_compile.mlir")
        with open(dyn_path, "w") as f:
            f.write(module(case, sizes[0], True, inner(case)))
        costs = {}
        for label, flags in (("versioned", []), ("unversioned", ["--versioning=false"])):
            obj = os.path.join(tmp, f"{case}_{label}.o")
            start = time.perf_counter()
            proc = subprocess.run([dl_compile, dyn_path, "--emit=obj", f"--threads={max(threads)}",
                                   "-o", obj] + flags, capture_output=True, text=True)
            if proc.returncode != 0:
                sys.exit(f"error: compiling {case} failed:\n{proc.stderr}")
            costs[label] = (time.perf_counter() - start, os.path.getsize(obj))
        for size in sizes:
            paths = {}
            for label, dynamic in (("static", False), ("versioned", True)):
                paths[label] = os.path.join(tmp, f"{case}_{size}_{label}.mlir")
                with open(paths[label], "w") as f:
                    f.write(module(case, size, dynamic, inner(case)))
            # Correctness first: the versioned build against the reference.
            check = run_json([dl_compile, paths["versioned"], "--run", "--json",
                              f"--threads={max(threads)}"], max(threads))["functions"][0]
            if not check["ok"]:
                sys.exit(f"error: {case} at {size}: versioned build differs from the reference")
            runs = [(label, t) for t in threads for label in ("static", "versioned")]
            times = {run: [] for run in runs}
            for r in range(args.rounds):
                for label, t in (runs if r % 2 == 0 else runs[::-1]):
                    res = run_json([dl_compile, paths[label], f"--threads={t}"] + bench, t)
                    times[(label, t)].append(res["functions"][0]["median_ms"])
            line = f"{case} {size}"
            row = {"case": case, "size": size}
            for t in threads:
                static = sorted(times[("static", t)])[len(times[("static", t)]) // 2]
                versioned = sorted(times[("versioned", t)])[len(times[("versioned", t)]) // 2]
                ratio = static / versioned
                line += f" | t={t}: static {static:.4f} versioned {versioned:.4f} ({ratio:.3f})"
                row.update({f"static_ms_t{t}": static, f"versioned_ms_t{t}": versioned,
                            f"ratio_t{t}": ratio})
                ratios[t].append(ratio)
                if not args.skip_unversioned:
                    res = run_json([dl_compile, paths["versioned"], f"--threads={t}",
                                    "--versioning=false", "--bench", "--json",
                                    "--bench-min-reps=1", "--bench-min-time=0",
                                    "--bench-warmup=1"], t)
                    unversioned = res["functions"][0]["median_ms"]
                    line += f" unversioned {unversioned:.4f} ({static / unversioned:.3f})"
                    row[f"unversioned_ms_t{t}"] = unversioned
            print(line, flush=True)
            rows.append(row)
        for label in ("versioned", "unversioned"):
            rows[-1][f"compile_s_{label}"] = costs[label][0]
            rows[-1][f"object_bytes_{label}"] = costs[label][1]
        print(f"{case} compile: versioned {costs['versioned'][0]:.2f} s "
              f"{costs['versioned'][1] / 1024:.0f} KiB, unversioned "
              f"{costs['unversioned'][0]:.2f} s {costs['unversioned'][1] / 1024:.0f} KiB",
              flush=True)
    csv_path = os.path.join(out, "versioning.csv")
    keys = sorted({k for row in rows for k in row}, key=lambda k: (k not in ("case", "size"), k))
    with open(csv_path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=keys)
        writer.writeheader()
        writer.writerows(rows)
    print(f"csv: {csv_path}")
    for t in threads:
        if ratios[t]:
            geomean = math.exp(sum(math.log(r) for r in ratios[t]) / len(ratios[t]))
            print(f"versioning versioned/static: geomean={geomean:.3f} "
                  f"min={min(ratios[t]):.3f} threads={t} sizes={len(ratios[t])}")


if __name__ == "__main__":
    main()
