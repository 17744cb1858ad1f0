#!/usr/bin/env python3
"""The benchmark harness: dl against oneDNN on ResNet-50 convolutions and GEMMs.

For each thread count (default: 1 and all cores) and each shape of
resnet50_conv.csv (batch N = threads) and gemm.csv, this
  1. writes the problem as a dl module (convolutions in the blocked layouts
     NCHW{c}c / KCRS{c}c{k}k, as oneDNN also runs blocked layouts; GEMMs
     with A and C row-major and B, the weights, blocked ahead of time
     (N/bn x K/bk x bk x bn), as oneDNN's B is in the layout it picks;
     the blocks are those the compiler chooses, read from `dl-opt`'s
     layout passes (`--block` sets the target's vector width),
     reordered untimed; and a second time with a row-major B, which both
     systems then handle in the timed run: the "plain B" pair),
  2. checks dl's compiled code against the reference lowering
     (`dl-compile --run`; a mismatch stops the harness before any timing
     counts) and records the time of that one reference run,
  3. times dl (`dl-compile --bench`), oneDNN (`onednn-bench`, f32
     forward_inference, its own layouts, reorders untimed) and dl with the
     default loop order (`--rank=false`: PolyDL's "microkernel" baseline)
     and dl with the tiles of the Ipopt tile solver (`--solve-tiles`) in
     the same run, interleaved: `--rounds` rounds, alternating the order;
     each system's figure is the median over rounds of its per-round
     medians.
dl compiles with a machine file dl-probe measures at the start
(--machine-file). Every run is pinned to CPUs 0..threads-1 (taskset), for
every system alike. The machine's fp32 peak is measured with
an FMA loop (`onednn-bench peak`).
Writes a table per thread count, results.csv, results.png (when matplotlib
is installed) into --out, and ends with
  geomean dl/onednn: conv=<x> gemm=<y> gemm_plain_b=<z> threads=<t>
for each thread count (the last line is the all-cores run).
`gemm` compares the two systems with B packed ahead of time, `gemm_plain_b`
with B row-major (packing included in both timings).
"""

import argparse
import csv
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def read_shapes(path):
    with open(path) as f:
        rows = [r for r in csv.reader(line for line in f if not line.startswith("#"))]
    return [r for r in rows if r]


def host_block():
    """Channel block of four vector registers, as the compiler's default
    blocks (dl::microkernelColumns): 64 floats with AVX-512F, else 32. Only
    the default of --block: the blocks themselves are the compiler's
    (compiler_layout)."""
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((line for line in f if line.startswith("flags")), "").split()
    except OSError:
        flags = []
    return 64 if "avx512f" in flags else 32


def target_option(block):
    """The dl-set-target option whose vector width makes `block` (four
    vector registers of floats) the largest channel block."""
    return f"--dl-set-target=vector-bits={block * 8}"


