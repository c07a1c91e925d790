// RUN: tritium-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tritium-cpu-fold-one-hot-pair-sums-into-slices))" | FileCheck %s

// Inductor's sort: the left element of each pair is sum(a * (1 - arange(0, 2)), axis=1) and the
// right one sum(a * arange(0, 2), axis=1). Each becomes a read of a at index 0 or 1 of that axis.
// CHECK-DAG: #[[LEFT:.+]] = affine_map<(d0, d1) -> (d0, 0, d1)>
// CHECK-DAG: #[[RIGHT:.+]] = affine_map<(d0, d1) -> (d0, 1, d1)>
// CHECK-LABEL: func.func @left_and_right_of_each_pair
// CHECK-NOT: linalg.reduce
// CHECK: %[[L:.+]] = linalg.generic {indexing_maps = [#[[LEFT]], {{.+}}]{{.*}} ins(%arg0 : tensor<16x2x4xi32>)
// CHECK: %[[R:.+]] = linalg.generic {indexing_maps = [#[[RIGHT]], {{.+}}]{{.*}} ins(%arg0 : tensor<16x2x4xi32>)
// CHECK: return %[[L]], %[[R]] : tensor<16x4xi32>, tensor<16x4xi32>
#id1 = affine_map<(d0) -> (d0)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @left_and_right_of_each_pair(%a: tensor<16x2x4xi32>) -> (tensor<16x4xi32>, tensor<16x4xi32>) {
  %c0 = arith.constant 0 : i32
  %one = arith.constant dense<1> : tensor<1x2x1xi32>
  %e2 = tensor.empty() : tensor<2xi32>
  %arange = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e2 : tensor<2xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i32
    linalg.yield %v : i32
  } -> tensor<2xi32>
  %right_mask = tensor.expand_shape %arange [[0, 1, 2]] output_shape [1, 2, 1] : tensor<2xi32> into tensor<1x2x1xi32>
  %left_mask = arith.subi %one, %right_mask : tensor<1x2x1xi32>
  %e3 = tensor.empty() : tensor<16x2x4xi32>
  %lb = linalg.generic {indexing_maps = [#bcast, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%left_mask : tensor<1x2x1xi32>) outs(%e3 : tensor<16x2x4xi32>) {
  ^bb0(%in: i32, %out: i32):
    linalg.yield %in : i32
  } -> tensor<16x2x4xi32>
  %rb = linalg.generic {indexing_maps = [#bcast, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%right_mask : tensor<1x2x1xi32>) outs(%e3 : tensor<16x2x4xi32>) {
  ^bb0(%in: i32, %out: i32):
    linalg.yield %in : i32
  } -> tensor<16x2x4xi32>
  %lp = arith.muli %a, %lb : tensor<16x2x4xi32>
  %rp = arith.muli %rb, %a : tensor<16x2x4xi32>
  %e = tensor.empty() : tensor<16x4xi32>
  %z = linalg.fill ins(%c0 : i32) outs(%e : tensor<16x4xi32>) -> tensor<16x4xi32>
  %l = linalg.reduce { arith.addi } ins(%lp : tensor<16x2x4xi32>) outs(%z : tensor<16x4xi32>) dimensions = [1]
  %r = linalg.reduce { arith.addi } ins(%rp : tensor<16x2x4xi32>) outs(%z : tensor<16x4xi32>) dimensions = [1]
  return %l, %r : tensor<16x4xi32>, tensor<16x4xi32>
}

// -----

// A mask of two ones is no selection: the sum stays.
// CHECK-LABEL: func.func @mask_of_ones_is_kept
// CHECK: linalg.reduce
#bcast = affine_map<(d0, d1) -> (0, d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @mask_of_ones_is_kept(%a: tensor<8x2xi32>) -> tensor<8xi32> {
  %c0 = arith.constant 0 : i32
  %one = arith.constant dense<1> : tensor<1x2xi32>
  %e2 = tensor.empty() : tensor<8x2xi32>
  %b = linalg.generic {indexing_maps = [#bcast, #id2], iterator_types = ["parallel", "parallel"]} ins(%one : tensor<1x2xi32>) outs(%e2 : tensor<8x2xi32>) {
  ^bb0(%in: i32, %out: i32):
    linalg.yield %in : i32
  } -> tensor<8x2xi32>
  %p = arith.muli %a, %b : tensor<8x2xi32>
  %e = tensor.empty() : tensor<8xi32>
  %z = linalg.fill ins(%c0 : i32) outs(%e : tensor<8xi32>) -> tensor<8xi32>
  %s = linalg.reduce { arith.addi } ins(%p : tensor<8x2xi32>) outs(%z : tensor<8xi32>) dimensions = [1]
  return %s : tensor<8xi32>
}

// -----

// A sum by multiplication (a product reduction) picks nothing: kept.
// CHECK-LABEL: func.func @product_reduction_is_kept
// CHECK: linalg.reduce
#id1 = affine_map<(d0) -> (d0)>
#bcast = affine_map<(d0, d1) -> (0, d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @product_reduction_is_kept(%a: tensor<8x2xi32>) -> tensor<8xi32> {
  %c1 = arith.constant 1 : i32
  %e1 = tensor.empty() : tensor<2xi32>
  %arange = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e1 : tensor<2xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i32
    linalg.yield %v : i32
  } -> tensor<2xi32>
  %m = tensor.expand_shape %arange [[0, 1]] output_shape [1, 2] : tensor<2xi32> into tensor<1x2xi32>
  %e2 = tensor.empty() : tensor<8x2xi32>
  %b = linalg.generic {indexing_maps = [#bcast, #id2], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<1x2xi32>) outs(%e2 : tensor<8x2xi32>) {
  ^bb0(%in: i32, %out: i32):
    linalg.yield %in : i32
  } -> tensor<8x2xi32>
  %p = arith.muli %a, %b : tensor<8x2xi32>
  %e = tensor.empty() : tensor<8xi32>
  %z = linalg.fill ins(%c1 : i32) outs(%e : tensor<8xi32>) -> tensor<8xi32>
  %s = linalg.reduce { arith.muli } ins(%p : tensor<8x2xi32>) outs(%z : tensor<8xi32>) dimensions = [1]
  return %s : tensor<8xi32>
}

