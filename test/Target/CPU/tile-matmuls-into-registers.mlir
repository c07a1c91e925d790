// RUN: tritium-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tritium-cpu-tile-matmuls-into-registers))" | FileCheck %s
// RUN: tritium-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tritium-cpu-tile-matmuls-into-registers{vector-bits=256}))" | FileCheck %s --check-prefix=AVX2

// 32x32 f32: blocks of 8 rows x 32 columns (two 512-bit vectors) of C, stepped along K one
// column of A and one row of B at a time.
// CHECK-LABEL: func.func @f32_blocks
// CHECK: scf.for %[[M:.+]] = %{{.+}} to %c32 step %c8
// CHECK: scf.for %[[N:.+]] = %{{.+}} to %c32{{.*}} step %c32
// CHECK: scf.for %[[K:.+]] = %{{.+}} to %c16 step %c1
// CHECK: tensor.extract_slice %arg0[%[[M]], %[[K]]] [8, 1] [1, 1]
// CHECK: tensor.extract_slice %arg1[%[[K]], %[[N]]] [1, 32] [1, 1]
// CHECK: vector.contract {{.+}} : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
// CHECK-NOT: linalg.matmul
// With 256-bit registers (16 of them) the block is 6 rows x 16 columns: 12 registers of C.
// 32 rows are 24 in 6-row blocks, then the last 8 rows, a matmul of their own, in 4x16 blocks
// (8 accumulators; 30 + 2 would leave 2x16 blocks with 4); each in its slice of C.
// AVX2-LABEL: func.func @f32_blocks
// AVX2: %[[A0:.+]] = tensor.extract_slice %arg0[0, 0] [24, 16] [1, 1]
// AVX2: %[[C0:.+]] = tensor.extract_slice %arg2[0, 0] [24, 32] [1, 1]
// AVX2: scf.for %{{.+}} = %{{.+}} to %c24 step %c6
// AVX2: vector.contract {{.+}} : vector<6x1xf32>, vector<1x16xf32> into vector<6x16xf32>
// AVX2: %[[C1:.+]] = tensor.insert_slice %{{.+}} into %arg2[0, 0] [24, 32] [1, 1]
// AVX2: tensor.extract_slice %arg0[24, 0] [8, 16] [1, 1]
// AVX2: tensor.extract_slice %[[C1]][24, 0] [8, 32] [1, 1]
// AVX2: vector.contract {{.+}} : vector<4x1xf32>, vector<1x16xf32> into vector<4x16xf32>
// AVX2: tensor.insert_slice %{{.+}} into %[[C1]][24, 0] [8, 32] [1, 1]
// AVX2-NOT: linalg.matmul
func.func @f32_blocks(%a: tensor<32x16xf32>, %b: tensor<16x32xf32>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<32x16xf32>, tensor<16x32xf32>) outs(%c : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %0 : tensor<32x32xf32>
}

// -----

// f64 lanes are half as many: 4 x 8 when M is not a multiple of 8; 6 x 8 with 256-bit registers.
// CHECK-LABEL: func.func @f64_blocks
// CHECK: vector.contract {{.+}} : vector<4x1xf64>, vector<1x16xf64> into vector<4x16xf64>
// AVX2-LABEL: func.func @f64_blocks
// AVX2-NOT: tensor.extract_slice %arg2
// AVX2: vector.contract {{.+}} : vector<6x1xf64>, vector<1x8xf64> into vector<6x8xf64>
func.func @f64_blocks(%a: tensor<12x8xf64>, %b: tensor<8x16xf64>, %c: tensor<12x16xf64>) -> tensor<12x16xf64> {
  %0 = linalg.matmul ins(%a, %b : tensor<12x8xf64>, tensor<8x16xf64>) outs(%c : tensor<12x16xf64>) -> tensor<12x16xf64>
  return %0 : tensor<12x16xf64>
}

// -----

// No block divides N = 24, and mixed element types are left alone: the plain loop nest runs them.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: vector.contract
// CHECK: linalg.matmul {{.+}} -> tensor<16x24xf32>
// CHECK: linalg.matmul {{.+}} -> tensor<16x32xf32>
// With 256-bit registers one vector of 8 divides N = 24 (two do not: no 6-row blocks): 4x8 blocks.
// AVX2-LABEL: func.func @left_alone
// AVX2: vector.contract {{.+}} : vector<4x1xf32>, vector<1x8xf32> into vector<4x8xf32>
// AVX2: linalg.matmul {{.+}} -> tensor<16x32xf32>
func.func @left_alone(%a: tensor<16x8xf32>, %b: tensor<8x24xf32>, %c: tensor<16x24xf32>,
                      %h: tensor<16x8xf16>, %g: tensor<8x32xf16>, %d: tensor<16x32xf32>) -> (tensor<16x24xf32>, tensor<16x32xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x24xf32>) outs(%c : tensor<16x24xf32>) -> tensor<16x24xf32>
  %1 = linalg.matmul ins(%h, %g : tensor<16x8xf16>, tensor<8x32xf16>) outs(%d : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0, %1 : tensor<16x24xf32>, tensor<16x32xf32>
}

// -----

// 14 rows: 12 in 6-row blocks and 2 left over (no multiple of 6 of at least 12 leaves a multiple
// of 4), in 2x16 blocks.
// AVX2-LABEL: func.func @two_rows_left
// AVX2: scf.for %{{.+}} = %{{.+}} to %c12 step %c6
// AVX2: vector.contract {{.+}} : vector<6x1xf32>, vector<1x16xf32> into vector<6x16xf32>
// AVX2: tensor.extract_slice %arg0[12, 0] [2, 8] [1, 1]
// AVX2: vector.contract {{.+}} : vector<2x1xf32>, vector<1x16xf32> into vector<2x16xf32>
// CHECK-LABEL: func.func @two_rows_left
// CHECK: vector.contract {{.+}} : vector<2x1xf32>, vector<1x16xf32> into vector<2x16xf32>
func.func @two_rows_left(%a: tensor<14x8xf32>, %b: tensor<8x16xf32>, %c: tensor<14x16xf32>) -> tensor<14x16xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<14x8xf32>, tensor<8x16xf32>) outs(%c : tensor<14x16xf32>) -> tensor<14x16xf32>
  return %0 : tensor<14x16xf32>
}
