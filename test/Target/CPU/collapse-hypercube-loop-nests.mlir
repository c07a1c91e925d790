// RUN: tritium-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tritium-cpu-collapse-hypercube-loop-nests))" | FileCheck %s

// A compare-and-swap stage of a sort: d3 and d4 are read together by every operand and merge;
// d2 is mirrored (1 - d2) and stays alone; d0 and d1 do not merge because the flip pattern
// varies along d1 only. The flip operand keeps its unit dimensions, indexed by zeros.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[MIRROR:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, -d2 + 1, d3)>
// CHECK-DAG: #[[FLIP:.+]] = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0, 0)>
// CHECK-LABEL: func.func @compare_and_swap_stage
// CHECK: %[[X:.+]] = tensor.collapse_shape %arg0 {{\[}}[0], [1], [2], [3, 4]] : tensor<2x2x2x2x2xf32> into tensor<2x2x2x4xf32>
// CHECK: %[[R:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[MIRROR]], #[[FLIP]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK-SAME: %arg1 : {{.*}}tensor<1x2x1x1x1xi1>)
// CHECK: arith.select
// CHECK: %[[E:.+]] = tensor.expand_shape %[[R]] {{\[}}[0], [1], [2], [3, 4]] output_shape [2, 2, 2, 2, 2]
// CHECK: return %[[E]]
#mirror = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, -d2 + 1, d3, d4)>
#id = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#flip = affine_map<(d0, d1, d2, d3, d4) -> (0, d1, 0, 0, 0)>
func.func @compare_and_swap_stage(%x: tensor<2x2x2x2x2xf32>, %f: tensor<1x2x1x1x1xi1>) -> tensor<2x2x2x2x2xf32> {
  %e = tensor.empty() : tensor<2x2x2x2x2xf32>
  %r = linalg.generic {indexing_maps = [#id, #mirror, #flip, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%x, %x, %f : tensor<2x2x2x2x2xf32>, tensor<2x2x2x2x2xf32>, tensor<1x2x1x1x1xi1>) outs(%e : tensor<2x2x2x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %flip: i1, %out: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    %swap = arith.cmpi ne, %gt, %flip : i1
    %v = arith.select %swap, %b, %a : f32
    linalg.yield %v : f32
  } -> tensor<2x2x2x2x2xf32>
  return %r : tensor<2x2x2x2x2xf32>
}

// -----

// A named reduction is generalized; the parallel dimensions before it merge, the reduced one
// stays.
// CHECK-LABEL: func.func @reduction_keeps_its_dimension
// CHECK: tensor.collapse_shape %arg0 {{\[}}[0, 1], [2], [3]] : tensor<2x2x2x2xi32> into tensor<4x2x2xi32>
// CHECK: tensor.collapse_shape %arg1 {{\[}}[0, 1], [2]] : tensor<2x2x2xi32> into tensor<4x2xi32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]
// CHECK: arith.addi
// CHECK: tensor.expand_shape {{.*}} output_shape [2, 2, 2]
func.func @reduction_keeps_its_dimension(%x: tensor<2x2x2x2xi32>, %init: tensor<2x2x2xi32>) -> tensor<2x2x2xi32> {
  %s = linalg.reduce { arith.addi } ins(%x : tensor<2x2x2x2xi32>) outs(%init : tensor<2x2x2xi32>) dimensions = [2]
  return %s : tensor<2x2x2xi32>
}

// -----

// A dimension the body reads through linalg.index stays alone and is renumbered.
// CHECK-LABEL: func.func @index_read_dimension_stays
// CHECK: tensor.collapse_shape %arg0 {{\[}}[0, 1, 2], [3]] : tensor<2x2x2x2xi32> into tensor<8x2xi32>
// CHECK: linalg.index 1 : index
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @index_read_dimension_stays(%e: tensor<2x2x2x2xi32>) -> tensor<2x2x2x2xi32> {
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<2x2x2x2xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 3 : index
    %v = arith.index_cast %i : index to i32
    linalg.yield %v : i32
  } -> tensor<2x2x2x2xi32>
  return %r : tensor<2x2x2x2xi32>
}

// -----

// Ordinary elementwise tiles merge too: one loop over the whole tile.
// CHECK-LABEL: func.func @rank_three_elementwise
// CHECK: tensor.collapse_shape %{{.+}} {{\[}}[0, 1, 2]] : tensor<2x2x2xf32> into tensor<8xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel"]
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @rank_three_elementwise(%x: tensor<2x2x2xf32>, %e: tensor<2x2x2xf32>) -> tensor<2x2x2xf32> {
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x2x2xf32>) outs(%e : tensor<2x2x2xf32>) {
  ^bb0(%a: f32, %out: f32):
    linalg.yield %a : f32
  } -> tensor<2x2x2xf32>
  return %r : tensor<2x2x2xf32>
}

// -----

// A row reduction of a 2-D tile: its parallel and reduction dimensions stay apart.
// CHECK-LABEL: func.func @row_reduction_untouched
// CHECK-NOT: tensor.collapse_shape
// CHECK: iterator_types = ["parallel", "reduction"]
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @row_reduction_untouched(%x: tensor<8x64xf32>, %e: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x64xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// Contractions keep their named form and rank, for the matmul passes after this one.
// CHECK-LABEL: func.func @batch_matmul_untouched
// CHECK-NOT: tensor.collapse_shape
// CHECK: linalg.batch_matmul
func.func @batch_matmul_untouched(%a: tensor<2x4x8xf32>, %b: tensor<2x8x4xf32>, %c: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%c : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %r : tensor<2x4x4xf32>
}

// -----

// An accumulator updated in place (input and init the same tensor, as
// update-loop-carried-tiles-in-place leaves a chunked reduction's running max) is collapsed
// once and the view serves both operands: two views of it would make bufferization copy the
// accumulator before every update.
// CHECK-LABEL: func.func @accumulator_is_one_view
// CHECK: %[[ACC:.+]] = tensor.collapse_shape %arg0 {{\[}}[0, 1]] : tensor<1x2048xf32> into tensor<2048xf32>
// CHECK: %[[X:.+]] = tensor.collapse_shape %arg1 {{\[}}[0, 1]]
// CHECK-NOT: tensor.collapse_shape
// CHECK: linalg.generic {{.*}} ins(%[[ACC]], %[[X]] : tensor<2048xf32>, tensor<2048xf32>) outs(%[[ACC]] : tensor<2048xf32>)
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @accumulator_is_one_view(%acc: tensor<1x2048xf32>, %x: tensor<1x2048xf32>) -> tensor<1x2048xf32> {
  %r = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%acc, %x : tensor<1x2048xf32>, tensor<1x2048xf32>) outs(%acc : tensor<1x2048xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %m = arith.maxnumf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<1x2048xf32>
  return %r : tensor<1x2048xf32>
}
