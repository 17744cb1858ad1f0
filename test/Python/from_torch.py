# dl.from_torch on small models built here, against PyTorch's outputs
# (relative tolerance 1e-4 of the largest output magnitude): convolution with
# batch normalization folded (dense, depthwise, grouped), ReLU/ReLU6,
# hard-swish, SiLU, sigmoids, squeeze-and-excitation, pooling (ceil mode,
# padding, count_include_pad), global pooling and means, flatten, linear,
# residual add, concatenation, ResNeXt's and RegNet's grouped convolutions;
# nodes dl lacks (tanh, subtraction) and submodules torch.fx cannot trace run
# in PyTorch, and the report says so.
# RUN: %python %s | FileCheck %s

import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision

import dl

torch.manual_seed(0)


def randomize_batch_norms(model):
    for module in model.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.running_mean.uniform_(-1, 1)
            module.running_var.uniform_(0.5, 2)
            module.weight.data.uniform_(0.5, 2)
            module.bias.data.uniform_(-1, 1)
    return model.eval()


def check(name, model, *inputs, **options):
    compiled = dl.from_torch(model, inputs, verbose=False, **options)
    with torch.no_grad():
        want = model(*inputs)
        got = compiled(*inputs)
    err = float((got - want).abs().max() / max(1.0, want.abs().max()))
    print(f"{name}: {'ok' if err <= 1e-4 else f'MISMATCH {err}'}")
    return compiled


class Block(nn.Module):
    """A residual block: conv-BN-ReLU, conv-BN, a strided 1x1 shortcut."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(8, 16, 3, stride=2, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv2 = nn.Conv2d(16, 16, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(16)
        self.down = nn.Conv2d(8, 16, 1, stride=2)
        self.relu = nn.ReLU(inplace=True)

    def forward(self, x):
        y = self.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        y += self.down(x)
        return self.relu(y)


class Classifier(nn.Module):
    def __init__(self, ceil_mode, count_include_pad):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 5, stride=2, padding=2)
        self.pool = nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=ceil_mode)
        self.block = Block()
        self.avg = nn.AvgPool2d(3, stride=2, padding=1,
                                count_include_pad=count_include_pad)
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        y = self.block(self.pool(torch.relu(self.stem(x))))
        return self.fc(torch.flatten(self.gap(self.avg(y)), 1))


# CHECK: classifier: ok
# CHECK: classifier, ceil mode: ok
# CHECK: classifier, padding not counted: ok
# CHECK: classifier, 2 images, 1 thread: ok
x = torch.randn(1, 3, 37, 41)
compiled = check("classifier", randomize_batch_norms(Classifier(False, True)),
                 x)
# 39 rows: the stem's 20 pool into 11 rows in ceil mode, 10 without.
check("classifier, ceil mode", randomize_batch_norms(Classifier(True, False)),
      torch.randn(1, 3, 39, 41))
check("classifier, padding not counted",
      randomize_batch_norms(Classifier(False, False)), x)
check("classifier, 2 images, 1 thread",
      randomize_batch_norms(Classifier(False, True)), torch.randn(2, 3, 37, 41),
      threads=1)

# Every node in dl, one segment; the batch norms folded.
# CHECK: stem{{ +}}dl
# CHECK: block_bn1{{ +}}dl (folded into its convolution)
# CHECK: add{{ +}}dl
# CHECK: fc{{ +}}dl
print(compiled.report())

# The same model on numpy arrays gives numpy arrays; another shape compiles
# again.
# CHECK: numpy: ndarray (1, 10) ok
# CHECK: another shape: ok
model = randomize_batch_norms(Classifier(False, True))
compiled = dl.from_torch(model, x, verbose=False)
got = compiled(x.numpy())
with torch.no_grad():
    print("numpy:", type(got).__name__, got.shape,
          "ok" if np.allclose(got, model(x).numpy(), atol=1e-4) else "MISMATCH")
    other = torch.randn(1, 3, 29, 29)
    print("another shape:", "ok" if torch.allclose(
        compiled(other), model(other), atol=1e-4) else "MISMATCH")

# Compiling the same model again loads its code from the disk cache.
# CHECK: first compilation: ok
# CHECK: cached: False
# CHECK: second compilation: ok
# CHECK: cached: True
directory = tempfile.mkdtemp()
for which in ("first", "second"):
    compiled = check(f"{which} compilation", model, x, cache=directory)
    print("cached:", compiled.from_cache())


class Mixed(nn.Module):
    """Ops dl lacks between ops it has: the graph is partitioned."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.depthwise = nn.Conv2d(8, 8, 3, padding=1, groups=8)
        self.grouped = nn.Conv2d(16, 16, 3, padding=1, groups=4)
        self.relu6 = nn.ReLU6()
        self.pointwise = nn.Conv2d(16, 8, 1)

    def forward(self, x):
        y = self.relu6(self.bn(self.conv(x)))
        z = torch.tanh(self.depthwise(y))
        return self.pointwise(self.grouped(torch.cat([y, z], dim=1))).relu()


