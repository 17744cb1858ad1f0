#!/usr/bin/env python3
"""Random-shape sweep: dl against oneDNN on GEMMs and convolutions drawn at random.

`sweep.py --count N --seed S --threads 1,2 [--ops gemm,conv]` draws N shapes
with random.Random(S) (the same seed and options give the same shapes;
`--list` prints them and exits without running anything) and, for each shape,
  1. writes the problem as a dl module:
     - GEMM `C = A * B` (dl.matmul, beta = 0), A (M x K), B (K x N) and C
       (M x N) row-major (`--gemm-b plain`, the default; oneDNN then runs with
       `--b-layout plain`, so both systems' timings include whatever they do
       with the row-major B), or B blocked ahead of time (`--gemm-b blocked`:
       run.py's blocked module, whose blocks are the largest divisors of K and
       N not above 128 and the vector block, i.e. blocks of 1 for prime sizes;
       oneDNN then gets B in its own layout, reordered untimed);
     - convolution: the plain NCHW/KCRS dl.conv2d is rewritten by
       `dl-opt --dl-block-conv-layouts`, and the blocked dl.conv2d it produces
       (input NCHW{c}c, filter KCRS{c}c{k}k, output NKHW{k}k, with the blocks
       the compiler picks) is written alone into the module that is checked
       and timed, as run.py times blocked convolutions while oneDNN picks its
       own layouts (reorders untimed). Where the pass leaves the convolution
       plain, the plain module is timed and the row says `layout=plain`;
  2. times one compile of the module to an object file at the highest thread
     count (`dl-compile --emit=obj`: the pipeline and LLVM's code
     generation), then checks dl's compiled code against the reference
     lowering once, at that thread count (`dl-compile --run --json`, one
     run);
  3. times dl (`dl-compile --bench`) and oneDNN (`onednn-bench`) at every
     thread count, all interleaved in one run: `--rounds` rounds, the order of
     the (system, threads) runs reversed every other round; each figure is the
     median over rounds of the per-run medians (each run times at least
     `--min-time` seconds after one untimed run; dl skips that warm-up run
     where the check took over a second). Every run is pinned to CPUs
     0..threads-1 (taskset), as in run.py.
`--shapes a,b,...` runs the shapes named as the rows name them instead
(`gemm_MxNxK`, `conv_n<N>_c<C>_k<K>_<H>x<W>_r<R>_st<S>_p<P>`), to re-run a
sweep's slow rows.
Shapes:
  GEMM: M, N, K log-uniform in 1..4096, some primes, powers of two and powers
    of two +- 1; a quarter are skinny (one size in 1..16).
  conv: N in 1..4, C and K in 1..512 (some 3, odd, primes, non-multiples of
    16, multiples of 16), H = W (a quarter independent) log-uniform in
    7..224, R = S in {1, 3, 5, 7}, stride 1 or 2, padding 0..R//2.
  A draw above --max-flops (or with operands over 1 GiB) is drawn again (20
  tries), then shrunk (largest GEMM size, then conv H/W, channels, batch
  halved) until it fits.
FLOPs are those of the true shape (GEMM 2*M*N*K, conv 2*N*K*C*OH*OW*R*S),
whatever padding the blocked layouts add, so both systems' GFLOPS are the
same work over their times. GEMMs with a size <= 16 (GEMV-like, memory bound)
also report GB/s: bytes = 4*(M*K + K*N + M*N), each operand once (A and B
read, C written; with beta = 0 C is not read), over the median time, and that
as a % of the memory read bandwidth dl-probe measured on one core (the machine
file's memory.bandwidth, bytes/ns = GB/s; none with --machine-file=none);
operands that fit in the caches can exceed 100%, and so can two threads.

Output: a row per shape as it completes:
  [i/N] <name> layout=<plain|blocked(cb,kb)|blocked-b> flops=<f>
        | t=<threads>: dl <GFLOPS> onednn <GFLOPS> GFLOPS dl/onednn <ratio>
          [GB/s dl <x> (<%> of measured bandwidth) onednn <y> (<%>)] | ...
        | dl 2t/1t time <r> | compile <s> s
where dl/onednn = onednn_ms / dl_ms (above 1: dl is faster) and `2t/1t time`
is dl's time at the highest thread count over its time at the lowest (0.5:
perfect scaling from 1 to 2 threads; above 1: more threads are slower). A dl
failure (dl-opt or dl-compile error, --run mismatch) is a row
`<name> FAILED: <first line of the error>`; the sweep goes on and exits 1 at
the end. <out>/sweep.csv has a row per shape and thread count, <out>/sweep.png
(with matplotlib) the ratio against FLOPs (for convolutions the CSV's n is
the batch, c and k the input and output channels). The output ends with the worst dl
2t/1t time, the slowest compile, the shapes below 0.8 per thread count, the failures, and per
thread count
  sweep dl/onednn: geomean=<g> min=<m> threads=<t> shapes=<n>
over the shapes that ran (the last line is the last thread count's).
"""

