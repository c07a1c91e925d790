// RUN: tritium-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tritium-cpu-hoist-accumulator-transfers))" | FileCheck %s

// The C block of a local buffer is read before the K loop, carried through it, written after.
// CHECK-LABEL: func.func @hoisted
// CHECK: %[[C:.+]] = memref.alloc()
// CHECK: %[[BLOCK:.+]] = vector.transfer_read %[[C]]
// CHECK: %[[SUM:.+]] = scf.for {{.+}} iter_args(%[[ACC:.+]] = %[[BLOCK]]) -> (vector<4x16xf32>)
// CHECK: vector.contract {{.+}} %[[ACC]]
// CHECK: scf.yield
// CHECK: vector.transfer_write %[[SUM]], %[[C]]
func.func @hoisted(%a: memref<4x8xf32>, %b: memref<8x16xf32>) -> memref<4x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<4x16xf32>
  scf.for %k = %c0 to %c8 step %c1 {
    %x = vector.transfer_read %a[%c0, %k], %pad {in_bounds = [true, true]} : memref<4x8xf32>, vector<4x1xf32>
    %y = vector.transfer_read %b[%k, %c0], %pad {in_bounds = [true, true]} : memref<8x16xf32>, vector<1x16xf32>
    %acc = vector.transfer_read %c[%c0, %c0], %pad {in_bounds = [true, true]} : memref<4x16xf32>, vector<4x16xf32>
    %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x, %y, %acc : vector<4x1xf32>, vector<1x16xf32> into vector<4x16xf32>
    vector.transfer_write %r, %c[%c0, %c0] {in_bounds = [true, true]} : vector<4x16xf32>, memref<4x16xf32>
  }
  return %c : memref<4x16xf32>
}

// -----

// A buffer that comes from outside (it may alias A or B), or a loop that may not run, keeps
// its transfers in the loop.
// CHECK-LABEL: func.func @kept
// CHECK: scf.for
// CHECK: vector.transfer_read %arg1
// CHECK: vector.transfer_write
// CHECK: scf.for
// CHECK: vector.transfer_read %{{.+}}[%c0, %c0]
// CHECK: vector.transfer_write
func.func @kept(%a: memref<4x8xf32>, %c: memref<4x16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f32
  scf.for %k = %c0 to %c8 step %c1 {
    %acc = vector.transfer_read %c[%c0, %c0], %pad {in_bounds = [true, true]} : memref<4x16xf32>, vector<4x16xf32>
    %d = arith.addf %acc, %acc : vector<4x16xf32>
    vector.transfer_write %d, %c[%c0, %c0] {in_bounds = [true, true]} : vector<4x16xf32>, memref<4x16xf32>
  }
  %local = memref.alloc() : memref<4x16xf32>
  scf.for %k = %c0 to %n step %c1 {
    %acc = vector.transfer_read %local[%c0, %c0], %pad {in_bounds = [true, true]} : memref<4x16xf32>, vector<4x16xf32>
    %d = arith.addf %acc, %acc : vector<4x16xf32>
    vector.transfer_write %d, %local[%c0, %c0] {in_bounds = [true, true]} : vector<4x16xf32>, memref<4x16xf32>
  }
  return
}