def compiler_layout(dl_opt, module, passes, block):
    """`module` after dl-opt's `passes` (with the target of `block`): what
    the compiler decides, read from its output rather than re-derived."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(module)
        path = f.name
    try:
        proc = subprocess.run([dl_opt, path, target_option(block)] + passes,
                              capture_output=True, text=True)
    finally:
        os.unlink(path)
    if proc.returncode != 0:
        raise RuntimeError(f"dl-opt {' '.join(passes)}: "
                           f"{proc.stderr.strip().splitlines()[0]}")
    return proc.stdout


CONV_RE = re.compile(
    r"dl\.conv2d\s+ins\([^:]*:\s*(memref<[^>]*>),\s*(memref<[^>]*>)\)\s*"
    r"outs\([^:]*:\s*(memref<[^>]*>)\)\s*(\{[^}]*\})?")


def memref_rank(memref):
    return memref[len("memref<"):-1].count("x")


def conv_function(name, t_in, t_f, t_out, attrs):
    return (
        f"func.func @{name}(%in: {t_in}, %f: {t_f}, %out: {t_out}) {{\n"
        f"  dl.conv2d ins(%in, %f : {t_in}, {t_f}) outs(%out : {t_out})\n"
        f"      {attrs}\n"
        "  return\n}\n"
    )


def conv_module(name, n, c, k, h, w, r, s, stride, pad, block, dl_opt,
                layout=False):
    """The convolution in the layouts dl-block-conv-layouts gives it
    (blocked NCHW{c}c / KCRS{c}c{k}k, or plain where the compiler keeps it
    plain), alone; with `layout`, also a description of them
    ("blocked(cb,kb)" or "plain")."""
    oh, ow = (h + 2 * pad - r) // stride + 1, (w + 2 * pad - s) // stride + 1
    attrs = (f"{{strides = array<i64: {stride}, {stride}>, "
             f"padding = array<i64: {pad}, {pad}, {pad}, {pad}>}}")
    plain = conv_function(name, f"memref<{n}x{c}x{h}x{w}xf32>",
                          f"memref<{k}x{c}x{r}x{s}xf32>",
                          f"memref<{n}x{k}x{oh}x{ow}xf32>", attrs)
    convs = CONV_RE.findall(compiler_layout(
        dl_opt, plain, ["--dl-block-conv-layouts"], block))
    blocked = [cv for cv in convs if memref_rank(cv[0]) == 5]
    if len(convs) != 1 or len(blocked) != 1:
        return (plain, "plain") if layout else plain
    t_in, t_f, t_out, found = blocked[0]
    module = conv_function(name, t_in, t_f, t_out, found or attrs)
    if not layout:
        return module
    cb = t_in[len("memref<"):-1].split("x")[4]
    kb = t_out[len("memref<"):-1].split("x")[4]
    return module, f"blocked({cb},{kb})"


def conv_blocks(n, c, k, h, w, r, s, stride, pad, block, dl_opt):
    """(cb, kb): the input- and output-channel blocks the compiler gives the
    convolution; exits where it keeps it plain."""
    _, layout = conv_module("conv", n, c, k, h, w, r, s, stride, pad, block,
                            dl_opt, layout=True)
    found = re.fullmatch(r"blocked\((\d+),(\d+)\)", layout)
    if not found:
        sys.exit(f"error: dl keeps the {c} -> {k} channel convolution plain")
    return int(found.group(1)), int(found.group(2))


def gemm_blocks(m, n, k, block, dl_opt):
    """(bk, bn) of B's blocks as dl-pack-gemm-operands chooses them for the
    GEMM (its `pack_blocks`), or None where it gives B no blocks (a
    GEMV-like GEMM streaming A, a narrow one reading B in place)."""
    text = compiler_layout(dl_opt, gemm_module("gemm", m, n, k),
                           ["--dl-pack-gemm-operands"], block)
    found = re.search(r"pack_blocks = array<i64: (\d+), (\d+), (\d+)>", text)
    if not found or "stream_a" in text:
        return None
    _, bn, bk = map(int, found.groups())
    return bk, bn


def with_schedule(dl_opt, module, schedule):
    """`module` with its heavy op's `schedule` fixed to `schedule` (the text of
    a #dl.schedule). The layout passes run first (`dl-layouts`, as before
    the ranking in dl-compile: the schedule's dimensions are those of the
    merged rows, the GEMM's blocks)."""
    proc = subprocess.run([dl_opt, "--dl-layouts", "-"], input=module,
                          capture_output=True, text=True, check=True)
    lines = proc.stdout.splitlines()
    for i, line in enumerate(lines):
        if re.search(r"dl\.(conv2d|matmul) ", line):
            if line.rstrip().endswith("}"):
                lines[i] = line.rstrip()[:-1] + f", schedule = {schedule}}}"
            else:
                lines[i] = line.rstrip() + f" {{schedule = {schedule}}}"
            return "\n".join(lines) + "\n"
    sys.exit("error: no dl.conv2d or dl.matmul in the module")


