// RUN: tritium-opt %s --tritium-cpu-expand-math-to-polynomials | FileCheck %s
// RUN: tritium-opt %s --tritium-cpu-expand-math-to-polynomials=ldexp-scaling | FileCheck %s --check-prefix=LDEXP
// RUN: tritium-opt %s --tritium-cpu-expand-math-to-polynomials | FileCheck %s --check-prefix=INTERLEAVE

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

// f32 exp2: n = x rounded by adding 1.5 * 2^23, f = x - n; 2^f by a degree-6 polynomial (fused
// multiply-adds ending in + 1); n's integer value from the sum's bits, no float-to-int
// conversion; 2^n as two powers of two built on the exponent bits (or, with ldexp-scaling, one
// llvm.intr.ldexp). The clamp is two selects that let NaN through; no NaN test of its own.
// f64 keeps its libm call.
// CHECK-LABEL: func.func @exp2
// CHECK-NOT: arith.cmpf uno
// CHECK: %[[LOW:.+]] = arith.cmpf olt, %arg0
// CHECK: %[[CLAMPED:.+]] = arith.select %[[LOW]], %{{.+}}, %arg0
// CHECK: %[[SUM:.+]] = arith.addf %{{.+}}, %[[SHIFTER:.+]] : vector<16xf32>
// CHECK: %[[N:.+]] = arith.subf %[[SUM]], %[[SHIFTER]] : vector<16xf32>
// CHECK: %[[F:.+]] = arith.subf %{{.+}}, %[[N]] : vector<16xf32>
// CHECK-COUNT-6: math.fma %{{.+}}, %[[F]], %{{.+}} : vector<16xf32>
// CHECK-NOT: math.fma
// CHECK-NOT: arith.fptosi
// CHECK: %[[BITS:.+]] = arith.bitcast %[[SUM]] : vector<16xf32> to vector<16xi32>
// CHECK: %[[E:.+]] = arith.subi %[[BITS]]
// CHECK: arith.shrsi %[[E]]
// CHECK: arith.shli
// CHECK: arith.bitcast {{.+}} : vector<16xi32> to vector<16xf32>
// CHECK: arith.mulf
// CHECK: arith.mulf
// CHECK-NOT: arith.select
// CHECK-NOT: math.exp2 %arg0
// CHECK: math.exp2 %arg1 : f64
func.func @exp2(%x: vector<16xf32>, %y: f64) -> (vector<16xf32>, f64) {
  %0 = math.exp2 %x : vector<16xf32>
  %1 = math.exp2 %y : f64
  return %0, %1 : vector<16xf32>, f64
}

// f32 exp: n = x log2 e rounded by one fused multiply-add with 1.5 * 2^23, f = x - n ln 2 by
// two fused multiply-adds (ln 2 in a high and a low part), e^f by a degree-6 polynomial, 2^n
// as two powers of two (or one ldexp); no division, no NaN test.
// CHECK-LABEL: func.func @exp
// CHECK-NOT: arith.cmpf uno
// CHECK: %[[LOG2E:.+]] = arith.constant dense<1.44269502> : vector<8xf32>
// CHECK: %[[SUM:.+]] = math.fma %{{.+}}, %[[LOG2E]], %[[SHIFTER:.+]] : vector<8xf32>
// CHECK: %[[N:.+]] = arith.subf %[[SUM]], %[[SHIFTER]] : vector<8xf32>
// CHECK: %[[HI:.+]] = math.fma %[[N]], %{{.+}}, %{{.+}} : vector<8xf32>
// CHECK: %[[F:.+]] = math.fma %[[N]], %{{.+}}, %[[HI]] : vector<8xf32>
// CHECK-COUNT-6: math.fma %{{.+}}, %[[F]], %{{.+}} : vector<8xf32>
// CHECK-NOT: arith.divf
// CHECK-NOT: arith.fptosi
// CHECK: arith.bitcast %[[SUM]] : vector<8xf32> to vector<8xi32>
// CHECK: arith.mulf
// CHECK: %[[R:.+]] = arith.mulf
// CHECK-NOT: arith.select
// CHECK: return %[[R]] : vector<8xf32>
func.func @exp(%x: vector<8xf32>) -> vector<8xf32> {
  %0 = math.exp %x : vector<8xf32>
  return %0 : vector<8xf32>
}

