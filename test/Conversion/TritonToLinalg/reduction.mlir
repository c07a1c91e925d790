// RUN: tritium-opt %s -split-input-file --convert-triton-to-linalg | FileCheck %s

// A combiner that is one op with an identity (here -0.0 for addf) reduces the whole axis from
// that identity; the addition may be reassociated.
// CHECK-LABEL: func.func @sum_axis_1
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x8xf32>
// CHECK: %[[ZERO:.+]] = arith.constant -0.000000e+00 : f32
// CHECK: %[[INIT:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.+}} : tensor<4xf32>) -> tensor<4xf32>
// CHECK: linalg.reduce { arith.addf {fastmath = #arith.fastmath<reassoc>} } ins(%[[X]] : tensor<4x8xf32>) outs(%[[INIT]] : tensor<4xf32>) dimensions = [1]
tt.func @sum_axis_1(%arg0: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = "tt.reduce"(%arg0) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %1 = arith.addf %a, %b : f32
    tt.reduce.return %1 : f32
  }) : (tensor<4x8xf32>) -> tensor<4xf32>
  tt.return %0 : tensor<4xf32>
}

// -----

// maxnumf starts from NaN, which any number replaces (a row of NaN stays NaN).
// CHECK-LABEL: func.func @max_axis_0
// CHECK: %[[NAN:.+]] = arith.constant 0x7FC00000 : f32
// CHECK: linalg.fill ins(%[[NAN]] : f32)
// CHECK: linalg.reduce { arith.maxnumf } ins(%{{.+}} : tensor<4x8xf32>) outs(%{{.+}} : tensor<8xf32>) dimensions = [0]
tt.func @max_axis_0(%arg0: tensor<4x8xf32>) -> tensor<8xf32> {
  %0 = "tt.reduce"(%arg0) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %1 = arith.maxnumf %a, %b : f32
    tt.reduce.return %1 : f32
  }) : (tensor<4x8xf32>) -> tensor<8xf32>
  tt.return %0 : tensor<8xf32>
}

// -----

// Two operands (argmax) have no identity: along a power-of-two axis, neighbouring pairs
// (elements 2i and 2i+1, the earlier one on the left) combine level by level, 8 -> 4 -> 2 -> 1.
// CHECK-LABEL: func.func @argmax
// CHECK-SAME: (%[[V:[^:]+]]: tensor<8xf32>, %[[I:[^:]+]]: tensor<8xi32>
// CHECK: %[[VE:.+]] = tensor.extract_slice %[[V]][0] [4] [2] : tensor<8xf32> to tensor<4xf32>
// CHECK: %[[VO:.+]] = tensor.extract_slice %[[V]][1] [4] [2] : tensor<8xf32> to tensor<4xf32>
// CHECK: %[[IE:.+]] = tensor.extract_slice %[[I]][0] [4] [2] : tensor<8xi32> to tensor<4xi32>
// CHECK: %[[IO:.+]] = tensor.extract_slice %[[I]][1] [4] [2] : tensor<8xi32> to tensor<4xi32>
// CHECK: %[[L1:.+]]:2 = linalg.generic {{.+}} ins(%[[VE]], %[[IE]], %[[VO]], %[[IO]] : tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xi32>)
// CHECK:   arith.cmpf ogt
// CHECK: linalg.generic {{.+}} : tensor<2xf32>, tensor<2xi32>, tensor<2xf32>, tensor<2xi32>)
// CHECK: %[[L3:.+]]:2 = linalg.generic {{.+}} : tensor<1xf32>, tensor<1xi32>, tensor<1xf32>, tensor<1xi32>)
// CHECK: tensor.extract_slice %[[L3]]#0[0] [1] [1] : tensor<1xf32> to tensor<f32>
// CHECK: tensor.extract_slice %[[L3]]#1[0] [1] [1] : tensor<1xi32> to tensor<i32>
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

