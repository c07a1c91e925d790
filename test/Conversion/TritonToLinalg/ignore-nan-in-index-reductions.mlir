// RUN: tritium-opt %s -split-input-file --ignore-nan-in-index-reductions | FileCheck %s

// Triton's argmax combiner (tie_break_left): `left > right` becomes "left >u right and left is
// not NaN", so a NaN never wins and never blocks a number.
// CHECK-LABEL: tt.func @argmax
// CHECK: ^bb0(%[[V1:.+]]: f32, %[[I1:.+]]: i32, %[[V2:.+]]: f32, %[[I2:.+]]: i32):
// CHECK-NOT: arith.cmpf ogt
// CHECK: %[[UGT:.+]] = arith.cmpf ugt, %[[V1]], %[[V2]] : f32
// CHECK: %[[ORD:.+]] = arith.cmpf ord, %[[V1]], %[[V1]] : f32
// CHECK: %[[BETTER:.+]] = arith.andi %[[UGT]], %[[ORD]] : i1
// CHECK: arith.ori %[[BETTER]], %{{.+}} : i1
tt.func @argmax(%v: tensor<4xf32>, %i: tensor<4xi32>) -> (f32, i32) {
  %0:2 = "tt.reduce"(%v, %i) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %eq = arith.cmpf oeq, %a, %b : f32
    %lt = arith.cmpi slt, %ai, %bi : i32
    %tie = arith.andi %eq, %lt : i1
    %gt = arith.cmpf ogt, %a, %b : f32
    %take = arith.ori %gt, %tie : i1
    %v_ret = arith.select %take, %a, %b : f32
    %i_ret = arith.select %take, %ai, %bi : i32
    tt.reduce.return %v_ret, %i_ret : f32, i32
  }) : (tensor<4xf32>, tensor<4xi32>) -> (f32, i32)
  tt.return %0#0, %0#1 : f32, i32
}

// -----

// A combiner that tests for NaN itself (Inductor's: NaN wins, as in torch.argmax) is left alone.
// CHECK-LABEL: tt.func @nan_propagating
// CHECK: arith.cmpf ogt
// CHECK-NOT: arith.cmpf ugt
tt.func @nan_propagating(%v: tensor<4xf32>, %i: tensor<4xi32>) -> (f32, i32) {
  %0:2 = "tt.reduce"(%v, %i) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    %nan = arith.cmpf une, %a, %a : f32
    %take = arith.ori %gt, %nan : i1
    %v_ret = arith.select %take, %a, %b : f32
    %i_ret = arith.select %take, %ai, %bi : i32
    tt.reduce.return %v_ret, %i_ret : f32, i32
  }) : (tensor<4xf32>, tensor<4xi32>) -> (f32, i32)
  tt.return %0#0, %0#1 : f32, i32
}
