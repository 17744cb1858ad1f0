#!/usr/bin/env python3
"""Decision time per op: how long dl takes to choose each op's schedule.

For each shape of the harness's lists (resnet50_conv.csv with batch N =
threads, gemm.csv; the same modules as benchmarks/run.py), compiles the
module with `dl-compile --emit=obj` for the ranking alone (the default) and
with the tile solver's candidates merged into it (`--solve-tiles`), and
reads each op's `analysis_seconds` from `--dl-ranking-report` (the
working-set analysis of every variant, plus the Ipopt solves when merged).
Prints one line per shape and ends with
  decision_time <mode>: max=<s> median=<s> over_1s=<count> ops=<n> threads=<t>
for each mode. Writes decision_time.csv into --out.
"""

import argparse
import csv
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run import (conv_module, dl_paths, gemm_blocks, gemm_module, host_block,  # noqa: E402
                 read_shapes)

MODES = {"ranking": [], "merged": ["--solve-tiles"]}


def decision_seconds(dl_compile, path, threads, extra, tmp):
    """analysis_seconds of each op of the module at `path`, and the whole
    compile's wall time."""
    report = os.path.join(tmp, "report.json")
    obj = os.path.join(tmp, "out.o")
    proc = subprocess.run([dl_compile, path, "--emit=obj", "-o", obj, f"--threads={threads}",
                           f"--dl-ranking-report={report}"] + extra,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"error: compiling {path} failed:\n{proc.stderr}")
    with open(report) as f:
        ops = json.load(f)["ops"]
    return [op["analysis_seconds"] for op in ops]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    parser.add_argument("--out", default=None, help="output directory (default: <build>/benchmarks)")
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--only", default=None, help="regex: only shapes whose name matches")
    parser.add_argument("--conv-csv", default=os.path.join(HERE, "resnet50_conv.csv"))
    parser.add_argument("--gemm-csv", default=os.path.join(HERE, "gemm.csv"))
    args = parser.parse_args()

    dl_compile, out = dl_paths(args.build, args.out)
    only = re.compile(args.only) if args.only else None
    block = host_block()
    dl_opt = os.path.join(args.build, "bin", "dl-opt")
    problems = []
    for name, *v in read_shapes(args.conv_csv):
        if only and not only.search(name):
            continue
        c, k, h, w, r, s, stride, pad = map(int, v)
        problems.append((name, conv_module(name, args.threads, c, k, h, w, r, s, stride, pad,
                                           block, dl_opt)))
    for name, *v in read_shapes(args.gemm_csv):
        if only and not only.search(name):
            continue
        m, n, k = map(int, v)
        problems.append((name, gemm_module(name, m, n, k,
                                           gemm_blocks(m, n, k, block, dl_opt))))
    problems = [p for p in problems if not only or only.search(p[0])]
    if not problems:
        sys.exit(f"error: no shape matches --only '{args.only}'")

    tmp = tempfile.mkdtemp(prefix="dl-decision-")
    rows = []
    for name, module in problems:
        path = os.path.join(tmp, f"{name}.mlir")
        with open(path, "w") as f:
            f.write(module)
        row = {"name": name, "threads": args.threads}
        for mode, extra in MODES.items():
            row[f"{mode}_s"] = max(decision_seconds(dl_compile, path, args.threads, extra, tmp))
        rows.append(row)
        print(f"{name:20s} " + "  ".join(f"{mode} {row[f'{mode}_s']:.3f} s" for mode in MODES),
              flush=True)

    with open(os.path.join(out, "decision_time.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    for mode in MODES:
        times = [row[f"{mode}_s"] for row in rows]
        print(f"decision_time {mode}: max={max(times):.3f} median={statistics.median(times):.3f} "
              f"over_1s={sum(t > 1.0 for t in times)} ops={len(times)} threads={args.threads}")


if __name__ == "__main__":
    main()
