// RUN: tritium-opt %s -split-input-file --recognize-nan-propagating-min-max-combiners | FileCheck %s

// Inductor's max (`triton_helpers.maximum`): `(a > b) | (a != a)` selects a. One maximumf.
// CHECK-LABEL: tt.func @inductor_max
// CHECK: ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32):
// CHECK-NEXT: %[[M:.+]] = arith.maximumf %[[A]], %[[B]] : f32
// CHECK-NEXT: tt.reduce.return %[[M]] : f32
tt.func @inductor_max(%x: tensor<8x16xf32>) -> tensor<8xf32> {
  %0 = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    %nan = arith.cmpf une, %a, %a : f32
    %take = arith.ori %gt, %nan : i1
    %r = arith.select %take, %a, %b : f32
    tt.reduce.return %r : f32
  }) : (tensor<8x16xf32>) -> tensor<8xf32>
  tt.return %0 : tensor<8xf32>
}

// -----

// Its min, written with the comparison reversed (`b > a`) and the NaN test first: minimumf.
// CHECK-LABEL: tt.func @min_written_the_other_way
// CHECK: %[[M:.+]] = arith.minimumf %{{.+}}, %{{.+}} : f16
// CHECK-NEXT: tt.reduce.return %[[M]] : f16
tt.func @min_written_the_other_way(%x: tensor<16xf16>) -> f16 {
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f16, %b: f16):
    %nan = arith.cmpf uno, %a, %a : f16
    %lt = arith.cmpf ogt, %b, %a : f16
    %take = arith.ori %nan, %lt : i1
    %r = arith.select %take, %a, %b : f16
    tt.reduce.return %r : f16
  }) : (tensor<16xf16>) -> f16
  tt.return %0 : f16
}

// -----

// Testing b for NaN instead of a is another combiner: left alone.
// CHECK-LABEL: tt.func @nan_test_of_the_other_operand
// CHECK: arith.cmpf une, %{{.+}}, %{{.+}} : f32
// CHECK: arith.select
// CHECK-NOT: arith.maximumf
tt.func @nan_test_of_the_other_operand(%x: tensor<16xf32>) -> f32 {
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    %nan = arith.cmpf une, %b, %b : f32
    %take = arith.ori %gt, %nan : i1
    %r = arith.select %take, %a, %b : f32
    tt.reduce.return %r : f32
  }) : (tensor<16xf32>) -> f32
  tt.return %0 : f32
}

// -----

// A scan's order is fixed (each prefix is one answer): left alone.
// CHECK-LABEL: tt.func @running_max_scan
// CHECK: arith.select
// CHECK-NOT: arith.maximumf
tt.func @running_max_scan(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    %nan = arith.cmpf une, %a, %a : f32
    %take = arith.ori %gt, %nan : i1
    %r = arith.select %take, %a, %b : f32
    tt.scan.return %r : f32
  }) : (tensor<16xf32>) -> tensor<16xf32>
  tt.return %0 : tensor<16xf32>
}
