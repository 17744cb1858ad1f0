// dl-compile --run on the activations with exp (dl.sigmoid, dl.silu), the
// hard ones, and a MobileNetV3-style squeeze-and-excitation block whose
// channel scales dl.mul broadcasts, run on the blocked copies between its
// convolutions; checked against the reference lowering (test/Python checks
// the activations against PyTorch's).
// RUN: dl-compile %s --run | FileCheck %s
// RUN: dl-compile %s --run --threads 1 | FileCheck %s
// RUN: dl-opt %s --dl-set-target="vector-bits=512" --dl-block-conv-layouts | FileCheck %s --check-prefix=LAYOUT
// RUN: dl-opt %s --convert-dl-to-affine --dl-approximate-math | FileCheck %s --check-prefix=MATH

// CHECK: acts: max_abs_err={{.*}} ok
// CHECK: scale: max_abs_err={{.*}} ok
// exp becomes a polynomial (no math.exp left for LLVM's scalar expf).
// MATH-LABEL: func.func @acts
// MATH-NOT: math.exp
// MATH: arith.mulf
func.func @acts(%x: memref<2x16x7x9xf32>, %a: memref<2x16x7x9xf32>, %b: memref<2x16x7x9xf32>, %c: memref<2x16x7x9xf32>, %d: memref<2x16x7x9xf32>) {
  dl.sigmoid ins(%x : memref<2x16x7x9xf32>) outs(%a : memref<2x16x7x9xf32>)
  dl.silu ins(%x : memref<2x16x7x9xf32>) outs(%b : memref<2x16x7x9xf32>)
  dl.hard_sigmoid ins(%x : memref<2x16x7x9xf32>) outs(%c : memref<2x16x7x9xf32>)
  dl.hard_swish ins(%x : memref<2x16x7x9xf32>) outs(%d : memref<2x16x7x9xf32>)
  return
}
func.func @scale(%x: memref<2x16x7x9xf32>, %s: memref<2x16x1x1xf32>, %y: memref<2x16x7x9xf32>) {
  dl.mul ins(%x, %s : memref<2x16x7x9xf32>, memref<2x16x1x1xf32>) outs(%y : memref<2x16x7x9xf32>)
  return
}

// LAYOUT-LABEL: func.func @se
// LAYOUT: dl.hard_swish ins(%{{.*}} : memref<1x1x14x14x64xf32>)
// LAYOUT: dl.avg_pool2d ins(%{{.*}} : memref<1x1x14x14x64xf32>) outs(%{{.*}} : memref<1x1x1x1x64xf32>)
// LAYOUT: dl.hard_sigmoid ins(%{{.*}} : memref<1x1x1x1x64xf32>)
// LAYOUT: dl.mul ins(%{{.*}}, %{{.*}} : memref<1x1x14x14x64xf32>, memref<1x1x1x1x64xf32>)
// LAYOUT-NOT: dl.unpack
// LAYOUT: dl.conv2d
// LAYOUT: dl.unpack
// CHECK: se: max_abs_err={{.*}} ok
func.func @se(%x: memref<1x16x14x14xf32>, %w1: memref<64x16x1x1xf32>, %f1: memref<16x64x1x1xf32>, %f2: memref<64x16x1x1xf32>, %w2: memref<24x64x1x1xf32>, %y: memref<1x24x14x14xf32>) {
  %a = memref.alloc() : memref<1x64x14x14xf32>
  dl.conv2d ins(%x, %w1 : memref<1x16x14x14xf32>, memref<64x16x1x1xf32>) outs(%a : memref<1x64x14x14xf32>)
  dl.hard_swish ins(%a : memref<1x64x14x14xf32>) outs(%a : memref<1x64x14x14xf32>)
  %p = memref.alloc() : memref<1x64x1x1xf32>
  dl.avg_pool2d ins(%a : memref<1x64x14x14xf32>) outs(%p : memref<1x64x1x1xf32>) {window = array<i64: 14, 14>}
  %q = memref.alloc() : memref<1x16x1x1xf32>
  dl.conv2d ins(%p, %f1 : memref<1x64x1x1xf32>, memref<16x64x1x1xf32>) outs(%q : memref<1x16x1x1xf32>)
  dl.relu ins(%q : memref<1x16x1x1xf32>) outs(%q : memref<1x16x1x1xf32>)
  %s = memref.alloc() : memref<1x64x1x1xf32>
  dl.conv2d ins(%q, %f2 : memref<1x16x1x1xf32>, memref<64x16x1x1xf32>) outs(%s : memref<1x64x1x1xf32>)
  dl.hard_sigmoid ins(%s : memref<1x64x1x1xf32>) outs(%s : memref<1x64x1x1xf32>)
  dl.mul ins(%a, %s : memref<1x64x14x14xf32>, memref<1x64x1x1xf32>) outs(%a : memref<1x64x14x14xf32>)
  dl.conv2d ins(%a, %w2 : memref<1x64x14x14xf32>, memref<24x64x1x1xf32>) outs(%y : memref<1x24x14x14xf32>)
  memref.dealloc %a : memref<1x64x14x14xf32>
  memref.dealloc %p : memref<1x64x1x1xf32>
  memref.dealloc %q : memref<1x16x1x1xf32>
  memref.dealloc %s : memref<1x64x1x1xf32>
  return
}