import argparse
import csv
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run  # noqa: E402  (the harness: module writers, pinning, machine file)

GEMM_MAX = 4096
CONV_MAX_CHANNELS = 512
CONV_MIN_SIZE, CONV_MAX_SIZE = 7, 224
MAX_BYTES = 1 << 30  # operand bytes of one shape
REDRAWS = 20
GEMV_LIMIT = 16  # a GEMM with a size <= this is memory bound: GB/s reported
SLOW_CHECK_MS = 1000.0  # dl skips the warm-up run where the check took longer
BELOW = 0.8


# --- drawing shapes --------------------------------------------------------

def is_prime(x):
    if x < 2:
        return False
    i = 2
    while i * i <= x:
        if x % i == 0:
            return False
        i += 1
    return True


def log_uniform(rng, lo, hi):
    """An integer in lo..hi, log-uniform."""
    return min(hi, int(math.exp(rng.uniform(math.log(lo), math.log(hi + 1)))))


def prime_near(rng, lo, hi):
    """The first prime at or above a log-uniform draw (the last one below it
    where none is left), in lo..hi; lo where there is none."""
    x = log_uniform(rng, lo, hi)
    for y in list(range(x, hi + 1)) + list(range(x - 1, lo - 1, -1)):
        if is_prime(y):
            return y
    return lo


def power_of_two(rng, lo, hi, offsets):
    """2^e + d for d in `offsets`, kept in lo..hi."""
    e = rng.randint(max(0, math.ceil(math.log2(max(lo, 1)))), int(math.log2(hi)))
    d = rng.choice(offsets)
    v = 2 ** e + d
    if v > hi or v < lo:
        v = 2 ** e - d
    return max(lo, min(hi, v))


def gemm_size(rng, lo, hi):
    u = rng.random()
    if u < 0.15:
        return prime_near(rng, lo, hi)
    if u < 0.30:
        return power_of_two(rng, lo, hi, [-1, 1])
    if u < 0.40:
        return power_of_two(rng, lo, hi, [0])
    return log_uniform(rng, lo, hi)


