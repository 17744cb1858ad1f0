"""PyTorch models into dl IR: trace, partition, emit.

``_trace`` traces an ``nn.Module`` with ``torch.fx`` (keeping the
submodules it cannot trace whole); ``_Importer`` decides per node whether
dl computes it (a convolution, batch normalization, ReLU, ReLU6, residual
add, pooling, flatten, linear layer, dropout, ...) or PyTorch does
(anything else, and the cases of those dl lacks: each with its reason).
Consecutive dl nodes form a segment, emitted as one function of ``dl`` ops
on tensors. Inference batch normalization after a convolution is folded
into the convolution's weights and bias, as ``torch.jit.freeze`` does.
``dl.torch_model`` compiles and runs the result (``dl.from_torch``).
"""

import inspect
import operator

import numpy as np
import torch
import torch.fx
import torch.nn as nn
import torch.nn.functional as F

try:
    import torchvision.ops as torchvision_ops
except ImportError:  # torchvision is optional: none of its functions occur.
    torchvision_ops = None

from .mlir_text import FunctionWriter


class Unsupported(Exception):
    """A node dl does not compute; the message says why."""


def _pair(value):
    return tuple(value) if isinstance(value, (tuple, list)) else (value, value)


def _pool_padding(size, window, stride, pad, ceil_mode):
    """PyTorch's pooling output size along one dimension, as dl's floor-mode
    size with extra padding after the image: (bottom padding, output)."""
    extent = size + 2 * pad - window
    out = (extent + (stride - 1 if ceil_mode else 0)) // stride + 1
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1  # The last window must start inside the image or padding.
    extra = max(0, (out - 1) * stride + window - (size + 2 * pad))
    return pad + extra, out


class _Value:
    """A tensor value of the traced graph: its shape (float32 only)."""

    def __init__(self, node):
        meta = node.meta.get("tensor_meta")
        if meta is None or not hasattr(meta, "shape"):
            raise Unsupported("not a single tensor")
        if meta.dtype != torch.float32:
            raise Unsupported(f"element type {meta.dtype}, dl computes float32")
        self.shape = tuple(meta.shape)


