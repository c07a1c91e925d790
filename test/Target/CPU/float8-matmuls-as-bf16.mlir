// RUN: tritium-opt %s --pass-pipeline="builtin.module(func.func(tritium-cpu-float8-matmuls-as-bf16{amx-bf16=true}))" | FileCheck %s
// RUN: tritium-opt %s --pass-pipeline="builtin.module(func.func(tritium-cpu-float8-matmuls-as-bf16))" | FileCheck %s --check-prefix=NOAMX

// fp8 operands widened to f32 for a product AMX tiles can compute are widened to bf16 instead
// (every fp8 value is a bf16 value), and the f32 widenings go.
// CHECK-LABEL: func.func @float8_on_tiles
// CHECK-DAG: %[[A:.*]] = arith.extf %arg0 : tensor<32x64xf8E5M2> to tensor<32x64xbf16>
// CHECK-DAG: %[[B:.*]] = arith.extf %arg1 : tensor<64x32xf8E4M3FN> to tensor<64x32xbf16>
// CHECK: linalg.matmul ins(%[[A]], %[[B]] : tensor<32x64xbf16>, tensor<64x32xbf16>) outs(%arg2 : tensor<32x32xf32>)
// CHECK-NOT: to tensor<32x64xf32>
// NOAMX-LABEL: func.func @float8_on_tiles
// NOAMX: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<32x64xf32>, tensor<64x32xf32>)
func.func @float8_on_tiles(%a: tensor<32x64xf8E5M2>, %b: tensor<64x32xf8E4M3FN>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %a32 = arith.extf %a : tensor<32x64xf8E5M2> to tensor<32x64xf32>
  %b32 = arith.extf %b : tensor<64x32xf8E4M3FN> to tensor<64x32xf32>
  %0 = linalg.matmul ins(%a32, %b32 : tensor<32x64xf32>, tensor<64x32xf32>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %0 : tensor<32x32xf32>
}

// A widened operand that something else reads too keeps its f32 widening for that reader.
// CHECK-LABEL: func.func @widening_read_elsewhere
// CHECK: %[[A32:.*]] = arith.extf %arg0 : tensor<16x32xf8E4M3FNUZ> to tensor<16x32xf32>
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<16x32xbf16>, tensor<32x16xbf16>)
// CHECK: return %{{.*}}, %[[A32]]
func.func @widening_read_elsewhere(%a: tensor<16x32xf8E4M3FNUZ>, %b: tensor<32x16xf8E5M2FNUZ>, %c: tensor<16x16xf32>)
    -> (tensor<16x16xf32>, tensor<16x32xf32>) {
  %a32 = arith.extf %a : tensor<16x32xf8E4M3FNUZ> to tensor<16x32xf32>
  %b32 = arith.extf %b : tensor<32x16xf8E5M2FNUZ> to tensor<32x16xf32>
  %0 = linalg.matmul ins(%a32, %b32 : tensor<16x32xf32>, tensor<32x16xf32>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %0, %a32 : tensor<16x16xf32>, tensor<16x32xf32>
}

// Not an AMX shape (8 rows), a K of 16, one operand not fp8: the f32 matmul stays.
// CHECK-LABEL: func.func @left_in_f32
// CHECK-COUNT-3: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<{{[0-9]+}}x{{[0-9]+}}xf32>, tensor<{{[0-9]+}}x{{[0-9]+}}xf32>)
// CHECK-NOT: bf16
func.func @left_in_f32(%a: tensor<8x64xf8E5M2>, %b: tensor<64x32xf8E5M2>, %c: tensor<8x32xf32>,
                       %d: tensor<32x16xf8E5M2>, %e: tensor<16x32xf8E5M2>, %f: tensor<32x32xf32>,
                       %g: tensor<32x64xf8E5M2>, %h: tensor<64x32xf32>)
    -> (tensor<8x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>) {
  %a32 = arith.extf %a : tensor<8x64xf8E5M2> to tensor<8x64xf32>
  %b32 = arith.extf %b : tensor<64x32xf8E5M2> to tensor<64x32xf32>
  %0 = linalg.matmul ins(%a32, %b32 : tensor<8x64xf32>, tensor<64x32xf32>) outs(%c : tensor<8x32xf32>) -> tensor<8x32xf32>
  %d32 = arith.extf %d : tensor<32x16xf8E5M2> to tensor<32x16xf32>
  %e32 = arith.extf %e : tensor<16x32xf8E5M2> to tensor<16x32xf32>
  %1 = linalg.matmul ins(%d32, %e32 : tensor<32x16xf32>, tensor<16x32xf32>) outs(%f : tensor<32x32xf32>) -> tensor<32x32xf32>
  %g32 = arith.extf %g : tensor<32x64xf8E5M2> to tensor<32x64xf32>
  %2 = linalg.matmul ins(%g32, %h : tensor<32x64xf32>, tensor<64x32xf32>) outs(%f : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %0, %1, %2 : tensor<8x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>
}

// One tensor as both operands (`tl.dot(a, a)`): one widening, erased once.
// CHECK-LABEL: func.func @one_operand_twice
// CHECK-NOT: to tensor<32x32xf32>
// CHECK: %[[A:.*]] = arith.extf %arg0 : tensor<32x32xf8E5M2> to tensor<32x32xbf16>
// CHECK-NOT: to tensor<32x32xf32>
// CHECK: linalg.matmul ins(%[[A]], %{{.*}} : tensor<32x32xbf16>, tensor<32x32xbf16>)
func.func @one_operand_twice(%a: tensor<32x32xf8E5M2>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %a32 = arith.extf %a : tensor<32x32xf8E5M2> to tensor<32x32xf32>
  %0 = linalg.matmul ins(%a32, %a32 : tensor<32x32xf32>, tensor<32x32xf32>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %0 : tensor<32x32xf32>
}
