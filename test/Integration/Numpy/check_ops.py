#!/usr/bin/env python3
"""Checks the compiled code of every dl op against numpy.

Compiles a .mlir module of dl functions (on memrefs, or on tensors, called
in their buffer form) with `dl-compile --emit=shared`,
loads the library with ctypes and, for each function, fills its inputs from a
fixed-seed numpy RandomState, calls it and compares every output with a
float64 numpy reference written from the op semantics in DLOps.td.

`dl-compile --run` checks the optimized code against the compiler's own
reference lowering, so a misreading of the semantics shared by both
lowerings goes unnoticed there; this script is an oracle independent of the
compiler.

Each function of the module needs an entry in FUNCTIONS: its arguments (shape,
role, value range; the concrete sizes where the module has `?`) and a
reference that maps the initial argument values to the expected values of
the written arguments. Write-only outputs start as NaN, so an element left
unwritten, or an output read before it is written, is a mismatch.

Prints `NAME: max_abs_err=... ok` (or `MISMATCH`) per function, then
`all N functions match numpy`; exits 1 on a mismatch or on a function of the
module without an entry (or an entry without a function).
"""

import argparse
import ctypes
import os
import re
import subprocess
import sys
import zlib

import numpy as np

IN, OUT, INOUT = "in", "out", "inout"


class Arg:
    """A memref argument: concrete shape, role, and the uniform range that
    fills it when it is read (IN or INOUT)."""

    def __init__(self, *shape, role=IN, low=-1.0, high=1.0):
        self.shape, self.role, self.low, self.high = shape, role, low, high


def Out(*shape):
    return Arg(*shape, role=OUT)


def InOut(*shape):
    return Arg(*shape, role=INOUT)


def Var(*shape):
    """A variance: positive, uniform in [0.5, 1.5)."""
    return Arg(*shape, low=0.5, high=1.5)


# ---------------------------------------------------------------------------
# numpy references (float64), from the descriptions in DLOps.td
# ---------------------------------------------------------------------------


def matmul(a, b, c, alpha=1.0, beta=0.0, transpose_a=False, transpose_b=False):
    result = alpha * ((a.T if transpose_a else a) @ (b.T if transpose_b else b))
    if beta != 0.0:  # With beta = 0, C is not read (it holds NaN).
        result += beta * c
    return result


def conv2d(x, w, strides=(1, 1), padding=(0, 0, 0, 0), dilations=(1, 1)):
    """Plain NCHW x KCRS convolution; padding is [top, left, bottom, right]."""
    n, _, h, wd = x.shape
    k, _, r, s = w.shape
    top, left, bottom, right = padding
    (sh, sw), (dh, dw) = strides, dilations
    oh = (h + top + bottom - dh * (r - 1) - 1) // sh + 1
    ow = (wd + left + right - dw * (s - 1) - 1) // sw + 1
    padded = np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)))
    out = np.zeros((n, k, oh, ow))
    for i in range(r):
        for j in range(s):
            # input[n][c][oh * sh + i * dh][ow * sw + j * dw] for all oh, ow.
            taps = padded[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh,
                          j * dw:j * dw + sw * (ow - 1) + 1:sw]
            out += np.einsum("nchw,kc->nkhw", taps, w[:, :, i, j])
    return out


