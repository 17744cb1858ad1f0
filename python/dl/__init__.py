"""dl: an MLIR compiler for deep-learning layers, from Python.

``dl.compile(mlir_text)`` JIT-compiles a module of ``dl`` ops (or ``linalg``
ops, which dl raises), on tensors or buffers, and returns a ``Module`` whose
public functions take and return numpy float32 arrays::

    import dl, numpy as np
    m = dl.compile('''
      func.func @relu(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
        %e = tensor.empty() : tensor<4x8xf32>
        %r = dl.relu ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>)
               -> tensor<4x8xf32>
        return %r : tensor<4x8xf32>
      }''')
    y = m.relu(np.random.randn(4, 8).astype(np.float32))

``dl.from_torch(module, example_inputs)`` compiles a PyTorch ``nn.Module``
(see ``dl.torch_model``). Diagnostics (parse, verification, compilation,
failed run-time checks) are raised as ``dl.Error`` with their locations.
"""

import os

import numpy as np

from ._dl import Error
from ._dl import Executable as _Executable
from ._dl import Options as _Options
from ._dl import default_cache_dir as _default_cache_dir

__all__ = ["Error", "Module", "Function", "compile", "default_cache_dir",
           "from_torch"]


def default_cache_dir():
    """Where dl.compile keeps compilations by default: $DL_CACHE_DIR, else
    dl/ in the user's cache directory ($XDG_CACHE_HOME or ~/.cache)."""
    return _default_cache_dir()


def _options(threads, reference, microkernels, rank, solve_tiles, remarks,
             cache_sizes, cache, progress):
    options = _Options()
    if threads is not None:
        if threads < 0:
            raise ValueError(f"threads must be >= 0, got {threads}")
        options.threads = threads
    options.reference = reference
    options.microkernels = microkernels
    options.rank = rank
    options.solve_tiles = solve_tiles
    options.remarks = remarks
    options.cache_sizes = cache_sizes or ""
    if cache is True:
        options.cache_dir = default_cache_dir()
    elif cache:
        options.cache_dir = os.fspath(cache)
    options.progress = progress
    return options


def compile(mlir_text, threads=None, reference=False, microkernels=True,
            rank=True, solve_tiles=False, remarks=False, cache_sizes=None,
            cache=True, progress=False):
    """JIT-compiles the MLIR module `mlir_text` for this machine.

    threads: threads of the generated code (None or 0: all cores; 1:
      sequential code). reference: the unoptimized reference lowering.
    microkernels, rank, solve_tiles: as dl-compile's options of those names.
    remarks: collect the compiler's remarks (where it fell back to a slower
      path) in ``Module.remarks``. cache_sizes: e.g. "L1=48K,L2=1M" (default:
      this machine's).
    cache: where compilations are kept, so that compiling the same module
      again loads its code and compiling one with the same ops reuses their
      schedules: True (default_cache_dir()), a directory, or False (nothing
      kept; also with remarks, which come from compiling).
      ``Module.from_cache`` says whether the code was loaded.
    progress: print the compilation's steps to stderr (a line per ranked
      op).
    Raises dl.Error with the diagnostics when the module does not parse,
    verify or compile.
    """
    if not isinstance(mlir_text, str):
        raise TypeError("dl.compile expects MLIR text (str)")
    executable = _Executable(
        mlir_text,
        _options(threads, reference, microkernels, rank, solve_tiles,
                 remarks, cache_sizes, cache, progress))
    return Module(executable)


class Module:
    """A JIT-compiled module: each public function is an attribute (and an
    item) of it, a ``Function``."""

    def __init__(self, executable):
        self._executable = executable
        self._functions = {
            name: Function(executable, name) for name in executable.functions
        }

    @property
    def functions(self):
        """The names of the public functions, in the module's order."""
        return list(self._functions)

    @property
    def remarks(self):
        """The compiler's remarks and warnings (with remarks=True)."""
        return self._executable.remarks

    @property
    def from_cache(self):
        """Whether the code was loaded from the cache directory instead of
        compiled."""
        return self._executable.from_cache

    def __getitem__(self, name):
        try:
            return self._functions[name]
        except KeyError:
            raise KeyError(f"no public function @{name}; the module has "
                           f"{', '.join(self._functions) or 'none'}") from None

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self[name]
        except KeyError as error:
            raise AttributeError(str(error)) from None

    def __dir__(self):
        return list(super().__dir__()) + list(self._functions)


