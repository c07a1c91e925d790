// RUN: tritium-opt %s -split-input-file --convert-triton-to-linalg | FileCheck %s

// Round toward zero: round to nearest, then step back one ULP where that rounded away from
// zero (the default rounding of arith.truncf is to nearest even).
// CHECK-LABEL: func.func @fp_to_fp
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4xf32>
// CHECK: arith.truncf %[[X]] : tensor<4xf32> to tensor<4xf16>
// CHECK: %[[NEAR:.+]] = arith.truncf %[[X]] : tensor<4xf32> to tensor<4xbf16>
// CHECK: %[[BACK:.+]] = arith.extf %[[NEAR]] : tensor<4xbf16> to tensor<4xf32>
// CHECK: %[[AWAY:.+]] = arith.cmpf ogt, %{{.+}}, %{{.+}} : tensor<4xf32>
// CHECK: %[[BITS:.+]] = arith.bitcast %[[NEAR]] : tensor<4xbf16> to tensor<4xi16>
// CHECK: %[[STEP:.+]] = arith.subi %[[BITS]], %{{.+}} : tensor<4xi16>
// CHECK: %[[STEPPED:.+]] = arith.bitcast %[[STEP]] : tensor<4xi16> to tensor<4xbf16>
// CHECK: arith.select %[[AWAY]], %[[STEPPED]], %[[NEAR]] : tensor<4xi1>, tensor<4xbf16>
// CHECK: arith.extf %{{.+}} : tensor<4xf16> to tensor<4xf32>
tt.func @fp_to_fp(%arg0: tensor<4xf32>, %arg1: tensor<4xf16>) -> (tensor<4xf16>, tensor<4xbf16>, tensor<4xf32>) {
  %0 = tt.fp_to_fp %arg0, rounding = rtne : tensor<4xf32> -> tensor<4xf16>
  %1 = tt.fp_to_fp %arg0, rounding = rtz : tensor<4xf32> -> tensor<4xbf16>
  %2 = tt.fp_to_fp %arg1 : tensor<4xf16> -> tensor<4xf32>
  tt.return %0, %1, %2 : tensor<4xf16>, tensor<4xbf16>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @clampf
// CHECK: %[[LO:.+]] = arith.maximumf %{{.+}}, %{{.+}} : f32
// CHECK: arith.minimumf %[[LO]], %{{.+}} : f32
// CHECK: %[[LO2:.+]] = arith.maxnumf %{{.+}}, %{{.+}} : f32
// CHECK: arith.minnumf %[[LO2]], %{{.+}} : f32
tt.func @clampf(%x: f32, %lo: f32, %hi: f32) -> (f32, f32) {
  %0 = tt.clampf %x, %lo, %hi, propagateNan = all : f32
  %1 = tt.clampf %x, %lo, %hi, propagateNan = none : f32
  tt.return %0, %1 : f32, f32
}

// -----

// CHECK-LABEL: func.func @precise_ops
// CHECK: math.sqrt %{{.+}} : tensor<8xf32>
// CHECK: arith.divf %{{.+}}, %{{.+}} : tensor<8xf32>
tt.func @precise_ops(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = tt.precise_sqrt %x : tensor<8xf32>
  %1 = tt.precise_divf %x, %y : tensor<8xf32>
  tt.return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// CHECK-LABEL: func.func @mulhiui
// CHECK: %[[X:.+]] = arith.extui %{{.+}} : i32 to i64
// CHECK: %[[Y:.+]] = arith.extui %{{.+}} : i32 to i64
// CHECK: %[[P:.+]] = arith.muli %[[X]], %[[Y]] : i64
// CHECK: %[[C32:.+]] = arith.constant 32 : i64
// CHECK: %[[H:.+]] = arith.shrui %[[P]], %[[C32]] : i64
// CHECK: arith.trunci %[[H]] : i64 to i32
tt.func @mulhiui(%x: i32, %y: i32) -> i32 {
  %0 = tt.mulhiui %x, %y : i32
  tt.return %0 : i32
}
