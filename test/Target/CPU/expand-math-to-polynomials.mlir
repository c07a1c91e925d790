// RUN: tritium-opt %s --tritium-cpu-expand-math-to-polynomials | FileCheck %s

// exp becomes arith (vectorizable, no division); sin keeps its libm call.
// CHECK-LABEL: func.func @transcendental
// CHECK-NOT: math.exp
// CHECK-NOT: arith.divf
// CHECK: math.sin
func.func @transcendental(%x: f32) -> (f32, f32) {
  %0 = math.exp %x : f32
  %1 = math.sin %x : f32
  return %0, %1 : f32, f32
}

// f32 exp2: x = n + f with n = roundeven(x); 2^f by a degree-7 polynomial (fused
// multiply-adds ending in + 1); 2^n as two powers of two built on the exponent bits; NaN
// passes through. f64 keeps its libm call.
// CHECK-LABEL: func.func @exp2
// CHECK: %[[NAN:.+]] = arith.cmpf uno, %arg0, %arg0 : vector<16xf32>
// CHECK: %[[N:.+]] = math.roundeven %{{.+}} : vector<16xf32>
// CHECK: %[[F:.+]] = arith.subf %{{.+}}, %[[N]] : vector<16xf32>
// CHECK-COUNT-7: math.fma %{{.+}}, %[[F]], %{{.+}} : vector<16xf32>
// CHECK: %[[E:.+]] = arith.fptosi %[[N]] : vector<16xf32> to vector<16xi32>
// CHECK: arith.shrsi %[[E]]
// CHECK: arith.shli
// CHECK: arith.bitcast {{.+}} : vector<16xi32> to vector<16xf32>
// CHECK: arith.mulf
// CHECK: arith.mulf
// CHECK: arith.select %[[NAN]], %arg0
// CHECK-NOT: math.exp2 %arg0
// CHECK: math.exp2 %arg1 : f64
func.func @exp2(%x: vector<16xf32>, %y: f64) -> (vector<16xf32>, f64) {
  %0 = math.exp2 %x : vector<16xf32>
  %1 = math.exp2 %y : f64
  return %0, %1 : vector<16xf32>, f64
}

// f32 exp: n = roundeven(x log2 e), f = x - n ln 2 by two fused multiply-adds (ln 2 in a high
// and a low part), e^f by a degree-7 polynomial, 2^n as two powers of two; no division.
// CHECK-LABEL: func.func @exp
// CHECK: %[[LOG2E:.+]] = arith.constant dense<1.44269502> : vector<8xf32>
// CHECK: %[[NAN:.+]] = arith.cmpf uno, %arg0, %arg0 : vector<8xf32>
// CHECK: %[[SCALED:.+]] = arith.mulf %{{.+}}, %[[LOG2E]] : vector<8xf32>
// CHECK: %[[N:.+]] = math.roundeven %[[SCALED]] : vector<8xf32>
// CHECK: %[[HI:.+]] = math.fma %[[N]], %{{.+}}, %{{.+}} : vector<8xf32>
// CHECK: %[[F:.+]] = math.fma %[[N]], %{{.+}}, %[[HI]] : vector<8xf32>
// CHECK-COUNT-7: math.fma %{{.+}}, %[[F]], %{{.+}} : vector<8xf32>
// CHECK-NOT: arith.divf
// CHECK: arith.fptosi %[[N]] : vector<8xf32> to vector<8xi32>
// CHECK: arith.mulf
// CHECK: arith.mulf
// CHECK: arith.select %[[NAN]], %arg0
func.func @exp(%x: vector<8xf32>) -> vector<8xf32> {
  %0 = math.exp %x : vector<8xf32>
  return %0 : vector<8xf32>
}
