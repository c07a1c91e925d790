// RUN: tritium-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tritium-cpu-pack-matmuls-for-amx{bf16=true int8=true}))" | FileCheck %s
// RUN: tritium-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tritium-cpu-pack-matmuls-for-amx))" | FileCheck %s --check-prefix=NOHOST

// bf16: A viewed as [M, K/2, 2], B regrouped into pairs of K neighbours per column
// ([K/2, 2, N] transposed to [K/2, N, 2]); the matmul is a generic over (m, n, kk, j) marked for
// the tile pass, which computes the same sum.
// CHECK-LABEL: func.func @bf16
// CHECK: %[[A:.+]] = tensor.expand_shape %arg0 {{\[}}[0], [1, 2]] output_shape [32, 32, 2] : tensor<32x64xbf16> into tensor<32x32x2xbf16>
// CHECK: %[[B:.+]] = tensor.expand_shape %arg1 {{\[}}[0, 1], [2]] output_shape [32, 2, 32] : tensor<64x32xbf16> into tensor<32x2x32xbf16>
// CHECK: %[[P:.+]] = linalg.transpose ins(%[[B]] : tensor<32x2x32xbf16>) outs(%{{.+}} : tensor<32x32x2xbf16>) permutation = [0, 2, 1]
// CHECK: linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%[[A]], %[[P]] : tensor<32x32x2xbf16>, tensor<32x32x2xbf16>) outs(%arg2 : tensor<32x32xf32>) attrs = {tritium.amx_tiles}
// CHECK:   arith.extf
// CHECK:   arith.mulf
// CHECK:   arith.addf
// CHECK-NOT: linalg.matmul
// NOHOST-LABEL: func.func @bf16
// NOHOST: linalg.matmul
func.func @bf16(%a: tensor<32x64xbf16>, %b: tensor<64x32xbf16>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<32x64xbf16>, tensor<64x32xbf16>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %0 : tensor<32x32xf32>
}

// -----

// int8 x int8 -> int32: quads of K neighbours, signed products.
// CHECK-LABEL: func.func @int8
// CHECK: tensor.expand_shape %arg0 {{\[}}[0], [1, 2]] output_shape [16, 16, 4]
// CHECK: linalg.transpose ins(%{{.+}} : tensor<16x4x16xi8>) outs(%{{.+}} : tensor<16x16x4xi8>) permutation = [0, 2, 1]
// CHECK: linalg.generic {{.+}} attrs = {tritium.amx_tiles}
// CHECK:   arith.extsi
// CHECK:   arith.muli
// CHECK:   arith.addi
func.func @int8(%a: tensor<16x64xi8>, %b: tensor<64x16xi8>, %c: tensor<16x16xi32>) -> tensor<16x16xi32> {
  %0 = linalg.matmul ins(%a, %b : tensor<16x64xi8>, tensor<64x16xi8>) outs(%c : tensor<16x16xi32>) -> tensor<16x16xi32>
  return %0 : tensor<16x16xi32>
}

// -----