// With ldexp-scaling, a scalar f32 exp (what the loops LLVM vectorizes hold) applies 2^n with one
// llvm.intr.ldexp of n's integer value (vscalefps once vectorized on AVX-512); vector operands
// keep the two powers of two (checked above with the option off; the same with it on).
// LDEXP-LABEL: func.func @scalar_exp
// LDEXP: %[[SUM:.+]] = math.fma %{{.+}}, %{{.+}}, %{{.+}} : f32
// LDEXP-COUNT-8: math.fma
// LDEXP: %[[BITS:.+]] = arith.bitcast %[[SUM]] : f32 to i32
// LDEXP: %[[E:.+]] = arith.subi %[[BITS]]
// LDEXP: %[[R:.+]] = llvm.intr.ldexp(%{{.+}}, %[[E]]) : (f32, i32) -> f32
// LDEXP-NOT: arith.mulf
// LDEXP: return %[[R]]
// LDEXP-LABEL: func.func @vector_exp
// LDEXP-NOT: llvm.intr.ldexp
// LDEXP: arith.mulf
// LDEXP: arith.mulf
func.func @scalar_exp(%x: f32) -> f32 {
  %0 = math.exp %x : f32
  return %0 : f32
}
func.func @vector_exp(%x: vector<4xf32>) -> vector<4xf32> {
  %0 = math.exp %x : vector<4xf32>
  return %0 : vector<4xf32>
}

// f32 erf: x + x * P(x^2) near zero (Horner, ending in fma(p, x, x)); beyond 0.921875,
// 1 - 2^Q(min(|x|, 4)) with Q and 2^Q's polynomial by Estrin's scheme (products of the
// argument's powers), the sign copied back; one select picks the branch. No division, no libm
// call; f64 keeps its libm call. The enclosing loop asks LLVM for 4 interleaved iterations.
// CHECK-LABEL: func.func @erf
// CHECK: %[[SQUARE:.+]] = arith.mulf %arg0, %arg0 : f32
// CHECK-COUNT-5: math.fma %{{.+}}, %[[SQUARE]], %{{.+}} : f32
// CHECK: %[[NEAR:.+]] = math.fma %{{.+}}, %arg0, %arg0 : f32
// CHECK: %[[ABS:.+]] = math.absf %arg0 : f32
// CHECK: %[[BEYOND:.+]] = arith.cmpf ogt, %[[ABS]], %[[FOUR:.+]] : f32
// CHECK: %[[T:.+]] = arith.select %[[BEYOND]], %[[FOUR]], %[[ABS]] : f32
// CHECK: %[[T2:.+]] = arith.mulf %[[T]], %[[T]] : f32
// CHECK: arith.mulf %[[T2]], %[[T2]] : f32
// CHECK-NOT: arith.divf
// CHECK: %[[AWAY:.+]] = math.copysign %{{.+}}, %arg0 : f32
// CHECK: %[[FAR:.+]] = arith.cmpf ogt, %[[ABS]], %{{.+}} : f32
// CHECK: %[[R:.+]] = arith.select %[[FAR]], %[[AWAY]], %[[NEAR]] : f32
// CHECK: math.erf %arg1 : f64
// CHECK: return %[[R]]
func.func @erf(%x: f32, %y: f64) -> (f32, f64) {
  %0 = math.erf %x : f32
  %1 = math.erf %y : f64
  return %0, %1 : f32, f64
}

// INTERLEAVE: #[[INTERLEAVE:.+]] = #llvm.loop_interleave<count = 4 : i32>
// INTERLEAVE: #[[ANNOTATION:.+]] = #llvm.loop_annotation<interleave = #[[INTERLEAVE]]>
// INTERLEAVE: #[[WITH_ACCESSES:.+]] = #llvm.loop_annotation<interleave = #[[INTERLEAVE]], parallelAccesses = #{{.+}}>
// INTERLEAVE-LABEL: func.func @erf_loop
// INTERLEAVE: scf.for
// INTERLEAVE-NOT: math.erf
// INTERLEAVE: } {llvm.loop_annotation = #[[ANNOTATION]]}
// A loop holding exp asks for the same (its chain is some 20 operations long); an annotation the
// loop had keeps its other fields.
// INTERLEAVE-LABEL: func.func @exp_loop
// INTERLEAVE: scf.for
// INTERLEAVE-NOT: math.exp
// INTERLEAVE: } {llvm.loop_annotation = #[[WITH_ACCESSES]]}
func.func @erf_loop(%buf: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %v = memref.load %buf[%i] : memref<64xf32>
    %e = math.erf %v : f32
    memref.store %e, %buf[%i] : memref<64xf32>
  }
  return
}

#exp_group = #llvm.access_group<id = distinct[0]<>>
func.func @exp_loop(%buf: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %v = memref.load %buf[%i] : memref<64xf32>
    %e = math.exp %v : f32
    memref.store %e, %buf[%i] : memref<64xf32>
  } {llvm.loop_annotation = #llvm.loop_annotation<parallelAccesses = #exp_group>}
  return
}