// A scan along the innermost axis doubles its reach: at distance d, elements [d, 8) combine
// with those d earlier (on the left), for d = 1, 2, 4.
// CHECK-LABEL: func.func @cumsum_axis_1
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x8xi32>
// CHECK: %[[A:.+]] = tensor.extract_slice %[[X]][0, 0] [4, 7] [1, 1]
// CHECK: %[[B:.+]] = tensor.extract_slice %[[X]][0, 1] [4, 7] [1, 1]
// CHECK: %[[S1:.+]] = linalg.generic {{.+}} ins(%[[A]], %[[B]] : tensor<4x7xi32>, tensor<4x7xi32>)
// CHECK:   arith.addi
// CHECK: %[[X1:.+]] = tensor.insert_slice %[[S1]] into %[[X]][0, 1] [4, 7] [1, 1]
// CHECK: tensor.extract_slice %[[X1]][0, 0] [4, 6] [1, 1]
// CHECK: tensor.extract_slice %[[X1]][0, 2] [4, 6] [1, 1]
// CHECK: tensor.insert_slice %{{.+}} into %[[X1]][0, 2] [4, 6] [1, 1]
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[0, 4] [4, 4] [1, 1]
tt.func @cumsum_axis_1(%arg0: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %0 = "tt.scan"(%arg0) <{axis = 1 : i32, reverse = false}> ({
  ^bb0(%a: i32, %b: i32):
    %1 = arith.addi %a, %b : i32
    tt.scan.return %1 : i32
  }) : (tensor<4x8xi32>) -> tensor<4x8xi32>
  tt.return %0 : tensor<4x8xi32>
}

// -----

// A reverse scan along the innermost axis: the element further along is the left operand and
// the result lands at the start.
// CHECK-LABEL: func.func @cumsum_reverse_axis_1
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x8xi32>
// CHECK: %[[HEAD:.+]] = tensor.extract_slice %[[X]][0, 0] [4, 7] [1, 1]
// CHECK: %[[TAIL:.+]] = tensor.extract_slice %[[X]][0, 1] [4, 7] [1, 1]
// CHECK: %[[S1:.+]] = linalg.generic {{.+}} ins(%[[TAIL]], %[[HEAD]] : tensor<4x7xi32>, tensor<4x7xi32>)
// CHECK: tensor.insert_slice %[[S1]] into %[[X]][0, 0] [4, 7] [1, 1]
tt.func @cumsum_reverse_axis_1(%arg0: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %0 = "tt.scan"(%arg0) <{axis = 1 : i32, reverse = true}> ({
  ^bb0(%a: i32, %b: i32):
    %1 = arith.addi %a, %b : i32
    tt.scan.return %1 : i32
  }) : (tensor<4x8xi32>) -> tensor<4x8xi32>
  tt.return %0 : tensor<4x8xi32>
}

// -----

// Along an outer axis, the scan walks it: each step combines a whole contiguous row.
// CHECK-LABEL: func.func @cumsum_reverse_axis_0
// CHECK: %[[FIRST:.+]] = tensor.extract_slice %{{.+}}[7, 0] [1, 4] [1, 1] : tensor<8x4xi32> to tensor<1x4xi32>
// CHECK: scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[RUNNING:.+]] = %[[FIRST]], %[[OUT:.+]] = %{{.+}}) -> (tensor<1x4xi32>, tensor<8x4xi32>)
// CHECK:   %[[IDX:.+]] = arith.subi %{{.+}}, %[[K]] : index
// CHECK:   linalg.generic
// CHECK:     arith.addi
// CHECK:   tensor.insert_slice %{{.+}} into %[[OUT]][%[[IDX]], 0] [1, 4] [1, 1]
tt.func @cumsum_reverse_axis_0(%arg0: tensor<8x4xi32>) -> tensor<8x4xi32> {
  %0 = "tt.scan"(%arg0) <{axis = 0 : i32, reverse = true}> ({
  ^bb0(%a: i32, %b: i32):
    %1 = arith.addi %a, %b : i32
    tt.scan.return %1 : i32
  }) : (tensor<8x4xi32>) -> tensor<8x4xi32>
  tt.return %0 : tensor<8x4xi32>
}

