// RUN: tritium-opt %s -split-input-file --convert-triton-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @make_range
// CHECK: %[[EMPTY:.+]] = tensor.empty() : tensor<8xi32>
// CHECK: linalg.generic {{.*}} outs(%[[EMPTY]] : tensor<8xi32>)
// CHECK: %[[I:.+]] = linalg.index 0 : index
// CHECK: %[[I32:.+]] = arith.index_cast %[[I]] : index to i32
// CHECK: %[[START:.+]] = arith.constant 4 : i32
// CHECK: arith.addi %[[I32]], %[[START]] : i32
tt.func @make_range() -> tensor<8xi32> {
  %0 = tt.make_range {end = 12 : i32, start = 4 : i32} : tensor<8xi32>
  tt.return %0 : tensor<8xi32>
}

// -----

// CHECK-LABEL: func.func @splat
// CHECK-SAME: (%[[X:[^:]+]]: f32
// CHECK: %[[EMPTY:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK: linalg.fill ins(%[[X]] : f32) outs(%[[EMPTY]] : tensor<4x8xf32>)
tt.func @splat(%arg0: f32) -> tensor<4x8xf32> {
  %0 = tt.splat %arg0 : f32 -> tensor<4x8xf32>
  tt.return %0 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @unsplat
// CHECK: %[[C0:.+]] = arith.constant 0 : index
// CHECK: tensor.extract %{{.+}}[%[[C0]], %[[C0]]] : tensor<1x1xf32>
tt.func @unsplat(%arg0: tensor<1x1xf32>) -> f32 {
  %0 = tt.unsplat %arg0 : tensor<1x1xf32>
  tt.return %0 : f32
}

// -----

// Growing unit dimensions are read at index 0.
// CHECK-DAG: #[[SRC:.+]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-DAG: #[[DST:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @broadcast
// CHECK: linalg.generic {indexing_maps = [#[[SRC]], #[[DST]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%{{.+}} : tensor<1x8xf32>) outs(%{{.+}} : tensor<4x8xf32>)
tt.func @broadcast(%arg0: tensor<1x8xf32>) -> tensor<4x8xf32> {
  %0 = tt.broadcast %arg0 : tensor<1x8xf32> -> tensor<4x8xf32>
  tt.return %0 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @expand_dims
// CHECK: tensor.expand_shape %{{.+}} {{\[\[}}0, 1]] output_shape [8, 1] : tensor<8xi32> into tensor<8x1xi32>
// CHECK: tensor.expand_shape %{{.+}} {{\[\[}}0, 1]] output_shape [1, 8] : tensor<8xi32> into tensor<1x8xi32>
tt.func @expand_dims(%arg0: tensor<8xi32>) -> (tensor<8x1xi32>, tensor<1x8xi32>) {
  %0 = tt.expand_dims %arg0 {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
  %1 = tt.expand_dims %arg0 {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
  tt.return %0, %1 : tensor<8x1xi32>, tensor<1x8xi32>
}

// -----

// CHECK-LABEL: func.func @reshape
// CHECK: %[[FLAT:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0, 1]] : tensor<4x8xf32> into tensor<32xf32>
// CHECK: tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1, 2]] output_shape [2, 2, 8] : tensor<32xf32> into tensor<2x2x8xf32>
tt.func @reshape(%arg0: tensor<4x8xf32>) -> tensor<2x2x8xf32> {
  %0 = tt.reshape %arg0 : tensor<4x8xf32> -> tensor<2x2x8xf32>
  tt.return %0 : tensor<2x2x8xf32>
}

// -----

// CHECK-LABEL: func.func @trans
// CHECK: linalg.transpose ins(%{{.+}} : tensor<4x8x2xf32>) outs(%{{.+}} : tensor<2x4x8xf32>) permutation = [2, 0, 1]
tt.func @trans(%arg0: tensor<4x8x2xf32>) -> tensor<2x4x8xf32> {
  %0 = tt.trans %arg0 {order = array<i32: 2, 0, 1>} : tensor<4x8x2xf32> -> tensor<2x4x8xf32>
  tt.return %0 : tensor<2x4x8xf32>
}