// -----

// The picked element broadcast back along the pair's axis ([:, None, :]) is one read of the
// source: neither the slice nor its expansion is materialized.
// CHECK-DAG: #[[PICK:.+]] = affine_map<(d0, d1, d2) -> (d0, 1, d2)>
// CHECK-DAG: #[[ID3:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @right_element_broadcast_back
// CHECK-NOT: tensor.expand_shape
// CHECK: %[[B:.+]] = linalg.generic {indexing_maps = [#[[PICK]], #[[ID3]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<16x2x4xi32>)
// CHECK: return %[[B]] : tensor<16x2x4xi32>
#id1 = affine_map<(d0) -> (d0)>
#bcast = affine_map<(d0, d1, d2) -> (0, d1, 0)>
#back = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @right_element_broadcast_back(%a: tensor<16x2x4xi32>) -> tensor<16x2x4xi32> {
  %c0 = arith.constant 0 : i32
  %e2 = tensor.empty() : tensor<2xi32>
  %arange = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%e2 : tensor<2xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i32
    linalg.yield %v : i32
  } -> tensor<2xi32>
  %mask = tensor.expand_shape %arange [[0, 1, 2]] output_shape [1, 2, 1] : tensor<2xi32> into tensor<1x2x1xi32>
  %e3 = tensor.empty() : tensor<16x2x4xi32>
  %m = linalg.generic {indexing_maps = [#bcast, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mask : tensor<1x2x1xi32>) outs(%e3 : tensor<16x2x4xi32>) {
  ^bb0(%in: i32, %out: i32):
    linalg.yield %in : i32
  } -> tensor<16x2x4xi32>
  %p = arith.muli %a, %m : tensor<16x2x4xi32>
  %e = tensor.empty() : tensor<16x4xi32>
  %z = linalg.fill ins(%c0 : i32) outs(%e : tensor<16x4xi32>) -> tensor<16x4xi32>
  %s = linalg.reduce { arith.addi } ins(%p : tensor<16x2x4xi32>) outs(%z : tensor<16x4xi32>) dimensions = [1]
  %x = tensor.expand_shape %s [[0], [1, 2]] output_shape [16, 1, 4] : tensor<16x4xi32> into tensor<16x1x4xi32>
  %b = linalg.generic {indexing_maps = [#back, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<16x1x4xi32>) outs(%e3 : tensor<16x2x4xi32>) {
  ^bb0(%in: i32, %out: i32):
    linalg.yield %in : i32
  } -> tensor<16x2x4xi32>
  return %b : tensor<16x2x4xi32>
}
