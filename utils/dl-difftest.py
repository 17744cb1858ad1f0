#!/usr/bin/env python3
"""Differential tester: random dl ops through the optimized pipeline vs the
reference lowering.

Each case is one function holding one random dl op (matmul with transposes,
alpha and beta; plain and blocked conv2d with strides 1-3, paddings 0-3
(a quarter of them up to 2 beyond the filter's extent), dilations 1-2;
both batch norms; relu, relu6, add, bias_add; pack and unpack, half of
them with a padded last block) whose sizes are drawn from 1, small primes
and block multiples +- 1 (plain convolutions' channels also from 67, 97
and 131, which dl-block-conv-layouts pads), with some sizes dynamic (`?`,
given at run time by `dl.run_shape`). Cases are grouped into modules of up to --per-module functions; each module is run
with `dl-compile --run` (the optimized dl-to-llvm pipeline against
dl-reference-to-llvm, on the same generated inputs, at dl-compile's
tolerance) at 1 or 2 threads, with or without the Ipopt tile solver.

Case i of a run uses the seed (--seed + i), so `--seed S --count 1` replays
case S alone. A mismatch, or a compile that fails or crashes, keeps its module
in --work-dir and is listed. The last line is
`difftest: N cases, M modules, K mismatches, F failures (seeds S..E)`;
the exit code is 1 when K + F > 0.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

# Sizes: 1, primes, and multiples of the common blocks (4, 8, 16, 32) +- 1.
SIZES = [1, 2, 3, 5, 7, 11, 13, 17, 23, 4, 8, 15, 16, 31, 32, 33]
SMALL = [1, 2, 3, 4, 5, 7, 8]
BLOCKS = [4, 8, 16]


class Case:
    """One function: its arguments (name, concrete shape, dynamic mask) and
    the op's text, with `{T:name}` standing for the type of argument name."""

    def __init__(self, kind, dynamic):
        self.kind = kind
        self.dynamic = dynamic
        self.args = []
        self.body = ""

    def arg(self, name, shape, static_dims=()):
        """Adds an argument; when the case is dynamic, each dimension not in
        static_dims is `?` with probability 1/2 (decided by the caller's
        random state through `mask`)."""
        self.args.append([name, list(shape), set(static_dims)])

    def mask(self, rng):
        for arg in self.args:
            name, shape, static_dims = arg
            dyn = [
                self.dynamic and d not in static_dims and rng.random() < 0.5
                for d in range(len(shape))
            ]
            arg.append(dyn)

    def type_of(self, name):
        for arg_name, shape, _, dyn in self.args:
            if arg_name == name:
                dims = ["?" if d else str(s) for s, d in zip(shape, dyn)]
                return "memref<" + "x".join(dims + ["f32"]) + ">"
        raise KeyError(name)

    def render(self, function_name):
        params = []
        for name, shape, _, dyn in self.args:
            text = "%{}: {}".format(name, self.type_of(name))
            if any(dyn):
                text += " {{dl.run_shape = array<i64: {}>}}".format(
                    ", ".join(str(s) for s in shape))
            params.append(text)
        body = self.body
        for name, *_ in self.args:
            body = body.replace("{T:" + name + "}", self.type_of(name))
        return "func.func @{}({}) {{\n  {}\n  return\n}}\n".format(
            function_name, ",\n    ".join(params), body)


def gen_matmul(rng, dynamic):
    m, n, k = rng.choice(SIZES), rng.choice(SIZES), rng.choice(SIZES)
    ta, tb = rng.random() < 0.3, rng.random() < 0.3
    case = Case("matmul", dynamic)
    case.arg("a", [k, m] if ta else [m, k])
    case.arg("b", [n, k] if tb else [k, n])
    case.arg("c", [m, n])
    attrs = []
    if rng.random() < 0.3:
        attrs.append("alpha = {} : f32".format(rng.choice([0.5, 2.0])))
    if rng.random() < 0.3:
        attrs.append("beta = {} : f32".format(rng.choice([1.0, 0.5])))
    if ta:
        attrs.append("transpose_a")
    if tb:
        attrs.append("transpose_b")
    case.body = ("dl.matmul ins(%a, %b : {T:a}, {T:b}) outs(%c : {T:c})" +
                 (" {" + ", ".join(attrs) + "}" if attrs else ""))
    return case