// -----

// A 1-D scan of at least two chunks of 16 walks the chunks: each is copied into a tile of its
// own, scanned there by doubling (distances 1, 2, 4, 8), combined with the running value of the
// chunks before it (a scalar) and written back in place; the first chunk has nothing before it.
// CHECK-LABEL: func.func @cumsum_in_chunks
// CHECK: linalg.copy ins(%{{.+}} : tensor<16xf32>)
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<15xf32>)
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<14xf32>)
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<12xf32>)
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<8xf32>)
// CHECK: %[[CARRY:.+]] = tensor.extract %[[FIRST:.+]][%c15] : tensor<16xf32>
// CHECK: %[[WRITTEN:.+]] = tensor.insert_slice %[[FIRST]] into %arg0[%{{.+}}] [16] [1]
// CHECK: scf.for %[[K:.+]] = %c1 to %c4 step %c1 iter_args(%[[RUNNING:.+]] = %[[CARRY]], %[[OUT:.+]] = %[[WRITTEN]]) -> (f32, tensor<64xf32>)
// CHECK:   %[[START:.+]] = arith.muli %[[K]], %c16
// CHECK:   %[[CHUNK:.+]] = tensor.extract_slice %[[OUT]][%[[START]]] [16] [1]
// CHECK:   linalg.copy ins(%[[CHUNK]] : tensor<16xf32>)
// CHECK-COUNT-4: linalg.generic
// CHECK:   %[[COMBINED:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<16xf32>)
// CHECK:     arith.addf %[[RUNNING]], %{{.+}} : f32
// CHECK:   %[[NEXT:.+]] = tensor.extract %[[COMBINED]][%{{.+}}] : tensor<16xf32>
// CHECK:   %[[UPDATED:.+]] = tensor.insert_slice %[[COMBINED]] into %[[OUT]][%[[START]]] [16] [1]
// CHECK:   scf.yield %[[NEXT]], %[[UPDATED]]
tt.func @cumsum_in_chunks(%arg0: tensor<64xf32>) -> tensor<64xf32> {
  %0 = "tt.scan"(%arg0) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    %1 = arith.addf %a, %b : f32
    tt.scan.return %1 : f32
  }) : (tensor<64xf32>) -> tensor<64xf32>
  tt.return %0 : tensor<64xf32>
}

// -----

// Rows of a 2-D tile at least two chunks long are walked one by one, each as a 1-D scan in
// chunks, and written back in place.
// CHECK-LABEL: func.func @cumsum_rows_in_chunks
// CHECK: scf.for %[[ROW:.+]] = %c0 to %c2 step %c1 iter_args(%[[TILE:.+]] = %arg0) -> (tensor<2x32xf32>)
// CHECK:   %[[LINE:.+]] = tensor.extract_slice %[[TILE]][%[[ROW]], 0] [1, 32] [1, 1] : tensor<2x32xf32> to tensor<32xf32>
// CHECK:   linalg.copy ins(%{{.+}} : tensor<16xf32>)
// CHECK:   scf.for %{{.+}} iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) -> (f32, tensor<32xf32>)
// CHECK:   tensor.insert_slice %{{.+}} into %[[TILE]][%[[ROW]], 0] [1, 32] [1, 1] : tensor<32xf32> into tensor<2x32xf32>
tt.func @cumsum_rows_in_chunks(%arg0: tensor<2x32xf32>) -> tensor<2x32xf32> {
  %0 = "tt.scan"(%arg0) <{axis = 1 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    %1 = arith.addf %a, %b : f32
    tt.scan.return %1 : f32
  }) : (tensor<2x32xf32>) -> tensor<2x32xf32>
  tt.return %0 : tensor<2x32xf32>
}
