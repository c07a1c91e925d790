// RUN: tritium-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tritium-cpu-matmuls-to-amx-tiles),canonicalize)" | FileCheck %s

#a = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#b = affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>
#c = affine_map<(d0, d1, d2, d3) -> (d0, d1)>

// bf16, 64x64 C in blocks of 2x2 tiles, K = 64 in two steps of 32: the C tiles are loaded,
// summed with one tdpbf16ps per tile and step, and stored; A's rows are contiguous, so its
// tiles are read where it lies.
// CHECK-LABEL: func.func @bf16_blocks
// CHECK-NOT: memref.alloca
// CHECK: %[[B:.+]] = memref.collapse_shape %arg1 {{\[}}[0], [1, 2]] : memref<32x64x2xbf16> into memref<32x128xbf16>
// CHECK: scf.for %[[M:.+]] = %c0 to %c64 step %c32
// CHECK:   scf.for %[[N:.+]] = %c0 to %c64 step %c32
// CHECK-COUNT-4: amx.tile_load %arg2[{{.+}}] : memref<64x64xf32> into !amx.tile<16x16xf32>
// CHECK:     amx.tile_load %arg0[%[[M]], %c0] : memref<64x64xbf16> into !amx.tile<16x32xbf16>
// CHECK:     amx.tile_load %arg0[%{{.+}}, %c0] : memref<64x64xbf16> into !amx.tile<16x32xbf16>
// CHECK-COUNT-2: amx.tile_load %[[B]][%c0, {{.+}}] : memref<32x128xbf16> into !amx.tile<16x32xbf16>
// CHECK-COUNT-4: amx.tile_mulf
// CHECK:     amx.tile_load %arg0[%[[M]], %c32]
// CHECK-COUNT-2: amx.tile_load %[[B]][%c16, {{.+}}]
// CHECK-COUNT-4: amx.tile_mulf
// CHECK-COUNT-4: amx.tile_store %arg2
// CHECK-NOT: linalg.generic
func.func @bf16_blocks(%a: memref<64x64xbf16>, %b: memref<32x64x2xbf16>, %c: memref<64x64xf32>) {
  %a3 = memref.expand_shape %a [[0], [1, 2]] output_shape [64, 32, 2] : memref<64x64xbf16> into memref<64x32x2xbf16>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%a3, %b : memref<64x32x2xbf16>, memref<32x64x2xbf16>) outs(%c : memref<64x64xf32>) attrs = {tritium.amx_tiles} {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %0 = arith.extf %x : bf16 to f32
    %1 = arith.extf %y : bf16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %acc, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// -----

#a = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#b = affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>
#c = affine_map<(d0, d1, d2, d3) -> (d0, d1)>

// int8 with A in the kernel's memory, its column stride known only at run time: a view when it
// is 1, else a copy on the stack; one 16x16 tile of C, K = 128 in two steps of 64 (tdpbssd).
// CHECK-LABEL: func.func @int8_strided_a
// CHECK: %[[SCRATCH:.+]] = memref.alloca() : memref<16x128xi8>
// CHECK: %{{.+}}, %{{.+}}, %{{.+}}:2, %[[STRIDES:.+]]:2 = memref.extract_strided_metadata %arg0
// CHECK: %[[UNIT:.+]] = arith.cmpi eq, %[[STRIDES]]#1, %c1
// CHECK: %[[A:.+]] = scf.if %[[UNIT]] -> (memref<16x128xi8, strided<[?, 1], offset: ?>>)
// CHECK:   memref.reinterpret_cast %arg0 {{.+}} strides: [%[[STRIDES]]#0, 1]
// CHECK: } else {
// CHECK:   memref.copy %arg0, %[[SCRATCH]]
// CHECK: amx.tile_load %arg2[%c0, %c0] : memref<16x16xi32> into !amx.tile<16x16xi32>
// CHECK: amx.tile_load %[[A]][%c0, %c0] : memref<16x128xi8, strided<[?, 1], offset: ?>> into !amx.tile<16x64xi8>
// CHECK: amx.tile_muli {{.+}} : !amx.tile<16x64xi8>, !amx.tile<16x64xi8>, !amx.tile<16x16xi32>
// CHECK: amx.tile_load %[[A]][%c0, %c64]
// CHECK: amx.tile_muli
// CHECK: amx.tile_store %arg2[%c0, %c0]
func.func @int8_strided_a(%a: memref<16x128xi8, strided<[?, ?], offset: ?>>, %b: memref<32x16x4xi8>, %c: memref<16x16xi32>) {
  %a3 = memref.expand_shape %a [[0], [1, 2]] output_shape [16, 32, 4] : memref<16x128xi8, strided<[?, ?], offset: ?>> into memref<16x32x4xi8, strided<[?, ?, ?], offset: ?>>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%a3, %b : memref<16x32x4xi8, strided<[?, ?, ?], offset: ?>>, memref<32x16x4xi8>) outs(%c : memref<16x16xi32>) attrs = {tritium.amx_tiles} {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %0 = arith.extsi %x : i8 to i32
    %1 = arith.extsi %y : i8 to i32
    %2 = arith.muli %0, %1 : i32
    %3 = arith.addi %acc, %2 : i32
    linalg.yield %3 : i32
  }
  return
}

// -----

#a = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#b = affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>
#c = affine_map<(d0, d1, d2, d3) -> (d0, d1)>

