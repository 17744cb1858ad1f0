#!/usr/bin/python3
"""Whole networks: dl.from_torch against PyTorch on torchvision models.

`models.py [--models resnet18,resnet50,vgg16,mobilenet_v2] [--threads 1,2]
[--batch 1,8] [--rounds 5] [--out DIR] [--layers MODEL]` builds each model
with random weights in eval mode (batch normalizations with random
statistics, so that folding them is exercised), and for each batch size and
thread count:
  1. compiles it with dl.from_torch (threads = the thread count; PyTorch's
     nodes, and PyTorch itself, run with torch.set_num_threads of the same
     count) and checks dl's output against PyTorch eager's: the largest
     absolute difference over the largest output magnitude must be at most
     1e-3 (float32 sums over up to 25,088 products in a different order);
  2. times dl, PyTorch eager, and torch.jit.freeze + optimize_for_inference,
     interleaved: `--rounds` rounds, each timing every system for at least
     `--min-time` seconds after one untimed call, the order reversed every
     other round; each figure is the median over rounds of the per-round
     medians.
Writes DIR/models.csv, DIR/models.png (dl / torch-jit per model), prints a
table, and last a line per thread count
`models dl/torch-jit: geomean=<g> threads=<t>` (over models and batch sizes).
`--layers MODEL` also times each distinct convolution of MODEL alone (its
input shape recorded by a forward hook) in dl and in torch.jit (frozen,
optimized: oneDNN), at the first batch size and each thread count, into
DIR/layers-MODEL.csv: where the time goes. Alone, dl's convolution
includes the packing of its plain input and output that a network keeps
blocked between layers.
"""

import argparse
import csv
import math
import os
import statistics
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torchvision

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "build", "python_packages"))
import dl  # noqa: E402

TOLERANCE = 1e-3


def build_model(name):
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)()
    for module in model.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.running_mean.uniform_(-0.1, 0.1)
            module.running_var.uniform_(0.5, 1.5)
            module.weight.data.uniform_(0.5, 1.5)
            module.bias.data.uniform_(-0.1, 0.1)
    return model.eval()


def median_time(fn, x, min_time):
    fn(x)
    times = []
    start = time.perf_counter()
    while time.perf_counter() - start < min_time or len(times) < 3:
        t = time.perf_counter()
        fn(x)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3


def interleaved(systems, x, rounds, min_time):
    """Per system, the median over rounds of its per-round median (ms)."""
    results = {name: [] for name in systems}
    order = list(systems)
    for r in range(rounds):
        for name in (order if r % 2 == 0 else reversed(order)):
            results[name].append(median_time(systems[name], x, min_time))
    return {name: statistics.median(v) for name, v in results.items()}


def flops(model, x):
    """Multiply-adds x 2 of the model's convolutions and linear layers."""
    total = 0

    def hook(module, inputs, output):
        nonlocal total
        if isinstance(module, nn.Conv2d):
            per_output = (module.in_channels // module.groups *
                          module.kernel_size[0] * module.kernel_size[1])
            total += 2 * output.numel() * per_output
        elif isinstance(module, nn.Linear):
            total += 2 * output.numel() * module.in_features

    handles = [m.register_forward_hook(hook) for m in model.modules()
               if isinstance(m, (nn.Conv2d, nn.Linear))]
    with torch.no_grad():
        model(x)
    for h in handles:
        h.remove()
    return total


def run_model(name, batch, threads, args):
    torch.set_num_threads(threads)
    model = build_model(name)
    x = torch.randn(batch, 3, 224, 224)
    start = time.perf_counter()
    # Cold compiles (no disk cache): the compile column is the first
    # compile of a model, not a reload of its code.
    compiled = dl.from_torch(model, x, threads=threads, verbose=False,
                             cache=False)
    compile_s = time.perf_counter() - start
    with torch.no_grad():
        want = model(x)
        got = compiled(x)
        err = float((got - want).abs().max() / want.abs().max())
        jit = torch.jit.optimize_for_inference(
            torch.jit.freeze(torch.jit.script(model)))
        times = interleaved({"dl": compiled, "jit": jit, "eager": model}, x,
                            args.rounds, args.min_time)
    report = compiled.report()
    in_torch = sum(1 for line in report.splitlines() if " torch: " in line)
    return {
        "model": name, "batch": batch, "threads": threads,
        "dl_ms": times["dl"], "jit_ms": times["jit"],
        "eager_ms": times["eager"],
        "dl/jit": times["jit"] / times["dl"],
        "dl/eager": times["eager"] / times["dl"],
        "dl_gflops": flops(model, x) / times["dl"] / 1e6,
        "max_rel_err": err, "ok": err <= TOLERANCE,
        "compile_s": compile_s, "nodes_in_torch": in_torch,
    }


