// dl-vectorize-copies: which innermost copy loops become vector loads and
// stores (the store contiguous along the loop, the load contiguous or of a
// stride up to 4; a rest of fewer than the width in one masked vector) and
// which stay as they are.
// RUN: dl-opt %s --dl-vectorize-copies=width=8 | FileCheck %s
// RUN: dl-opt %s --dl-vectorize-copies=width=4 | FileCheck %s --check-prefix=W4
// The target on a module without dl ops (dl-set-target loads the dialect).
// RUN: dl-opt %s --dl-set-target="vector-bits=512" --dl-vectorize-copies | FileCheck %s --check-prefix=TARGET
// RUN: not dl-opt %s --dl-vectorize-copies=width=1 2>&1 | FileCheck %s --check-prefix=INVALID

// INVALID: error: dl-vectorize-copies: width must be >= 2, or 0 for the target's vector width

// The maps of @runtime_trips.
// CHECK-DAG: #[[WHOLE:.+]] = affine_map<()[s0] -> (((s0 mod 128) floordiv 8) * 8)>
// CHECK-DAG: #[[ALL:.+]] = affine_map<()[s0] -> (s0 mod 128)>

// A subsampled copy (strided rows and pixels, contiguous channels).
// CHECK-LABEL: func.func @subsampled
// CHECK: affine.for %[[C:.*]] = 0 to 32 step 8 {
// CHECK-NEXT: %[[X:.*]] = affine.vector_load %{{.*}}[%{{.*}}, %{{.*}} * 2, %{{.*}} * 2, %[[C]]] : memref<2x8x8x32xf32>, vector<8xf32>
// CHECK-NEXT: affine.vector_store %[[X]], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %[[C]]] : memref<2x4x4x32xf32>, vector<8xf32>
// CHECK-NEXT: }
func.func @subsampled(%in: memref<2x8x8x32xf32>, %out: memref<2x4x4x32xf32>) {
  affine.for %n = 0 to 2 {
    affine.for %h = 0 to 4 {
      affine.for %w = 0 to 4 {
        affine.for %c = 0 to 32 {
          %x = affine.load %in[%n, %h * 2, %w * 2, %c] : memref<2x8x8x32xf32>
          affine.store %x, %out[%n, %h, %w, %c] : memref<2x4x4x32xf32>
        }
      }
    }
  }
  return
}

// Into a padded row: the store's last index is the loop's plus 1.
// CHECK-LABEL: func.func @padded_row
// CHECK: affine.for %[[W:.*]] = 0 to 16 step 8 {
// CHECK-NEXT: affine.vector_load %{{.*}}[%{{.*}}, %[[W]]] : memref<4x16xf32>, vector<8xf32>
// CHECK-NEXT: affine.vector_store %{{.*}}, %{{.*}}[%{{.*}} + 1, %[[W]] + 1] : memref<6x18xf32>, vector<8xf32>
func.func @padded_row(%in: memref<4x16xf32>, %out: memref<6x18xf32>) {
  affine.for %h = 0 to 4 {
    affine.for %w = 0 to 16 {
      %x = affine.load %in[%h, %w] : memref<4x16xf32>
      affine.store %x, %out[%h + 1, %w + 1] : memref<6x18xf32>
    }
  }
  return
}

// A GEMM operand packed into 32-column blocks: the load's last index is the
// loop's plus a multiple of 32.
// CHECK-LABEL: func.func @packed_blocks
// CHECK: affine.for %[[K:.*]] = 0 to 32 step 8 {
// CHECK-NEXT: affine.vector_load %{{.*}}[%{{.*}}, %{{.*}} * 32 + %[[K]]] : memref<256x128xf32>, vector<8xf32>
// CHECK-NEXT: affine.vector_store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}} floordiv 64, %{{.*}} mod 64, %[[K]]] : memref<4x4x64x32xf32>, vector<8xf32>
func.func @packed_blocks(%b: memref<256x128xf32>, %packed: memref<4x4x64x32xf32>) {
  affine.for %i = 0 to 256 {
    affine.for %j = 0 to 4 {
      affine.for %k = 0 to 32 {
        %x = affine.load %b[%i, %j * 32 + %k] : memref<256x128xf32>
        affine.store %x, %packed[%j, %i floordiv 64, %i mod 64, %k] : memref<4x4x64x32xf32>
      }
    }
  }
  return
}