# CHECK: mixed: ok
# CHECK: depthwise{{ +}}dl
# CHECK: tanh{{ +}}torch: function tanh is not in dl
# CHECK: cat{{ +}}dl
# CHECK: grouped{{ +}}dl
# CHECK: pointwise{{ +}}dl
# CHECK: relu{{ +}}dl
mixed = check("mixed", randomize_batch_norms(Mixed()), torch.randn(2, 4, 9, 9))
print(mixed.report())


class Dense(nn.Module):
    """DenseNet- and ResNeXt-style layers: concatenations of a block's input
    and outputs (along the channels, and once along the width), grouped
    convolutions with batch normalization folded, a stride and a bias, and
    one of 16 groups of one input channel."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(16, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(24, 8, 3, padding=1)
        self.grouped = nn.Conv2d(32, 32, 3, stride=2, padding=1, groups=4,
                                 bias=False)
        self.bn = nn.BatchNorm2d(32)
        self.pair = nn.Conv2d(32, 16, 1, groups=2)
        self.many = nn.Conv2d(16, 32, 3, padding=1, groups=16)

    def forward(self, x):
        a = self.conv1(x).relu()
        b = self.conv2(torch.cat([x, a], 1)).relu()
        c = torch.cat((x, a, b), dim=1)
        d = self.pair(self.bn(self.grouped(c)).relu())
        return torch.cat([self.many(d), torch.cat([d, d], 1)], dim=-1)


# CHECK: dense: ok
# CHECK: cat{{ +}}dl
# CHECK: cat_1{{ +}}dl
# CHECK: grouped{{ +}}dl
# CHECK: bn{{ +}}dl (folded into its convolution)
# CHECK: pair{{ +}}dl
# CHECK: many{{ +}}dl
# CHECK: cat_2{{ +}}dl
# CHECK: cat_3{{ +}}dl
dense = check("dense", randomize_batch_norms(Dense()), torch.randn(2, 16, 9, 11))
print(dense.report())


class Bottleneck(nn.Module):
    """A ResNeXt bottleneck (32 groups of 4 channels) and a RegNet-style
    grouped convolution (13 groups of 8) between dense ones."""

    def __init__(self):
        super().__init__()
        self.reduce = nn.Conv2d(64, 128, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(128)
        self.grouped = nn.Conv2d(128, 128, 3, padding=1, groups=32,
                                 bias=False)
        self.bn2 = nn.BatchNorm2d(128)
        self.expand = nn.Conv2d(128, 64, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(64)
        self.widen = nn.Conv2d(64, 104, 1)
        self.regnet = nn.Conv2d(104, 104, 3, stride=2, padding=1, groups=13)

    def forward(self, x):
        y = self.bn1(self.reduce(x)).relu()
        y = self.bn2(self.grouped(y)).relu()
        y = (self.bn3(self.expand(y)) + x).relu()
        return self.regnet(self.widen(y).relu())


# CHECK: bottleneck: ok
# CHECK: grouped{{ +}}dl
# CHECK: bn2{{ +}}dl (folded into its convolution)
# CHECK: regnet{{ +}}dl
bottleneck = check("bottleneck", randomize_batch_norms(Bottleneck()),
                   torch.randn(1, 64, 14, 14))
print(bottleneck.report())


class Chunked(nn.Module):
    """ShuffleNetV2-style: a submodule torch.fx cannot trace (it iterates
    over a traced value) runs whole in PyTorch, the rest in dl."""

    def forward(self, x):
        a, b = x.chunk(2, dim=1)
        return torch.cat([b, a], dim=1)


class Around(nn.Module):
    """A segment that starts with element-wise ops on a value PyTorch
    computed and that PyTorch reads again: dl must not write into it."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(8, 8, 3, padding=1)
        self.chunked = Chunked()

    def forward(self, x):
        y = torch.sigmoid(self.conv(x)) - 0.5
        z = F.relu(y) + y
        return self.chunked(F.relu6(z * 4)) + z


# CHECK: around: ok
# CHECK: chunked{{ +}}torch: torch.fx cannot trace it ({{.+}})
around = check("around", Around(), torch.randn(2, 8, 6, 6))
print(around.report())


class Untraceable(nn.Module):
    def forward(self, x):
        return x * 2 if x.sum() > 0 else x


# CHECK: untraceable: ok
# CHECK: (the whole model){{ +}}torch: torch.fx cannot trace it (TraceError: symbolically traced variables cannot be used as inputs to control flow)
untraceable = check("untraceable", Untraceable(), torch.randn(3, 4))
print(untraceable.report())


