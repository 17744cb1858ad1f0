// dl-keep-constant-packs: packs of dl.constant arguments into local buffers
// of static shape pack into a global, guarded by the address last packed
// from; other packs stay.
// RUN: dl-opt %s --dl-keep-constant-packs | FileCheck %s

// CHECK: memref.global "private" @__dl_packed_conv_0 : memref<1x1x3x3x64x64xf32> {alignment = 64 : i64}
// CHECK: memref.global "private" @__dl_packed_conv_0_source : memref<1xindex> = dense<0>
// CHECK-LABEL: func.func @conv
// CHECK-SAME: (%[[X:.*]]: memref<1x64x8x8xf32>, %[[W:.*]]: memref<64x64x3x3xf32> {dl.constant}, %[[V:.*]]: memref<64x64x3x3xf32>, %[[Y:.*]]: memref<1x64x8x8xf32>)
// CHECK: %[[XB:.*]] = memref.alloc() : memref<1x1x8x8x64xf32>
// CHECK-NEXT: dl.pack ins(%[[X]] : {{.*}}) outs(%[[XB]] : {{.*}})
// CHECK-NEXT: %[[WB:.*]] = memref.get_global @__dl_packed_conv_0 : memref<1x1x3x3x64x64xf32>
// CHECK-NEXT: %[[ADDR:.*]] = memref.extract_aligned_pointer_as_index %[[W]]
// CHECK-NEXT: %[[LAST:.*]] = memref.get_global @__dl_packed_conv_0_source : memref<1xindex>
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[PREVIOUS:.*]] = memref.load %[[LAST]][%[[C0]]]
// CHECK-NEXT: %[[DIFFERS:.*]] = arith.cmpi ne, %[[ADDR]], %[[PREVIOUS]] : index
// CHECK-NEXT: scf.if %[[DIFFERS]] {
// CHECK-NEXT: dl.pack ins(%[[W]] : memref<64x64x3x3xf32>) outs(%[[WB]] : memref<1x1x3x3x64x64xf32>)
// CHECK-NEXT: memref.store %[[ADDR]], %[[LAST]][%[[C0]]]
// CHECK-NEXT: }
// The filter without dl.constant is packed on every call.
// CHECK: %[[VB:.*]] = memref.alloc() : memref<1x1x3x3x64x64xf32>
// CHECK-NEXT: dl.pack ins(%[[V]] : {{.*}}) outs(%[[VB]] : {{.*}})
// CHECK: dl.conv2d ins(%[[XB]], %[[WB]] : {{.*}})
// CHECK: dl.conv2d ins(%[[XB]], %[[VB]] : {{.*}})
// CHECK-NOT: memref.dealloc %[[WB]]
func.func @conv(%x: memref<1x64x8x8xf32>, %w: memref<64x64x3x3xf32> {dl.constant},
                %v: memref<64x64x3x3xf32>, %y: memref<1x64x8x8xf32>) {
  %xb = memref.alloc() : memref<1x1x8x8x64xf32>
  dl.pack ins(%x : memref<1x64x8x8xf32>) outs(%xb : memref<1x1x8x8x64xf32>)
  %wb = memref.alloc() : memref<1x1x3x3x64x64xf32>
  dl.pack ins(%w : memref<64x64x3x3xf32>) outs(%wb : memref<1x1x3x3x64x64xf32>)
  %vb = memref.alloc() : memref<1x1x3x3x64x64xf32>
  dl.pack ins(%v : memref<64x64x3x3xf32>) outs(%vb : memref<1x1x3x3x64x64xf32>)
  %yb = memref.alloc() : memref<1x1x8x8x64xf32>
  dl.conv2d ins(%xb, %wb : memref<1x1x8x8x64xf32>, memref<1x1x3x3x64x64xf32>)
            outs(%yb : memref<1x1x8x8x64xf32>) {padding = array<i64: 1, 1, 1, 1>}
  dl.conv2d ins(%xb, %vb : memref<1x1x8x8x64xf32>, memref<1x1x3x3x64x64xf32>)
            outs(%yb : memref<1x1x8x8x64xf32>) {padding = array<i64: 1, 1, 1, 1>}
  dl.unpack ins(%yb : memref<1x1x8x8x64xf32>) outs(%y : memref<1x64x8x8xf32>)
  memref.dealloc %wb : memref<1x1x3x3x64x64xf32>
  memref.dealloc %vb : memref<1x1x3x3x64x64xf32>
  memref.dealloc %xb : memref<1x1x8x8x64xf32>
  memref.dealloc %yb : memref<1x1x8x8x64xf32>
  return
}

// A constant of dynamic shape, and a packed copy something else writes,
// stay packed on every call.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: get_global
// CHECK-NOT: scf.if
// CHECK: return
func.func @kept(%w: memref<?x64x3x3xf32> {dl.constant}, %u: memref<64x64x3x3xf32> {dl.constant},
                %n: index) {
  %wb = memref.alloc(%n) : memref<?x1x3x3x64x64xf32>
  dl.pack ins(%w : memref<?x64x3x3xf32>) outs(%wb : memref<?x1x3x3x64x64xf32>)
  %ub = memref.alloc() : memref<1x1x3x3x64x64xf32>
  dl.pack ins(%u : memref<64x64x3x3xf32>) outs(%ub : memref<1x1x3x3x64x64xf32>)
  dl.relu ins(%ub : memref<1x1x3x3x64x64xf32>) outs(%ub : memref<1x1x3x3x64x64xf32>)
  memref.dealloc %wb : memref<?x1x3x3x64x64xf32>
  memref.dealloc %ub : memref<1x1x3x3x64x64xf32>
  return
}
