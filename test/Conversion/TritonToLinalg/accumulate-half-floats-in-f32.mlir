// RUN: tritium-opt %s -split-input-file --accumulate-half-floats-in-f32 | FileCheck %s

// A bf16 sum: the input widened, the combiner retyped to f32, the result rounded once.
// CHECK-LABEL: tt.func @bf16_sum
// CHECK: %[[WIDE:.+]] = arith.extf %arg0 : tensor<1024xbf16> to tensor<1024xf32>
// CHECK: %[[SUM:.+]] = "tt.reduce"(%[[WIDE]]) <{axis = 0 : i32}> ({
// CHECK: ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32):
// CHECK:   %[[S:.+]] = arith.addf %[[A]], %[[B]] : f32
// CHECK:   tt.reduce.return %[[S]] : f32
// CHECK: }) : (tensor<1024xf32>) -> f32
// CHECK: %[[R:.+]] = arith.truncf %[[SUM]] : f32 to bf16
// CHECK: tt.return %[[R]] : bf16
tt.func @bf16_sum(%x: tensor<1024xbf16>) -> bf16 {
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: bf16, %b: bf16):
    %s = arith.addf %a, %b : bf16
    tt.reduce.return %s : bf16
  }) : (tensor<1024xbf16>) -> bf16
  tt.return %0 : bf16
}

// -----

// An fp16 prefix sum along rows keeps its shape; each prefix is rounded once.
// CHECK-LABEL: tt.func @f16_cumsum
// CHECK: arith.extf %arg0 : tensor<4x8xf16> to tensor<4x8xf32>
// CHECK: "tt.scan"
// CHECK: arith.addf %{{.+}}, %{{.+}} : f32
// CHECK: (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: arith.truncf %{{.+}} : tensor<4x8xf32> to tensor<4x8xf16>
tt.func @f16_cumsum(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %0 = "tt.scan"(%x) <{axis = 1 : i32, reverse = false}> ({
  ^bb0(%a: f16, %b: f16):
    %s = arith.addf %a, %b : f16
    tt.scan.return %s : f16
  }) : (tensor<4x8xf16>) -> tensor<4x8xf16>
  tt.return %0 : tensor<4x8xf16>
}

// -----

// Maxima do not round, and f32 sums need nothing: both left alone.
// CHECK-LABEL: tt.func @left_alone
// CHECK-NOT: arith.extf
// CHECK: arith.maxnumf %{{.+}}, %{{.+}} : bf16
// CHECK: arith.addf %{{.+}}, %{{.+}} : f32
// CHECK-NOT: arith.truncf
tt.func @left_alone(%x: tensor<8xbf16>, %y: tensor<8xf32>) -> (bf16, f32) {
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: bf16, %b: bf16):
    %m = arith.maxnumf %a, %b : bf16
    tt.reduce.return %m : bf16
  }) : (tensor<8xbf16>) -> bf16
  %1 = "tt.reduce"(%y) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<8xf32>) -> f32
  tt.return %0, %1 : bf16, f32
}
