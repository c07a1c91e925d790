// RUN: tritium-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tritium-cpu-fold-pair-xor-sums-into-reversals))" | FileCheck %s

// a ^ xor_sum(a) along an axis of two is a read of a at the mirrored index of that axis; the
// reduction, its broadcast and the xor are gone.
// CHECK-DAG: #[[MIRROR:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, -d2 + 1, d3)>
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @partner_along_axis_2
// CHECK-NOT: linalg.reduce
// CHECK: %[[R:.+]] = linalg.generic {indexing_maps = [#[[MIRROR]], #[[ID]]]
// CHECK-SAME: ins(%arg0 : tensor<2x4x2x8xi32>)
// CHECK-NEXT: ^bb0(%[[IN:.+]]: i32, %{{.+}}: i32):
// CHECK-NEXT: linalg.yield %[[IN]]
// CHECK-NOT: arith.xori
// CHECK: return %[[R]]
#bcast = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @partner_along_axis_2(%a: tensor<2x4x2x8xi32>) -> tensor<2x4x2x8xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<2x4x8xi32>
  %z = linalg.fill ins(%c0 : i32) outs(%e : tensor<2x4x8xi32>) -> tensor<2x4x8xi32>
  %s = linalg.reduce { arith.xori } ins(%a : tensor<2x4x2x8xi32>) outs(%z : tensor<2x4x8xi32>) dimensions = [2]
  %x = tensor.expand_shape %s [[0], [1], [2, 3]] output_shape [2, 4, 1, 8] : tensor<2x4x8xi32> into tensor<2x4x1x8xi32>
  %f = tensor.empty() : tensor<2x4x2x8xi32>
  %b = linalg.generic {indexing_maps = [#bcast, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<2x4x1x8xi32>) outs(%f : tensor<2x4x2x8xi32>) {
  ^bb0(%in: i32, %out: i32):
    linalg.yield %in : i32
  } -> tensor<2x4x2x8xi32>
  %r = arith.xori %a, %b : tensor<2x4x2x8xi32>
  return %r : tensor<2x4x2x8xi32>
}


// -----

// The xor commutes: the broadcast sum may come first.
// CHECK-LABEL: func.func @partner_with_operands_swapped
// CHECK-NOT: linalg.reduce
// CHECK: linalg.generic {indexing_maps = [#[[MIRROR]], #[[ID]]]
// CHECK-NOT: arith.xori
#bcast = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @partner_with_operands_swapped(%a: tensor<2x4x2x8xi32>) -> tensor<2x4x2x8xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<2x4x8xi32>
  %z = linalg.fill ins(%c0 : i32) outs(%e : tensor<2x4x8xi32>) -> tensor<2x4x8xi32>
  %s = linalg.reduce { arith.xori } ins(%a : tensor<2x4x2x8xi32>) outs(%z : tensor<2x4x8xi32>) dimensions = [2]
  %x = tensor.expand_shape %s [[0], [1], [2, 3]] output_shape [2, 4, 1, 8] : tensor<2x4x8xi32> into tensor<2x4x1x8xi32>
  %f = tensor.empty() : tensor<2x4x2x8xi32>
  %b = linalg.generic {indexing_maps = [#bcast, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<2x4x1x8xi32>) outs(%f : tensor<2x4x2x8xi32>) {
  ^bb0(%in: i32, %out: i32):
    linalg.yield %in : i32
  } -> tensor<2x4x2x8xi32>
  %r = arith.xori %b, %a : tensor<2x4x2x8xi32>
  return %r : tensor<2x4x2x8xi32>
}


// -----

// A sum that starts from a value other than zero is not the partner: kept.
// CHECK-LABEL: func.func @sum_from_nonzero_is_kept
// CHECK: linalg.reduce
// CHECK: arith.xori
#bcast = affine_map<(d0, d1) -> (d0, 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @sum_from_nonzero_is_kept(%a: tensor<4x2xi32>) -> tensor<4x2xi32> {
  %c1 = arith.constant 1 : i32
  %e = tensor.empty() : tensor<4xi32>
  %z = linalg.fill ins(%c1 : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  %s = linalg.reduce { arith.xori } ins(%a : tensor<4x2xi32>) outs(%z : tensor<4xi32>) dimensions = [1]
  %x = tensor.expand_shape %s [[0, 1]] output_shape [4, 1] : tensor<4xi32> into tensor<4x1xi32>
  %f = tensor.empty() : tensor<4x2xi32>
  %b = linalg.generic {indexing_maps = [#bcast, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x1xi32>) outs(%f : tensor<4x2xi32>) {
  ^bb0(%in: i32, %out: i32):
    linalg.yield %in : i32
  } -> tensor<4x2xi32>
  %r = arith.xori %b, %a : tensor<4x2xi32>
  return %r : tensor<4x2xi32>
}


// -----

// Along an axis of four, the xor of all four is no single partner: kept.
// CHECK-LABEL: func.func @axis_of_four_is_kept
// CHECK: linalg.reduce
// CHECK: arith.xori
#bcast = affine_map<(d0, d1) -> (d0, 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @axis_of_four_is_kept(%a: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<4xi32>
  %z = linalg.fill ins(%c0 : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  %s = linalg.reduce { arith.xori } ins(%a : tensor<4x4xi32>) outs(%z : tensor<4xi32>) dimensions = [1]
  %x = tensor.expand_shape %s [[0, 1]] output_shape [4, 1] : tensor<4xi32> into tensor<4x1xi32>
  %f = tensor.empty() : tensor<4x4xi32>
  %b = linalg.generic {indexing_maps = [#bcast, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x1xi32>) outs(%f : tensor<4x4xi32>) {
  ^bb0(%in: i32, %out: i32):
    linalg.yield %in : i32
  } -> tensor<4x4xi32>
  %r = arith.xori %a, %b : tensor<4x4xi32>
  return %r : tensor<4x4xi32>
}