class Excite(nn.Module):
    """MobileNetV3 / EfficientNet blocks: hard-swish and SiLU activations,
    a squeeze-and-excitation (global mean, 1x1 convolutions, a sigmoid or a
    hard sigmoid, the channel scales multiplied in) and stochastic depth
    (the identity in evaluation)."""

    def __init__(self):
        super().__init__()
        self.expand = nn.Conv2d(8, 32, 1)
        self.act = nn.Hardswish()
        self.fc1 = nn.Conv2d(32, 8, 1)
        self.fc2 = nn.Conv2d(8, 32, 1)
        self.gate = nn.Hardsigmoid()
        self.project = nn.Conv2d(32, 8, 1)

    def forward(self, x):
        y = self.act(self.expand(x))
        s = self.gate(self.fc2(F.silu(self.fc1(y.mean([2, 3], keepdim=True)))))
        z = self.project(y * s)
        t = torch.sigmoid(z.mean((-1, -2)))
        return torchvision.ops.stochastic_depth(z, 0.2, "row", False) + x, t


# CHECK: excite: ok
# CHECK-NOT: torch:
excite = dl.from_torch(Excite().eval(), torch.randn(2, 8, 7, 9), verbose=False)
with torch.no_grad():
    x = torch.randn(2, 8, 7, 9)
    got, want = excite(x), Excite.forward(excite.module, x)
    print("excite:", "ok" if all(torch.allclose(g, w, atol=1e-4)
                                 for g, w in zip(got, want)) else "MISMATCH")
print(excite.report())


class InvertedResidual(nn.Module):
    """MobileNetV2's block: 1x1 expansion, 3x3 depthwise (BN folded into
    it), 1x1 projection, residual; a strided depthwise block after it."""

    def __init__(self):
        super().__init__()

        def conv_bn(cin, cout, kernel, stride=1, groups=1, relu=True):
            layers = [nn.Conv2d(cin, cout, kernel, stride, kernel // 2,
                                groups=groups, bias=False),
                      nn.BatchNorm2d(cout)]
            return layers + ([nn.ReLU6(inplace=True)] if relu else [])

        self.block = nn.Sequential(*conv_bn(24, 144, 1),
                                   *conv_bn(144, 144, 3, groups=144),
                                   *conv_bn(144, 24, 1, relu=False))
        self.down = nn.Sequential(*conv_bn(24, 67, 1),
                                  *conv_bn(67, 67, 5, stride=2, groups=67))

    def forward(self, x):
        return self.down(x + self.block(x))


# CHECK: inverted residual: ok
# CHECK: inverted residual, 2 threads, 3 images: ok
check("inverted residual", randomize_batch_norms(InvertedResidual()),
      torch.randn(1, 24, 15, 15))
check("inverted residual, 2 threads, 3 images",
      randomize_batch_norms(InvertedResidual()), torch.randn(3, 24, 15, 15),
      threads=2)

# Linear layers: up to 8 rows stream the weights (one row: a view, more: a
# transpose of the result); more rows are a GEMM with the weights transposed.
# CHECK: linear, 1 row: ok
# CHECK: linear, 5 rows: ok
# CHECK: linear, 20 rows: ok
for rows in (1, 5, 20):
    check(f"linear, {rows} row{'s' if rows > 1 else ''}",
          nn.Sequential(nn.Linear(70, 33), nn.ReLU()).eval(),
          torch.randn(rows, 70))

# A layer alone is compiled as that layer (traced inside a wrapper: alone,
# torch.fx would see the torch function its forward calls, on its
# parameters); a module's own parameters used in torch functions are read
# where PyTorch runs them.
# CHECK: conv alone: ok
# CHECK-NEXT: layer{{ +}}dl
# CHECK: linear alone: ok
# CHECK-NEXT: layer{{ +}}dl
print(check("conv alone", nn.Conv2d(3, 8, 3), torch.randn(1, 3, 9, 9)).report())
print(check("linear alone", nn.Linear(70, 33), torch.randn(20, 70)).report())


class OwnParameters(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(8, 3, 3, 3))

    def forward(self, x):
        return torch.relu(F.conv2d(x, self.weight))


# CHECK: own parameters: ok
# CHECK-NEXT: conv2d{{ +}}torch: function conv2d is not in dl
# CHECK-NEXT: relu{{ +}}dl
print(check("own parameters", OwnParameters(), torch.randn(1, 3, 9, 9)).report())

# A model dl computes nothing of still runs.
# CHECK: nothing in dl: ok
check("nothing in dl", nn.Sequential(nn.Tanh()).eval(), torch.randn(3, 5))

# CHECK: not a module: TypeError: dl.from_torch expects a torch.nn.Module
try:
    dl.from_torch(lambda x: x, torch.randn(1))
except TypeError as error:
    print("not a module: TypeError:", error)
