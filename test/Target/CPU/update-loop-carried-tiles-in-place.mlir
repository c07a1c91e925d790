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