def channels(rng):
    hi = CONV_MAX_CHANNELS
    u = rng.random()
    if u < 0.10:
        return 3
    if u < 0.25:  # odd
        v = log_uniform(rng, 1, hi)
        return v if v % 2 else (v + 1 if v < hi else v - 1)
    if u < 0.40:
        return prime_near(rng, 1, hi)
    if u < 0.55:  # not a multiple of 16
        v = log_uniform(rng, 1, hi)
        return v if v % 16 else v - rng.randint(1, 15)
    if u < 0.75:  # a multiple of 16
        return 16 * log_uniform(rng, 1, hi // 16)
    return log_uniform(rng, 1, hi)


def conv_out(size, r, stride, pad):
    return (size + 2 * pad - r) // stride + 1


def shape_flops(s):
    if s["op"] == "gemm":
        return 2 * s["m"] * s["n"] * s["k"]
    oh, ow = conv_out(s["h"], s["r"], s["stride"], s["pad"]), conv_out(
        s["w"], s["s"], s["stride"], s["pad"])
    return 2 * s["n"] * s["k"] * s["c"] * oh * ow * s["r"] * s["s"]


def shape_bytes(s):
    """Bytes of the operands, each once (the GB/s of GEMV-like GEMMs)."""
    if s["op"] == "gemm":
        m, n, k = s["m"], s["n"], s["k"]
        return 4 * (m * k + k * n + m * n)
    oh, ow = conv_out(s["h"], s["r"], s["stride"], s["pad"]), conv_out(
        s["w"], s["s"], s["stride"], s["pad"])
    return 4 * (s["n"] * s["c"] * s["h"] * s["w"] + s["k"] * s["c"] * s["r"] * s["s"]
                + s["n"] * s["k"] * oh * ow)


def shape_name(s):
    if s["op"] == "gemm":
        return f"gemm_{s['m']}x{s['n']}x{s['k']}"
    return (f"conv_n{s['n']}_c{s['c']}_k{s['k']}_{s['h']}x{s['w']}_r{s['r']}"
            f"_st{s['stride']}_p{s['pad']}")


def gemv_like(s):
    return s["op"] == "gemm" and min(s["m"], s["n"], s["k"]) <= GEMV_LIMIT


def draw_gemm(rng):
    sizes = [gemm_size(rng, 1, GEMM_MAX) for _ in range(3)]
    if rng.random() < 0.25:  # skinny
        sizes[rng.randrange(3)] = log_uniform(rng, 1, GEMV_LIMIT)
    m, n, k = sizes
    return {"op": "gemm", "m": m, "n": n, "k": k}


def draw_conv(rng):
    n = rng.randint(1, 4)
    c, k = channels(rng), channels(rng)
    h = log_uniform(rng, CONV_MIN_SIZE, CONV_MAX_SIZE)
    w = h if rng.random() < 0.75 else log_uniform(rng, CONV_MIN_SIZE, CONV_MAX_SIZE)
    r = rng.choice([1, 3, 5, 7])
    stride = rng.choice([1, 2])
    pad = rng.randint(0, r // 2)
    return {"op": "conv", "n": n, "c": c, "k": k, "h": h, "w": w, "r": r, "s": r,
            "stride": stride, "pad": pad}


def fits(s, max_flops):
    if s["op"] == "conv" and (conv_out(s["h"], s["r"], s["stride"], s["pad"]) < 1
                              or conv_out(s["w"], s["s"], s["stride"], s["pad"]) < 1):
        return False
    return shape_flops(s) <= max_flops and shape_bytes(s) <= MAX_BYTES


def shrink(s, max_flops):
    """Halves sizes of `s` until it fits (deterministic)."""
    s = dict(s)
    while not fits(s, max_flops):
        if s["op"] == "gemm":
            key = max(("m", "n", "k"), key=lambda x: s[x])
            if s[key] == 1:
                break
            s[key] = max(1, s[key] // 2)
            continue
        low = max(s["r"], 1)
        if s["h"] > low or s["w"] > low:
            s["h"], s["w"] = max(low, s["h"] // 2), max(low, s["w"] // 2)
        elif s["c"] > 1 or s["k"] > 1:
            s["c"], s["k"] = max(1, s["c"] // 2), max(1, s["k"] // 2)
        elif s["n"] > 1:
            s["n"] -= 1
        elif s["r"] > 1:
            s["r"] = s["s"] = s["r"] - 2
            s["pad"] = min(s["pad"], s["r"] // 2)
        else:
            break
    return s


def draw_shapes(count, seed, ops, max_flops):
    rng = random.Random(seed)
    shapes, seen = [], set()
    for _ in range(count):
        op = rng.choice(ops)
        draw = draw_gemm if op == "gemm" else draw_conv
        for _ in range(REDRAWS):
            s = draw(rng)
            if fits(s, max_flops) and shape_name(s) not in seen:
                break
        else:
            s = shrink(s, max_flops)
        seen.add(shape_name(s))
        shapes.append(s)
    return shapes


SHAPE_NAME = re.compile(
    r"gemm_(?P<m>\d+)x(?P<n>\d+)x(?P<k>\d+)$|"
    r"conv_n(?P<batch>\d+)_c(?P<c>\d+)_k(?P<ck>\d+)_(?P<h>\d+)x(?P<w>\d+)"
    r"_r(?P<r>\d+)_st(?P<stride>\d+)_p(?P<pad>\d+)$")


def parse_shape(name):
    """The shape of a row's name (shape_name's inverse), or None."""
    match = SHAPE_NAME.match(name.strip())
    if not match:
        return None
    v = {key: int(value) for key, value in match.groupdict().items() if value}
    if "m" in v:
        s = {"op": "gemm", "m": v["m"], "n": v["n"], "k": v["k"]}
    else:
        s = {"op": "conv", "n": v["batch"], "c": v["c"], "k": v["ck"], "h": v["h"],
             "w": v["w"], "r": v["r"], "s": v["r"], "stride": v["stride"], "pad": v["pad"]}
    return s if min(value for key, value in s.items() if key != "op" and key != "pad") >= 1 \
        else None


def describe(s):
    if s["op"] == "gemm":
        sizes = f"M={s['m']} N={s['n']} K={s['k']}"
    else:
        sizes = (f"N={s['n']} C={s['c']} K={s['k']} H={s['h']} W={s['w']} "
                 f"R={s['r']} S={s['s']} stride={s['stride']} pad={s['pad']}")
    return f"{shape_name(s):36s} {s['op']} {sizes} flops={shape_flops(s):.3g}"


# --- modules -----------------------------------------------------------------

class Failure(Exception):
    """A dl failure: the row is FAILED with this message."""


def first_line(text):
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


# --- running -----------------------------------------------------------------

def run_tool(cmd, threads, timeout):
    """The finished process of `cmd`, pinned (run.pinned). A tool that cannot
    be executed (taskset exits 126/127: a binary being relinked by a build)
    is tried again for up to a minute. Raises subprocess.TimeoutExpired."""
    for attempt in range(13):
        proc = subprocess.run(run.pinned(cmd, threads), capture_output=True,
                              text=True, timeout=timeout)
        if proc.returncode not in (126, 127):
            break
        time.sleep(5)
    return proc


def try_json(cmd, threads, timeout):
    """(JSON result, None) or (JSON result or None, error's first line)."""
    try:
        proc = run_tool(cmd, threads, timeout)
    except subprocess.TimeoutExpired:
        return None, f"{os.path.basename(cmd[0])} timed out after {timeout} s"
    result = None
    text = proc.stdout
    if "{" in text:
        try:
            result = json.loads(text[text.index("{"):])
        except ValueError:
            result = None
    if proc.returncode != 0 or result is None:
        why = first_line(proc.stderr) or first_line(proc.stdout)
        return result, (f"{os.path.basename(cmd[0])} exited {proc.returncode}"
                        + (f": {why}" if why else ""))
    return result, None


def measured_bandwidth(machine_args):
    """memory.bandwidth (bytes/ns = GB/s) of the machine file, or None."""
    for arg in machine_args:
        if arg.startswith("--machine-file="):
            try:
                with open(arg.split("=", 1)[1]) as f:
                    return float(json.load(f)["memory"]["bandwidth"])
            except (OSError, ValueError, KeyError, TypeError):
                return None
    return None


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values)) if values else float("nan")


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        epilog="See the docstring at the top of sweep.py for how to read the output.")
    parser.add_argument("--count", type=int, default=60, help="shapes (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default: %(default)s)")
    parser.add_argument("--ops", default="gemm,conv",
                        help="comma-separated ops to draw from: gemm, conv "
                             "(default: %(default)s)")
    parser.add_argument("--threads", default="1,2",
                        help="comma-separated thread counts (default: %(default)s)")
    parser.add_argument("--max-flops", type=float, default=2e10,
                        help="largest FLOPs of a shape; larger draws are drawn again, "
                             "then shrunk (default: %(default)g, 0.2 s at 100 GFLOPS)")
    parser.add_argument("--gemm-b", choices=["plain", "blocked"], default="plain",
                        help="GEMM B layout: 'plain' (default), row-major for both "
                             "systems (oneDNN --b-layout plain), what each does with it "
                             "timed; 'blocked', B blocked ahead of time as run.py's "
                             "blocked module (N/bn x K/bk x bk x bn, bk and bn the "
                             "largest divisors of K and N up to 128 and --block: 1 for "
                             "prime sizes) against oneDNN's own layout, reordered untimed")
    parser.add_argument("--block", type=int, default=run.host_block(),
                        help="largest bn of --gemm-b blocked (default: %(default)s, "
                             "four vector registers as run.py)")
    parser.add_argument("--rounds", type=int, default=2,
                        help="interleaved timing rounds (default: %(default)s)")
    parser.add_argument("--min-time", type=float, default=0.1,
                        help="seconds of timed runs per system, thread count and round "
                             "(default: %(default)s)")
    parser.add_argument("--timeout", type=float, default=600,
                        help="seconds one tool call may take before the shape fails "
                             "(default: %(default)s)")
    parser.add_argument("--shapes", default=None,
                        help="comma-separated shape names as the rows print them "
                             "(gemm_MxNxK, conv_n<N>_c<C>_k<K>_<H>x<W>_r<R>_st<S>_p<P>) "
                             "to run instead of drawing (--count, --seed and --ops "
                             "are then ignored)")
    parser.add_argument("--list", action="store_true",
                        help="print the drawn shapes and exit (no tools needed)")
    parser.add_argument("--build", default=os.path.join(run.ROOT, "build"),
                        help="dl build directory (default: %(default)s)")
    parser.add_argument("--out", default=None,
                        help="output directory (default: <build>/benchmarks/sweep)")
    run.add_machine_file_option(parser)
    args = parser.parse_args()

    ops = [op.strip() for op in args.ops.split(",") if op.strip()]
    if not ops or any(op not in ("gemm", "conv") for op in ops):
        parser.error(f"--ops: expected gemm and/or conv, got '{args.ops}'")
    threads_list = list(dict.fromkeys(int(t) for t in args.threads.split(",")))
    if any(t < 1 for t in threads_list):
        parser.error("--threads: thread counts must be >= 1")
    if args.shapes:
        shapes = []
        for name in filter(None, (x.strip() for x in args.shapes.split(","))):
            shape = parse_shape(name)
            if shape is None or not fits(shape, float("inf")):
                parser.error(f"--shapes: '{name}' is not a valid gemm_MxNxK or "
                             "conv_n<N>_c<C>_k<K>_<H>x<W>_r<R>_st<S>_p<P> shape")
            shapes.append(shape)
        if not shapes:
            parser.error("--shapes: no shape given")
    else:
        shapes = draw_shapes(args.count, args.seed, ops, args.max_flops)
    if args.list:
        for i, s in enumerate(shapes):
            print(f"{i + 1:3d} {describe(s)}")
        return 0

    start = time.time()
    bindir = os.path.join(args.build, "bin")
    dl_compile = os.path.join(bindir, "dl-compile")
    dl_opt = os.path.join(bindir, "dl-opt")
    onednn = os.path.join(bindir, "onednn-bench")
    for tool in (dl_compile, dl_opt, onednn):
        if not os.access(tool, os.X_OK):
            sys.exit(f"error: {tool} not built (run utils/setup.sh; "
                     "onednn-bench needs libdnnl-dev)")
    out = args.out or os.path.join(args.build, "benchmarks", "sweep")
    os.makedirs(out, exist_ok=True)
    machine = run.machine_file_args(args.machine_file, bindir, out)
    bandwidth = measured_bandwidth(machine)
    lo_t, hi_t = min(threads_list), max(threads_list)
    origin = "given" if args.shapes else f"seed {args.seed}, ops {','.join(ops)}"
    print(f"sweep: {len(shapes)} shapes, {origin}, "
          f"threads {','.join(map(str, threads_list))}, GEMM B {args.gemm_b}, "
          f"max flops {args.max_flops:g}, measured memory bandwidth "
          + (f"{bandwidth:.1f} GB/s" if bandwidth else "n/a"), flush=True)

    rows = []          # one per shape and thread count (the CSV)
    failures = []      # (name, message)
    scaling = []       # (dl hi_t/lo_t time, name)
    compiles = []      # (seconds of one compile to an object file, name)
    with tempfile.TemporaryDirectory(prefix="dl-sweep-") as tmpdir:
        for index, s in enumerate(shapes):
            name = shape_name(s)
            flops = shape_flops(s)
            nbytes = shape_bytes(s)
            memory_bound = gemv_like(s)
            base = {"op": s["op"], "name": name, "flops": flops, "bytes": nbytes,
                    **{key: s.get(key, "") for key in ("m", "n", "k", "c", "h", "w", "r", "s",
                                                       "stride", "pad")}}
            if s["op"] == "conv":
                base["m"] = ""
            tag = f"[{index + 1}/{len(shapes)}] {name}"
            func = re.sub(r"[^A-Za-z0-9_]", "_", name)
            try:
                if s["op"] == "gemm":
                    m, n, k = s["m"], s["n"], s["k"]
                    if args.gemm_b == "plain":
                        module, layout = run.gemm_module(func, m, n, k), "plain"
                        onednn_args = ["gemm", m, n, k, "--b-layout", "plain"]
                    else:
                        blocks = run.gemm_blocks(m, n, k, args.block, dl_opt)
                        module = run.gemm_module(func, m, n, k, blocks)
                        layout = (f"blocked-b({blocks[0]},{blocks[1]})" if blocks
                                  else "plain")
                        onednn_args = ["gemm", m, n, k]
                else:
                    try:
                        module, layout = run.conv_module(
                            func, s["n"], s["c"], s["k"], s["h"], s["w"], s["r"],
                            s["s"], s["stride"], s["pad"], args.block, dl_opt,
                            layout=True)
                    except RuntimeError as error:
                        raise Failure(str(error))
                    onednn_args = ["conv", s["n"], s["c"], s["k"], s["h"], s["w"], s["r"],
                                   s["s"], s["stride"], s["pad"]]
                base["layout"] = layout
                path = os.path.join(tmpdir, func + ".mlir")
                with open(path, "w") as f:
                    f.write(module)

                # One compile to an object file, timed: the pipeline's and
                # LLVM's time, which no run time shows.
                compile_start = time.time()
                try:
                    proc = run_tool([dl_compile, path, "--emit=obj", "-o",
                                     os.path.join(tmpdir, func + ".o"), "--threads",
                                     str(hi_t)] + machine, hi_t, args.timeout)
                except subprocess.TimeoutExpired:
                    raise Failure(f"dl-compile --emit=obj timed out after {args.timeout} s")
                if proc.returncode != 0:
                    raise Failure(f"dl-compile --emit=obj exited {proc.returncode}: "
                                  + first_line(proc.stderr))
                base["compile_s"] = time.time() - compile_start
                compiles.append((base["compile_s"], name))

                # The correctness check, once, at the highest thread count.
                result, error = try_json(
                    [dl_compile, path, "--run", "--json", "--bench", "--bench-min-reps=1",
                     "--bench-min-time=0", "--bench-warmup=0", "--threads", str(hi_t)]
                    + machine, hi_t, args.timeout)
                check = result["functions"][0] if result and result.get("functions") else None
                if check and not check.get("ok", False):
                    raise Failure("dl differs from the reference (max_abs_err="
                                  f"{check.get('max_abs_err')}, max_rel_err="
                                  f"{check.get('max_rel_err')})")
                if error:
                    raise Failure(error)
                base["reference_ms"] = check["reference_ms"]
                base["max_abs_err"] = check["max_abs_err"]
                dl_warmup = 0 if check["median_ms"] > SLOW_CHECK_MS else 1

                # (system, threads) runs, interleaved over the rounds.
                runs = [(system, t) for t in threads_list for system in ("dl", "onednn")]
                times = {key: [] for key in runs}
                impl = {}
                for rnd in range(args.rounds):
                    for system, t in (runs if rnd % 2 == 0 else runs[::-1]):
                        if system == "dl":
                            cmd = [dl_compile, path, "--bench", "--json",
                                   f"--bench-min-time={args.min_time}",
                                   f"--bench-warmup={dl_warmup}", "--bench-min-reps=1",
                                   "--threads", str(t)] + machine
                        else:
                            cmd = ([onednn] + [str(a) for a in onednn_args]
                                   + ["--threads", str(t), "--min-time", str(args.min_time),
                                      "--warmup", "1", "--min-reps", "1"])
                        result, error = try_json(cmd, t, args.timeout)
                        if error:
                            raise Failure(error) if system == "dl" else RuntimeError(error)
                        res = result["functions"][0] if system == "dl" else result
                        times[(system, t)].append(res["median_ms"])
                        if system == "onednn":
                            impl[t] = res.get("impl", "")
            except Failure as e:
                message = str(e).replace(tmpdir + os.sep, "")
                failures.append((name, message))
                for t in threads_list:
                    rows.append({**base, "threads": t, "status": "FAILED", "error": message})
                print(f"{tag} FAILED: {message}", flush=True)
                continue
            except RuntimeError as e:  # oneDNN failed: not dl's fault, no figure
                message = str(e).replace(tmpdir + os.sep, "")
                failures.append((name, "oneDNN: " + message))
                for t in threads_list:
                    rows.append({**base, "threads": t, "status": "ONEDNN_FAILED",
                                 "error": message})
                print(f"{tag} ONEDNN_FAILED: {message}", flush=True)
                continue

            parts = []
            dl_ms_by_t = {}
            for t in threads_list:
                dl_ms = statistics.median(times[("dl", t)])
                onednn_ms = statistics.median(times[("onednn", t)])
                dl_ms_by_t[t] = dl_ms
                row = {**base, "threads": t, "status": "ok", "dl_ms": dl_ms,
                       "onednn_ms": onednn_ms, "dl_gflops": flops / (dl_ms * 1e6),
                       "onednn_gflops": flops / (onednn_ms * 1e6),
                       "ratio": onednn_ms / dl_ms, "onednn_impl": impl.get(t, ""),
                       # oneDNN over dl within each round: the timing noise of ratio
                       "round_ratios": ";".join(
                           f"{o / d:.3f}" for o, d in zip(times[("onednn", t)],
                                                          times[("dl", t)]))}
                text = (f"t={t}: dl {row['dl_gflops']:8.2f} onednn {row['onednn_gflops']:8.2f}"
                        f" GFLOPS dl/onednn {row['ratio']:6.3f}")
                if memory_bound:
                    row["dl_gbs"] = nbytes / (dl_ms * 1e6)
                    row["onednn_gbs"] = nbytes / (onednn_ms * 1e6)
                    if bandwidth:
                        row["dl_bw_pct"] = 100 * row["dl_gbs"] / bandwidth
                        row["onednn_bw_pct"] = 100 * row["onednn_gbs"] / bandwidth
                        text += (f" GB/s dl {row['dl_gbs']:.1f} ({row['dl_bw_pct']:.1f}% of "
                                 f"measured bandwidth) onednn {row['onednn_gbs']:.1f} "
                                 f"({row['onednn_bw_pct']:.1f}%)")
                    else:
                        text += (f" GB/s dl {row['dl_gbs']:.1f} onednn {row['onednn_gbs']:.1f}"
                                 " (% of measured bandwidth: n/a, no machine file)")
                rows.append(row)
                parts.append(text)
            line = f"{tag} layout={layout} flops={flops:.3g} | " + " | ".join(parts)
            if hi_t != lo_t:
                r = dl_ms_by_t[hi_t] / dl_ms_by_t[lo_t]
                scaling.append((r, name))
                for row in rows[-len(threads_list):]:
                    row["dl_scaling"] = r
                line += f" | dl {hi_t}t/{lo_t}t time {r:.3f}"
            line += f" | compile {base['compile_s']:.2f} s"
            print(line, flush=True)

    fields = ["threads", "op", "name", "status", "layout", "m", "n", "k", "c", "h", "w",
              "r", "s", "stride", "pad", "flops", "bytes", "dl_ms", "onednn_ms",
              "dl_gflops", "onednn_gflops", "ratio", "dl_gbs", "onednn_gbs",
              "dl_bw_pct", "onednn_bw_pct", "dl_scaling", "round_ratios", "compile_s",
              "reference_ms",
              "max_abs_err", "onednn_impl", "error"]
    with open(os.path.join(out, "sweep.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    ok_rows = [r for r in rows if r["status"] == "ok"]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(10, 6))
        markers = {"gemm": "o", "conv": "s"}
        for t in threads_list:
            for op in ops:
                sel = [r for r in ok_rows if r["threads"] == t and r["op"] == op]
                if sel:
                    ax.scatter([r["flops"] for r in sel], [r["ratio"] for r in sel],
                               marker=markers[op], label=f"{op}, {t} thread(s)", alpha=0.75)
        ax.axhline(1.0, color="gray", ls="-", lw=1, label="1.0")
        ax.axhline(BELOW, color="red", ls="--", lw=1, label=f"{BELOW}")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("FLOPs of the shape")
        ax.set_ylabel("dl/oneDNN (oneDNN time / dl time)")
        ax.set_title(f"random shapes, seed {args.seed}, GEMM B {args.gemm_b}")
        ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(out, "sweep.png"), dpi=110)
        print(f"wrote {out}/sweep.csv and {out}/sweep.png")
    except ImportError:
        print(f"wrote {out}/sweep.csv (no PNG: python3-matplotlib not installed)")

    if scaling:
        r, name = max(scaling)
        print(f"worst dl {hi_t}-thread/{lo_t}-thread time: {r:.3f} ({name})")
    if compiles:
        seconds, name = max(compiles)
        print(f"slowest compile: {seconds:.2f} s ({name})")
    for t in threads_list:
        below = [r["name"] for r in ok_rows if r["threads"] == t and r["ratio"] < BELOW]
        print(f"below {BELOW}: {len(below)} threads={t}"
              + (f" ({', '.join(below)})" if below else ""))
    dl_failures = [(n, m) for n, m in failures if not m.startswith("oneDNN: ")]
    if failures:
        print(f"failures: {len(dl_failures)} dl, {len(failures) - len(dl_failures)} oneDNN")
        for name, message in failures:
            print(f"  FAILED {name}: {message}")
    print(f"wall time {time.time() - start:.0f} s")
    for t in threads_list:
        ratios = [r["ratio"] for r in ok_rows if r["threads"] == t]
        print(f"sweep dl/onednn: geomean={geomean(ratios):.3f} "
              f"min={min(ratios) if ratios else float('nan'):.3f} threads={t} "
              f"shapes={len(ratios)}", flush=True)
    return 1 if dl_failures else 0


if __name__ == "__main__":
    sys.exit(main())
