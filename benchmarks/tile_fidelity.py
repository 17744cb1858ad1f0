#!/usr/bin/env python3
"""Tile-solver fidelity: the solver's pick against a brute-force tile sweep.

For a few ResNet-50 layers (default: the 3x3 layer of each stage, batch 1,
one thread), times
  - the schedule dl-solve-tile-sizes picks (`dl-compile --solve-tiles
    --rank=false`),
  - every schedule [n, kb:a, cb:b, oh:c, kb, oh, cb] of a sweep over up to
    --per-dim divisors a, b, c of the output-channel blocks, input-channel
    blocks and output rows (the full extent meaning no tile loop),
checks each against the reference once (`--run`), and reports per layer
  ratio = (time of the best swept schedule) / (time of the solver's pick)
(1.0 or more: the solver found the best; the target is >= 0.95). Ends with
  tile fidelity: geomean=<x> min=<y> layers=<n>
"""

import argparse
import math
import os
import re
import sys
import tempfile

import run as harness

LAYERS = "res2a_branch2b|res3a_branch2b|res4a_branch2b|res5a_branch2b"


def divisors(n, count):
    """Up to `count` divisors of n spread on a log scale, n included."""
    all_divisors = [d for d in range(1, n + 1) if n % d == 0]
    if len(all_divisors) <= count:
        return all_divisors
    picks = {all_divisors[round(i * (len(all_divisors) - 1) / (count - 1))]
             for i in range(count)}
    return sorted(picks)


def time_module(dl_compile, module, extra, min_time, check):
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(module)
        path = f.name
    try:
        flags = ["--run"] if check else []
        res = harness.run_json([dl_compile, path, "--bench", "--json",
                                "--threads=1", f"--bench-min-time={min_time}"]
                               + flags + extra)["functions"][0]
    finally:
        os.unlink(path)
    if check and not res["ok"]:
        sys.exit(f"error: a swept schedule differs from the reference "
                 f"({extra})")
    return res["median_ms"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(harness.ROOT, "build"))
    parser.add_argument("--only", default=LAYERS)
    parser.add_argument("--per-dim", type=int, default=3)
    parser.add_argument("--min-time", type=float, default=0.2)
    parser.add_argument("--block", type=int, default=harness.host_block())
    parser.add_argument("--conv-csv",
                        default=os.path.join(harness.HERE, "resnet50_conv.csv"))
    args = parser.parse_args()
    dl_compile = os.path.join(args.build, "bin", "dl-compile")
    dl_opt = os.path.join(args.build, "bin", "dl-opt")
    only = re.compile(args.only)

    ratios = []
    for name, *v in harness.read_shapes(args.conv_csv):
        if not only.search(name):
            continue
        c, k, h, w, r, s, stride, pad = map(int, v)
        module = harness.conv_module(name, 1, c, k, h, w, r, s, stride, pad,
                                     args.block, dl_opt)
        shapes = re.search(r"%out: memref<1x(\d+)x(\d+)x\d+x\d+xf32>", module)
        kb, oh = int(shapes.group(1)), int(shapes.group(2))
        cb = int(re.search(r"%in: memref<1x(\d+)x", module).group(1))
        solved = time_module(dl_compile, module, ["--solve-tiles", "--rank=false"],
                             args.min_time, check=True)
        best, best_schedule = math.inf, None
        for a in divisors(kb, args.per_dim):
            for b in divisors(cb, args.per_dim):
                for t in divisors(oh, args.per_dim):
                    loops = ["n"]
                    loops += [f"kb:{a}"] if a < kb else []
                    loops += [f"cb:{b}"] if b < cb else []
                    loops += [f"oh:{t}"] if t < oh else []
                    loops += ["kb", "oh", "cb"]
                    schedule = f"#dl.schedule<[{', '.join(loops)}]>"
                    ms = time_module(dl_compile, harness.with_schedule(dl_opt, module, schedule),
                                     [], args.min_time, check=False)
                    if ms < best:
                        best, best_schedule = ms, schedule
        ratio = best / solved
        ratios.append(ratio)
        print(f"{name:16s} solver {solved:8.3f} ms  best swept {best:8.3f} ms "
              f"{best_schedule}  ratio {ratio:5.3f}", flush=True)
    geomean = math.exp(sum(map(math.log, ratios)) / len(ratios))
    print(f"tile fidelity: geomean={geomean:.3f} min={min(ratios):.3f} "
          f"layers={len(ratios)}")


if __name__ == "__main__":
    main()
