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
