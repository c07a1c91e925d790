// RUN: tritium-opt %s -split-input-file --convert-triton-to-linalg | FileCheck %s

// fp16 inputs accumulate in fp32; tf32 is computed as IEEE fp32.
// CHECK-LABEL: func.func @dot_2d
// CHECK-SAME: (%[[A:[^:]+]]: tensor<16x32xf16>, %[[B:[^:]+]]: tensor<32x8xf16>, %[[C:[^:]+]]: tensor<16x8xf32>
// CHECK: linalg.matmul ins(%[[A]], %[[B]] : tensor<16x32xf16>, tensor<32x8xf16>) outs(%[[C]] : tensor<16x8xf32>) -> tensor<16x8xf32>
tt.func @dot_2d(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xf32>
  tt.return %0 : tensor<16x8xf32>
}

// -----

// CHECK-LABEL: func.func @dot_3d
// CHECK: linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<2x16x32xf32>, tensor<2x32x8xf32>) outs(%{{.+}} : tensor<2x16x8xf32>)
tt.func @dot_3d(%a: tensor<2x16x32xf32>, %b: tensor<2x32x8xf32>, %c: tensor<2x16x8xf32>) -> tensor<2x16x8xf32> {
  %0 = tt.dot %a, %b, %c : tensor<2x16x32xf32> * tensor<2x32x8xf32> -> tensor<2x16x8xf32>
  tt.return %0 : tensor<2x16x8xf32>
}

// -----

// fp8 operands are widened (exactly) to the accumulator type once, before the matmul.
// CHECK-LABEL: func.func @dot_fp8
// CHECK: %[[A:.+]] = arith.extf %{{.+}} : tensor<16x32xf8E5M2> to tensor<16x32xf32>
// CHECK: %[[B:.+]] = arith.extf %{{.+}} : tensor<32x8xf8E4M3FN> to tensor<32x8xf32>
// CHECK: linalg.matmul ins(%[[A]], %[[B]] : tensor<16x32xf32>, tensor<32x8xf32>)
tt.func @dot_fp8(%a: tensor<16x32xf8E5M2>, %b: tensor<32x8xf8E4M3FN>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = tt.dot %a, %b, %c : tensor<16x32xf8E5M2> * tensor<32x8xf8E4M3FN> -> tensor<16x8xf32>
  tt.return %0 : tensor<16x8xf32>
}

// -----

// dot_scaled: each operand becomes an f32 tensor in matmul layout; e2m1 bytes hold two values
// along K (the odd one in the high nibble), every value is multiplied by 2^(s - 127) for its
// scale byte s (one per 32 values of K; 0 is 2^-127, 255 is NaN).
// CHECK-LABEL: func.func @dot_scaled_e2m1_e4m3
// CHECK-SAME: (%[[A:[^:]+]]: tensor<16x32xi8>, %[[AS:[^:]+]]: tensor<16x2xi8>, %[[B:[^:]+]]: tensor<64x8xf8E4M3FN>, %[[BS:[^:]+]]: tensor<8x2xi8>, %[[C:[^:]+]]: tensor<16x8xf32>
// CHECK: %[[LHS:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<16x64xf32>)
// CHECK: %[[I:.+]] = linalg.index 0
// CHECK: %[[K:.+]] = linalg.index 1
// CHECK: %[[HALFK:.+]] = arith.divui %[[K]], %c2
// CHECK: tensor.extract %[[A]][%[[I]], %[[HALFK]]] : tensor<16x32xi8>
// CHECK: arith.remui %[[K]]
// CHECK: arith.shrui %{{.+}}, %c4_i32
// CHECK: %[[GROUP:.+]] = arith.divui %[[K]], %c32
// CHECK: tensor.extract %[[AS]][%[[I]], %[[GROUP]]] : tensor<16x2xi8>
// CHECK: arith.constant 4194304 : i32
// CHECK: arith.constant 2143289344 : i32
// CHECK: %[[RHS:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<64x8xf32>)
// CHECK: %[[RK:.+]] = linalg.index 0
// CHECK: %[[RN:.+]] = linalg.index 1
// CHECK: tensor.extract %[[B]][%[[RK]], %[[RN]]] : tensor<64x8xf8E4M3FN>
// CHECK: arith.extf %{{.+}} : f8E4M3FN to f32
// CHECK: %[[RGROUP:.+]] = arith.divui %[[RK]], %c32
// CHECK: tensor.extract %[[BS]][%[[RN]], %[[RGROUP]]] : tensor<8x2xi8>
// CHECK: linalg.matmul ins(%[[LHS]], %[[RHS]] : tensor<16x64xf32>, tensor<64x8xf32>) outs(%[[C]] : tensor<16x8xf32>)
tt.func @dot_scaled_e2m1_e4m3(%a: tensor<16x32xi8>, %as: tensor<16x2xi8>, %b: tensor<64x8xf8E4M3FN>, %bs: tensor<8x2xi8>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = tt.dot_scaled %a scale %as, %b scale %bs, %c lhs = e2m1 rhs = e4m3 {fastMath = false} : tensor<16x32xi8>, tensor<16x2xi8> * tensor<64x8xf8E4M3FN>, tensor<8x2xi8> -> tensor<16x8xf32>
  tt.return %0 : tensor<16x8xf32>
}

// -----

// Without scales the operands are only unpacked and widened.
// CHECK-LABEL: func.func @dot_scaled_bf16_unscaled
// CHECK: arith.extf %{{.+}} : bf16 to f32
// CHECK-NOT: arith.constant 2143289344 : i32
// CHECK: linalg.matmul
tt.func @dot_scaled_bf16_unscaled(%a: tensor<16x32xbf16>, %b: tensor<32x8xbf16>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = tt.dot_scaled %a, %b, %c lhs = bf16 rhs = bf16 {fastMath = false} : tensor<16x32xbf16> * tensor<32x8xbf16> -> tensor<16x8xf32>
  tt.return %0 : tensor<16x8xf32>
}
