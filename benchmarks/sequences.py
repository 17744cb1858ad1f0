#!/usr/bin/env python3
"""Layer sequences: dl against oneDNN on batch normalization + ReLU and on
convolutions with element-wise epilogues, at ResNet-50's shapes.

For each thread count (default: 1 and all cores; batch N = threads, as in
run.py) this times, interleaved over --rounds rounds (alternating the order;
each figure is the median over rounds of the per-round medians):

  bn:   batch normalization then ReLU, training (batch statistics) and
        inference (given ones), on the plain NCHW and the blocked NCHW16c
        layout, for every output shape of resnet50_conv.csv: dl (the module
        has a dl.batch_norm_* then a dl.relu, which dl-fuse-epilogues makes
        one op) against oneDNN's batch normalization with its fused-ReLU
        flag in the same layout. Rows of the plain layout also show oneDNN
        in its own blocked layout, its fastest. GB/s count one read of the
        input and one write of the output, against the bandwidths dl-probe
        measures (the last-level cache's, where these tensors live between
        runs, and memory's).
  conv: convolution + bias + ReLU, + batch normalization (inference) +
        ReLU, + residual add + ReLU, + batch normalization (training) +
        ReLU, for the convolutions of resnet50_conv.csv, in the blocked
        layouts of run.py: dl (fused by dl-fuse-epilogues: the element-wise
        ops into the convolution, training statistics from the
        convolution's output tiles), dl unfused (--fuse=false) and oneDNN's
        convolution with post-ops (bias; per-channel scale and shift as
        binary post-ops; sum), each with eltwise ReLU, or (training) its
        convolution then its batch normalization with fused ReLU.
  block: the bottleneck blocks of resnet50_bottleneck.csv at inference (as
        examples/resnet_block.mlir's @bottleneck, in the blocked layouts):
        1x1, 3x3 and 1x1 convolutions, each followed by batch normalization,
        ReLU after the first two and the residual add then ReLU after the
        third; dl (fused), dl unfused and oneDNN's three convolutions with
        those as post-ops (scale and shift, the residual as a full-tensor
        binary add, ReLU), activations in nChw16c.

Before timing, each dl module is checked against dl's reference lowering
(`dl-compile --run`, which does not fuse). Ends with, per thread count,
  geomean dl/onednn sequences: <x> threads=<t>
(oneDNN's time over dl's, over all rows; for plain-layout batch
normalization oneDNN's fastest layout), after per-section geomeans.
"""

import argparse
import math
import os
import re
import statistics
import sys
import tempfile

import run

HERE = os.path.dirname(os.path.abspath(__file__))

SEQUENCES = ("bias_relu", "bn_relu", "sum_relu", "bn_train_relu")


def bn_module(n, c, h, w, training, blocked):
    shape = f"{n}x{c // 16}x{h}x{w}x16" if blocked else f"{n}x{c}x{h}x{w}"
    t, v = f"memref<{shape}xf32>", f"memref<{c}xf32>"
    if training:
        args = f"%x: {t}, %g: {v}, %b: {v}, %y: {t}, %m: {v}, %var: {v}"
        op = (f"  dl.batch_norm_training ins(%x, %g, %b : {t}, {v}, {v})\n"
              f"      outs(%y, %m, %var : {t}, {v}, {v})\n")
    else:
        args = f"%x: {t}, %g: {v}, %b: {v}, %m: {v}, %var: {v}, %y: {t}"
        op = (f"  dl.batch_norm_inference ins(%x, %g, %b, %m, %var : "
              f"{t}, {v}, {v}, {v}, {v})\n      outs(%y : {t})\n")
    return (f"func.func @bn({args}) {{\n{op}"
            f"  dl.relu ins(%y : {t}) outs(%y : {t})\n  return\n}}\n")


