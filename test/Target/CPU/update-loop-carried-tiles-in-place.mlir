// RUN: tritium-opt %s -split-input-file --tritium-cpu-update-loop-carried-tiles-in-place | FileCheck %s

#map = affine_map<(d0) -> (d0)>

// acc = acc + x in a loop: the sum is written over the accumulator.
// CHECK-LABEL: func.func @running_sum
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %{{.+}}) -> (tensor<128xf32>)
// CHECK:   %[[SUM:.+]] = linalg.generic {{.+}} ins(%[[ACC]], %{{.+}} : tensor<128xf32>, tensor<128xf32>) outs(%[[ACC]] : tensor<128xf32>)
// CHECK:   scf.yield %[[SUM]] : tensor<128xf32>
func.func @running_sum(%x: tensor<128xf32>, %n: index) -> tensor<128xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128xf32>) {
    %e = tensor.empty() : tensor<128xf32>
    %s = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
        ins(%acc, %x : tensor<128xf32>, tensor<128xf32>) outs(%e : tensor<128xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %t = arith.addf %a, %b : f32
      linalg.yield %t : f32
    } -> tensor<128xf32>
    scf.yield %s : tensor<128xf32>
  }
  return %r : tensor<128xf32>
}

// -----

#map = affine_map<(d0) -> (d0)>

// The result is not the next accumulator (it is yielded in another position): unchanged.
// CHECK-LABEL: func.func @yielded_elsewhere
// CHECK: %[[E:.+]] = tensor.empty() : tensor<128xf32>
// CHECK: outs(%[[E]] : tensor<128xf32>)
func.func @yielded_elsewhere(%x: tensor<128xf32>, %n: index) -> (tensor<128xf32>, tensor<128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %other = %zero) -> (tensor<128xf32>, tensor<128xf32>) {
    %e = tensor.empty() : tensor<128xf32>
    %s = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
        ins(%acc, %x : tensor<128xf32>, tensor<128xf32>) outs(%e : tensor<128xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %t = arith.addf %a, %b : f32
      linalg.yield %t : f32
    } -> tensor<128xf32>
    scf.yield %acc, %s : tensor<128xf32>, tensor<128xf32>
  }
  return %r#0, %r#1 : tensor<128xf32>, tensor<128xf32>
}

// -----

#map = affine_map<(d0) -> (d0)>

// `if row < n_rows: acc += x` in a loop over rows: the sum reaches the loop's yield through
// the branch's yield, and is written over the accumulator too.
// CHECK-LABEL: func.func @running_sum_in_branch
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %{{.+}}) -> (tensor<128xf32>)
// CHECK:   scf.if
// CHECK:     %[[SUM:.+]] = linalg.generic {{.+}} ins(%[[ACC]], %{{.+}} : tensor<128xf32>, tensor<128xf32>) outs(%[[ACC]] : tensor<128xf32>)
// CHECK:     scf.yield %[[SUM]] : tensor<128xf32>
// CHECK:   } else {
// CHECK:     scf.yield %[[ACC]] : tensor<128xf32>
func.func @running_sum_in_branch(%x: tensor<128xf32>, %n: index, %rows: index) -> tensor<128xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128xf32>) {
    %in = arith.cmpi slt, %i, %rows : index
    %next = scf.if %in -> (tensor<128xf32>) {
      %e = tensor.empty() : tensor<128xf32>
      %s = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
          ins(%acc, %x : tensor<128xf32>, tensor<128xf32>) outs(%e : tensor<128xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %t = arith.addf %a, %b : f32
        linalg.yield %t : f32
      } -> tensor<128xf32>
      scf.yield %s : tensor<128xf32>
    } else {
      scf.yield %acc : tensor<128xf32>
    }
    scf.yield %next : tensor<128xf32>
  }
  return %r : tensor<128xf32>
}

// -----

#map = affine_map<(d0) -> (d0)>

// The branch's result is used besides being yielded: unchanged.
// CHECK-LABEL: func.func @branch_result_used_twice
// CHECK: %[[E:.+]] = tensor.empty() : tensor<128xf32>
// CHECK: outs(%[[E]] : tensor<128xf32>)
func.func @branch_result_used_twice(%x: tensor<128xf32>, %n: index, %on: i1) -> (tensor<128xf32>, tensor<128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %last = %zero) -> (tensor<128xf32>, tensor<128xf32>) {
    %next = scf.if %on -> (tensor<128xf32>) {
      %e = tensor.empty() : tensor<128xf32>
      %s = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
          ins(%acc, %x : tensor<128xf32>, tensor<128xf32>) outs(%e : tensor<128xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %t = arith.addf %a, %b : f32
        linalg.yield %t : f32
      } -> tensor<128xf32>
      scf.yield %s : tensor<128xf32>
    } else {
      scf.yield %acc : tensor<128xf32>
    }
    scf.yield %next, %next : tensor<128xf32>, tensor<128xf32>
  }
  return %r#0, %r#1 : tensor<128xf32>, tensor<128xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>

