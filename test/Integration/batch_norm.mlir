// dl-compile --run on batch normalization (inference and training forward),
// plain and blocked, static and dynamic, and the degenerate m = 1 case.
// RUN: dl-compile %s --run | FileCheck %s

// CHECK: inference: max_abs_err={{.*}} ok
func.func @inference(%x: memref<2x7x5x3xf32>, %g: memref<7xf32>, %b: memref<7xf32>,
                     %m: memref<7xf32>, %v: memref<7xf32>, %y: memref<2x7x5x3xf32>) {
  dl.batch_norm_inference ins(%x, %g, %b, %m, %v : memref<2x7x5x3xf32>, memref<7xf32>,
      memref<7xf32>, memref<7xf32>, memref<7xf32>) outs(%y : memref<2x7x5x3xf32>)
  return
}

// CHECK: training_blocked: max_abs_err={{.*}} ok
func.func @training_blocked(%x: memref<3x2x6x5x8xf32>, %g: memref<16xf32>, %b: memref<16xf32>,
                            %y: memref<3x2x6x5x8xf32>, %m: memref<16xf32>, %v: memref<16xf32>) {
  dl.batch_norm_training ins(%x, %g, %b : memref<3x2x6x5x8xf32>, memref<16xf32>, memref<16xf32>)
      outs(%y, %m, %v : memref<3x2x6x5x8xf32>, memref<16xf32>, memref<16xf32>)
      {epsilon = 1.0e-5 : f32}
  return
}

// m = 1: the variance is 0 and y = beta, without NaNs.
// CHECK: training_single_element: max_abs_err={{.*}} ok
func.func @training_single_element(%x: memref<1x5x1x1xf32>, %g: memref<5xf32>, %b: memref<5xf32>,
                                   %y: memref<1x5x1x1xf32>, %m: memref<5xf32>, %v: memref<5xf32>) {
  dl.batch_norm_training ins(%x, %g, %b : memref<1x5x1x1xf32>, memref<5xf32>, memref<5xf32>)
      outs(%y, %m, %v : memref<1x5x1x1xf32>, memref<5xf32>, memref<5xf32>)
  return
}

// CHECK: training_dynamic: max_abs_err={{.*}} ok
func.func @training_dynamic(%x: memref<?x4x?x?xf32> {dl.run_shape = array<i64: 2, 4, 7, 3>},
                            %g: memref<4xf32>, %b: memref<4xf32>,
                            %y: memref<?x4x?x?xf32> {dl.run_shape = array<i64: 2, 4, 7, 3>},
                            %m: memref<4xf32>, %v: memref<4xf32>) {
  dl.batch_norm_training ins(%x, %g, %b : memref<?x4x?x?xf32>, memref<4xf32>, memref<4xf32>)
      outs(%y, %m, %v : memref<?x4x?x?xf32>, memref<4xf32>, memref<4xf32>)
  return
}