def run_layers(name, batch, threads_list, args):
    """Each distinct convolution of `name` alone: dl against F.conv2d."""
    model = build_model(name)
    shapes = {}

    def hook(module, inputs, output):
        key = (module.in_channels, module.out_channels, module.kernel_size,
               module.stride, module.padding, module.groups,
               tuple(inputs[0].shape))
        shapes.setdefault(key, module)

    handles = [m.register_forward_hook(hook) for m in model.modules()
               if isinstance(m, nn.Conv2d)]
    with torch.no_grad():
        model(torch.randn(batch, 3, 224, 224))
    for h in handles:
        h.remove()
    rows = []
    for threads in threads_list:
        torch.set_num_threads(threads)
        for key, conv in shapes.items():
            x = torch.randn(key[-1])
            layer = nn.Sequential(conv).eval()
            compiled = dl.from_torch(layer, x, threads=threads, verbose=False,
                                     cache=False)
            with torch.no_grad():
                jit = torch.jit.optimize_for_inference(
                    torch.jit.freeze(torch.jit.script(layer)))
                times = interleaved({"dl": compiled, "torch": jit}, x,
                                    args.rounds, args.min_time / 4)
            work = flops(layer, x)
            rows.append({
                "model": name, "threads": threads,
                "layer": (f"c{key[0]}_k{key[1]}_r{key[2][0]}_s{key[3][0]}"
                          f"_p{key[4][0]}_g{key[5]}_{key[6][2]}x{key[6][3]}"),
                "dl_ms": times["dl"], "torch_ms": times["torch"],
                "dl/torch": times["torch"] / times["dl"],
                "dl_gflops": work / times["dl"] / 1e6,
            })
            print(f"  {rows[-1]['layer']:32} t={threads} "
                  f"dl {times['dl']:.3f} ms torch {times['torch']:.3f} ms "
                  f"ratio {rows[-1]['dl/torch']:.2f}", flush=True)
    return rows


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def plot(path, rows):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    labels = [f"{r['model']}\nb{r['batch']} t{r['threads']}" for r in rows]
    fig, ax = plt.subplots(figsize=(max(6, len(rows) * 0.8), 4))
    ax.bar(range(len(rows)), [r["dl/jit"] for r in rows])
    ax.axhline(1.0, color="gray", linewidth=0.8)
    ax.set_xticks(range(len(rows)), labels, fontsize=7)
    ax.set_ylabel("speed-up of dl over torch.jit")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models",
                        default="resnet18,resnet50,vgg16,mobilenet_v2")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--batch", default="1,8")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--min-time", type=float, default=1.0)
    parser.add_argument("--out", default="models-out")
    parser.add_argument("--layers", default="",
                        help="also time each convolution of this model")
    args = parser.parse_args()
    threads_list = [int(t) for t in args.threads.split(",")]
    batches = [int(b) for b in args.batch.split(",")]
    os.makedirs(args.out, exist_ok=True)
    rows = []
    print(f"{'model':14} {'batch':>5} {'thr':>3} {'dl ms':>9} {'jit ms':>9} "
          f"{'eager ms':>9} {'dl/jit':>7} {'dl/eager':>8} {'GFLOPS':>7} "
          f"{'err':>8} {'compile':>8} {'torch nodes':>11}")
    for name in args.models.split(","):
        for batch in batches:
            for threads in threads_list:
                r = run_model(name, batch, threads, args)
                rows.append(r)
                print(f"{name:14} {batch:5} {threads:3} {r['dl_ms']:9.2f} "
                      f"{r['jit_ms']:9.2f} {r['eager_ms']:9.2f} "
                      f"{r['dl/jit']:7.3f} {r['dl/eager']:8.3f} "
                      f"{r['dl_gflops']:7.1f} {r['max_rel_err']:8.1e} "
                      f"{r['compile_s']:7.1f}s {r['nodes_in_torch']:11}"
                      f"{'' if r['ok'] else '  MISMATCH'}", flush=True)
    write_csv(os.path.join(args.out, "models.csv"), rows)
    plot(os.path.join(args.out, "models.png"), rows)
    if args.layers:
        layer_rows = run_layers(args.layers, batches[0], threads_list, args)
        write_csv(os.path.join(args.out, f"layers-{args.layers}.csv"),
                  layer_rows)
    for threads in threads_list:
        ratios = [r["dl/jit"] for r in rows if r["threads"] == threads]
        geomean = math.exp(sum(map(math.log, ratios)) / len(ratios))
        print(f"models dl/torch-jit: geomean={geomean:.3f} threads={threads}")
    if not all(r["ok"] for r in rows):
        sys.exit("models: outputs differ from PyTorch's beyond the tolerance")


if __name__ == "__main__":
    main()