def gemm_module(name, m, n, k, b_blocks=None):
    """C = A * B, B row-major (K x N) or, with `b_blocks` = (bk, bn),
    blocked (N/bn x K/bk x bk x bn)."""
    ta, tb, tc = f"memref<{m}x{k}xf32>", f"memref<{k}x{n}xf32>", f"memref<{m}x{n}xf32>"
    if b_blocks:
        bk, bn = b_blocks
        tb = f"memref<{n // bn}x{k // bk}x{bk}x{bn}xf32>"
    return (
        f"func.func @{name}(%a: {ta}, %b: {tb}, %c: {tc}) {{\n"
        f"  dl.matmul ins(%a, %b : {ta}, {tb}) outs(%c : {tc})\n"
        "  return\n}\n"
    )


def pinned(cmd, threads):
    """`cmd` run on CPUs 0..threads-1 (taskset).

    Every system is timed this way: an unpinned single-thread run here moves
    between cores and its timings split into a fast and a slow mode (e.g.
    73 vs 97 GFLOPS for one 1x1 convolution over repeated runs). OpenMP's own
    binding (OMP_PROC_BIND/OMP_PLACES) is not used: with libgomp it put both
    threads of `onednn-bench peak` on one CPU here (100 instead of 200 GFLOPS)."""
    return ["taskset", "-c", f"0-{threads - 1}"] + cmd


def run_json(cmd, threads=1):
    proc = subprocess.run(pinned(cmd, threads), capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"error: {' '.join(cmd)} failed ({proc.returncode}):\n"
                 f"{proc.stdout}{proc.stderr}")
    text = proc.stdout.strip()
    return json.loads(text[text.index("{"):])


def add_machine_file_option(parser):
    parser.add_argument("--machine-file", default="probe",
                        help="machine file (dl-probe) the ranking and the tile solver "
                             "model: 'probe' (default) measures this machine once with "
                             "dl-probe into <out>/machine.json; 'none' uses the cache "
                             "sizes sysfs reports and the default bandwidths")


