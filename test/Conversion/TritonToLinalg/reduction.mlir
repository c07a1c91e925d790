// RUN: tritium-opt %s -split-input-file --convert-triton-to-linalg | FileCheck %s

// No identity is assumed: the first slice along the axis is the initial value, the rest is
// folded into it with the combiner, which may be reassociated.
// CHECK-LABEL: func.func @sum_axis_1
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x8xf32>
// CHECK: %[[INIT:.+]] = tensor.extract_slice %[[X]][0, 0] [4, 1] [1, 1] : tensor<4x8xf32> to tensor<4xf32>
// CHECK: %[[REST:.+]] = tensor.extract_slice %[[X]][0, 1] [4, 7] [1, 1] : tensor<4x8xf32> to tensor<4x7xf32>
// CHECK: linalg.reduce { arith.addf {fastmath = #arith.fastmath<reassoc>} } ins(%[[REST]] : tensor<4x7xf32>) outs(%[[INIT]] : tensor<4xf32>) dimensions = [1]
tt.func @sum_axis_1(%arg0: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = "tt.reduce"(%arg0) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %1 = arith.addf %a, %b : f32
    tt.reduce.return %1 : f32
  }) : (tensor<4x8xf32>) -> tensor<4xf32>
  tt.return %0 : tensor<4xf32>
}

// -----

// Two operands (argmax): value and index reduce together; a 1-D reduction gives scalars.
// CHECK-LABEL: func.func @argmax
// CHECK: %[[R:.+]]:2 = linalg.reduce ins(%{{.+}}, %{{.+}} : tensor<7xf32>, tensor<7xi32>) outs(%{{.+}}, %{{.+}} : tensor<f32>, tensor<i32>) dimensions = [0]
// CHECK: (%[[V:.+]]: f32, %[[I:.+]]: i32, %[[AV:.+]]: f32, %[[AI:.+]]: i32) {
// CHECK:   arith.cmpf ogt, %[[AV]], %[[V]] : f32
// CHECK: tensor.extract %[[R]]#0[] : tensor<f32>
// CHECK: tensor.extract %[[R]]#1[] : tensor<i32>
tt.func @argmax(%arg0: tensor<8xf32>, %arg1: tensor<8xi32>) -> (f32, i32) {
  %0:2 = "tt.reduce"(%arg0, %arg1) <{axis = 0 : i32}> ({
  ^bb0(%av: f32, %ai: i32, %bv: f32, %bi: i32):
    %gt = arith.cmpf ogt, %av, %bv : f32
    %eq = arith.cmpf oeq, %av, %bv : f32
    %lt = arith.cmpi slt, %ai, %bi : i32
    %tie = arith.andi %eq, %lt : i1
    %keep = arith.ori %gt, %tie : i1
    %v = arith.select %keep, %av, %bv : f32
    %i = arith.select %keep, %ai, %bi : i32
    tt.reduce.return %v, %i : f32, i32
  }) : (tensor<8xf32>, tensor<8xi32>) -> (f32, i32)
  tt.return %0#0, %0#1 : f32, i32
}

// -----

// A scan walks the axis, combining each slice with the running one.
// CHECK-LABEL: func.func @cumsum_reverse
// CHECK: %[[FIRST:.+]] = tensor.extract_slice %{{.+}}[0, 7] [4, 1] [1, 1] : tensor<4x8xi32> to tensor<4x1xi32>
// CHECK: scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[RUNNING:.+]] = %[[FIRST]], %[[OUT:.+]] = %{{.+}}) -> (tensor<4x1xi32>, tensor<4x8xi32>)
// CHECK:   %[[IDX:.+]] = arith.subi %{{.+}}, %[[K]] : index
// CHECK:   linalg.generic
// CHECK:     arith.addi
// CHECK:   tensor.insert_slice %{{.+}} into %[[OUT]][0, %[[IDX]]] [4, 1] [1, 1]
tt.func @cumsum_reverse(%arg0: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %0 = "tt.scan"(%arg0) <{axis = 1 : i32, reverse = true}> ({
  ^bb0(%a: i32, %b: i32):
    %1 = arith.addi %a, %b : i32
    tt.scan.return %1 : i32
  }) : (tensor<4x8xi32>) -> tensor<4x8xi32>
  tt.return %0 : tensor<4x8xi32>
}