// acc + exp(x - max) with the row's max broadcast along the row (Inductor's looped softmax
// sums): the other inputs' maps do not matter, the accumulator's is the identity.
// CHECK-LABEL: func.func @running_sum_with_broadcast
// CHECK: iter_args(%[[ACC:.+]] = %{{.+}}) -> (tensor<1x2048xf32>)
// CHECK:   linalg.generic {{.+}} outs(%[[ACC]] : tensor<1x2048xf32>)
func.func @running_sum_with_broadcast(%x: tensor<1x2048xf32>, %max: tensor<1x1xf32>, %n: index) -> tensor<1x2048xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<1x2048xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<1x2048xf32>) {
    %e = tensor.empty() : tensor<1x2048xf32>
    %s = linalg.generic {indexing_maps = [#id, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%x, %max, %acc : tensor<1x2048xf32>, tensor<1x1xf32>, tensor<1x2048xf32>) outs(%e : tensor<1x2048xf32>) {
    ^bb0(%a: f32, %m: f32, %c: f32, %o: f32):
      %d = arith.subf %a, %m : f32
      %x2 = math.exp %d : f32
      %t = arith.addf %c, %x2 : f32
      linalg.yield %t : f32
    } -> tensor<1x2048xf32>
    scf.yield %s : tensor<1x2048xf32>
  }
  return %r : tensor<1x2048xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// The accumulator read transposed: element (i, j) would be written before (j, i) is read.
// Unchanged.
// CHECK-LABEL: func.func @accumulator_read_transposed
// CHECK: %[[E:.+]] = tensor.empty() : tensor<8x8xf32>
// CHECK: outs(%[[E]] : tensor<8x8xf32>)
func.func @accumulator_read_transposed(%x: tensor<8x8xf32>, %n: index) -> tensor<8x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<8x8xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<8x8xf32>) {
    %e = tensor.empty() : tensor<8x8xf32>
    %s = linalg.generic {indexing_maps = [#id, #tr, #id], iterator_types = ["parallel", "parallel"]}
        ins(%x, %acc : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
    ^bb0(%a: f32, %c: f32, %o: f32):
      %t = arith.addf %c, %a : f32
      linalg.yield %t : f32
    } -> tensor<8x8xf32>
    scf.yield %s : tensor<8x8xf32>
  }
  return %r : tensor<8x8xf32>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// acc = tl.dot(p, v, acc * scale[:, None]) (flash attention's step): the scaled accumulator is
// the matmul's C, whose result the loop yields: the scaling is written over the accumulator
// and the matmul then updates it in place.
// CHECK-LABEL: func.func @scaled_accumulator_of_a_matmul
// CHECK: scf.for %{{.+}} iter_args(%[[ACC:.+]] = %{{.+}}) -> (tensor<16x32xf32>)
// CHECK:   %[[SCALED:.+]] = linalg.generic {{.+}} ins(%[[ACC]], %{{.+}} : tensor<16x32xf32>, tensor<16xf32>) outs(%[[ACC]] : tensor<16x32xf32>)
// CHECK:   %[[PRODUCT:.+]] = linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<16x8xf32>, tensor<8x32xf32>) outs(%[[SCALED]] : tensor<16x32xf32>)
// CHECK:   scf.yield %[[PRODUCT]]
func.func @scaled_accumulator_of_a_matmul(%p: tensor<16x8xf32>, %v: tensor<8x32xf32>, %scale: tensor<16xf32>,
                                          %n: index) -> tensor<16x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<16x32xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16x32xf32>) {
    %e = tensor.empty() : tensor<16x32xf32>
    %scaled = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
        ins(%acc, %scale : tensor<16x32xf32>, tensor<16xf32>) outs(%e : tensor<16x32xf32>) {
    ^bb0(%a: f32, %s: f32, %o: f32):
      %t = arith.mulf %a, %s : f32
      linalg.yield %t : f32
    } -> tensor<16x32xf32>
    %product = linalg.matmul ins(%p, %v : tensor<16x8xf32>, tensor<8x32xf32>) outs(%scaled : tensor<16x32xf32>) -> tensor<16x32xf32>
    scf.yield %product : tensor<16x32xf32>
  }
  return %r : tensor<16x32xf32>
}
