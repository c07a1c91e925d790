// RUN: tritium-opt %s -split-input-file -canonicalize | FileCheck %s

// CHECK-LABEL: tt.func @splat_of_constant
// CHECK-NEXT: %[[C:.+]] = arith.constant dense<3> : tensor<8xi32>
// CHECK-NEXT: tt.return %[[C]]
tt.func @splat_of_constant() -> tensor<8xi32> {
  %c3 = arith.constant 3 : i32
  %0 = tt.splat %c3 : i32 -> tensor<8xi32>
  tt.return %0 : tensor<8xi32>
}

// -----

// CHECK-LABEL: tt.func @addptr_of_zero
// CHECK-SAME: (%[[P:[^:]+]]: !tt.ptr<f32>
// CHECK-NEXT: tt.return %[[P]]
tt.func @addptr_of_zero(%p: !tt.ptr<f32>) -> !tt.ptr<f32> {
  %c0 = arith.constant 0 : i32
  %0 = tt.addptr %p, %c0 : !tt.ptr<f32>, i32
  tt.return %0 : !tt.ptr<f32>
}

// -----

// CHECK-LABEL: tt.func @broadcast_of_splat
// CHECK-SAME: (%[[X:[^:]+]]: f32
// CHECK-NEXT: %[[S:.+]] = tt.splat %[[X]] : f32 -> tensor<4x8xf32>
// CHECK-NEXT: tt.return %[[S]]
tt.func @broadcast_of_splat(%x: f32) -> tensor<4x8xf32> {
  %0 = tt.splat %x : f32 -> tensor<1x8xf32>
  %1 = tt.broadcast %0 : tensor<1x8xf32> -> tensor<4x8xf32>
  tt.return %1 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: tt.func @expand_dims_and_reshape_of_splat
// CHECK-SAME: (%[[X:[^:]+]]: i32
// CHECK-DAG: tt.splat %[[X]] : i32 -> tensor<8x1xi32>
// CHECK-DAG: tt.splat %[[X]] : i32 -> tensor<2x4xi32>
// CHECK-NOT: tt.expand_dims
// CHECK-NOT: tt.reshape
tt.func @expand_dims_and_reshape_of_splat(%x: i32) -> (tensor<8x1xi32>, tensor<2x4xi32>) {
  %0 = tt.splat %x : i32 -> tensor<8xi32>
  %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
  %2 = tt.reshape %0 : tensor<8xi32> -> tensor<2x4xi32>
  tt.return %1, %2 : tensor<8x1xi32>, tensor<2x4xi32>
}

// -----

// CHECK-LABEL: tt.func @trans_identity_and_constant
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x8xf32>
// CHECK-DAG: %[[C:.+]] = arith.constant dense<1.000000e+00> : tensor<8x4xf32>
// CHECK: tt.return %[[X]], %[[C]]
tt.func @trans_identity_and_constant(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<8x4xf32>) {
  %0 = tt.trans %x {order = array<i32: 0, 1>} : tensor<4x8xf32> -> tensor<4x8xf32>
  %c = arith.constant dense<1.0> : tensor<4x8xf32>
  %1 = tt.trans %c {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  tt.return %0, %1 : tensor<4x8xf32>, tensor<8x4xf32>
}
