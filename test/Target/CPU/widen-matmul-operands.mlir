// RUN: tritium-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tritium-cpu-widen-matmul-operands))" | FileCheck %s

// bf16 operands with an f32 accumulator: both operand tiles widened once, the product in f32.
// CHECK-LABEL: func.func @bf16_operands
// CHECK-DAG: %[[A:.+]] = arith.extf %arg0 : tensor<8x4xbf16> to tensor<8x4xf32>
// CHECK-DAG: %[[B:.+]] = arith.extf %arg1 : tensor<4x16xbf16> to tensor<4x16xf32>
// CHECK: %[[D:.+]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<8x4xf32>, tensor<4x16xf32>) outs(%arg2 : tensor<8x16xf32>)
// CHECK: return %[[D]]
func.func @bf16_operands(%a: tensor<8x4xbf16>, %b: tensor<4x16xbf16>, %c: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<8x4xbf16>, tensor<4x16xbf16>) outs(%c : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// An fp16 accumulator is summed in f32 and rounded once.
// CHECK-LABEL: func.func @fp16_accumulator
// CHECK-DAG: %[[A:.+]] = arith.extf %arg0 : tensor<2x8x4xf16> to tensor<2x8x4xf32>
// CHECK-DAG: %[[B:.+]] = arith.extf %arg1 : tensor<2x4x16xf16> to tensor<2x4x16xf32>
// CHECK-DAG: %[[C:.+]] = arith.extf %arg2 : tensor<2x8x16xf16> to tensor<2x8x16xf32>
// CHECK: %[[D:.+]] = linalg.batch_matmul ins(%[[A]], %[[B]] : {{.+}}) outs(%[[C]] : tensor<2x8x16xf32>)
// CHECK: %[[R:.+]] = arith.truncf %[[D]] : tensor<2x8x16xf32> to tensor<2x8x16xf16>
// CHECK: return %[[R]]
func.func @fp16_accumulator(%a: tensor<2x8x4xf16>, %b: tensor<2x4x16xf16>, %c: tensor<2x8x16xf16>) -> tensor<2x8x16xf16> {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<2x8x4xf16>, tensor<2x4x16xf16>) outs(%c : tensor<2x8x16xf16>) -> tensor<2x8x16xf16>
  return %0 : tensor<2x8x16xf16>
}

// -----

// int8 with K = 1024: every partial sum is exact in f32. The f32 product starts from zero and
// is added to the int32 accumulator.
// CHECK-LABEL: func.func @int8_exact_in_f32
// CHECK-DAG: %[[A:.+]] = arith.sitofp %arg0 : tensor<4x1024xi8> to tensor<4x1024xf32>
// CHECK-DAG: %[[B:.+]] = arith.sitofp %arg1 : tensor<1024x16xi8> to tensor<1024x16xf32>
// CHECK-DAG: %[[Z:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<4x16xf32>)
// CHECK: %[[D:.+]] = linalg.matmul ins(%[[A]], %[[B]] : {{.+}}) outs(%[[Z]] : tensor<4x16xf32>)
// CHECK: %[[I:.+]] = arith.fptosi %[[D]] : tensor<4x16xf32> to tensor<4x16xi32>
// CHECK: %[[R:.+]] = arith.addi %arg2, %[[I]] : tensor<4x16xi32>
// CHECK: return %[[R]]
func.func @int8_exact_in_f32(%a: tensor<4x1024xi8>, %b: tensor<1024x16xi8>, %c: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x1024xi8>, tensor<1024x16xi8>) outs(%c : tensor<4x16xi32>) -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}

// -----

// Unsigned int8 products reach 255 * 255: K = 512 could leave f32's exact integers, so the
// matmul stays in integers; so does f32 (nothing to widen).
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: arith.uitofp
// CHECK-NOT: arith.extf
// CHECK: linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%arg0, %arg1 : tensor<4x512xi8>, tensor<512x16xi8>)
// CHECK: linalg.matmul ins(%arg3, %arg4 : tensor<4x8xf32>, tensor<8x16xf32>)
func.func @left_alone(%a: tensor<4x512xi8>, %b: tensor<512x16xi8>, %c: tensor<4x16xi32>,
                      %d: tensor<4x8xf32>, %e: tensor<8x16xf32>, %f: tensor<4x16xf32>) -> (tensor<4x16xi32>, tensor<4x16xf32>) {
  %0 = linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%a, %b : tensor<4x512xi8>, tensor<512x16xi8>) outs(%c : tensor<4x16xi32>) -> tensor<4x16xi32>
  %1 = linalg.matmul ins(%d, %e : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0, %1 : tensor<4x16xi32>, tensor<4x16xf32>
}