// Left alone: M not a multiple of 16, bf16 K not of 32, int8 K not of 64, unsigned int8, f32.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: tritium.amx_tiles
// CHECK-COUNT-5: linalg.matmul
func.func @left_alone(%a: tensor<8x32xbf16>, %b: tensor<32x16xbf16>, %c: tensor<8x16xf32>,
                      %d: tensor<16x16xbf16>, %e: tensor<16x16xbf16>, %f: tensor<16x16xf32>,
                      %g: tensor<16x32xi8>, %h: tensor<32x16xi8>, %i: tensor<16x16xi32>,
                      %j: tensor<16x64xi8>, %k: tensor<64x16xi8>,
                      %l: tensor<16x32xf32>, %m: tensor<32x16xf32>)
    -> (tensor<8x16xf32>, tensor<16x16xf32>, tensor<16x16xi32>, tensor<16x16xi32>, tensor<16x16xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<8x32xbf16>, tensor<32x16xbf16>) outs(%c : tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = linalg.matmul ins(%d, %e : tensor<16x16xbf16>, tensor<16x16xbf16>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  %2 = linalg.matmul ins(%g, %h : tensor<16x32xi8>, tensor<32x16xi8>) outs(%i : tensor<16x16xi32>) -> tensor<16x16xi32>
  %3 = linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%j, %k : tensor<16x64xi8>, tensor<64x16xi8>) outs(%i : tensor<16x16xi32>) -> tensor<16x16xi32>
  %4 = linalg.matmul ins(%l, %m : tensor<16x32xf32>, tensor<32x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %0, %1, %2, %3, %4 : tensor<8x16xf32>, tensor<16x16xf32>, tensor<16x16xi32>, tensor<16x16xi32>, tensor<16x16xf32>
}

// -----

// B = x^T (attention's tl.trans(k)): words of two K neighbours built along x's rows, then one
// transpose of 32-bit words; the generic takes the j-th half of each word.
// CHECK-LABEL: func.func @bf16_transposed_b
// CHECK: %[[X:.+]] = tensor.expand_shape %arg1 {{\[}}[0], [1, 2]] output_shape [32, 32, 2] : tensor<32x64xbf16> into tensor<32x32x2xbf16>
// CHECK: %[[WORDS:.+]] = linalg.generic
// CHECK:   arith.shli %{{.+}}, %c16_i32
// CHECK:   arith.ori
// CHECK: } -> tensor<32x32xi32>
// CHECK: %[[BW:.+]] = linalg.transpose ins(%[[WORDS]] : tensor<32x32xi32>) outs(%{{.+}} : tensor<32x32xi32>) permutation = [1, 0]
// CHECK: linalg.generic {{.+}} ins(%{{.+}}, %[[BW]] : tensor<32x32x2xbf16>, tensor<32x32xi32>) outs(%arg2 : tensor<32x32xf32>) attrs = {tritium.amx_tiles}
// CHECK:   linalg.index 3
// CHECK:   arith.shrui
// CHECK:   arith.trunci %{{.+}} : i32 to i16
// CHECK:   arith.bitcast %{{.+}} : i16 to bf16
func.func @bf16_transposed_b(%a: tensor<32x64xbf16>, %x: tensor<32x64xbf16>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %e = tensor.empty() : tensor<64x32xbf16>
  %b = linalg.transpose ins(%x : tensor<32x64xbf16>) outs(%e : tensor<64x32xbf16>) permutation = [1, 0]
  %0 = linalg.matmul ins(%a, %b : tensor<32x64xbf16>, tensor<64x32xbf16>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %0 : tensor<32x32xf32>
}

// -----

// B read packed by tritium-cpu-read-tiles-in-place ([K/2, N, 2], handed to the matmul through a
// marked generic that unpacks it): the tile generic reads the packed tile itself, no transpose.
// A generic like it without the mark is B like any other, packed again.
// CHECK-LABEL: func.func @b_read_packed
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {{.+}} ins(%{{.+}}, %arg1 : tensor<32x32x2xbf16>, tensor<32x32x2xbf16>) outs(%arg2 : tensor<32x32xf32>) attrs = {tritium.amx_tiles}
// CHECK-LABEL: func.func @unmarked_unpack
// CHECK: linalg.transpose ins(%{{.+}} : tensor<32x2x32xbf16>) outs(%{{.+}} : tensor<32x32x2xbf16>) permutation = [0, 2, 1]
// CHECK: attrs = {tritium.amx_tiles}
// NOHOST-LABEL: func.func @b_read_packed
// NOHOST: linalg.matmul
#packed_at = affine_map<(d0, d1) -> (d0 floordiv 2, d1, d0 mod 2)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
func.func @b_read_packed(%a: tensor<32x64xbf16>, %packed: tensor<32x32x2xbf16>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %empty = tensor.empty() : tensor<64x32xbf16>
  %b = linalg.generic {indexing_maps = [#packed_at, #identity], iterator_types = ["parallel", "parallel"]} ins(%packed : tensor<32x32x2xbf16>) outs(%empty : tensor<64x32xbf16>) attrs = {tritium.unpacked_amx_tile} {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  } -> tensor<64x32xbf16>
  %0 = linalg.matmul ins(%a, %b : tensor<32x64xbf16>, tensor<64x32xbf16>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %0 : tensor<32x32xf32>
}
func.func @unmarked_unpack(%a: tensor<32x64xbf16>, %packed: tensor<32x32x2xbf16>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %empty = tensor.empty() : tensor<64x32xbf16>
  %b = linalg.generic {indexing_maps = [#packed_at, #identity], iterator_types = ["parallel", "parallel"]} ins(%packed : tensor<32x32x2xbf16>) outs(%empty : tensor<64x32xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  } -> tensor<64x32xbf16>
  %0 = linalg.matmul ins(%a, %b : tensor<32x64xbf16>, tensor<64x32xbf16>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %0 : tensor<32x32xf32>
}