// Left: a transpose (the store moves along its first dimension), every
// other element within one buffer and a shift within one buffer (each
// element takes its left neighbour's new value), a computed value, a
// strided last dimension, elements that are vectors already, a load of
// stride 5, a store of stride 2.
// CHECK-LABEL: func.func @left
// CHECK-NOT: {{vector\.|affine\.vector_}}
// CHECK: return
func.func @left(%m: memref<16x16xf32>, %t: memref<16x16xf32>,
                %v: memref<32xf32>, %s: memref<16xf32, strided<[2]>>,
                %va: memref<16xvector<4xf32>>, %vb: memref<16xvector<4xf32>>,
                %wide: memref<80xf32>) {
  affine.for %i = 0 to 16 {
    %x = affine.load %wide[%i * 5] : memref<80xf32>
    affine.store %x, %v[%i] : memref<32xf32>
  }
  affine.for %i = 0 to 16 {
    %x = affine.load %v[%i] : memref<32xf32>
    affine.store %x, %wide[%i * 2] : memref<80xf32>
  }
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %x = affine.load %m[%i, %j] : memref<16x16xf32>
      affine.store %x, %t[%j, %i] : memref<16x16xf32>
    }
  }
  affine.for %i = 0 to 16 {
    %x = affine.load %v[%i * 2] : memref<32xf32>
    affine.store %x, %v[%i] : memref<32xf32>
  }
  affine.for %i = 0 to 16 {
    %x = affine.load %v[%i] : memref<32xf32>
    affine.store %x, %v[%i + 1] : memref<32xf32>
  }
  affine.for %i = 0 to 16 {
    %x = affine.load %m[0, %i] : memref<16x16xf32>
    %y = arith.negf %x : f32
    affine.store %y, %t[0, %i] : memref<16x16xf32>
  }
  affine.for %i = 0 to 16 {
    %x = affine.load %m[1, %i] : memref<16x16xf32>
    affine.store %x, %s[%i] : memref<16xf32, strided<[2]>>
  }
  affine.for %i = 0 to 16 {
    %x = affine.load %va[%i] : memref<16xvector<4xf32>>
    affine.store %x, %vb[%i] : memref<16xvector<4xf32>>
  }
  return
}

// 12 elements: a vector of 8, then the rest of 4 in a masked vector (with
// width=4: three vectors); 3 elements: one masked vector of 4 lanes.
// CHECK-LABEL: func.func @rest
// CHECK: affine.for %[[I:.*]] = 0 to 8 step 8 {
// CHECK-NEXT: affine.vector_load %{{.*}}[%[[I]]] : memref<12xf32>, vector<8xf32>
// CHECK-NEXT: affine.vector_store %{{.*}}, %{{.*}}[%[[I]]] : memref<12xf32>, vector<8xf32>
// CHECK: affine.for %[[R:.*]] = 8 to 12 step 8 {
// CHECK: %[[LOADMASK:.*]] = vector.constant_mask [4] : vector<8xi1>
// CHECK: %[[X:.*]] = vector.maskedload %{{.*}}[%{{.*}}], %[[LOADMASK]], %{{.*}} : memref<12xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
// CHECK: %[[STOREMASK:.*]] = vector.constant_mask [4] : vector<8xi1>
// CHECK: vector.maskedstore %{{.*}}[%{{.*}}], %[[STOREMASK]], %[[X]] : memref<12xf32>, vector<8xi1>, vector<8xf32>
// CHECK: affine.for %{{.*}} = 0 to 3 step 4 {
// CHECK: vector.constant_mask [3] : vector<4xi1>
// CHECK: vector.maskedload %{{.*}} : memref<3xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
// CHECK: vector.maskedstore %{{.*}} : memref<3xf32>, vector<4xi1>, vector<4xf32>
// W4-LABEL: func.func @rest
// W4: affine.for %{{.*}} = 0 to 12 step 4 {
// W4-NEXT: affine.vector_load %{{.*}} : memref<12xf32>, vector<4xf32>
// W4-NEXT: affine.vector_store %{{.*}} : memref<12xf32>, vector<4xf32>
// W4-NEXT: }
func.func @rest(%a: memref<12xf32>, %b: memref<12xf32>, %c: memref<3xf32>, %d: memref<3xf32>) {
  affine.for %i = 0 to 12 {
    %x = affine.load %a[%i] : memref<12xf32>
    affine.store %x, %b[%i] : memref<12xf32>
  }
  affine.for %i = 0 to 3 {
    %x = affine.load %c[%i] : memref<3xf32>
    affine.store %x, %d[%i] : memref<3xf32>
  }
  return
}

