"""Writes MLIR functions of dl ops on tensors as text (the package has no
MLIR Python bindings: Debian does not package them; dl.compile parses the
text with MLIR's parser, which checks it)."""

__all__ = ["FunctionWriter", "STREAMED_ROWS", "tensor_type"]


def tensor_type(shape):
    """The MLIR type of a float32 tensor of `shape`."""
    return "tensor<" + "".join(f"{size}x" for size in shape) + "f32>"


class FunctionWriter:
    """Builds one func.func: arguments, destination-style dl ops whose result
    is a new SSA value, and the returned values. A value is its SSA name;
    its type is remembered."""

    def __init__(self, name):
        self.name = name
        self.arguments = []
        self.lines = []
        self.types = {}
        self.constants = set()
        self._count = 0
        # The location of the ops written next (e.g. the PyTorch node they
        # compute), which diagnostics and the compiler's progress quote.
        self.location = None

    def _fresh(self, shape):
        name = f"%v{self._count}"
        self._count += 1
        self.types[name] = tensor_type(shape)
        return name

    def argument(self, shape, constant=False):
        """A new argument; `constant` marks it `dl.constant` (the same
        contents on every call: dl packs it once)."""
        name = f"%a{len(self.arguments)}"
        self.arguments.append(name)
        self.types[name] = tensor_type(shape)
        if constant:
            self.constants.add(name)
        return name

    def is_argument(self, value):
        """Whether `value` is an argument of the function."""
        return value in self.arguments

    def position(self, value):
        """The order in which `value` was defined (arguments first)."""
        if value.startswith("%a"):
            return -len(self.arguments) + int(value[2:])
        return int(value[2:])

    def empty(self, shape):
        """A tensor.empty of `shape`, the destination of an op that writes
        every element."""
        value = self._fresh(shape)
        self.lines.append(f"{value} = tensor.empty() : {self.types[value]}")
        return value

    def op(self, name, inputs, output, attributes=""):
        """`dl.<name> ins(inputs) outs(output) {attributes}`; returns its
        result (of the output's type)."""
        result = f"%v{self._count}"
        self._count += 1
        self.types[result] = self.types[output]
        in_types = ", ".join(self.types[v] for v in inputs)
        attrs = f" {{{attributes}}}" if attributes else ""
        self.lines.append(
            f"{result} = dl.{name} ins({', '.join(inputs)} : {in_types}) "
            f"outs({output} : {self.types[output]}){attrs} -> "
            f"{self.types[output]}{self._location()}")
        return result

    def _location(self):
        if self.location is None:
            return ""
        escaped = self.location.replace("\\", "\\\\").replace('"', '\\"')
        return f' loc("{escaped}")'

    def collapse(self, value, shape):
        """`value` of `shape` (N x ...) viewed as N x (the product of the
        rest): a tensor.collapse_shape, no copy."""
        rest = ", ".join(str(d) for d in range(1, len(shape)))
        result = self._fresh((shape[0], _product(shape[1:])))
        self.lines.append(
            f"{result} = tensor.collapse_shape {value} [[0], [{rest}]] : "
            f"{self.types[value]} into {self.types[result]}")
        return result

    def transpose(self, value, shape):
        """The rows x columns `value` of `shape` transposed: a view for one
        column, else a linalg.transpose."""
        rows, columns = shape
        result = self._fresh((columns, rows))
        if columns == 1:
            flat = self._fresh((rows,))
            self.lines.append(
                f"{flat} = tensor.collapse_shape {value} [[0, 1]] : "
                f"{self.types[value]} into {self.types[flat]}")
            self.lines.append(
                f"{result} = tensor.expand_shape {flat} [[0, 1]] output_shape "
                f"[1, {rows}] : {self.types[flat]} into {self.types[result]}")
            return result
        empty = self.empty((columns, rows))
        self.lines.append(
            f"{result} = linalg.transpose ins({value} : {self.types[value]}) "
            f"outs({empty} : {self.types[empty]}) permutation = [1, 0]")
        return result

    def grouped_conv2d(self, x, weight, out_shape, attributes, groups):
        """A convolution of `groups` groups (PyTorch's `groups`) of `x`
        with `weight` (K x C/G x R x S) into `out_shape`: dl.conv2d's
        `groups`."""
        return self.op("conv2d", [x, weight], self.empty(out_shape),
                       f"{attributes}, groups = {groups} : i64")

    @staticmethod
    def linear_weight(weight, rows):
        """The array a fully connected layer of `rows` rows binds for
        PyTorch's `weight` (features x inputs): as it is for the few rows
        that stream it, else transposed (inputs x features: dl packs a
        constant K x N B into blocks once, see dl-pack-gemm-operands)."""
        return weight if rows <= STREAMED_ROWS else weight.T

    def linear(self, x, weight, bias, rows, features):
        """A fully connected layer (PyTorch's nn.Linear): `x` (rows x
        inputs) times the weights (an argument of `linear_weight`'s array),
        plus `bias` (features, or None)."""
        if rows <= STREAMED_ROWS:
            # Weights times the few inputs' rows: a GEMV-like GEMM that
            # streams the weights once (dl.matmul's stream_a), its features
            # x rows result transposed (a view for one row).
            product = self.op("matmul", [weight, x],
                              self.empty((features, rows)), "transpose_b")
            value = self.transpose(product, (features, rows))
        else:
            value = self.op("matmul", [x, weight],
                            self.empty((rows, features)))
        if bias is not None:
            value = self.op("bias_add", [value, bias], value)
        return value

    def finish(self, results):
        """The function's text, returning `results`."""
        args = ", ".join(
            f"{a}: {self.types[a]}" +
            (" {dl.constant}" if a in self.constants else "")
            for a in self.arguments)
        result_types = ", ".join(self.types[r] for r in results)
        body = "\n".join("  " + line for line in self.lines)
        returned = (f"  return {', '.join(results)} : {result_types}"
                    if results else "  return")
        return (f"func.func @{self.name}({args}) -> ({result_types}) {{\n"
                f"{body}\n{returned}\n}}\n")


# Up to this many rows (images), a linear layer streams its weights: it is
# memory-bound.
STREAMED_ROWS = 8


def _product(sizes):
    total = 1
    for size in sizes:
        total *= size
    return total