// K = 512 bf16 is 16 steps: the C tile goes back to memory after every run of 8.
// CHECK-LABEL: func.func @long_k
// CHECK: scf.for %[[K:.+]] = %c0 to %c512 step %c256
// CHECK:   amx.tile_load %arg2
// CHECK-COUNT-8: amx.tile_mulf
// CHECK:   amx.tile_store %arg2
func.func @long_k(%a: memref<16x512xbf16>, %b: memref<256x16x2xbf16>, %c: memref<16x16xf32>) {
  %a3 = memref.expand_shape %a [[0], [1, 2]] output_shape [16, 256, 2] : memref<16x512xbf16> into memref<16x256x2xbf16>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%a3, %b : memref<16x256x2xbf16>, memref<256x16x2xbf16>) outs(%c : memref<16x16xf32>) attrs = {tritium.amx_tiles} {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %0 = arith.extf %x : bf16 to f32
    %1 = arith.extf %y : bf16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %acc, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// -----

#a = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#w = affine_map<(d0, d1, d2, d3) -> (d2, d1)>
#c = affine_map<(d0, d1, d2, d3) -> (d0, d1)>

// B as 32-bit words of two K neighbours [K/2, N] (a transposed B): a tile row is 16 words.
// CHECK-LABEL: func.func @bf16_words
// CHECK-NOT: memref.collapse_shape
// CHECK: amx.tile_load %arg1[%c0, %c0] : memref<32x16xi32> into !amx.tile<16x32xbf16>
// CHECK: amx.tile_mulf
// CHECK: amx.tile_load %arg1[%c16, %c0] : memref<32x16xi32> into !amx.tile<16x32xbf16>
// CHECK: amx.tile_mulf
// CHECK: amx.tile_store %arg2[%c0, %c0]
func.func @bf16_words(%a: memref<16x64xbf16>, %b: memref<32x16xi32>, %c: memref<16x16xf32>) {
  %a3 = memref.expand_shape %a [[0], [1, 2]] output_shape [16, 32, 2] : memref<16x64xbf16> into memref<16x32x2xbf16>
  linalg.generic {indexing_maps = [#a, #w, #c], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%a3, %b : memref<16x32x2xbf16>, memref<32x16xi32>) outs(%c : memref<16x16xf32>) attrs = {tritium.amx_tiles} {
  ^bb0(%x: bf16, %word: i32, %acc: f32):
    %j = linalg.index 3 : index
    %j32 = arith.index_cast %j : index to i32
    %c16_i32 = arith.constant 16 : i32
    %shift = arith.muli %j32, %c16_i32 : i32
    %part = arith.shrui %word, %shift : i32
    %bits = arith.trunci %part : i32 to i16
    %y = arith.bitcast %bits : i16 to bf16
    %0 = arith.extf %x : bf16 to f32
    %1 = arith.extf %y : bf16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %acc, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// -----

#a = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#b = affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>
#c = affine_map<(d0, d1, d2, d3) -> (d0, d1)>

// Two products (two merged iterations of a kernel's K loop), K = 64 each: one load and one
// store of the C tiles around the 2 x 2 steps, the first product's tiles before the second's
// (one block: canonicalize removes its loops).
// CHECK-LABEL: func.func @two_products
// CHECK-COUNT-4: amx.tile_load %arg4
// CHECK:     amx.tile_load %arg0[%{{.+}}, %c0]
// CHECK:     amx.tile_load %arg0[%{{.+}}, %c0]
// CHECK-COUNT-4: amx.tile_mulf
// CHECK:     amx.tile_load %arg0[%{{.+}}, %c32]
// CHECK:     amx.tile_load %arg0[%{{.+}}, %c32]
// CHECK-COUNT-4: amx.tile_mulf
// CHECK:     amx.tile_load %arg2[%{{.+}}, %c0]
// CHECK:     amx.tile_load %arg2[%{{.+}}, %c0]
// CHECK-COUNT-4: amx.tile_mulf
// CHECK:     amx.tile_load %arg2[%{{.+}}, %c32]
// CHECK:     amx.tile_load %arg2[%{{.+}}, %c32]
// CHECK-COUNT-4: amx.tile_mulf
// CHECK-COUNT-4: amx.tile_store %arg4
// CHECK-NOT: amx.tile_store
func.func @two_products(%a: memref<32x64xbf16>, %b: memref<32x32x2xbf16>, %a2: memref<32x64xbf16>, %b2: memref<32x32x2xbf16>, %c: memref<32x32xf32>) {
  %a3 = memref.expand_shape %a [[0], [1, 2]] output_shape [32, 32, 2] : memref<32x64xbf16> into memref<32x32x2xbf16>
  %a23 = memref.expand_shape %a2 [[0], [1, 2]] output_shape [32, 32, 2] : memref<32x64xbf16> into memref<32x32x2xbf16>
  linalg.generic {indexing_maps = [#a, #b, #a, #b, #c], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%a3, %b, %a23, %b2 : memref<32x32x2xbf16>, memref<32x32x2xbf16>, memref<32x32x2xbf16>, memref<32x32x2xbf16>) outs(%c : memref<32x32xf32>) attrs = {tritium.amx_tiles} {
  ^bb0(%x: bf16, %y: bf16, %x2: bf16, %y2: bf16, %acc: f32):
    %0 = arith.extf %x : bf16 to f32
    %1 = arith.extf %y : bf16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %acc, %2 : f32
    %4 = arith.extf %x2 : bf16 to f32
    %5 = arith.extf %y2 : bf16 to f32
    %6 = arith.mulf %4, %5 : f32
    %7 = arith.addf %3, %6 : f32
    linalg.yield %7 : f32
  }
  return
}