// A subsampling copy along the last dimension (a strided plain-layout
// convolution's input): each vector of 8 loads the 15 elements its lanes
// span (of a vector of 16, masked) and keeps the even ones; the rest of 3
// loads 5 and stores 3. With the target's 16-float vectors: one masked
// vector of 11 lanes, loading 21 of 32.
// CHECK-LABEL: func.func @subsampled_pixels
// CHECK: affine.for %{{.*}} = 0 to 8 step 8 {
// CHECK: vector.constant_mask [15] : vector<16xi1>
// CHECK: %[[SPAN:.*]] = vector.maskedload %{{.*}} : memref<4x22x22xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK: %[[EVEN:.*]] = vector.shuffle %[[SPAN]], %[[SPAN]] [0, 2, 4, 6, 8, 10, 12, 14] : vector<16xf32>, vector<16xf32>
// CHECK: affine.vector_store %[[EVEN]], %{{.*}} : memref<4x11x11xf32>, vector<8xf32>
// CHECK: affine.for %{{.*}} = 8 to 11 step 8 {
// CHECK: vector.constant_mask [5] : vector<16xi1>
// CHECK: vector.constant_mask [3] : vector<8xi1>
// CHECK: vector.maskedstore
// TARGET-LABEL: func.func @subsampled_pixels
// TARGET: affine.for %{{.*}} = 0 to 11 step 16 {
// TARGET: vector.constant_mask [21] : vector<32xi1>
// TARGET: vector.shuffle %{{.*}}, %{{.*}} [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30] : vector<32xf32>, vector<32xf32>
// TARGET: vector.constant_mask [11] : vector<16xi1>
// TARGET: vector.maskedstore %{{.*}} : memref<4x11x11xf32>, vector<16xi1>, vector<16xf32>
func.func @subsampled_pixels(%in: memref<4x22x22xf32>, %out: memref<4x11x11xf32>) {
  affine.for %c = 0 to 4 {
    affine.for %h = 0 to 11 {
      affine.for %w = 0 to 11 {
        %x = affine.load %in[%c, %h * 2, %w * 2] : memref<4x22x22xf32>
        affine.store %x, %out[%c, %h, %w] : memref<4x11x11xf32>
      }
    }
  }
  return
}

// A trip count known only at run time (the rest of a dynamic K in a packed
// GEMM operand): the whole vectors first, then the rest one by one.
// CHECK-LABEL: func.func @runtime_trips
// CHECK: affine.for %[[C:.*]] = 0 to #[[WHOLE]]()[%{{.*}}] step 8 {
// CHECK-NEXT: %[[X:.*]] = affine.vector_load %{{.*}}[%{{.*}}, %[[C]] + 3] : memref<?x?xf32>, vector<8xf32>
// CHECK-NEXT: affine.vector_store %[[X]], %{{.*}}[%{{.*}}, %[[C]]] : memref<?x?xf32>, vector<8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: affine.for %[[R:.*]] = #[[WHOLE]]()[%{{.*}}] to #[[ALL]]()[%{{.*}}] {
// CHECK-NEXT: %[[Y:.*]] = affine.load %{{.*}}[%{{.*}}, %[[R]] + 3] : memref<?x?xf32>
// CHECK-NEXT: affine.store %[[Y]], %{{.*}}[%{{.*}}, %[[R]]] : memref<?x?xf32>
// A minimum of several bounds is left as it is.
// CHECK: affine.for %{{.*}} = 0 to min
// CHECK-NOT: vector
// CHECK: return
func.func @runtime_trips(%in: memref<?x?xf32>, %out: memref<?x?xf32>, %n: index) {
  affine.for %r = 0 to 4 {
    affine.for %c = 0 to affine_map<()[s0] -> (s0 mod 128)>()[%n] {
      %x = affine.load %in[%r, %c + 3] : memref<?x?xf32>
      affine.store %x, %out[%r, %c] : memref<?x?xf32>
    }
    affine.for %c = 0 to min affine_map<()[s0] -> (64, s0)>()[%n] {
      %x = affine.load %in[%r, %c] : memref<?x?xf32>
      affine.store %x, %out[%r, %c] : memref<?x?xf32>
    }
  }
  return
}
