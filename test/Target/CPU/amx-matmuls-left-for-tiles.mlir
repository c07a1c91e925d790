// RUN: tritium-opt %s --pass-pipeline="builtin.module(func.func(tritium-cpu-matmuls-to-dot-product-instructions{avx512-bf16=true avx512-vnni=true amx-bf16=true amx-int8=true},tritium-cpu-widen-matmul-operands{amx-bf16=true amx-int8=true}))" | FileCheck %s
// RUN: tritium-opt %s --pass-pipeline="builtin.module(func.func(tritium-cpu-matmuls-to-dot-product-instructions{avx512-bf16=true avx512-vnni=true},tritium-cpu-widen-matmul-operands))" | FileCheck %s --check-prefix=NOAMX

// On an AMX host the dot-product and widening passes leave the matmuls AMX tiles take (M, N
// multiples of 16, K of 32 bf16 / 64 int8) for tritium-cpu-pack-matmuls-for-amx, which runs
// after elementwise fusion; the others they take as on any host.
// CHECK-LABEL: func.func @left_for_tiles
// CHECK: linalg.matmul ins(%arg0, %arg1 : tensor<32x64xbf16>, tensor<64x32xbf16>)
// CHECK: linalg.matmul ins(%arg3, %arg4 : tensor<16x64xi8>, tensor<64x16xi8>)
// CHECK-NOT: llvm.call_intrinsic
// NOAMX-LABEL: func.func @left_for_tiles
// NOAMX-COUNT-2: llvm.call_intrinsic
// NOAMX-NOT: linalg.matmul
func.func @left_for_tiles(%a: tensor<32x64xbf16>, %b: tensor<64x32xbf16>, %c: tensor<32x32xf32>,
                          %d: tensor<16x64xi8>, %e: tensor<64x16xi8>, %f: tensor<16x16xi32>)
    -> (tensor<32x32xf32>, tensor<16x16xi32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<32x64xbf16>, tensor<64x32xbf16>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  %1 = linalg.matmul ins(%d, %e : tensor<16x64xi8>, tensor<64x16xi8>) outs(%f : tensor<16x16xi32>) -> tensor<16x16xi32>
  return %0, %1 : tensor<32x32xf32>, tensor<16x16xi32>
}

// An 8-row bf16 matmul is no AMX shape: vdpbf16ps takes it.
// CHECK-LABEL: func.func @not_a_tile_shape
// CHECK: llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"
// CHECK-NOT: linalg.matmul
func.func @not_a_tile_shape(%a: tensor<8x64xbf16>, %b: tensor<64x32xbf16>, %c: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<8x64xbf16>, tensor<64x32xbf16>) outs(%c : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}
