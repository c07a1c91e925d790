// RUN: tritium-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tritium-cpu-matmuls-to-dot-product-instructions{avx512-bf16=true avx512-vnni=true}),canonicalize)" | FileCheck %s
// RUN: tritium-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tritium-cpu-matmuls-to-dot-product-instructions))" | FileCheck %s --check-prefix=NOHOST

// bf16: A and B packed into words of two K neighbours (the first in the low half), blocks of
// 8 x 32 of C summed with vdpbf16ps, one per row and 16 columns, K/2 steps.
// CHECK-LABEL: func.func @bf16
// CHECK: tensor.expand_shape %arg0 {{\[}}[0], [1, 2]] output_shape [8, 4, 2] : tensor<8x8xbf16> into tensor<8x4x2xbf16>
// CHECK: linalg.generic
// CHECK:   arith.shli %{{.+}}, %c16_i32
// CHECK:   arith.ori
// CHECK: } -> tensor<8x4xi32>
// CHECK: tensor.expand_shape %arg1 {{\[}}[0, 1], [2]] output_shape [4, 2, 32] : tensor<8x32xbf16> into tensor<4x2x32xbf16>
// CHECK: } -> tensor<4x32xi32>
// CHECK: scf.for %{{.+}} = %c0 to %c4 step %c1 iter_args({{.+}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK:   vector.transfer_read {{.+}} : tensor<4x32xi32>, vector<16xi32>
// CHECK:   vector.bitcast {{.+}} : vector<16xi32> to vector<32xbf16>
// CHECK:   tensor.extract {{.+}} : tensor<8x4xi32>
// CHECK:   vector.broadcast {{.+}} : i32 to vector<16xi32>
// CHECK-COUNT-2: llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"({{.+}}) : (vector<16xf32>, vector<32xbf16>, vector<32xbf16>) -> vector<16xf32>
// CHECK: vector.transfer_write
// CHECK-NOT: linalg.matmul
// NOHOST-LABEL: func.func @bf16
// NOHOST: linalg.matmul
func.func @bf16(%a: tensor<8x8xbf16>, %b: tensor<8x32xbf16>, %c: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<8x8xbf16>, tensor<8x32xbf16>) outs(%c : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

// int8: words of four K neighbours; A's bytes biased to unsigned (xor 0x80808080 = -2139062144),
// C less 128 * the column sums of B (a shift by 7) before vpdpbusd adds the products.
// CHECK-LABEL: func.func @int8
// CHECK: arith.shli %{{.+}}, %c24_i32
// CHECK: arith.xori %{{.+}}, %c-2139062144_i32
// CHECK: linalg.generic {{.+}} iterator_types = ["reduction", "parallel"]
// CHECK:   arith.extsi
// CHECK:   arith.shli %{{.+}}, %c7_i32
// CHECK: %[[BIAS:.+]] = vector.transfer_read {{.+}} : tensor<16xi32>, vector<16xi32>
// CHECK: vector.transfer_read {{.+}} : tensor<4x16xi32>, vector<16xi32>
// CHECK: arith.subi %{{.+}}, %[[BIAS]]
// CHECK: scf.for %{{.+}} = %c0 to %c2 step %c1
// CHECK:   vector.bitcast {{.+}} : vector<16xi32> to vector<64xi8>
// CHECK:   llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"({{.+}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// NOHOST-LABEL: func.func @int8
// NOHOST: linalg.matmul
func.func @int8(%a: tensor<4x8xi8>, %b: tensor<8x16xi8>, %c: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xi8>, tensor<8x16xi8>) outs(%c : tensor<4x16xi32>) -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}

// -----

// Left alone: N not a multiple of 16, K odd for pairs, unsigned int8, f32.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: llvm.call_intrinsic
// CHECK-COUNT-4: linalg.matmul
func.func @left_alone(%a: tensor<8x8xbf16>, %b: tensor<8x24xbf16>, %c: tensor<8x24xf32>,
                      %d: tensor<8x3xbf16>, %e: tensor<3x16xbf16>, %f: tensor<8x16xf32>,
                      %g: tensor<4x8xi8>, %h: tensor<8x16xi8>, %i: tensor<4x16xi32>,
                      %j: tensor<8x8xf32>, %k: tensor<8x16xf32>) -> (tensor<8x24xf32>, tensor<8x16xf32>, tensor<4x16xi32>, tensor<8x16xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<8x8xbf16>, tensor<8x24xbf16>) outs(%c : tensor<8x24xf32>) -> tensor<8x24xf32>
  %1 = linalg.matmul ins(%d, %e : tensor<8x3xbf16>, tensor<3x16xbf16>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%g, %h : tensor<4x8xi8>, tensor<8x16xi8>) outs(%i : tensor<4x16xi32>) -> tensor<4x16xi32>
  %3 = linalg.matmul ins(%j, %k : tensor<8x8xf32>, tensor<8x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0, %1, %2, %3 : tensor<8x24xf32>, tensor<8x16xf32>, tensor<4x16xi32>, tensor<8x16xf32>
}
