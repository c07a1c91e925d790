// RUN: tritium-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tritium-cpu-transpose-tiles-by-register-blocks))" | FileCheck %s

#transposed = affine_map<(d0, d1) -> (d1, d0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>

// A 16x8 f32 tile transposed into 8x16: blocks of 8x8, eight source rows loaded at
// [j0 + c, i0], three rounds of eight shuffles (unpack, shufps, lane swap), eight target rows
// stored at [i0 + r, j0].
// CHECK-LABEL: func.func @transpose_f32
// CHECK-NOT: linalg.generic
// CHECK: scf.for %[[I0:.+]] = %{{.+}} to %{{.+}} step %[[C8:.+]] {
// CHECK:   scf.for %[[J0:.+]] = %{{.+}} to %{{.+}} step %[[C8]] {
// CHECK:     %[[R0:.+]] = vector.load %[[SRC:.+]][%[[J0]], %[[I0]]] : memref<16x8xf32>, vector<8xf32>
// CHECK-COUNT-7: vector.load %[[SRC]]
// CHECK:     %[[T0:.+]] = vector.shuffle %[[R0]], %[[R1:.+]] [0, 8, 1, 9, 4, 12, 5, 13] : vector<8xf32>, vector<8xf32>
// CHECK:     vector.shuffle %[[R0]], %[[R1]] [2, 10, 3, 11, 6, 14, 7, 15]
// CHECK-COUNT-6: vector.shuffle
// CHECK:     vector.shuffle {{.+}} [0, 1, 8, 9, 4, 5, 12, 13]
// CHECK-COUNT-7: vector.shuffle
// CHECK:     %[[COL0:.+]] = vector.shuffle {{.+}} [0, 1, 2, 3, 8, 9, 10, 11]
// CHECK-COUNT-7: vector.shuffle
// CHECK:     vector.store %[[COL0]], %[[DST:.+]][%[[I0]], %[[J0]]] : memref<8x16xf32, strided<[32, 1]>>, vector<8xf32>
// CHECK-COUNT-7: vector.store {{.+}}, %[[DST]]
func.func @transpose_f32(%src: memref<16x8xf32>, %dst: memref<8x16xf32, strided<[32, 1]>>) {
  linalg.generic {indexing_maps = [#transposed, #identity], iterator_types = ["parallel", "parallel"]}
      ins(%src : memref<16x8xf32>) outs(%dst : memref<8x16xf32, strided<[32, 1]>>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}

// -----

#transposed = affine_map<(d0, d1) -> (d1, d0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>

// 64-bit elements: 4x4 blocks, two rounds.
// CHECK-LABEL: func.func @transpose_i64
// CHECK: step %[[C4:.+]] {
// CHECK-COUNT-4: vector.load {{.+}} : memref<4x8xi64>, vector<4xi64>
// CHECK: vector.shuffle {{.+}} [0, 4, 2, 6] : vector<4xi64>, vector<4xi64>
// CHECK: vector.shuffle {{.+}} [1, 5, 3, 7]
// CHECK-COUNT-2: vector.shuffle
// CHECK: vector.shuffle {{.+}} [0, 1, 4, 5]
// CHECK: vector.shuffle {{.+}} [2, 3, 6, 7]
// CHECK-COUNT-2: vector.shuffle
// CHECK-COUNT-4: vector.store {{.+}} : memref<8x4xi64>, vector<4xi64>
func.func @transpose_i64(%src: memref<4x8xi64>, %dst: memref<8x4xi64>) {
  linalg.generic {indexing_maps = [#transposed, #identity], iterator_types = ["parallel", "parallel"]}
      ins(%src : memref<4x8xi64>) outs(%dst : memref<8x4xi64>) {
  ^bb0(%in: i64, %out: i64):
    linalg.yield %in : i64
  }
  return
}

// -----

#transposed = affine_map<(d0, d1) -> (d1, d0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>

// Left as element loops: a side that is not a multiple of the block, 16-bit elements, a
// source whose rows are strided, and a transpose that also computes.
// CHECK-LABEL: func.func @not_by_blocks
// CHECK-NOT: vector.
// CHECK-COUNT-4: linalg.generic
func.func @not_by_blocks(%a: memref<12x8xf32>, %b: memref<8x12xf32>, %c: memref<16x16xbf16>,
                         %d: memref<16x16xbf16>, %e: memref<8x8xf32, strided<[1, 8]>>,
                         %f: memref<8x8xf32>) {
  linalg.generic {indexing_maps = [#transposed, #identity], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<12x8xf32>) outs(%b : memref<8x12xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#transposed, #identity], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<16x16xbf16>) outs(%d : memref<16x16xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  }
  linalg.generic {indexing_maps = [#transposed, #identity], iterator_types = ["parallel", "parallel"]}
      ins(%e : memref<8x8xf32, strided<[1, 8]>>) outs(%f : memref<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#transposed, #identity], iterator_types = ["parallel", "parallel"]}
      ins(%f : memref<8x8xf32>) outs(%f : memref<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %twice = arith.addf %in, %in : f32
    linalg.yield %twice : f32
  }
  return
}

// -----

// The named op too (a column-major tile's fill from a view, built before bufferization).
// CHECK-LABEL: func.func @named_transpose
// CHECK-NOT: linalg.transpose
// CHECK-COUNT-8: vector.load {{.+}} : memref<8x16xf32, strided<[?, 1]>>, vector<8xf32>
// CHECK-COUNT-24: vector.shuffle
// CHECK-COUNT-8: vector.store {{.+}} : memref<16x8xf32>, vector<8xf32>
func.func @named_transpose(%src: memref<8x16xf32, strided<[?, 1]>>, %dst: memref<16x8xf32>) {
  linalg.transpose ins(%src : memref<8x16xf32, strided<[?, 1]>>) outs(%dst : memref<16x8xf32>) permutation = [1, 0]
  return
}
