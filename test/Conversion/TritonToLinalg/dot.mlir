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

// dot_scaled: each operand becomes an f32 tensor in matmul layout, every value multiplied by
// 2^(s - 127) for its scale byte s (one per 32 values of K; 0 is 2^-127, 255 is NaN), each scale
// decoded once: the lhs's as [M, K/32], the rhs's transposed to [K/32, N], so that a row of
// the rhs reads consecutive factors. e2m1 bytes hold two values along K (the odd one in the
// high nibble): the product is the matmuls of the even and of the odd K indices, the e2m1
// operand reading the low, then the high nibble of every byte, the other operand its even,
// then its odd rows.
// CHECK: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK: #[[SWAP:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @dot_scaled_e2m1_e4m3
// CHECK-SAME: (%[[A:[^:]+]]: tensor<16x32xi8>, %[[AS:[^:]+]]: tensor<16x2xi8>, %[[B:[^:]+]]: tensor<64x8xf8E4M3FN>, %[[BS:[^:]+]]: tensor<8x2xi8>, %[[C:[^:]+]]: tensor<16x8xf32>
// CHECK: %[[AF:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], {{.+}} ins(%[[AS]] : tensor<16x2xi8>) outs(%{{.+}} : tensor<16x2xf32>)
// CHECK: arith.constant 4194304 : i32
// CHECK: arith.constant 2143289344 : i32
// CHECK: %[[BF:.+]] = linalg.generic {indexing_maps = [#[[SWAP]], #[[ID]]], {{.+}} ins(%[[BS]] : tensor<8x2xi8>) outs(%{{.+}} : tensor<2x8xf32>)
// CHECK: %[[EVENA:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<16x32xf32>)
// CHECK: %[[I:.+]] = linalg.index 0
// CHECK: %[[J:.+]] = linalg.index 1
// CHECK: tensor.extract %[[A]][%[[I]], %[[J]]] : tensor<16x32xi8>
// CHECK-NOT: arith.shrui %{{.+}}, %c4_i32
// CHECK: %[[GROUP:.+]] = arith.divui %[[J]], %c16
// CHECK: tensor.extract %[[AF]][%[[I]], %[[GROUP]]] : tensor<16x2xf32>
// CHECK: %[[EVENB:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<32x8xf32>)
// CHECK: %[[RJ:.+]] = linalg.index 0
// CHECK: %[[RN:.+]] = linalg.index 1
// CHECK: %[[TWICE:.+]] = arith.muli %[[RJ]], %c2
// CHECK: %[[ROW:.+]] = arith.addi %[[TWICE]], %c0
// CHECK: tensor.extract %[[B]][%[[ROW]], %[[RN]]] : tensor<64x8xf8E4M3FN>
// CHECK: arith.extf %{{.+}} : f8E4M3FN to f32
// CHECK: %[[RGROUP:.+]] = arith.divui %[[RJ]], %c16
// CHECK: tensor.extract %[[BF]][%[[RGROUP]], %[[RN]]] : tensor<2x8xf32>
// CHECK: %[[ODDA:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<16x32xf32>)
// CHECK: arith.shrui %{{.+}}, %c4_i32
// CHECK: %[[ODDB:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<32x8xf32>)
// CHECK: arith.addi %{{.+}}, %c1
// CHECK: %[[EVEN:.+]] = linalg.matmul ins(%[[EVENA]], %[[EVENB]] : tensor<16x32xf32>, tensor<32x8xf32>) outs(%[[C]] : tensor<16x8xf32>)
// CHECK: linalg.matmul ins(%[[ODDA]], %[[ODDB]] : tensor<16x32xf32>, tensor<32x8xf32>) outs(%[[EVEN]] : tensor<16x8xf32>)
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
