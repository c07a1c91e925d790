// RUN: tritium-opt %s -split-input-file --convert-triton-to-linalg | FileCheck %s

// A scalar body with branches keeps its blocks inside an scf.execute_region, entered by a
// branch that passes the element; its return becomes scf.yield.
// CHECK-LABEL: func.func @map_branches
// CHECK: linalg.generic
// CHECK: ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[R:.+]] = scf.execute_region -> f32 {
// CHECK: cf.br ^bb1(%[[IN]] : f32)
// CHECK: cf.cond_br
// CHECK: arith.negf
// CHECK: scf.yield %{{.+}} : f32
// CHECK: linalg.yield %[[R]] : f32
tt.func @map_branches(%x: tensor<8xf32>) -> tensor<8xf32> {
  %cst = arith.constant 0.0 : f32
  %0 = "tt.map_elementwise"(%x) <{pack = 1 : i32}> ({
  ^bb0(%a: f32):
    %c = arith.cmpf ogt, %a, %cst : f32
    cf.cond_br %c, ^bb2(%a : f32), ^bb1
  ^bb1:
    %n = arith.negf %a : f32
    cf.br ^bb2(%n : f32)
  ^bb2(%r: f32):
    tt.map_elementwise.return %r : f32
  }) : (tensor<8xf32>) -> tensor<8xf32>
  tt.return %0 : tensor<8xf32>
}

// -----

// pack = 2: each call takes two consecutive elements (row-major) of every input, arguments
// input-major, and returns two values of the result, which land at the same two places.
// CHECK-LABEL: func.func @map_pack2
// CHECK-DAG: %[[X:.+]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<2x4xf32> into tensor<8xf32>
// CHECK-DAG: %[[Y:.+]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1]] : tensor<2x4xf32> into tensor<8xf32>
// CHECK: scf.for %[[FIRST:.+]] = %{{.+}} to %c8 step %c2 iter_args(%[[ACC:.+]] = %{{.+}}) -> (tensor<8xf32>)
// CHECK: %[[L0:.+]] = arith.addi %[[FIRST]], %c0
// CHECK: %[[L1:.+]] = arith.addi %[[FIRST]], %c1
// CHECK: %[[X0:.+]] = tensor.extract %[[X]][%[[L0]]]
// CHECK: %[[X1:.+]] = tensor.extract %[[X]][%[[L1]]]
// CHECK: %[[Y0:.+]] = tensor.extract %[[Y]][%[[L0]]]
// CHECK: %[[Y1:.+]] = tensor.extract %[[Y]][%[[L1]]]
// CHECK: %[[A:.+]] = arith.addf %[[X0]], %[[Y1]]
// CHECK: %[[B:.+]] = arith.addf %[[X1]], %[[Y0]]
// CHECK: %[[I0:.+]] = tensor.insert %[[A]] into %[[ACC]][%[[L0]]]
// CHECK: tensor.insert %[[B]] into %[[I0]][%[[L1]]]
// CHECK: tensor.expand_shape %{{.+}} {{\[\[}}0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
tt.func @map_pack2(%x: tensor<2x4xf32>, %y: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = "tt.map_elementwise"(%x, %y) <{pack = 2 : i32}> ({
  ^bb0(%x0: f32, %x1: f32, %y0: f32, %y1: f32):
    %a = arith.addf %x0, %y1 : f32
    %b = arith.addf %x1, %y0 : f32
    tt.map_elementwise.return %a, %b : f32, f32
  }) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  tt.return %0 : tensor<2x4xf32>
}