def conv_geometry(rng):
    """Spatial sizes, filter, strides, paddings and dilations of a valid
    convolution: (in_hw, filter_rs, out_hw, strides, padding, dilations)."""
    while True:
        strides = [rng.randint(1, 3), rng.randint(1, 3)]
        dilations = [rng.choice([1, 1, 2]), rng.choice([1, 1, 2])]
        filt = [rng.choice([1, 2, 3, 5]), rng.choice([1, 2, 3, 5])]
        # Paddings up to 3, and in a quarter of the cases up to 2 beyond
        # the filter's extent: whole output rows and columns then lie in
        # the padding, and their reductions are empty.
        wide = rng.random() < 0.25
        padding = [
            rng.randint(0, dilations[d % 2] * (filt[d % 2] - 1) + 3
                        if wide else 3) for d in range(4)
        ]
        ins = [rng.randint(1, 20), rng.randint(1, 20)]
        outs = []
        for d in range(2):
            extent = dilations[d] * (filt[d] - 1) + 1
            padded = ins[d] + padding[d] + padding[d + 2]
            if extent > padded:
                break
            outs.append((padded - extent) // strides[d] + 1)
        if len(outs) == 2:
            return ins, filt, outs, strides, padding, dilations


def conv_attrs(strides, padding, dilations):
    return (" {{strides = array<i64: {}>, padding = array<i64: {}>, "
            "dilations = array<i64: {}>}}").format(
                ", ".join(map(str, strides)), ", ".join(map(str, padding)),
                ", ".join(map(str, dilations)))


def gen_conv(rng, dynamic):
    ins, filt, outs, strides, padding, dilations = conv_geometry(rng)
    n = rng.choice([1, 1, 2, 3])
    case = Case("conv2d", dynamic)
    if rng.random() < 0.5:
        # Channel counts past the 64-channel block limit without a good
        # divisor are padded by dl-block-conv-layouts.
        c, k = (rng.choice(SMALL + [16, 17, 67, 131]),
                rng.choice(SMALL + [16, 17, 67, 97]))
        case.arg("x", [n, c] + ins)
        case.arg("w", [k, c] + filt)
        case.arg("y", [n, k] + outs)
    else:
        case.kind = "conv2d_blocked"
        cb, kb = rng.choice([1, 2, 3]), rng.choice([1, 2, 3])
        bc, bk = rng.choice(BLOCKS), rng.choice(BLOCKS)
        case.arg("x", [n, cb] + ins + [bc], static_dims=[4])
        case.arg("w", [kb, cb] + filt + [bc, bk], static_dims=[4, 5])
        case.arg("y", [n, kb] + outs + [bk], static_dims=[4])
    case.body = ("dl.conv2d ins(%x, %w : {T:x}, {T:w}) outs(%y : {T:y})" +
                 conv_attrs(strides, padding, dilations))
    return case


def activation_shape(rng, blocked):
    """(shape, static dims, channels) of a plain or blocked activation."""
    n, h, w = rng.choice([1, 2, 3]), rng.choice(SIZES), rng.choice(SMALL)
    if blocked:
        cb, b = rng.choice([1, 2, 3]), rng.choice(BLOCKS)
        return [n, cb, h, w, b], [4], cb * b
    c = rng.choice(SIZES)
    return [n, c, h, w], [], c


def gen_batch_norm(rng, dynamic):
    shape, static, channels = activation_shape(rng, rng.random() < 0.4)
    training = rng.random() < 0.5
    case = Case("batch_norm_" + ("training" if training else "inference"),
                dynamic)
    case.arg("x", shape, static)
    case.arg("y", shape, static)
    vectors = ["g", "b"] if training else ["g", "b", "m", "v"]
    for name in vectors + (["sm", "sv"] if training else []):
        case.arg(name, [channels])
    eps = " {epsilon = 1.0e-3 : f32}" if rng.random() < 0.5 else ""
    if training:
        case.body = ("dl.batch_norm_training ins(%x, %g, %b : {T:x}, {T:g}, "
                     "{T:b}) outs(%y, %sm, %sv : {T:y}, {T:sm}, {T:sv})" + eps)
    else:
        case.body = ("dl.batch_norm_inference ins(%x, %g, %b, %m, %v : {T:x}, "
                     "{T:g}, {T:b}, {T:m}, {T:v}) outs(%y : {T:y})" + eps)
    return case


def gen_elementwise(rng, dynamic):
    kind = rng.choice(["relu", "relu6", "add", "bias_add"])
    case = Case(kind, dynamic)
    if kind == "bias_add":
        rank = rng.choice([2, 4, 5])
        if rank == 2:
            shape, static, channels = [rng.choice(SIZES),
                                       rng.choice(SIZES)], [], None
            channels = shape[1]
        else:
            shape, static, channels = activation_shape(rng, rank == 5)
        case.arg("x", shape, static)
        case.arg("bias", [channels])
        case.arg("y", shape, static)
        case.body = ("dl.bias_add ins(%x, %bias : {T:x}, {T:bias}) "
                     "outs(%y : {T:y})")
        return case
    shape = [rng.choice(SIZES) for _ in range(rng.randint(1, 4))]
    case.arg("x", shape)
    case.arg("y", shape)
    if kind == "add":
        case.arg("z", shape)
        case.body = "dl.add ins(%x, %y : {T:x}, {T:y}) outs(%z : {T:z})"
    else:
        case.body = "dl.{} ins(%x : {{T:x}}) outs(%y : {{T:y}})".format(kind)
    return case


def gen_layout(rng, dynamic):
    pack = rng.random() < 0.5
    case = Case("pack" if pack else "unpack", dynamic)
    if rng.random() < 0.5:
        n, h, w = rng.choice([1, 2, 3]), rng.choice(SIZES), rng.choice(SMALL)
        b = rng.choice(BLOCKS)
        blocks = rng.choice([1, 2, 3])
        # Half the cases pad the last block.
        pad = rng.randint(0, b - 1) if rng.random() < 0.5 else 0
        plain, blocked = [n, blocks * b - pad, h, w], [n, blocks, h, w, b]
        blocked_static = [4]
    else:
        bk, bc = rng.choice(BLOCKS), rng.choice(BLOCKS)
        kb, cb = rng.choice([1, 2]), rng.choice([1, 2])
        r, s = rng.choice([1, 3]), rng.choice([1, 3])
        pad_k = rng.randint(0, bk - 1) if rng.random() < 0.5 else 0
        pad_c = rng.randint(0, bc - 1) if rng.random() < 0.5 else 0
        plain = [kb * bk - pad_k, cb * bc - pad_c, r, s]
        blocked = [kb, cb, r, s, bc, bk]
        blocked_static = [4, 5]
    case.arg("p", plain)
    case.arg("q", blocked, blocked_static)
    if pack:
        case.body = "dl.pack ins(%p : {T:p}) outs(%q : {T:q})"
    else:
        case.body = "dl.unpack ins(%q : {T:q}) outs(%p : {T:p})"
    return case


GENERATORS = [(gen_matmul, 3), (gen_conv, 4), (gen_batch_norm, 1),
              (gen_elementwise, 1), (gen_layout, 1)]


def generate(seed):
    """The case of `seed`, and the module options it asks for."""
    rng = random.Random(seed)
    gens, weights = zip(*GENERATORS)
    gen = rng.choices(gens, weights)[0]
    dynamic = rng.random() < 0.3
    case = gen(rng, dynamic)
    case.mask(rng)
    options = {"threads": rng.choice([1, 2]), "solve_tiles": rng.random() < 0.3}
    return case, options


def run_module(dl_compile, path, options, timeout):
    """Runs dl-compile --run on a module; returns (per-function ok map or
    None, error text)."""
    cmd = [dl_compile, path, "--run", "--json",
           "--threads={}".format(options["threads"])]
    if options["solve_tiles"]:
        cmd.append("--solve-tiles")
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timed out after {} s".format(timeout)
    try:
        report = json.loads(proc.stdout)
    except ValueError:
        return None, "exit code {}: {}".format(proc.returncode,
                                              proc.stderr.strip()[-2000:])
    return {f["name"]: f for f in report["functions"]}, ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dl-compile", default="dl-compile")
    parser.add_argument("--seed", type=int, default=1,
                        help="seed of the first case (case i uses seed + i)")
    parser.add_argument("--count", type=int, default=20,
                        help="number of cases")
    parser.add_argument("--per-module", type=int, default=6,
                        help="cases per dl-compile run (same options)")
    parser.add_argument("--work-dir", default=None,
                        help="where modules are written (default: a "
                        "temporary directory, kept only on failure)")
    parser.add_argument("--timeout", type=float, default=300.0,
                        help="seconds per dl-compile run")
    parser.add_argument("--verbose", action="store_true",
                        help="print every case")
    args = parser.parse_args()

    work_dir = args.work_dir or tempfile.mkdtemp(prefix="dl-difftest-")
    os.makedirs(work_dir, exist_ok=True)

    # Group cases by the options of the dl-compile run they need.
    groups = {}
    for seed in range(args.seed, args.seed + args.count):
        case, options = generate(seed)
        key = (options["threads"], options["solve_tiles"])
        groups.setdefault(key, []).append((seed, case))

    mismatches, failures, modules, done = [], [], 0, 0
    start = time.time()
    for (threads, solve_tiles), cases in sorted(groups.items()):
        options = {"threads": threads, "solve_tiles": solve_tiles}
        for first in range(0, len(cases), args.per_module):
            chunk = cases[first:first + args.per_module]
            path = os.path.join(
                work_dir, "cases-{}-t{}{}.mlir".format(
                    chunk[0][0], threads, "-solve" if solve_tiles else ""))
            with open(path, "w") as f:
                f.write("// dl-difftest cases; run: dl-compile {} --run "
                        "--threads={}{}\n".format(
                            os.path.basename(path), threads,
                            " --solve-tiles" if solve_tiles else ""))
                for seed, case in chunk:
                    f.write(case.render("case_{}_{}".format(seed, case.kind)))
            modules += 1
            results, error = run_module(args.dl_compile, path, options,
                                        args.timeout)
            for seed, case in chunk:
                name = "case_{}_{}".format(seed, case.kind)
                done += 1
                if results is None:
                    failures.append((seed, path, error))
                    status = "FAILED"
                elif not results.get(name, {}).get("ok", False):
                    mismatches.append((seed, path, results.get(name)))
                    status = "MISMATCH"
                else:
                    status = "ok"
                if args.verbose or status != "ok":
                    print("{}: {} threads={}{} {}".format(
                        name, status, threads,
                        " solve-tiles" if solve_tiles else "",
                        "dynamic" if case.dynamic else "static"))
            bad = {seed for seed, *_ in mismatches + failures}
            if args.work_dir is None and not bad & {s for s, _ in chunk}:
                os.remove(path)
            sys.stdout.flush()

    for seed, path, error in failures:
        print("failure: seed {} ({}): {}".format(seed, path, error))
    for seed, path, result in mismatches:
        print("mismatch: seed {} ({}): {}".format(seed, path, result))
    print("difftest: {} cases, {} modules, {} mismatches, {} failures "
          "(seeds {}..{}, {:.0f} s)".format(done, modules, len(mismatches),
                                            len(failures), args.seed,
                                            args.seed + args.count - 1,
                                            time.time() - start))
    return 1 if mismatches or failures else 0


if __name__ == "__main__":
    sys.exit(main())
