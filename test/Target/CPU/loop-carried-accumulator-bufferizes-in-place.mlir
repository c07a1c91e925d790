// RUN: tritium-opt %s --pass-pipeline="builtin.module(func.func(tritium-cpu-update-loop-carried-tiles-in-place,tritium-cpu-collapse-hypercube-loop-nests),canonicalize,one-shot-bufferize{bufferize-function-boundaries})" | FileCheck %s

// A chunked reduction's running max (Inductor's `triton_red_*` kernels: one chunk of the row per
// iteration) through the passes that decide its buffers: marked for in-place update, its loop
// dimensions merged, bufferized. The accumulator is copied once, out of the constant it starts
// from, and every iteration updates that buffer: no copy inside the loop.
// CHECK-LABEL: func.func @chunked_running_max
// CHECK: memref.copy
// CHECK: scf.for
// CHECK-NOT: memref.copy
// CHECK-NOT: memref.alloc
// CHECK: linalg.generic {{.*}} ins(%[[ACC:.+]], %{{.+}} : memref<2048xf32>, {{.*}}) outs(%[[ACC]] : memref<2048xf32>)
// CHECK: scf.yield
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @chunked_running_max(%x: tensor<4x1x2048xf32>) -> tensor<1x2048xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %ninf = arith.constant dense<0xFF800000> : tensor<1x2048xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %ninf) -> (tensor<1x2048xf32>) {
    %chunk = tensor.extract_slice %x[%i, 0, 0] [1, 1, 2048] [1, 1, 1] : tensor<4x1x2048xf32> to tensor<1x2048xf32>
    %e = tensor.empty() : tensor<1x2048xf32>
    %m = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%acc, %chunk : tensor<1x2048xf32>, tensor<1x2048xf32>) outs(%e : tensor<1x2048xf32>) {
    ^bb0(%a: f32, %b: f32, %out: f32):
      %v = arith.maxnumf %a, %b : f32
      linalg.yield %v : f32
    } -> tensor<1x2048xf32>
    scf.yield %m : tensor<1x2048xf32>
  }
  return %r : tensor<1x2048xf32>
}