def machine_file_args(choice, bindir, out):
    """The dl-compile arguments for --machine-file `choice`, probing first
    when asked. The probe measures how much of the shared last-level cache one
    core can use, which sysfs cannot tell: on the 2-core VM of the README's
    figures sysfs reports 32 MiB, of which one core gets 12-16 MiB."""
    if choice == "none":
        return []
    if choice == "probe":
        choice = os.path.join(out, "machine.json")
        proc = subprocess.run([os.path.join(bindir, "dl-probe"), "-o", choice],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit(f"error: dl-probe failed ({proc.returncode}):\n"
                     f"{proc.stdout}{proc.stderr}")
        print(f"machine file {choice} (dl-probe):", flush=True)
        for line in (proc.stdout + proc.stderr).splitlines():
            if re.match(r"(L[0-9]|memory|cores):", line):
                print("  " + line, flush=True)
    return [f"--machine-file={choice}"]


def dl_paths(build, out):
    """(dl-compile, output directory) of a benchmark run; exits if dl-compile
    is not built, creates the output directory (default:
    <build>/benchmarks)."""
    dl_compile = os.path.join(build, "bin", "dl-compile")
    if not os.access(dl_compile, os.X_OK):
        sys.exit(f"error: {dl_compile} not built (run utils/setup.sh)")
    out = out or os.path.join(build, "benchmarks")
    os.makedirs(out, exist_ok=True)
    return dl_compile, out


def harness_paths(build, out):
    """(bin directory, dl-compile, onednn-bench, output directory) of a
    harness run; exits if a tool is not built, creates the output
    directory (default: <build>/benchmarks)."""
    bindir = os.path.join(build, "bin")
    dl_compile = os.path.join(bindir, "dl-compile")
    onednn = os.path.join(bindir, "onednn-bench")
    for tool in (dl_compile, onednn):
        if not os.access(tool, os.X_OK):
            sys.exit(f"error: {tool} not built (run utils/setup.sh; "
                     "onednn-bench needs libdnnl-dev)")
    out = out or os.path.join(build, "benchmarks")
    os.makedirs(out, exist_ok=True)
    return bindir, dl_compile, onednn, out


def check_against_reference(dl_compile, path, common, threads, what):
    """Runs `path` once through dl and its reference lowering (`dl-compile
    --run`); exits on a mismatch, else returns the run's JSON record."""
    check = run_json([dl_compile, path, "--run", "--json", "--bench",
                      "--bench-min-reps=1", "--bench-min-time=0",
                      "--bench-warmup=0"] + common, threads)["functions"][0]
    if not check["ok"]:
        sys.exit(f"error: {what}: dl differs from the reference "
                 f"(max_abs_err={check['max_abs_err']})")
    return check


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"),
                        help="dl build directory (default: %(default)s)")
    parser.add_argument("--out", default=None,
                        help="output directory (default: <build>/benchmarks)")
    parser.add_argument("--threads", default=f"1,{os.cpu_count()}",
                        help="comma-separated thread counts (default: %(default)s)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="interleaved timing rounds (default: %(default)s)")
    parser.add_argument("--min-time", type=float, default=0.3,
                        help="seconds of timed runs per system and round")
    parser.add_argument("--only", default=None,
                        help="regex: only shapes whose name matches")
    parser.add_argument("--block", type=int, default=host_block(),
                        help="largest channel block of the blocked layouts (default: four "
                             "vector registers per kernel row, as the compiler's blocks: "
                             "64 with AVX-512, 32 with AVX2)")
    parser.add_argument("--skip-default", action="store_true",
                        help="do not time the default loop order (--rank=false)")
    parser.add_argument("--skip-solved", action="store_true",
                        help="do not time the solver's tiles (--solve-tiles)")
    parser.add_argument("--skip-check", action="store_true",
                        help="skip the --run check (and the reference timing)")
    parser.add_argument("--skip-plain-b", action="store_true",
                        help="do not time the GEMMs with a row-major B")
    add_machine_file_option(parser)
    parser.add_argument("--conv-csv", default=os.path.join(HERE, "resnet50_conv.csv"))
    parser.add_argument("--gemm-csv", default=os.path.join(HERE, "gemm.csv"))
    args = parser.parse_args()

    bindir, dl_compile, onednn, out = harness_paths(args.build, args.out)
    dl_opt = os.path.join(bindir, "dl-opt")
    only = re.compile(args.only) if args.only else None
    threads_list = [int(t) for t in args.threads.split(",")]
    machine = machine_file_args(args.machine_file, bindir, out)

    rows = []
    summaries = []
    for threads in threads_list:
        peak = run_json([onednn, "peak", "--threads", str(threads)], threads)["gflops"]
        print(f"== {threads} thread(s): FMA-loop peak {peak:.1f} GFLOPS", flush=True)
        problems = []
        for name, *v in read_shapes(args.conv_csv):
            c, k, h, w, r, s, stride, pad = map(int, v)
            problems.append(("conv", name, conv_module(
                name, threads, c, k, h, w, r, s, stride, pad, args.block, dl_opt),
                ["conv", threads, c, k, h, w, r, s, stride, pad]))
        for name, *v in read_shapes(args.gemm_csv):
            m, n, k = map(int, v)
            blocks = gemm_blocks(m, n, k, args.block, dl_opt)
            problems.append(("gemm", name, gemm_module(name, m, n, k, blocks),
                             ["gemm", m, n, k],
                             None if args.skip_plain_b else gemm_module(name, m, n, k)))
        problems = [p for p in problems if not only or only.search(p[1])]

        for kind, name, module, onednn_args, *plain in problems:
            plain_b_module = plain[0] if plain else None
            paths = {}
            for key, text in (("main", module), ("plain_b", plain_b_module)):
                if text is None:
                    continue
                with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
                    f.write(text)
                    paths[key] = f.name
            common = ["--threads", str(threads)] + machine
            row = {"threads": threads, "kind": kind, "name": name, "peak": peak}
            if not args.skip_check:
                for key, path in paths.items():
                    check = check_against_reference(dl_compile, path, common, threads,
                                                    f"{name} ({key})")
                    if key == "main":
                        row["reference_gflops"] = (check["flops"]
                                                   / (check["reference_ms"] * 1e6))
                        row["max_abs_err"] = check["max_abs_err"]
            # system -> (dl module or None for oneDNN, extra arguments)
            runs = {"dl": ("main", []), "onednn": (None, []),
                    "default": ("main", ["--rank=false"]),
                    "solved": ("main", ["--solve-tiles"]),
                    "dl_plain_b": ("plain_b", []),
                    "onednn_plain_b": (None, ["--b-layout", "plain"])}
            systems = (["dl", "onednn"] + ([] if args.skip_default else ["default"])
                       + ([] if args.skip_solved else ["solved"])
                       + (["dl_plain_b", "onednn_plain_b"] if "plain_b" in paths else []))
            times = {system: [] for system in runs}
            dl_flops = None
            for rnd in range(args.rounds):
                order = systems if rnd % 2 == 0 else systems[::-1]
                for system in order:
                    key, extra = runs[system]
                    if key:
                        res = run_json([dl_compile, paths[key], "--bench", "--json",
                                        f"--bench-min-time={args.min_time}"]
                                       + common + extra, threads)["functions"][0]
                        times[system].append(res["median_ms"])
                        dl_flops = res["flops"]
                    else:
                        res = run_json([onednn] + [str(a) for a in onednn_args] +
                                       ["--threads", str(threads), "--min-time",
                                        str(args.min_time)] + extra, threads)
                        times[system].append(res["median_ms"])
                        row[system + "_impl"] = res["impl"]
            for path in paths.values():
                os.unlink(path)
            row["flops"] = dl_flops
            row["dl_ms"] = statistics.median(times["dl"])
            row["onednn_ms"] = statistics.median(times["onednn"])
            row["dl_gflops"] = dl_flops / (row["dl_ms"] * 1e6)
            row["onednn_gflops"] = dl_flops / (row["onednn_ms"] * 1e6)
            row["ratio"] = row["onednn_ms"] / row["dl_ms"]
            # oneDNN over dl within each round (the two ran back to back):
            # their spread over the rounds is the timing noise of `ratio`.
            row["round_ratios"] = [o / d for o, d in zip(times["onednn"], times["dl"])]
            if times["solved"]:
                row["solved_ms"] = statistics.median(times["solved"])
                row["solved_gflops"] = dl_flops / (row["solved_ms"] * 1e6)
                row["solved_ratio"] = row["onednn_ms"] / row["solved_ms"]
            default_ms = times["default"]
            if default_ms:
                row["default_ms"] = statistics.median(default_ms)
                row["default_gflops"] = dl_flops / (row["default_ms"] * 1e6)
                row["ranking_gain"] = row["default_ms"] / row["dl_ms"]
            plain_b = ""
            if times["dl_plain_b"]:
                for system in ("dl_plain_b", "onednn_plain_b"):
                    row[system + "_gflops"] = dl_flops / (
                        statistics.median(times[system]) * 1e6)
                row["plain_b_ratio"] = (row["dl_plain_b_gflops"]
                                        / row["onednn_plain_b_gflops"])
                plain_b = (f"  plain B: dl {row['dl_plain_b_gflops']:7.1f} onednn "
                           f"{row['onednn_plain_b_gflops']:7.1f} dl/onednn "
                           f"{row['plain_b_ratio']:5.2f}")
            rows.append(row)
            ref = (f"{row['reference_gflops']:8.2f}" if "reference_gflops" in row
                   else "     n/a")
            default = (f"{row['default_gflops']:7.1f}" if "default_gflops" in row
                       else "    n/a")
            solved = (f"{row['solved_gflops']:7.1f}" if "solved_gflops" in row
                      else "    n/a")
            print(f"{name:16s} dl {row['dl_gflops']:7.1f} GFLOPS "
                  f"({100 * row['dl_gflops'] / peak:5.1f}% peak)  onednn "
                  f"{row['onednn_gflops']:7.1f} ({100 * row['onednn_gflops'] / peak:5.1f}%)"
                  f"  dl/onednn {row['ratio']:5.2f}  default order {default}"
                  f"  solved tiles {solved}"
                  f"  reference {ref}{plain_b}", flush=True)

        def selected(kind, key):
            return [x[key] for x in rows
                    if x["threads"] == threads and x["kind"] == kind and key in x]

        def geomean(kind, key="ratio"):
            r = selected(kind, key)
            return math.exp(sum(map(math.log, r)) / len(r)) if r else float("nan")

        def round_range(kind):
            """Lowest and highest geomean of one round's ratios: how far the
            geomean moves with the timing noise of a single round."""
            per_shape = selected(kind, "round_ratios")
            if not per_shape:
                return float("nan"), float("nan")
            per_round = [math.exp(sum(math.log(r[i]) for r in per_shape) / len(per_shape))
                         for i in range(len(per_shape[0]))]
            return min(per_round), max(per_round)
        summaries.append((geomean("conv"), geomean("gemm"),
                          geomean("gemm", "plain_b_ratio"), threads,
                          round_range("conv"), round_range("gemm")))
        print(f"geomean ranked/default-order: conv={geomean('conv', 'ranking_gain'):.3f} "
              f"gemm={geomean('gemm', 'ranking_gain'):.3f} threads={threads}", flush=True)
        print(f"geomean solved-tiles/onednn: conv={geomean('conv', 'solved_ratio'):.3f} "
              f"gemm={geomean('gemm', 'solved_ratio'):.3f} threads={threads}", flush=True)

    fields = ["threads", "kind", "name", "flops", "dl_ms", "onednn_ms", "dl_gflops",
              "onednn_gflops", "ratio", "default_gflops", "ranking_gain",
              "solved_gflops", "solved_ratio", "dl_plain_b_gflops",
              "onednn_plain_b_gflops", "plain_b_ratio", "peak",
              "reference_gflops", "max_abs_err", "onednn_impl"]
    with open(os.path.join(out, "results.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, axes = plt.subplots(len(threads_list), 1, squeeze=False,
                                 figsize=(14, 4.5 * len(threads_list)))
        for ax, threads in zip(axes[:, 0], threads_list):
            sel = [r for r in rows if r["threads"] == threads]
            xs = range(len(sel))
            ax.bar([x - 0.2 for x in xs], [r["dl_gflops"] for r in sel], 0.4, label="dl")
            ax.bar([x + 0.2 for x in xs], [r["onednn_gflops"] for r in sel], 0.4,
                   label="oneDNN")
            ax.axhline(sel[0]["peak"] if sel else 0, color="gray", ls="--",
                       label="FMA peak")
            ax.set_xticks(list(xs), [r["name"] for r in sel], rotation=60,
                          ha="right", fontsize=7)
            ax.set_ylabel("GFLOPS")
            ax.set_title(f"{threads} thread(s)")
            ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(out, "results.png"), dpi=110)
        print(f"wrote {out}/results.csv and {out}/results.png")
    except ImportError:
        print(f"wrote {out}/results.csv (no PNG: python3-matplotlib not installed)")
    for conv, gemm, gemm_plain_b, threads, conv_rounds, gemm_rounds in summaries:
        print(f"geomean dl/onednn: conv={conv:.3f} gemm={gemm:.3f} "
              f"gemm_plain_b={gemm_plain_b:.3f} threads={threads}")
        print(f"  one round's geomean ranged: conv {conv_rounds[0]:.3f}-{conv_rounds[1]:.3f} "
              f"gemm {gemm_rounds[0]:.3f}-{gemm_rounds[1]:.3f}")


if __name__ == "__main__":
    main()
