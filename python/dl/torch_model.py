"""Compiled PyTorch models: ``from_torch`` and the plans it runs.

``from_torch(module, example_inputs)`` traces an ``nn.Module`` in eval mode,
propagates the example inputs' shapes, partitions and emits the graph
(``dl.torch_import``), and compiles all dl segments as one module. The
result, a ``CompiledModel``, runs the plan: dl segments on numpy views of
the tensors (no copies), PyTorch nodes as the traced graph would. Weights
are converted to float32 arrays once and passed by reference on every call.
It is compiled for the example inputs' shapes; other shapes compile again
(one compiled plan per shape, kept).
"""

import contextlib
import ctypes
import os
import sys
import time

import numpy as np
import torch
import torch.fx
import torch.nn as nn
from torch.fx.passes.shape_prop import ShapeProp

from . import compile as dl_compile
from .torch_import import (_describe_error, _Importer, _placement_counts,
                           _report, _trace)

__all__ = ["from_torch", "CompiledModel"]


class CompiledModel:
    """A model compiled by from_torch: call it with arrays or tensors (as
    the module's forward) to get its outputs (torch tensors, or numpy arrays
    when called with numpy arrays)."""

    def __init__(self, module, threads, verbose, compile_options):
        self.module = module.eval()
        self.threads = threads
        self.verbose = verbose
        self.compile_options = compile_options
        self._plans = {}

    def _log(self, message):
        if self.verbose:
            print(f"dl.from_torch: {message}", file=sys.stderr, flush=True)

    def _plan(self, example_inputs):
        key = tuple(tuple(x.shape) for x in example_inputs)
        plan = self._plans.get(key)
        if plan is None:
            plan = _Plan(self, example_inputs)
            self._plans[key] = plan
        return plan

    def report(self, example_inputs=None):
        """Which nodes dl computes and which PyTorch runs (and why), for the
        shapes of `example_inputs` (default: the first compiled)."""
        plan = (self._plan(example_inputs) if example_inputs is not None else
                next(iter(self._plans.values())))
        return plan.report

    def from_cache(self, example_inputs=None):
        """Whether the code for the shapes of `example_inputs` (default: the
        first compiled) was loaded from the cache directory."""
        plan = (self._plan(example_inputs) if example_inputs is not None else
                next(iter(self._plans.values())))
        return plan.compiled is not None and plan.compiled.from_cache

    def __call__(self, *inputs):
        as_numpy = all(isinstance(x, np.ndarray) for x in inputs)
        tensors = [torch.from_numpy(np.ascontiguousarray(x, dtype=np.float32))
                   if isinstance(x, np.ndarray) else x for x in inputs]
        outputs = self._plan(tensors).run(tensors)
        if as_numpy:
            return torch.utils._pytree.tree_map(
                lambda t: t.numpy() if isinstance(t, torch.Tensor) else t,
                outputs)
        return outputs