def conv_sequence_module(n, c, k, h, w, r, s, stride, pad, block, sequence,
                         dl_opt):
    """A blocked convolution (in the compiler's blocks, as run.py writes it)
    then the element-wise ops of `sequence`, in place on its output."""
    cb, kb = run.conv_blocks(n, c, k, h, w, r, s, stride, pad, block, dl_opt)
    oh, ow = (h + 2 * pad - r) // stride + 1, (w + 2 * pad - s) // stride + 1
    t_in = f"memref<{n}x{c // cb}x{h}x{w}x{cb}xf32>"
    t_f = f"memref<{k // kb}x{c // cb}x{r}x{s}x{cb}x{kb}xf32>"
    t_out = f"memref<{n}x{k // kb}x{oh}x{ow}x{kb}xf32>"
    v = f"memref<{k}xf32>"
    args = f"%in: {t_in}, %f: {t_f}"
    ops = ""
    if sequence == "bias_relu":
        args += f", %bias: {v}"
        ops = (f"  dl.bias_add ins(%out, %bias : {t_out}, {v}) "
               f"outs(%out : {t_out})\n")
    elif sequence == "bn_relu":
        args += f", %g: {v}, %b: {v}, %m: {v}, %var: {v}"
        ops = (f"  dl.batch_norm_inference ins(%out, %g, %b, %m, %var : "
               f"{t_out}, {v}, {v}, {v}, {v}) outs(%out : {t_out})\n")
    elif sequence == "sum_relu":
        args += f", %res: {t_out}"
        ops = (f"  dl.add ins(%out, %res : {t_out}, {t_out}) "
               f"outs(%out : {t_out})\n")
    relu_of = "%out"
    if sequence == "bn_train_relu":
        # Training: the normalized output is a buffer of its own, the
        # statistics are saved.
        args += f", %g: {v}, %b: {v}, %y: {t_out}, %m: {v}, %var: {v}"
        ops = (f"  dl.batch_norm_training ins(%out, %g, %b : {t_out}, {v}, {v})\n"
               f"      outs(%y, %m, %var : {t_out}, {v}, {v})\n")
        relu_of = "%y"
    return (
        f"func.func @seq({args}, %out: {t_out}) {{\n"
        f"  dl.conv2d ins(%in, %f : {t_in}, {t_f}) outs(%out : {t_out})\n"
        f"      {{strides = array<i64: {stride}, {stride}>, "
        f"padding = array<i64: {pad}, {pad}, {pad}, {pad}>}}\n"
        f"{ops}  dl.relu ins({relu_of} : {t_out}) outs({relu_of} : {t_out})\n"
        "  return\n}\n")


def bottleneck_module(n, c, mid, h, w, block, dl_opt):
    """ResNet's identity bottleneck block at inference in the blocked layouts
    of run.py (the compiler's blocks of its first convolution): 1x1 (c ->
    mid), 3x3 (padding 1) and 1x1 (mid -> c) convolutions into local
    buffers, each followed by batch normalization, ReLU after the first two,
    the residual add then ReLU after the third."""
    cb, mb = run.conv_blocks(n, c, mid, h, w, 1, 1, 1, 0, block, dl_opt)
    t_in = f"memref<{n}x{c // cb}x{h}x{w}x{cb}xf32>"
    t_mid = f"memref<{n}x{mid // mb}x{h}x{w}x{mb}xf32>"
    filters = (f"memref<{mid // mb}x{c // cb}x1x1x{cb}x{mb}xf32>",
               f"memref<{mid // mb}x{mid // mb}x3x3x{mb}x{mb}xf32>",
               f"memref<{c // cb}x{mid // mb}x1x1x{mb}x{cb}xf32>")
    args = [f"%in: {t_in}"] + [f"%f{i}: {t}" for i, t in enumerate(filters)]
    body = ""
    src, t_src = "%in", t_in
    for i, (t_f, t_dst, k) in enumerate(zip(filters, (t_mid, t_mid, t_in),
                                            (mid, mid, c))):
        v = f"memref<{k}xf32>"
        args += [f"%{p}{i}: {v}" for p in ("g", "b", "m", "v")]
        dst = f"%t{i}"
        body += f"  {dst} = memref.alloc() : {t_dst}\n"
        pad = 1 if i == 1 else 0
        body += (f"  dl.conv2d ins({src}, %f{i} : {t_src}, {t_f}) outs({dst} : {t_dst})\n"
                 f"      {{padding = array<i64: {pad}, {pad}, {pad}, {pad}>}}\n"
                 f"  dl.batch_norm_inference ins({dst}, %g{i}, %b{i}, %m{i}, %v{i} : "
                 f"{t_dst}, {v}, {v}, {v}, {v}) outs({dst} : {t_dst})\n")
        if i < 2:
            body += f"  dl.relu ins({dst} : {t_dst}) outs({dst} : {t_dst})\n"
        src, t_src = dst, t_dst
    body += (f"  dl.add ins(%t2, %in : {t_in}, {t_in}) outs(%out : {t_in})\n"
             f"  dl.relu ins(%out : {t_in}) outs(%out : {t_in})\n")
    for i, t in enumerate((t_mid, t_mid, t_in)):
        body += f"  memref.dealloc %t{i} : {t}\n"
    return (f"func.func @bottleneck({', '.join(args)}, %out: {t_in}) {{\n"
            f"{body}  return\n}}\n")