class _Importer:
    """Classifies the nodes of a traced module and emits the dl segments."""

    def __init__(self, graph_module, untraceable):
        self.gm = graph_module
        self.modules = dict(graph_module.named_modules())
        # Submodules torch.fx could not trace: why, per module.
        self.untraceable = untraceable
        # Per node: "dl" or the reason it runs in PyTorch.
        self.placement = {}
        # Nodes whose batch normalization is folded into their convolution.
        self.folded_bn = {}

    # ----- classification ---------------------------------------------------

    def classify(self):
        for node in self.gm.graph.nodes:
            if node.op in ("placeholder", "output", "get_attr"):
                continue
            try:
                self._check(node)
                self.placement[node] = "dl"
            except Unsupported as reason:
                self.placement[node] = str(reason)
        self._fold_batch_norms()

    def _kind(self, node):
        """A name for what `node` computes, or None when dl has no rule."""
        if node.op == "call_module":
            module = self.modules[node.target]
            for kind, types in _MODULE_KINDS.items():
                if isinstance(module, types):
                    return kind
            return None
        if node.op == "call_function":
            return _FUNCTION_KINDS.get(node.target)
        if node.op == "call_method":
            return _METHOD_KINDS.get(node.target)
        return None

    def _module(self, node):
        return self.modules[node.target]

    @staticmethod
    def _tensor_args(node):
        """The arguments of `node` that are tensors (not sizes), those in a
        list argument (torch.cat's) included."""
        args = []
        for arg in node.args:
            args.extend(arg if isinstance(arg, (list, tuple)) else [arg])
        return [arg for arg in args if isinstance(arg, torch.fx.Node) and
                hasattr(arg.meta.get("tensor_meta"), "shape")]

    def _check(self, node):
        if node.op == "call_module" and self._module(node) in self.untraceable:
            raise Unsupported(self.untraceable[self._module(node)])
        kind = self._kind(node)
        if kind is None:
            raise Unsupported(f"{_describe(node)} is not in dl")
        _Value(node)
        for arg in self._tensor_args(node):
            _Value(arg)
        getattr(self, "_check_" + kind)(node)

    def _check_conv(self, node):
        conv = self._module(node)
        if conv.padding_mode != "zeros":
            raise Unsupported(f"padding_mode={conv.padding_mode!r}")
        if len(_Value(node.args[0]).shape) != 4:
            raise Unsupported("input is not N x C x H x W")

    def _check_batch_norm(self, node):
        bn = self._module(node)
        if bn.training:
            raise Unsupported("batch normalization in training mode")
        if not bn.track_running_stats or bn.running_mean is None:
            raise Unsupported("batch normalization without running statistics")
        if len(_Value(node).shape) != 4:
            raise Unsupported("input is not N x C x H x W")

    def _check_relu(self, node):
        if len(node.args) != 1 or node.kwargs.keys() - {"inplace"}:
            raise Unsupported("unexpected arguments")

    _check_relu6 = _check_relu
    _check_sigmoid = _check_relu
    _check_silu = _check_relu
    _check_hard_sigmoid = _check_relu
    _check_hard_swish = _check_relu

    def _check_mul(self, node):
        args = node.args
        if (len(args) != 2 or node.kwargs or
                not all(isinstance(a, torch.fx.Node) for a in args)):
            raise Unsupported("product with a scalar")
        out = _Value(node).shape
        shapes = [_Value(a).shape for a in args]
        full = [s for s in shapes if s == out]
        other = shapes[1] if shapes[0] == out else shapes[0]
        if not full or len(other) != len(out) or any(
                o not in (1, f) for o, f in zip(other, out)):
            raise Unsupported("product with broadcasting other than of "
                              "dimensions of size 1 of one operand")

    def _check_mean(self, node):
        dims = node.args[1] if len(node.args) > 1 else node.kwargs.get("dim")
        shape = _Value(node.args[0]).shape
        if (len(shape) != 4 or not isinstance(dims, (list, tuple)) or
                sorted(d % 4 for d in dims) != [2, 3] or
                node.kwargs.keys() - {"dim", "keepdim"} or len(node.args) > 3):
            raise Unsupported("mean other than over the height and width")

    def _check_hardtanh(self, node):
        module = self._module(node)
        if (module.min_val, module.max_val) != (0.0, 6.0):
            raise Unsupported("hardtanh other than ReLU6")

    def _check_add(self, node):
        args = node.args
        if (len(args) != 2 or node.kwargs or
                not all(isinstance(a, torch.fx.Node) for a in args)):
            raise Unsupported("add of a scalar or with alpha")
        if _Value(args[0]).shape != _Value(args[1]).shape:
            raise Unsupported("add with broadcasting")

    def _pool_attributes(self, node):
        """(window, strides, padding [t, l, b, r], output) of a pooling
        node, in dl's floor mode."""
        module = self._module(node)
        window = _pair(module.kernel_size)
        stride = _pair(module.stride if module.stride is not None else
                       module.kernel_size)
        pad = _pair(module.padding)
        ceil_mode = module.ceil_mode
        shape = _Value(node.args[0]).shape
        bottom, out_h = _pool_padding(shape[2], window[0], stride[0], pad[0],
                                      ceil_mode)
        right, out_w = _pool_padding(shape[3], window[1], stride[1], pad[1],
                                     ceil_mode)
        if bottom >= window[0] or right >= window[1]:
            raise Unsupported("ceil_mode padding of a whole window")
        return window, stride, (pad[0], pad[1], bottom, right), (out_h, out_w)

    def _check_max_pool(self, node):
        module = self._module(node)
        if _pair(module.dilation) != (1, 1) or module.return_indices:
            raise Unsupported("dilated max pooling or returned indices")
        self._pool_attributes(node)

    def _check_avg_pool(self, node):
        module = self._module(node)
        if module.divisor_override is not None:
            raise Unsupported("divisor_override")
        _, _, padding, _ = self._pool_attributes(node)
        pad = _pair(module.padding)
        if module.count_include_pad and (padding[2] != pad[0] or
                                         padding[3] != pad[1]):
            # PyTorch's divisor then excludes the ceil mode's extra padding.
            raise Unsupported("ceil_mode with count_include_pad")

    def _check_adaptive_avg_pool(self, node):
        shape = _Value(node.args[0]).shape
        out = _Value(node).shape
        if shape[2] % out[2] or shape[3] % out[3]:
            raise Unsupported("adaptive pooling to a size that does not "
                              "divide the input")

    def _check_flatten(self, node):
        shape = _Value(node.args[0]).shape
        out = _Value(node).shape
        if len(shape) < 2 or out != (shape[0], int(np.prod(shape[1:]))):
            raise Unsupported("a reshape other than flattening all but the "
                              "batch dimension")

    def _check_cat(self, node):
        tensors = node.args[0] if node.args else node.kwargs.get("tensors")
        if not isinstance(tensors, (list, tuple)) or not all(
                isinstance(t, torch.fx.Node) for t in tensors):
            raise Unsupported("concatenation of other than a list of tensors")
        rank = len(_Value(node).shape)
        if _cat_axis(node, rank) is None:
            raise Unsupported("concatenation along a dimension out of range")

    def _check_linear(self, node):
        if len(_Value(node.args[0]).shape) != 2:
            raise Unsupported("linear layer on an input of rank other than 2")

    def _check_identity(self, node):
        pass

    def _check_stochastic_depth(self, node):
        training = (node.args[3] if len(node.args) > 3 else
                    node.kwargs.get("training", True))
        if training is not False:
            raise Unsupported("stochastic depth in training mode")

    def _emit_stochastic_depth(self, node):
        return self._in(node)  # The identity in evaluation.

    def _fold_batch_norms(self):
        """Folds a batch normalization into the convolution it reads when
        that convolution's output is read by nothing else."""
        for node, placement in self.placement.items():
            if placement != "dl" or self._kind(node) != "batch_norm":
                continue
            producer = node.args[0]
            if (self.placement.get(producer) == "dl" and
                    self._kind(producer) == "conv" and
                    len(producer.users) == 1):
                self.folded_bn[producer] = node

    # ----- segments ---------------------------------------------------------

    def segments(self):
        """Maximal runs of consecutive dl nodes, in the graph's order, and
        the PyTorch nodes between them: [("dl", [nodes]) | ("torch", node)]."""
        plan = []
        for node in self.gm.graph.nodes:
            if node.op in ("placeholder", "output", "get_attr"):
                continue
            if self.placement.get(node) == "dl":
                if plan and plan[-1][0] == "dl":
                    plan[-1][1].append(node)
                else:
                    plan.append(("dl", [node]))
            else:
                plan.append(("torch", node))
        return plan

    # ----- emission ---------------------------------------------------------

    def emit_segment(self, name, nodes):
        """The MLIR function of segment `nodes`: its text, its tensor inputs
        (nodes), its weights (float32 arrays, passed after the inputs) and
        its outputs (nodes read after the segment)."""
        members = set(nodes)
        inputs = []
        for node in nodes:
            for arg in self._tensor_args(node):
                if arg not in members and arg not in inputs:
                    inputs.append(arg)
        outputs = [node for node in nodes
                   if any(user not in members for user in node.users)]
        writer = FunctionWriter(name)
        values = {}
        for node in inputs:
            values[node] = writer.argument(_Value(node).shape)
        self.writer, self.values, self.weights = writer, values, []
        for node in nodes:
            if node in self.folded_bn.values():
                # Folded into its convolution: the same value.
                values[node] = values[node.args[0]]
                continue
            writer.location = node.name
            values[node] = getattr(self, "_emit_" + self._kind(node))(node)
        text = writer.finish([values[node] for node in outputs])
        return text, inputs, self.weights, outputs

    def _weight(self, array):
        array = np.ascontiguousarray(array, dtype=np.float32)
        self.weights.append(array)
        return self.writer.argument(array.shape, constant=True)

    def _in(self, node, position=0):
        return self.values[node.args[position]]

    def _emit_conv(self, node):
        conv = self._module(node)
        weight = conv.weight.detach().double().numpy()
        bias = (conv.bias.detach().double().numpy() if conv.bias is not None
                else None)
        bn_node = self.folded_bn.get(node)
        if bn_node is not None:
            bn = self._module(bn_node)
            scale = (bn.weight.detach().double().numpy()
                     if bn.weight is not None else 1.0)
            shift = (bn.bias.detach().double().numpy()
                     if bn.bias is not None else 0.0)
            mean = bn.running_mean.detach().double().numpy()
            var = bn.running_var.detach().double().numpy()
            factor = scale / np.sqrt(var + bn.eps)
            weight = weight * factor.reshape(-1, 1, 1, 1)
            bias = (shift - mean * factor +
                    (bias * factor if bias is not None else 0.0))
        kernel = weight.shape[2:]
        stride = _pair(conv.stride)
        dilation = _pair(conv.dilation)
        if conv.padding == "same":
            pads = [d * (k - 1) for d, k in zip(dilation, kernel)]
            padding = (pads[0] // 2, pads[1] // 2, pads[0] - pads[0] // 2,
                       pads[1] - pads[1] // 2)
        elif conv.padding == "valid":
            padding = (0, 0, 0, 0)
        else:
            pad = _pair(conv.padding)
            padding = (pad[0], pad[1], pad[0], pad[1])
        out_shape = _Value(node).shape
        attrs = (f"strides = array<i64: {stride[0]}, {stride[1]}>, "
                 f"padding = array<i64: {', '.join(map(str, padding))}>")
        if dilation != (1, 1):
            attrs += f", dilations = array<i64: {dilation[0]}, {dilation[1]}>"
        groups = conv.groups
        if groups == conv.in_channels == conv.out_channels and groups > 1:
            # Depthwise: PyTorch's C x 1 x R x S as dl's R x S x C.
            value = self.writer.op(
                "depthwise_conv2d",
                [self._in(node), self._weight(weight[:, 0].transpose(1, 2, 0))],
                self.writer.empty(out_shape), attrs)
        elif groups == 1:
            value = self.writer.op("conv2d",
                                   [self._in(node), self._weight(weight)],
                                   self.writer.empty(out_shape), attrs)
        else:
            value = self.writer.grouped_conv2d(
                self._in(node), self._weight(weight), out_shape, attrs,
                groups)
        if bias is not None:
            value = self.writer.op("bias_add", [value, self._weight(bias)],
                                   value)
        return value

    def _emit_batch_norm(self, node):
        bn = self._module(node)
        channels = _Value(node).shape[1]
        vectors = [
            bn.weight.detach().numpy() if bn.weight is not None
            else np.ones(channels),
            bn.bias.detach().numpy() if bn.bias is not None
            else np.zeros(channels),
            bn.running_mean.detach().numpy(),
            bn.running_var.detach().numpy(),
        ]
        operands = [self._in(node)] + [self._weight(v) for v in vectors]
        return self.writer.op("batch_norm_inference", operands,
                              self.writer.empty(_Value(node).shape),
                              f"epsilon = {_float(bn.eps)} : f32")

    def _in_place(self, value, node):
        """The destination of an element-wise op on `value` computing `node`:
        `value` itself (bufferization copies it where it is read later), but
        not an argument of the segment, which is the caller's tensor (a
        result written into it would be that argument, not a result)."""
        if self.writer.is_argument(value):
            return self.writer.empty(_Value(node).shape)
        return value

    def _emit_unary(self, node, op):
        value = self._in(node)
        return self.writer.op(op, [value], self._in_place(value, node))

    def _emit_relu(self, node):
        return self._emit_unary(node, "relu")

    def _emit_relu6(self, node):
        return self._emit_unary(node, "relu6")

    def _emit_sigmoid(self, node):
        return self._emit_unary(node, "sigmoid")

    def _emit_silu(self, node):
        return self._emit_unary(node, "silu")

    def _emit_hard_sigmoid(self, node):
        return self._emit_unary(node, "hard_sigmoid")

    def _emit_hard_swish(self, node):
        return self._emit_unary(node, "hard_swish")

    def _emit_mul(self, node):
        # The full-shape operand first: dl.mul broadcasts its right operand.
        lhs, rhs = node.args[0], node.args[1]
        if _Value(lhs).shape != _Value(node).shape:
            lhs, rhs = rhs, lhs
        value = self.values[lhs]
        return self.writer.op("mul", [value, self.values[rhs]],
                              self._in_place(value, node))

    def _emit_mean(self, node):
        # The global average pooling, as N x C (x 1 x 1 with keepdim).
        shape = _Value(node.args[0]).shape
        pooled = self.writer.op(
            "avg_pool2d", [self._in(node)],
            self.writer.empty((shape[0], shape[1], 1, 1)),
            f"window = array<i64: {shape[2]}, {shape[3]}>")
        if len(_Value(node).shape) == 4:
            return pooled
        return self.writer.collapse(pooled, (shape[0], shape[1], 1, 1))

    _emit_hardtanh = _emit_relu6

    def _emit_add(self, node):
        # In place on the operand computed last: bufferization then gives the
        # sum that operand's buffer, and dl-fuse-epilogues fuses the add into
        # its producer (the other operand is complete by then).
        lhs, rhs = self._in(node, 0), self._in(node, 1)
        last = max(lhs, rhs, key=self.writer.position)
        return self.writer.op("add", [lhs, rhs], self._in_place(last, node))

    def _emit_pool(self, node, op, extra=""):
        window, stride, padding, _ = self._pool_attributes(node)
        attrs = (f"window = array<i64: {window[0]}, {window[1]}>, "
                 f"strides = array<i64: {stride[0]}, {stride[1]}>, "
                 f"padding = array<i64: {', '.join(map(str, padding))}>" +
                 extra)
        return self.writer.op(op, [self._in(node)],
                              self.writer.empty(_Value(node).shape), attrs)

    def _emit_max_pool(self, node):
        return self._emit_pool(node, "max_pool2d")

    def _emit_avg_pool(self, node):
        include = self._module(node).count_include_pad
        return self._emit_pool(
            node, "avg_pool2d",
            f", count_include_pad = {'true' if include else 'false'}")

    def _emit_adaptive_avg_pool(self, node):
        shape = _Value(node.args[0]).shape
        out = _Value(node).shape
        window = (shape[2] // out[2], shape[3] // out[3])
        attrs = (f"window = array<i64: {window[0]}, {window[1]}>, "
                 f"strides = array<i64: {window[0]}, {window[1]}>")
        return self.writer.op("avg_pool2d", [self._in(node)],
                              self.writer.empty(out), attrs)

    def _emit_cat(self, node):
        tensors = node.args[0] if node.args else node.kwargs["tensors"]
        out_shape = _Value(node).shape
        axis = _cat_axis(node, len(out_shape))
        return self.writer.op("concat", [self.values[t] for t in tensors],
                              self.writer.empty(out_shape),
                              f"axis = {axis}" if axis != 1 else "")

    def _emit_flatten(self, node):
        return self.writer.collapse(self._in(node), _Value(node.args[0]).shape)

    def _emit_linear(self, node):
        linear = self._module(node)
        rows, features = _Value(node).shape
        bias = (self._weight(linear.bias.detach().numpy())
                if linear.bias is not None else None)
        weight = FunctionWriter.linear_weight(linear.weight.detach().numpy(),
                                              rows)
        return self.writer.linear(self._in(node), self._weight(weight), bias,
                                  rows, features)

    def _emit_identity(self, node):
        return self._in(node)


def _float(value):
    """An MLIR float literal (which needs a digit after a decimal point)."""
    return f"{float(value):.9e}"


def _describe(node):
    if node.op == "call_module":
        return f"module {type(node.graph.owning_module.get_submodule(node.target)).__name__}"
    if node.op == "call_function":
        return f"function {getattr(node.target, '__name__', node.target)}"
    return f"method {node.target}"


def _cat_axis(node, rank):
    """The dimension torch.cat concatenates along, in [0, rank), or None."""
    dim = node.args[1] if len(node.args) > 1 else node.kwargs.get("dim", 0)
    if not isinstance(dim, int) or not -rank <= dim < rank:
        return None
    return dim % rank


_MODULE_KINDS = {
    "conv": nn.Conv2d,
    "batch_norm": nn.BatchNorm2d,
    "relu": nn.ReLU,
    "relu6": nn.ReLU6,
    "hardtanh": nn.Hardtanh,
    "max_pool": nn.MaxPool2d,
    "avg_pool": nn.AvgPool2d,
    "adaptive_avg_pool": nn.AdaptiveAvgPool2d,
    "flatten": nn.Flatten,
    "linear": nn.Linear,
    "identity": (nn.Dropout, nn.Identity),
    "sigmoid": nn.Sigmoid,
    "silu": nn.SiLU,
    "hard_sigmoid": nn.Hardsigmoid,
    "hard_swish": nn.Hardswish,
}
_FUNCTION_KINDS = {
    F.relu: "relu",
    torch.relu: "relu",
    F.relu6: "relu6",
    operator.add: "add",
    operator.iadd: "add",
    torch.add: "add",
    torch.flatten: "flatten",
    torch.sigmoid: "sigmoid",
    F.sigmoid: "sigmoid",
    F.silu: "silu",
    F.hardsigmoid: "hard_sigmoid",
    F.hardswish: "hard_swish",
    operator.mul: "mul",
    torch.mul: "mul",
    torch.cat: "cat",
    torch.concat: "cat",
    F.adaptive_avg_pool2d: "adaptive_avg_pool",
}
if torchvision_ops is not None:
    _FUNCTION_KINDS[torchvision_ops.stochastic_depth] = "stochastic_depth"
_METHOD_KINDS = {
    "relu": "relu",
    "sigmoid": "sigmoid",
    "mul": "mul",
    "mean": "mean",
    "flatten": "flatten",
    "view": "flatten",
    "reshape": "flatten",
}


def _placement_counts(importer):
    counts = {"dl": 0, "torch": 0}
    for placement in importer.placement.values():
        counts["dl" if placement == "dl" else "torch"] += 1
    return counts


class _Wrapper(nn.Module):
    """A module whose forward is that of its one submodule, `layer`, of one
    input."""

    def __init__(self, layer):
        super().__init__()
        self.layer = layer

    def forward(self, x):
        return self.layer(x)


def _trace(module):
    """The torch.fx graph of `module`, and the submodules it keeps whole
    because torch.fx cannot trace them (control flow on tensor values,
    iteration over a traced value), each with why: PyTorch runs them. Raises
    torch.fx's error when `module` itself is the one it cannot trace."""
    untraceable = {}

    class Tracer(torch.fx.Tracer):
        def is_leaf_module(self, m, name):
            return m in untraceable or super().is_leaf_module(m, name)

    if (Tracer().is_leaf_module(module, "") and
            len(inspect.signature(module.forward).parameters) == 1):
        # A layer alone (an nn.Conv2d, nn.Linear, ...): traced as the one
        # submodule of a wrapper, so its node is the module dl knows, not
        # the torch function its forward calls.
        module = _Wrapper(module)

    def traces(m):
        try:
            Tracer().trace(m)
            return None
        except Exception as error:  # torch.fx raises errors of many types.
            return error

    while True:
        error = traces(module)
        if error is None:
            return (torch.fx.GraphModule(module, Tracer().trace(module)),
                    untraceable)
        # The deepest submodule that does not trace alone (its children,
        # visited first, all do by then).
        culprit = None
        for _, child in reversed(list(module.named_modules())):
            if child is module or child in untraceable:
                continue
            why = traces(child)
            if why is not None:
                culprit = child
                untraceable[child] = (f"torch.fx cannot trace it "
                                      f"({_describe_error(why)})")
                break
        if culprit is None:
            raise error


def _describe_error(error):
    """The type and first sentence of `error` (torch.fx's messages go on
    with advice)."""
    lines = str(error).splitlines() or [""]
    return f"{type(error).__name__}: {lines[0].split('. ')[0].rstrip('.')}"


def _report(gm, importer):
    lines = []
    for node in gm.graph.nodes:
        placement = importer.placement.get(node)
        if placement is None:
            continue
        if placement == "dl":
            folded = node in importer.folded_bn.values()
            where = "dl (folded into its convolution)" if folded else "dl"
        else:
            where = f"torch: {placement}"
        lines.append(f"{node.name:32} {where}")
    return "\n".join(lines)