class _Plan:
    """The compiled plan of a model for one set of input shapes."""

    def __init__(self, model, example_inputs):
        start = time.perf_counter()
        self.module = model.module
        try:
            gm, untraceable = _trace(model.module)
        except Exception as error:  # torch.fx raises errors of many types.
            self.gm, self.compiled, self.has_torch_nodes = None, None, True
            self.report = (f"{'(the whole model)':32} torch: torch.fx cannot "
                           f"trace it ({_describe_error(error)})")
            model._log("torch.fx cannot trace the model: it runs in PyTorch")
            return
        with torch.no_grad():
            ShapeProp(gm).propagate(*example_inputs)
        importer = _Importer(gm, untraceable)
        importer.classify()
        self.gm = gm
        self.steps = []
        functions = []
        for index, (where, what) in enumerate(importer.segments()):
            if where == "torch":
                self.steps.append(("torch", what))
                continue
            name = f"segment{index}"
            text, inputs, weights, outputs = importer.emit_segment(name, what)
            functions.append(text)
            self.steps.append(("dl", name, inputs, weights, outputs))
        self.report = _report(gm, importer)
        self.has_torch_nodes = any(step[0] == "torch" for step in self.steps)
        self.placeholders = [n for n in gm.graph.nodes
                             if n.op == "placeholder"]
        self.output = next(n for n in gm.graph.nodes if n.op == "output")
        self.module_text = "\n".join(functions)
        counts = _placement_counts(importer)
        model._log(f"{counts['dl']} nodes in dl ({len(functions)} segments), "
                   f"{counts['torch']} in PyTorch; compiling")
        options = {"progress": model.verbose, **model.compile_options}
        self.compiled = (dl_compile(self.module_text, threads=model.threads,
                                    **options)
                         if functions else None)
        model._log(f"compiled in {time.perf_counter() - start:.1f} s")

    def run(self, inputs):
        # dl's OpenMP threads wait for the next parallel region spinning
        # (200 ms by default), which starves PyTorch's threads running the
        # nodes between dl's segments: plans with PyTorch nodes have them
        # sleep at once.
        with _openmp_blocktime(0 if self.has_torch_nodes else None):
            return self._run(inputs)

    def _run(self, inputs):
        if self.gm is None:
            with torch.no_grad():
                return self.module(*inputs)
        env = {}
        if len(inputs) != len(self.placeholders):
            raise TypeError(f"the model takes {len(self.placeholders)} "
                            f"inputs, got {len(inputs)}")
        for node, value in zip(self.placeholders, inputs):
            env[node] = value

        def value(node):
            # Attributes the graph reads (a custom module's parameters in
            # torch functions) are fetched where a PyTorch node uses them.
            if node not in env and node.op == "get_attr":
                env[node] = _fetch_attr(self.gm, node.target)
            return env[node]

        def load(arg):
            return torch.fx.node.map_arg(arg, value)

        with torch.no_grad():
            for step in self.steps:
                if step[0] == "torch":
                    node = step[1]
                    args, kwargs = load(node.args), load(node.kwargs)
                    if node.op == "call_module":
                        env[node] = self.gm.get_submodule(node.target)(
                            *args, **kwargs)
                    elif node.op == "call_function":
                        env[node] = node.target(*args, **kwargs)
                    elif node.op == "call_method":
                        env[node] = getattr(args[0], node.target)(*args[1:],
                                                                  **kwargs)
                    elif node.op == "get_attr":
                        env[node] = _fetch_attr(self.gm, node.target)
                    continue
                _, name, inputs_, weights, outputs = step
                arrays = [_as_array(env[node]) for node in inputs_]
                results = self.compiled[name](*arrays, *weights)
                if len(outputs) == 1:
                    results = (results,)
                for node, result in zip(outputs, results):
                    env[node] = torch.from_numpy(result)
            return load(self.output.args[0])


@contextlib.contextmanager
def _openmp_blocktime(milliseconds):
    """Sets the time dl's OpenMP threads spin before they sleep, for the
    parallel regions this thread starts (libomp's kmp_set_blocktime, once
    the JIT has loaded libomp), and restores its default after."""
    setter = _blocktime_setter() if milliseconds is not None else None
    if setter is None:
        yield
        return
    setter(ctypes.c_int(milliseconds))
    try:
        yield
    finally:
        setter(ctypes.c_int(_DEFAULT_BLOCKTIME_MS))


_blocktime_setters = []


def _blocktime_setter():
    """libomp's kmp_set_blocktime once the JIT has loaded libomp (looked up
    until found, then kept), else None."""
    if not _blocktime_setters:
        setter = getattr(ctypes.CDLL(None), "kmp_set_blocktime", None)
        if setter is None:
            return None
        _blocktime_setters.append(setter)
    return _blocktime_setters[0]


def _default_blocktime():
    """KMP_BLOCKTIME in milliseconds where it is a number, else libomp's
    default."""
    value = os.environ.get("KMP_BLOCKTIME", "")
    return int(value) if value.isdigit() else 200


_DEFAULT_BLOCKTIME_MS = _default_blocktime()


def _as_array(tensor):
    if not isinstance(tensor, torch.Tensor):
        raise TypeError("a dl segment's input is not a tensor")
    return tensor.detach().contiguous().numpy()


def _fetch_attr(gm, target):
    value = gm
    for part in target.split("."):
        value = getattr(value, part)
    return value


def from_torch(module, example_inputs, threads=None, verbose=True,
               **compile_options):
    """Compiles `module` (an nn.Module, run in eval mode) for the shapes of
    `example_inputs` (a tensor or array, or a tuple of them).

    threads: threads of dl's code (None: all cores; set PyTorch's with
    torch.set_num_threads for the nodes it runs). verbose: print what was
    placed where, the compilation's progress (a line per ranked layer, named
    by its node) and the compile time on stderr. Other keyword arguments go
    to dl.compile (``cache=False``: compile everything again). Returns a CompiledModel; ``.report()`` says which nodes
    dl computes and which PyTorch runs, and why.
    """
    if not isinstance(module, nn.Module):
        raise TypeError("dl.from_torch expects a torch.nn.Module")
    if isinstance(example_inputs, (torch.Tensor, np.ndarray)):
        example_inputs = (example_inputs,)
    example = [torch.from_numpy(np.ascontiguousarray(x, dtype=np.float32))
               if isinstance(x, np.ndarray) else x for x in example_inputs]
    model = CompiledModel(module, threads, verbose, compile_options)
    model._plan(example)
    return model