def bn_shapes(conv_csv):
    """The distinct output shapes (channels, rows, columns) of the
    convolutions in `conv_csv`, in order."""
    shapes = []
    for _, *v in run.read_shapes(conv_csv):
        c, k, h, w, r, s, stride, pad = map(int, v)
        shape = (k, (h + 2 * pad - r) // stride + 1,
                 (w + 2 * pad - s) // stride + 1)
        if shape not in shapes:
            shapes.append(shape)
    return shapes


def probe_levels(path):
    """[(name, bytes, GB/s)] of the cache levels and memory (bytes None) in a
    machine file from dl-probe, or []."""
    import json
    try:
        with open(path) as f:
            machine = json.load(f)
        levels = [(level["name"], level["bytes"], level["bandwidth"])
                  for level in machine["levels"]]
        return levels + [("memory", None, machine["memory"]["bandwidth"])]
    except (OSError, ValueError, KeyError, TypeError):
        return []


def holding_level(levels, moved):
    """The smallest level that holds `moved` bytes (the input and the output
    stay there between timed runs)."""
    return next(level for level in levels if level[1] is None or level[1] >= moved)


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values)) if values else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(run.ROOT, "build"),
                        help="build directory with bin/dl-compile and bin/onednn-bench")
    parser.add_argument("--out", default=None,
                        help="directory for machine.json (default: <build>/benchmarks)")
    parser.add_argument("--threads", default=f"1,{os.cpu_count()}",
                        help="comma-separated thread counts")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--min-time", type=float, default=0.3,
                        help="seconds each timing runs at least")
    parser.add_argument("--sections", default="bn,conv,block",
                        help="comma-separated: bn, conv, block")
    parser.add_argument("--only", default=None,
                        help="regex: only rows whose name matches")
    parser.add_argument("--block", type=int, default=run.host_block(),
                        help="largest channel block of the convolutions")
    parser.add_argument("--skip-check", action="store_true",
                        help="do not check dl against its reference first")
    parser.add_argument("--conv-csv", default=os.path.join(HERE, "resnet50_conv.csv"))
    parser.add_argument("--block-csv",
                        default=os.path.join(HERE, "resnet50_bottleneck.csv"),
                        help="bottleneck blocks: name,C,MID,H,W")
    run.add_machine_file_option(parser)
    args = parser.parse_args()

    bindir, dl_compile, onednn, out = run.harness_paths(args.build, args.out)
    dl_opt = os.path.join(bindir, "dl-opt")
    machine = run.machine_file_args(args.machine_file, bindir, out)
    levels = probe_levels(os.path.join(out, "machine.json")) if machine else []
    sections = set(args.sections.split(","))
    only = re.compile(args.only) if args.only else None

    summaries = []
    for threads in [int(t) for t in args.threads.split(",")]:
        print(f"== {threads} thread(s)", flush=True)
        # (section, name, dl module, {system: extra dl args or oneDNN args},
        #  bytes moved or None)
        rows = []
        if "bn" in sections:
            for c, h, w in bn_shapes(args.conv_csv):
                for training in (True, False):
                    # NCHW16c needs whole blocks of 16 channels.
                    for blocked in (False, True)[:2 if c % 16 == 0 else 1]:
                        name = (f"bn_{'train' if training else 'infer'}_"
                                f"{'blocked' if blocked else 'plain'}_"
                                f"n{threads}_c{c}_{h}x{w}")
                        bn_args = ["bnorm", threads, c, h, w, "--relu"] + (
                            ["--training"] if training else [])
                        systems = {
                            "dl": ("dl", []),
                            "onednn": ("onednn", bn_args + ["--layout",
                                       "blocked" if blocked else "plain"])}
                        if not blocked and c % 16 == 0:
                            systems["onednn_blocked"] = (
                                "onednn", bn_args + ["--layout", "blocked"])
                        rows.append(("bn", name,
                                     bn_module(threads, c, h, w, training, blocked),
                                     systems, 2 * 4 * threads * c * h * w))
        if "conv" in sections:
            for name, *v in run.read_shapes(args.conv_csv):
                c, k, h, w, r, s, stride, pad = map(int, v)
                for sequence in SEQUENCES:
                    if only and not only.search(f"{name}+{sequence}"):
                        continue  # Not asking the compiler for its blocks.
                    systems = {
                        "dl": ("dl", []),
                        "unfused": ("dl", ["--fuse=false"]),
                        "onednn": ("onednn", ["conv", threads, c, k, h, w, r, s,
                                              stride, pad, "--post-ops", sequence])}
                    rows.append(("conv", f"{name}+{sequence}",
                                 conv_sequence_module(threads, c, k, h, w, r, s,
                                                      stride, pad, args.block,
                                                      sequence, dl_opt),
                                 systems, None))
        if "block" in sections:
            for name, *v in run.read_shapes(args.block_csv):
                c, mid, h, w = map(int, v)
                if only and not only.search(f"{name}_bottleneck"):
                    continue
                systems = {
                    "dl": ("dl", []),
                    "unfused": ("dl", ["--fuse=false"]),
                    "onednn": ("onednn", ["bottleneck", threads, c, mid, h, w])}
                rows.append(("block", f"{name}_bottleneck",
                             bottleneck_module(threads, c, mid, h, w, args.block,
                                               dl_opt),
                             systems, None))
        rows = [row for row in rows if not only or only.search(row[1])]

        ratios = {"bn": [], "conv": [], "block": []}
        best_ratios, fusion_gains = [], []
        for section, name, module, systems, moved in rows:
            with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
                f.write(module)
                path = f.name
            common = ["--threads", str(threads)] + machine
            if not args.skip_check:
                run.check_against_reference(dl_compile, path, common, threads, name)
            times = {system: [] for system in systems}
            order = list(systems)
            for rnd in range(args.rounds):
                for system in (order if rnd % 2 == 0 else order[::-1]):
                    tool, extra = systems[system]
                    if tool == "dl":
                        res = run.run_json([dl_compile, path, "--bench", "--json",
                                            f"--bench-min-time={args.min_time}"]
                                           + common + extra, threads)["functions"][0]
                    else:
                        res = run.run_json([onednn] + [str(a) for a in extra] +
                                           ["--threads", str(threads), "--min-time",
                                            str(args.min_time)], threads)
                    times[system].append(res["median_ms"])
            os.unlink(path)
            ms = {system: statistics.median(t) for system, t in times.items()}
            ratio = ms["onednn"] / ms["dl"]
            line = (f"{name:34s} dl {ms['dl']:8.4f} ms  onednn {ms['onednn']:8.4f} ms"
                    f"  dl/onednn {ratio:5.2f}")
            if "onednn_blocked" in ms:
                # oneDNN's plain-layout batch normalization is a reference
                # implementation (ncsp_bnorm) 20-60x slower than its blocked
                # one: the geomeans compare with its fastest layout.
                ratio = min(ms["onednn"], ms["onednn_blocked"]) / ms["dl"]
                best_ratios.append(ratio)
                line += (f"  (onednn blocked {ms['onednn_blocked']:8.4f}: "
                         f"{ratio:5.2f})")
            ratios[section].append(ratio)
            if "unfused" in ms:
                gain = ms["unfused"] / ms["dl"]
                fusion_gains.append(gain)
                line += f"  unfused {ms['unfused']:8.4f} ms (fusion {gain:4.2f}x)"
            if moved:
                gbs = moved / (ms["dl"] * 1e6)
                line += f"  {gbs:6.1f} GB/s"
                if levels:
                    level, _, bandwidth = holding_level(levels, moved)
                    line += f" ({100 * gbs / bandwidth:3.0f}% of {level})"
            print(line, flush=True)

        for section in ("bn", "conv", "block"):
            if ratios[section]:
                print(f"geomean dl/onednn {section}: {geomean(ratios[section]):.3f} "
                      f"threads={threads}")
        if best_ratios:
            print(f"geomean dl/onednn's fastest layout, plain bn: "
                  f"{geomean(best_ratios):.3f} threads={threads}")
        if fusion_gains:
            print(f"geomean unfused/fused dl conv and block: {geomean(fusion_gains):.3f} "
                  f"threads={threads}")
        summaries.append((geomean(sum(ratios.values(), [])), threads))
    if levels:
        print("read bandwidths (dl-probe): " + ", ".join(
            f"{name} {bandwidth:.1f} GB/s" for name, _, bandwidth in levels))
    for value, threads in summaries:
        print(f"geomean dl/onednn sequences: {value:.3f} threads={threads}")


if __name__ == "__main__":
    main()