def pack_activation(x, c):
    """dest[n][cb][h][w][c'] = source[n][cb * c + c'][h][w]."""
    n, channels, h, w = x.shape
    return x.reshape(n, channels // c, c, h, w).transpose(0, 1, 3, 4, 2)


def unpack_activation(x):
    n, cb, h, w, c = x.shape
    return x.transpose(0, 1, 4, 2, 3).reshape(n, cb * c, h, w)


def pack_filter(w, c, k):
    """dest[kb][cb][r][s][c'][k'] = source[kb * k + k'][cb * c + c'][r][s]."""
    kk, cc, r, s = w.shape
    return w.reshape(kk // k, k, cc // c, c, r, s).transpose(0, 2, 4, 5, 3, 1)


def unpack_filter(w):
    kb, cb, r, s, c, k = w.shape
    return w.transpose(0, 5, 1, 4, 2, 3).reshape(kb * k, cb * c, r, s)


def pack_matrix(b, k, n):
    """dest[nb][kb][k'][n'] = source[kb * k + k'][nb * n + n']."""
    rows, cols = b.shape
    return b.reshape(rows // k, k, cols // n, n).transpose(2, 0, 1, 3)


def unpack_matrix(b):
    nb, kb, k, n = b.shape
    return b.transpose(1, 2, 0, 3).reshape(kb * k, nb * n)


def conv2d_blocked(x, w, **attrs):
    y = conv2d(unpack_activation(x), unpack_filter(w), **attrs)
    return pack_activation(y, w.shape[5])


def as_plain(x):
    """An NCHW view of a plain (rank 4) or blocked (rank 5) activation."""
    return unpack_activation(x) if x.ndim == 5 else x


def like(y, x):
    """`y` (NCHW) in the layout of `x`."""
    return pack_activation(y, x.shape[4]) if x.ndim == 5 else y


def per_channel(v):
    return v[None, :, None, None]


def bn_inference(x, gamma, beta, mean, var, eps=1e-3):
    y = (per_channel(gamma) * (as_plain(x) - per_channel(mean)) /
         np.sqrt(per_channel(var) + eps) + per_channel(beta))
    return like(y, x)


def bn_training(x, gamma, beta, eps=1e-3, inv_std=False):
    """[output, saved_mean, saved_variance] and, with `inv_std`,
    1 / sqrt(variance + eps); the variance is biased."""
    plain = as_plain(x)
    mean = plain.mean(axis=(0, 2, 3))
    var = ((plain - per_channel(mean))**2).mean(axis=(0, 2, 3))
    outs = [bn_inference(x, gamma, beta, mean, var, eps), mean, var]
    return outs + [1 / np.sqrt(var + eps)] if inv_std else outs


def bias_add(x, bias):
    if x.ndim == 2:
        return x + bias[None, :]
    return like(as_plain(x) + per_channel(bias), x)


def relu(x):
    return np.maximum(x, 0.0)


def relu6(x):
    return np.minimum(np.maximum(x, 0.0), 6.0)


def conv_bn_relu(x, w, gamma, beta, mean, var):
    """[conv, output]."""
    conv = conv2d(x, w, padding=(1, 1, 1, 1))
    return [conv, relu(bn_inference(conv, gamma, beta, mean, var, eps=1e-5))]


def fused_conv_bn_training_relu(x, w, gamma, beta):
    """[conv, output, saved_mean, saved_variance]."""
    conv = conv2d_blocked(x, w, padding=(1, 1, 1, 1))
    y, mean, var = bn_training(conv, gamma, beta)
    return [conv, relu(y), mean, var]


def blocked_pipeline(x, w, bias):
    """[packed x, packed w, blocked conv, unpacked conv + bias], computed
    with the plain convolution."""
    conv = conv2d(x, w, strides=(2, 2), padding=(0, 1, 1, 0))
    return [pack_activation(x, 4), pack_filter(w, 4, 8),
            pack_activation(conv, 8), bias_add(conv, bias)]


# name -> (arguments, reference). The reference gets every argument's initial
# value (float64; NaN for OUT) and returns the expected values of the OUT and
# INOUT arguments, in argument order.
FUNCTIONS = {
    # dl.matmul
    "matmul_plain": ([Arg(5, 7), Arg(7, 13), Out(5, 13)],
                     lambda a, b, c: [matmul(a, b, c)]),
    "matmul_alpha_beta": (
        [Arg(13, 17), Arg(17, 5), InOut(13, 5)],
        lambda a, b, c: [matmul(a, b, c, alpha=2.0, beta=0.5)]),
    "matmul_transpose_a": (
        [Arg(7, 5), Arg(7, 13), InOut(5, 13)],
        lambda a, b, c: [matmul(a, b, c, 2.0, 0.5, transpose_a=True)]),
    "matmul_transpose_b": (
        [Arg(5, 7), Arg(13, 7), Out(5, 13)],
        lambda a, b, c: [matmul(a, b, c, transpose_b=True)]),
    "matmul_transpose_ab_accumulate": (
        [Arg(17, 13), Arg(5, 17), InOut(13, 5)],
        lambda a, b, c: [matmul(a, b, c, beta=1.0, transpose_a=True,
                                transpose_b=True)]),
    "matmul_dynamic": ([Arg(17, 13), Arg(13, 7), InOut(17, 7)],
                       lambda a, b, c: [matmul(a, b, c, 2.0, 0.5)]),
    # dl.matmul with a blocked B (N/bn x K/bk x bk x bn)
    "matmul_blocked_b": (
        [Arg(20, 24), Arg(3, 2, 12, 8), InOut(20, 24)],
        lambda a, b, c: [matmul(a, unpack_matrix(b), c, alpha=2.0, beta=0.5)]),
    "matmul_blocked_b_dynamic": (
        [Arg(9, 24), Arg(2, 3, 8, 4), Out(9, 8)],
        lambda a, b, c: [matmul(a, unpack_matrix(b), c)]),
    # dl.conv2d, plain
    "conv_1x1": ([Arg(2, 5, 7, 7), Arg(3, 5, 1, 1), Out(2, 3, 7, 7)],
                 lambda x, w, y: [conv2d(x, w)]),
    "conv_3x3_pad1": (
        [Arg(1, 3, 13, 13), Arg(5, 3, 3, 3), Out(1, 5, 13, 13)],
        lambda x, w, y: [conv2d(x, w, padding=(1, 1, 1, 1))]),
    "conv_3x3_stride2_asym_pad": (
        [Arg(2, 3, 17, 13), Arg(4, 3, 3, 3), Out(2, 4, 9, 6)],
        lambda x, w, y: [conv2d(x, w, strides=(2, 2), padding=(1, 0, 2, 1))]),
    "conv_7x7_stride3_pad3": (
        [Arg(1, 3, 17, 17), Arg(4, 3, 7, 7), Out(1, 4, 6, 6)],
        lambda x, w, y: [conv2d(x, w, strides=(3, 3), padding=(3, 3, 3, 3))]),
    "conv_3x3_dilation2_asym_pad": (
        [Arg(1, 4, 13, 11), Arg(5, 4, 3, 3), Out(1, 5, 11, 11)],
        lambda x, w, y: [conv2d(x, w, dilations=(2, 2),
                                padding=(2, 1, 0, 3))]),
    "conv_3x5_mixed_hw": (
        [Arg(1, 2, 13, 17), Arg(3, 2, 3, 5), Out(1, 3, 5, 6)],
        lambda x, w, y: [conv2d(x, w, strides=(2, 3), dilations=(2, 1),
                                padding=(1, 2, 0, 1))]),
    "conv_dynamic": (
        [Arg(2, 3, 9, 11), Arg(4, 3, 3, 3), Out(2, 4, 5, 6)],
        lambda x, w, y: [conv2d(x, w, strides=(2, 2), padding=(1, 1, 1, 1))]),
    # dl.conv2d, blocked
    "conv_blocked_3x3_pad1": (
        [Arg(1, 2, 7, 7, 4), Arg(3, 2, 3, 3, 4, 8), Out(1, 3, 7, 7, 8)],
        lambda x, w, y: [conv2d_blocked(x, w, padding=(1, 1, 1, 1))]),
    "conv_blocked_1x1_stride2": (
        [Arg(2, 2, 13, 13, 8), Arg(2, 2, 1, 1, 8, 4), Out(2, 2, 7, 7, 4)],
        lambda x, w, y: [conv2d_blocked(x, w, strides=(2, 2))]),
    "conv_blocked_7x7_stride3_asym_pad": (
        [Arg(1, 1, 17, 17, 4), Arg(2, 1, 7, 7, 4, 4), Out(1, 2, 5, 6, 4)],
        lambda x, w, y: [conv2d_blocked(x, w, strides=(3, 3),
                                        padding=(3, 2, 1, 3))]),
    "conv_blocked_3x3_dilation2": (
        [Arg(1, 2, 11, 11, 4), Arg(2, 2, 3, 3, 4, 4), Out(1, 2, 11, 11, 4)],
        lambda x, w, y: [conv2d_blocked(x, w, dilations=(2, 2),
                                        padding=(2, 2, 2, 2))]),
    "conv_blocked_skip_3x3_pad1": (
        [Arg(1, 2, 7, 7, 4), Arg(3, 2, 3, 3, 4, 8), Out(1, 3, 7, 7, 8)],
        lambda x, w, y: [conv2d_blocked(x, w, padding=(1, 1, 1, 1))]),
    "conv_blocked_skip_7x7_stride3_asym_pad": (
        [Arg(1, 1, 17, 17, 4), Arg(2, 1, 7, 7, 4, 4), Out(1, 2, 5, 6, 4)],
        lambda x, w, y: [conv2d_blocked(x, w, strides=(3, 3),
                                        padding=(3, 2, 1, 3))]),
    "conv_blocked_skip_dilation2": (
        [Arg(1, 2, 11, 11, 4), Arg(2, 2, 3, 3, 4, 4), Out(1, 2, 11, 10, 4)],
        lambda x, w, y: [conv2d_blocked(x, w, dilations=(2, 2),
                                        padding=(2, 3, 2, 0))]),
    "conv_blocked_skip_padding_only_tap": (
        [Arg(1, 1, 5, 3, 4), Arg(1, 1, 3, 5, 4, 4), Out(1, 1, 5, 3, 4)],
        lambda x, w, y: [conv2d_blocked(x, w, padding=(1, 4, 1, 0))]),
    "conv_blocked_skip_dynamic_rows": (
        [Arg(2, 3, 6, 9, 4), Arg(2, 3, 3, 3, 4, 4), Out(2, 2, 6, 9, 4)],
        lambda x, w, y: [conv2d_blocked(x, w, padding=(1, 1, 1, 1))]),
    # batch normalization
    "bn_inference": (
        [Arg(2, 5, 7, 3), Arg(5), Arg(5), Arg(5), Var(5), Out(2, 5, 7, 3)],
        lambda x, g, b, m, v, y: [bn_inference(x, g, b, m, v)]),
    "bn_inference_blocked": (
        [Arg(2, 3, 5, 7, 4), Arg(12), Arg(12), Arg(12), Var(12),
         Out(2, 3, 5, 7, 4)],
        lambda x, g, b, m, v, y: [bn_inference(x, g, b, m, v, eps=1e-5)]),
    "bn_training": (
        [Arg(3, 5, 7, 13), Arg(5), Arg(5), Out(3, 5, 7, 13), Out(5), Out(5),
         Out(5)],
        lambda x, g, b, *outs: bn_training(x, g, b, eps=1e-5, inv_std=True)),
    "bn_training_blocked": (
        [Arg(2, 2, 5, 3, 8), Arg(16), Arg(16), Out(2, 2, 5, 3, 8), Out(16),
         Out(16), Out(16)],
        lambda x, g, b, *outs: bn_training(x, g, b, inv_std=True)),
    "bn_training_m1": (
        [Arg(1, 7, 1, 1), Arg(7), Arg(7), Out(1, 7, 1, 1), Out(7), Out(7)],
        lambda x, g, b, *outs: bn_training(x, g, b)),
    "bn_training_dynamic": (
        [Arg(2, 3, 5, 7), Arg(3), Arg(3), Out(2, 3, 5, 7), Out(3), Out(3)],
        lambda x, g, b, *outs: bn_training(x, g, b, eps=1e-5)),
    "bn_training_offset_relu": (
        [Arg(2, 19, 14, 14, low=99.0, high=101.0), Arg(19), Arg(19),
         Out(2, 19, 14, 14), Out(19), Out(19)],
        lambda x, g, b, y, m, v: [relu(y) for y in bn_training(x, g, b)[:1]]
        + bn_training(x, g, b)[1:]),
    "bn_training_blocked16_offset_relu6": (
        [Arg(1, 2, 7, 7, 16, low=99.0, high=101.0),
         Arg(32, low=-8.0, high=8.0), Arg(32), Out(1, 2, 7, 7, 16), Out(32),
         Out(32)],
        lambda x, g, b, y, m, v: [relu6(y) for y in bn_training(x, g, b)[:1]]
        + bn_training(x, g, b)[1:]),
    "bn_inference_relu_in_place": (
        [InOut(1, 21, 7, 7), Arg(21), Arg(21), Arg(21), Var(21)],
        lambda x, g, b, m, v: [relu(bn_inference(x, g, b, m, v))]),
    "bn_inference_blocked_dynamic_relu6": (
        [Arg(2, 3, 5, 11, 8), Arg(24, low=-8.0, high=8.0), Arg(24), Arg(24),
         Var(24), Out(2, 3, 5, 11, 8)],
        lambda x, g, b, m, v, y: [relu6(bn_inference(x, g, b, m, v))]),
    # element-wise
    "relu": ([Arg(5, 7, 13), Out(5, 7, 13)], lambda x, y: [relu(x)]),
    "relu_in_place": ([InOut(2, 3, 17, 5)], lambda x: [relu(x)]),
    "relu6": ([Arg(17, 13, low=-10.0, high=10.0), Out(17, 13)],
              lambda x, y: [relu6(x)]),
    "add": ([Arg(5, 7, 13), Arg(5, 7, 13), Out(5, 7, 13)],
            lambda a, b, c: [a + b]),
    "add_in_place": ([InOut(7, 17), Arg(7, 17)], lambda a, b: [a + b]),
    "add_dynamic": ([Arg(6, 13), Arg(6, 13), Out(6, 13)],
                    lambda a, b, c: [a + b]),
    "bias_add_rank2": ([Arg(5, 17), Arg(17), Out(5, 17)],
                       lambda x, b, y: [bias_add(x, b)]),
    "bias_add_rank4": ([Arg(2, 7, 3, 5), Arg(7), Out(2, 7, 3, 5)],
                       lambda x, b, y: [bias_add(x, b)]),
    "bias_add_rank5": ([Arg(2, 3, 5, 7, 4), Arg(12), Out(2, 3, 5, 7, 4)],
                       lambda x, b, y: [bias_add(x, b)]),
    "bias_add_in_place": ([InOut(13, 5), Arg(5)],
                          lambda x, b: [bias_add(x, b)]),
    # layout changes
    "pack_activation": ([Arg(2, 12, 5, 7), Out(2, 3, 5, 7, 4)],
                        lambda x, y: [pack_activation(x, 4)]),
    "unpack_activation": ([Arg(2, 2, 5, 3, 8), Out(2, 16, 5, 3)],
                          lambda x, y: [unpack_activation(x)]),
    "pack_filter": ([Arg(24, 8, 3, 3), Out(3, 2, 3, 3, 4, 8)],
                    lambda w, y: [pack_filter(w, 4, 8)]),
    "unpack_filter": ([Arg(2, 3, 3, 3, 4, 8), Out(16, 12, 3, 3)],
                      lambda w, y: [unpack_filter(w)]),
    "pack_activation_dynamic": ([Arg(1, 16, 5, 7), Out(1, 2, 5, 7, 8)],
                                lambda x, y: [pack_activation(x, 8)]),
    "pack_matrix": ([Arg(24, 16), Out(2, 2, 12, 8)],
                    lambda b, y: [pack_matrix(b, 12, 8)]),
    "unpack_matrix": ([Arg(3, 2, 4, 8), Out(8, 24)],
                      lambda b, y: [unpack_matrix(b)]),
    # chains
    "conv_bn_relu": (
        [Arg(1, 5, 13, 13), Arg(7, 5, 3, 3), Arg(7), Arg(7), Arg(7), Var(7),
         Out(1, 7, 13, 13), Out(1, 7, 13, 13)],
        lambda x, w, g, b, m, v, *outs: conv_bn_relu(x, w, g, b, m, v)),
    "fused_conv_bias_add_relu": (
        [Arg(1, 2, 6, 6, 8), Arg(2, 2, 3, 3, 8, 8), Arg(16), Arg(1, 2, 6, 6, 8),
         Out(1, 2, 6, 6, 8)],
        lambda x, w, b, r, y: [relu(bias_add(
            conv2d_blocked(x, w, padding=(1, 1, 1, 1)), b) + r)]),
    "fused_conv_merged_rows_add_relu6": (
        [Arg(2, 1, 7, 7, 16), Arg(2, 1, 1, 1, 16, 16),
         Arg(2, 2, 7, 7, 16, low=-4.0, high=4.0), Out(2, 2, 7, 7, 16)],
        lambda x, w, r, y: [relu6(conv2d_blocked(x, w) + r)]),
    "fused_conv_bn_relu": (
        [Arg(1, 1, 5, 5, 8), Arg(1, 1, 3, 3, 8, 8), Arg(8), Arg(8), Arg(8),
         Var(8), Out(1, 1, 5, 5, 8)],
        lambda x, w, g, b, m, v, y: [relu(bn_inference(
            conv2d_blocked(x, w, padding=(1, 1, 1, 1)), g, b, m, v))]),
    "fused_conv_bn_training_relu": (
        [Arg(2, 1, 6, 6, 8, low=9.0, high=11.0),
         Arg(2, 1, 3, 3, 8, 8, low=0.0, high=0.1), Arg(16), Arg(16),
         Out(2, 2, 6, 6, 8), Out(2, 2, 6, 6, 8), Out(16), Out(16)],
        lambda x, w, g, b, conv, y, m, v: fused_conv_bn_training_relu(
            x, w, g, b)),
    "fused_linear_bias_relu": (
        [Arg(64, 96), Arg(96, 128), Arg(128), Out(64, 128)],
        lambda a, b, bias, c: [relu(a @ b + bias[None, :])]),
    "fused_gemv_add_relu6": (
        [Arg(256, 512), Arg(512, 3), Arg(256, 3, low=-8.0, high=8.0),
         Out(256, 3)],
        lambda a, b, r, c: [relu6(a @ b + r)]),
    "blocked_pipeline": (
        [Arg(1, 8, 9, 9), Arg(8, 8, 3, 3), Arg(8), Out(1, 2, 9, 9, 4),
         Out(1, 2, 3, 3, 4, 8), Out(1, 1, 4, 4, 8), Out(1, 8, 4, 4)],
        lambda x, w, b, *outs: blocked_pipeline(x, w, b)),
    # tensor programs, in their buffer form (new results appended)
    "tensor_conv_bias_relu": (
        [Arg(1, 3, 9, 9), Arg(4, 3, 3, 3), Arg(4), Out(1, 4, 9, 9)],
        lambda x, w, b, y: [relu(bias_add(conv2d(x, w, padding=(1, 1, 1, 1)),
                                          b))]),
    "tensor_matmul_accumulate": (
        [Arg(5, 7), Arg(7, 13), InOut(5, 13)],
        lambda a, b, c: [matmul(a, b, c, alpha=2.0, beta=0.5)]),
    "tensor_reuse_after_in_place": (
        [Arg(2, 3, 5, 5), Arg(3, 3, 1, 1), Out(2, 3, 5, 5)],
        lambda x, w, s: [relu(conv2d(x, w)) + conv2d(x, w)]),
    "tensor_bn_training": (
        [Arg(2, 6, 4, 5), Arg(6), Arg(6), Out(2, 6, 4, 5), Out(6), Out(6)],
        lambda x, g, b, *outs: bn_training(x, g, b)),
    "tensor_matmul_dynamic": (
        [Arg(11, 13), Arg(13, 7), Out(11, 7)],
        lambda a, b, c: [matmul(a, b, np.zeros_like(c))]),
}

# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------

# Tolerance, per output buffer: |got - ref| <= ATOL * max(1, max|ref|)
#                                              + RTOL * |ref|.
# float32 accumulation over at most a few hundred terms stays well inside.
ATOL = 1e-4
RTOL = 1e-4


def module_signatures(text):
    """name -> list of argument shapes (None for `?`) of each func.func."""
    signatures = {}
    for name, params in re.findall(r"func\.func @(\w+)\(([^)]*)\)", text):
        signatures[name] = [
            [None if d == "?" else int(d) for d in dims.split("x")[:-1]]
            for dims in re.findall(r"memref<([^>]*)>", params)]
    return signatures


def matches_signature(args, shapes):
    return len(args) == len(shapes) and all(
        len(a.shape) == len(s) and
        all(d is None or d == n for d, n in zip(s, a.shape))
        for a, s in zip(args, shapes))


def memref_arguments(array):
    """The expanded memref descriptor of a C-contiguous float32 array:
    allocated, aligned, offset, sizes..., strides... (in elements)."""
    pointer = array.ctypes.data_as(ctypes.c_void_p)
    strides = [s // array.itemsize for s in array.strides]
    return [pointer, pointer, ctypes.c_int64(0)] + [
        ctypes.c_int64(v) for v in list(array.shape) + strides]


def check_function(library, name, args, reference):
    """Runs one function; returns (max abs error, whether all outputs match)."""
    rng = np.random.RandomState(zlib.crc32(name.encode()))
    buffers = []
    for arg in args:
        if arg.role == OUT:
            buffers.append(np.full(arg.shape, np.nan, dtype=np.float32))
        else:
            buffers.append(rng.uniform(arg.low, arg.high, arg.shape)
                           .astype(np.float32))
    expected = reference(*[b.astype(np.float64) for b in buffers])

    call_args = []
    for buffer in buffers:
        call_args += memref_arguments(buffer)
    function = getattr(library, name)
    function.restype = None
    function(*call_args)

    outputs = [b for b, a in zip(buffers, args) if a.role != IN]
    assert len(expected) == len(outputs), name + ": reference output count"
    max_errs, ok = [], True
    for got, ref in zip(outputs, expected):
        assert got.shape == ref.shape, f"{name}: reference shape {ref.shape}"
        err = np.abs(got.astype(np.float64) - ref)
        tolerance = ATOL * max(1.0, np.abs(ref).max()) + RTOL * np.abs(ref)
        ok &= bool(np.all(err <= tolerance))  # False where err is NaN.
        max_errs.append(err.max())
    return np.max(max_errs), ok  # NaN if any output element is NaN.


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module", help="the .mlir module of dl functions")
    parser.add_argument("--dl-compile", required=True,
                        help="path of the dl-compile tool")
    parser.add_argument("--dl-opt", required=True,
                        help="path of the dl-opt tool (gives the buffer "
                             "form of tensor functions)")
    parser.add_argument("--work-dir", required=True,
                        help="scratch directory for the shared library")
    options = parser.parse_args()

    # Tensor functions are called in their buffer form (dl-bufferize), the
    # signature the shared library exports.
    buffer_form = subprocess.run(
        [options.dl_opt, options.module, "--dl-bufferize"], check=True,
        capture_output=True, text=True).stdout
    signatures = module_signatures(buffer_form)
    errors = [f"{n}: in the module but not in FUNCTIONS"
              for n in signatures if n not in FUNCTIONS]
    errors += [f"{n}: in FUNCTIONS but not in the module"
               for n in FUNCTIONS if n not in signatures]
    errors += [f"{n}: FUNCTIONS shapes do not fit the signature"
               for n, shapes in signatures.items()
               if n in FUNCTIONS and
               not matches_signature(FUNCTIONS[n][0], shapes)]
    if errors:
        print("\n".join(errors), file=sys.stderr)
        return 1

    os.makedirs(options.work_dir, exist_ok=True)
    library_path = os.path.join(options.work_dir, "ops.so")
    subprocess.run([options.dl_compile, options.module, "--emit=shared",
                    "-o", library_path], check=True)
    library = ctypes.CDLL(os.path.abspath(library_path))

    all_ok = True
    for name in signatures:
        max_err, ok = check_function(library, name, *FUNCTIONS[name])
        all_ok &= ok
        print(f"{name}: max_abs_err={max_err:.3e} "
              f"{'ok' if ok else 'MISMATCH'}")
    if not all_ok:
        return 1
    print(f"all {len(signatures)} functions match numpy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