def _shape_text(shape):
    return "x".join("?" if size is None else str(size) for size in shape)


class Function:
    """A public function of a compiled module.

    A function on tensors takes its arguments as arrays (numpy arrays, or
    anything numpy converts: torch tensors, lists) and returns its results
    as new numpy float32 arrays (one array, or a tuple of them). Arrays that
    are C-contiguous float32 are passed without a copy. Results of dynamic
    sizes need ``out=`` (arrays to write them to).

    A function on buffers (memrefs) takes one array per argument and writes
    its outputs in place: they must be writeable C-contiguous float32 numpy
    arrays.
    """

    def __init__(self, executable, name):
        self._executable = executable
        self.name = name
        shapes, num_results = executable.signature(name)
        self.argument_shapes = shapes[:len(shapes) - num_results]
        self.result_shapes = shapes[len(shapes) - num_results:]

    def __repr__(self):
        args = ", ".join(_shape_text(s) for s in self.argument_shapes)
        results = ", ".join(_shape_text(s) for s in self.result_shapes)
        return f"<dl.Function @{self.name}({args}) -> ({results})>"

    def _check_shape(self, what, array, shape):
        if array.ndim != len(shape) or any(
                expected is not None and expected != size
                for expected, size in zip(shape, array.shape)):
            raise Error(f"@{self.name}: {what} has shape "
                        f"{_shape_text(array.shape)}, expected "
                        f"{_shape_text(shape)}")

    def __call__(self, *args, out=None):
        arrays, results = self._arrays(args, out)
        self._executable.call(self.name, arrays + results)
        if not results:
            return None
        return results[0] if len(results) == 1 else tuple(results)

    def time(self, *args, out=None, min_time=0.3, min_reps=5, warmup=2):
        """Times calls on `args` (as for a call; results are written to
        `out` or to arrays allocated once): `warmup` untimed calls, then
        calls until both `min_reps` calls and `min_time` seconds are
        reached, looping in C++ without Python between the calls. Returns
        the seconds of each timed call (a list; take its median)."""
        arrays, results = self._arrays(args, out)
        return self._executable.time(self.name, arrays + results,
                                     float(min_time), int(min_reps),
                                     int(warmup))

    def _arrays(self, args, out):
        """The arrays of the arguments and of the results of a call."""
        if len(args) != len(self.argument_shapes):
            raise Error(f"@{self.name} takes {len(self.argument_shapes)} "
                        f"arguments, got {len(args)}")
        writes_arguments = not self.result_shapes
        arrays = []
        for i, (arg, shape) in enumerate(zip(args, self.argument_shapes)):
            if writes_arguments:
                if not (isinstance(arg, np.ndarray) and
                        arg.dtype == np.float32 and
                        arg.flags["C_CONTIGUOUS"] and arg.flags["WRITEABLE"]):
                    raise Error(
                        f"@{self.name} writes its arguments in place: "
                        f"argument #{i} must be a writeable C-contiguous "
                        f"float32 numpy array")
                array = arg
            else:
                array = np.ascontiguousarray(arg, dtype=np.float32)
            self._check_shape(f"argument #{i}", array, shape)
            arrays.append(array)
        return arrays, self._results(out)

    def _results(self, out):
        if out is None:
            dynamic = [i for i, shape in enumerate(self.result_shapes)
                       if None in shape]
            if dynamic:
                raise Error(f"@{self.name}: result #{dynamic[0]} has a "
                            f"dynamic shape; pass the results' arrays as out=")
            return [np.empty(shape, dtype=np.float32)
                    for shape in self.result_shapes]
        if isinstance(out, np.ndarray):
            out = [out]
        out = list(out)
        if len(out) != len(self.result_shapes):
            raise Error(f"@{self.name} has {len(self.result_shapes)} results, "
                        f"got {len(out)} arrays in out=")
        for i, (array, shape) in enumerate(zip(out, self.result_shapes)):
            if not (isinstance(array, np.ndarray) and
                    array.dtype == np.float32 and
                    array.flags["C_CONTIGUOUS"] and array.flags["WRITEABLE"]):
                raise Error(f"@{self.name}: out[{i}] must be a writeable "
                            f"C-contiguous float32 numpy array")
            self._check_shape(f"out[{i}]", array, shape)
        return out


def from_torch(module, example_inputs, **kwargs):
    """Compiles a PyTorch nn.Module; see dl.torch_model.from_torch."""
    from .torch_model import from_torch as _from_torch
    return _from_torch(module, example_inputs, **kwargs)
