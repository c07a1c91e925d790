// RUN: tritium-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tritium-cpu-matmuls-to-amx-tiles),canonicalize)" | FileCheck %s

// A product without accumulator (`tl.dot(a, b)`, attention's q k^T): C is a buffer of the
// kernel's own, filled with zeros (a copy of an all-zero constant) just before the tile generic
// and read only after it. Its C tiles start from tilezero instead of loading those zeros, and
// the copy goes.
// CHECK-LABEL: func.func @zeros_copied
// CHECK-NOT: memref.copy
// CHECK: scf.for
// CHECK:   scf.for
// CHECK-NOT: amx.tile_load %[[C:.+]][{{.+}}] : memref<64x64xf32>
// CHECK-COUNT-4: amx.tile_zero : !amx.tile<16x16xf32>
// CHECK-COUNT-4: amx.tile_mulf
// CHECK-COUNT-4: amx.tile_store
// CHECK: memref.copy %{{.+}}, %arg2 : memref<64x64xf32> to memref<64x64xf32>
#a = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#b = affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>
#c = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
memref.global "private" constant @zeros_64x64 : memref<64x64xf32> = dense<0.000000e+00>
func.func @zeros_copied(%a: memref<64x32xbf16>, %b: memref<16x64x2xbf16>, %out: memref<64x64xf32>) {
  %zeros = memref.get_global @zeros_64x64 : memref<64x64xf32>
  %c = memref.alloc() : memref<64x64xf32>
  memref.copy %zeros, %c : memref<64x64xf32> to memref<64x64xf32>
  %a3 = memref.expand_shape %a [[0], [1, 2]] output_shape [64, 16, 2] : memref<64x32xbf16> into memref<64x16x2xbf16>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%a3, %b : memref<64x16x2xbf16>, memref<16x64x2xbf16>) outs(%c : memref<64x64xf32>) attrs = {tritium.amx_tiles} {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %0 = arith.extf %x : bf16 to f32
    %1 = arith.extf %y : bf16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %acc, %2 : f32
    linalg.yield %3 : f32
  }
  memref.copy %c, %out : memref<64x64xf32> to memref<64x64xf32>
  memref.dealloc %c : memref<64x64xf32>
  return
}

// -----

// int8 into a C filled by `linalg.fill` of zero; K = 1536 int8 is 24 steps, three runs of 8:
// the first run starts from tilezero, the rest (a loop from K = 512) load the C tiles.
// CHECK-LABEL: func.func @zeros_filled_long_k
// CHECK-NOT: linalg.fill
// CHECK: amx.tile_zero : !amx.tile<16x16xi32>
// CHECK-COUNT-8: amx.tile_muli
// CHECK: amx.tile_store %[[C:.+]][%c0, %c0]
// CHECK: scf.for %{{.+}} = %c512 to %c1536 step %c512
// CHECK:   amx.tile_load %[[C]]
// CHECK-COUNT-8: amx.tile_muli
// CHECK:   amx.tile_store %[[C]]
#a = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#b = affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>
#c = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @zeros_filled_long_k(%a: memref<16x1536xi8>, %b: memref<384x16x4xi8>, %out: memref<16x16xi32>) {
  %zero = arith.constant 0 : i32
  %c = memref.alloca() : memref<16x16xi32>
  linalg.fill ins(%zero : i32) outs(%c : memref<16x16xi32>)
  %a3 = memref.expand_shape %a [[0], [1, 2]] output_shape [16, 384, 4] : memref<16x1536xi8> into memref<16x384x4xi8>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%a3, %b : memref<16x384x4xi8>, memref<384x16x4xi8>) outs(%c : memref<16x16xi32>) attrs = {tritium.amx_tiles} {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %0 = arith.extsi %x : i8 to i32
    %1 = arith.extsi %y : i8 to i32
    %2 = arith.muli %0, %1 : i32
    %3 = arith.addi %acc, %2 : i32
    linalg.yield %3 : i32
  }
  memref.copy %c, %out : memref<16x16xi32> to memref<16x16xi32>
  return
}

// -----

// Not from zero: a C that arrives as an argument (a loop-carried accumulator), one read before
// the product, one filled with another value, and one seen through a view: their tiles are
// loaded and their fills stay.
// CHECK-LABEL: func.func @not_from_zero
// CHECK-NOT: amx.tile_zero
// CHECK: linalg.fill ins(%cst : f32)
// CHECK: memref.subview
// CHECK: linalg.fill ins(%cst_0 : f32)
// CHECK-NOT: amx.tile_zero
#a = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#b = affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>
#c = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @not_from_zero(%a: memref<16x32xbf16>, %b: memref<16x16x2xbf16>, %acc: memref<16x16xf32>, %out: memref<16x16xf32>, %row: memref<16xf32>) {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %a3 = memref.expand_shape %a [[0], [1, 2]] output_shape [16, 16, 2] : memref<16x32xbf16> into memref<16x16x2xbf16>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%a3, %b : memref<16x16x2xbf16>, memref<16x16x2xbf16>) outs(%acc : memref<16x16xf32>) attrs = {tritium.amx_tiles} {
  ^bb0(%x: bf16, %y: bf16, %s: f32):
    %0 = arith.extf %x : bf16 to f32
    %1 = arith.extf %y : bf16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %s, %2 : f32
    linalg.yield %3 : f32
  }
  %ones = memref.alloca() : memref<16x16xf32>
  linalg.fill ins(%one : f32) outs(%ones : memref<16x16xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%a3, %b : memref<16x16x2xbf16>, memref<16x16x2xbf16>) outs(%ones : memref<16x16xf32>) attrs = {tritium.amx_tiles} {
  ^bb0(%x: bf16, %y: bf16, %s: f32):
    %0 = arith.extf %x : bf16 to f32
    %1 = arith.extf %y : bf16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %s, %2 : f32
    linalg.yield %3 : f32
  }
  %viewed = memref.alloca() : memref<16x16xf32>
  %first_row = memref.subview %viewed[0, 0] [1, 16] [1, 1] : memref<16x16xf32> to memref<16xf32, strided<[1]>>
  linalg.fill ins(%zero : f32) outs(%viewed : memref<16x16xf32>)
  memref.copy %first_row, %row : memref<16xf32, strided<[1]>> to memref<16xf32>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%a3, %b : memref<16x16x2xbf16>, memref<16x16x2xbf16>) outs(%viewed : memref<16x16xf32>) attrs = {tritium.amx_tiles} {
  ^bb0(%x: bf16, %y: bf16, %s: f32):
    %0 = arith.extf %x : bf16 to f32
    %1 = arith.extf %y : bf16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %s, %2 : f32
    linalg.yield %3 : f32
  }
  memref.copy %ones, %out : memref<16x16xf32> to memref<16x16xf32>
  memref.copy %viewed, %out : memref<16x16xf32> to memref<16x16xf32>
  return
}
