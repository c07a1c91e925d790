// RUN: tritium-opt %s -split-input-file --tritium-cpu-copy-contiguous-rows-as-memcpy | FileCheck %s

// A bf16 tile with rows of 128 bytes, apart in the source: one memref.copy of 1-D contiguous
// views per row (a memcpy of 128 bytes once lowered).
// CHECK-LABEL: func.func @tile_rows
// CHECK: scf.for %[[ROW:.+]] = %c0 to %c128 step %c1
// CHECK-DAG:   %[[FROM:.+]] = memref.subview %arg0[%[[ROW]], 0] [1, 64] [1, 1] : memref<128x64xbf16, strided<[?, 1], offset: ?>> to memref<64xbf16, strided<[1], offset: ?>>
// CHECK-DAG:   %[[TO:.+]] = memref.subview %arg1[%[[ROW]], 0] [1, 64] [1, 1] : memref<128x64xbf16> to memref<64xbf16, strided<[1], offset: ?>>
// CHECK:   memref.copy %[[FROM]], %[[TO]]
// CHECK-NOT: linalg.copy
func.func @tile_rows(%a: memref<128x64xbf16, strided<[?, 1], offset: ?>>, %b: memref<128x64xbf16>) {
  linalg.copy ins(%a : memref<128x64xbf16, strided<[?, 1], offset: ?>>) outs(%b : memref<128x64xbf16>)
  return
}

// -----

// Three dimensions: a loop nest over the two outer ones.
// CHECK-LABEL: func.func @batched_rows
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %c2 step
// CHECK:   scf.for %[[J:.+]] = %{{.+}} to %c4 step
// CHECK:     memref.subview %arg0[%[[I]], %[[J]], 0] [1, 1, 8] [1, 1, 1]
// CHECK:     memref.copy
func.func @batched_rows(%a: memref<2x4x8xf32, strided<[64, 16, 1]>>, %b: memref<2x4x8xf32>) {
  linalg.copy ins(%a : memref<2x4x8xf32, strided<[64, 16, 1]>>) outs(%b : memref<2x4x8xf32>)
  return
}

// -----

// Left alone: a column stride (rows not contiguous), rows under 16 bytes, rows over 256 bytes
// (a memcpy LLVM would call rather than inline), a dynamic shape.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-4: linalg.copy
// CHECK-NOT: memref.copy
func.func @left_alone(%a: memref<8x8xf32, strided<[1, 8]>>, %b: memref<8x8xf32>,
                      %c: memref<64x2xf32, strided<[4, 1]>>, %d: memref<64x2xf32>,
                      %g: memref<4x128xf32, strided<[256, 1]>>, %h: memref<4x128xf32>,
                      %e: memref<?x8xf32>, %f: memref<?x8xf32>) {
  linalg.copy ins(%a : memref<8x8xf32, strided<[1, 8]>>) outs(%b : memref<8x8xf32>)
  linalg.copy ins(%c : memref<64x2xf32, strided<[4, 1]>>) outs(%d : memref<64x2xf32>)
  linalg.copy ins(%g : memref<4x128xf32, strided<[256, 1]>>) outs(%h : memref<4x128xf32>)
  linalg.copy ins(%e : memref<?x8xf32>) outs(%f : memref<?x8xf32>)
  return
}
