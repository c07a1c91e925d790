// RUN: tritium-opt %s --tritium-cpu-expand-math-like-numpy | FileCheck %s
// RUN: tritium-opt %s --tritium-cpu-expand-math-like-numpy=exp=false | FileCheck %s --check-prefix=NOEXP

// exp=false (the default pipeline's choice): exp is left to the division-free polynomial.
// NOEXP-LABEL: func.func @exp_vector
// NOEXP: math.exp %arg0 : vector<8xf32>

// log: exponent and mantissa from the bits (subnormals scaled by 2^100 first), the mantissa
// moved into (sqrt(1/2), sqrt(2)], a ratio of two degree-5 polynomials by fused multiply-adds,
// then e*ln2 added by one more fma; NaN, negative, zero and +inf selected last.
// CHECK-LABEL: func.func @log_scalar
// CHECK-NOT: math.log
// CHECK: %[[TWO100:.+]] = arith.constant 1.2676506E+30 : f32
// CHECK: arith.mulf %{{.+}}, %[[TWO100]] : f32
// CHECK: arith.bitcast %{{.+}} : f32 to i32
// CHECK: %[[SQRTHALF:.+]] = arith.constant 0.707106769 : f32
// CHECK: arith.cmpf ole, %{{.+}}, %[[SQRTHALF]] : f32
// CHECK-COUNT-10: math.fma
// CHECK: %[[RATIO:.+]] = arith.divf
// CHECK: %[[LOG:.+]] = math.fma %{{.+}}, %{{.+}}, %[[RATIO]] : f32
// CHECK: arith.select %{{.+}}, %{{.+}}, %[[LOG]] : f32
// CHECK-NOT: math.log
func.func @log_scalar(%x: f32) -> f32 {
  %y = math.log %x : f32
  return %y : f32
}

// exp: k = rint(x log2 e) by the 1.5*2^23 trick, r = x - k ln2 in fmas, P5/Q2, then 2^k as two
// exactly representable factors so the one rounding also covers subnormal results.
// CHECK-LABEL: func.func @exp_vector
// CHECK-NOT: math.exp
// CHECK: %[[LOG2E:.+]] = arith.constant dense<1.44269502> : vector<8xf32>
// CHECK: %[[K0:.+]] = arith.mulf %{{.+}}, %[[LOG2E]] : vector<8xf32>
// CHECK: arith.constant dense<0x4B400000> : vector<8xf32>
// CHECK: %[[K1:.+]] = arith.addf %[[K0]], %{{.+}} : vector<8xf32>
// CHECK: arith.subf %[[K1]], %{{.+}} : vector<8xf32>
// CHECK: arith.divf
// CHECK: arith.shrsi
// CHECK: arith.mulf
// CHECK: arith.mulf
// CHECK-NOT: math.exp
func.func @exp_vector(%x: vector<8xf32>) -> vector<8xf32> {
  %y = math.exp %x : vector<8xf32>
  return %y : vector<8xf32>
}

// sin of a scalar: libm (the math op) only beyond the Cody-Waite range, under scf.if.
// CHECK-LABEL: func.func @sin_scalar
// CHECK: %[[LIMIT:.+]] = arith.constant 117435.992 : f32
// CHECK: %[[ABS:.+]] = math.absf %[[X:.+]] : f32
// CHECK: %[[LARGE:.+]] = arith.cmpf ogt, %[[ABS]], %[[LIMIT]] : f32
// CHECK: scf.if %[[LARGE]] -> (f32) {
// CHECK-NEXT: math.sin %[[X]] : f32
// CHECK: } else {
// CHECK-NOT: math.sin
// CHECK: arith.constant 0.636619746 : f32
// CHECK: arith.fptosi
// CHECK: }
func.func @sin_scalar(%x: f32) -> f32 {
  %y = math.sin %x : f32
  return %y : f32
}

// cos of a vector: the quadrant is advanced by one and the libm lanes are selected.
// CHECK-LABEL: func.func @cos_vector
// CHECK: %[[LIMIT:.+]] = arith.constant dense<71476.0625> : vector<4xf32>
// CHECK: %[[LARGE:.+]] = arith.cmpf ogt, %{{.+}}, %[[LIMIT]] : vector<4xf32>
// CHECK: arith.addi
// CHECK: %[[LIBM:.+]] = math.cos %{{.+}} : vector<4xf32>
// CHECK: arith.select %[[LARGE]], %[[LIBM]], %{{.+}} : vector<4xi1>, vector<4xf32>
// CHECK-NOT: scf.if
func.func @cos_vector(%x: vector<4xf32>) -> vector<4xf32> {
  %y = math.cos %x : vector<4xf32>
  return %y : vector<4xf32>
}

// Only f32: f64 keeps its libm calls, and the other math ops are left alone.
// CHECK-LABEL: func.func @not_f32
// CHECK: math.exp %{{.+}} : f64
// CHECK: math.tanh %{{.+}} : f32
func.func @not_f32(%d: f64, %x: f32) -> (f64, f32) {
  %0 = math.exp %d : f64
  %1 = math.tanh %x : f32
  return %0, %1 : f64, f32
}
