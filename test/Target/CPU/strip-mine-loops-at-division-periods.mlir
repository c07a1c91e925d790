// RUN: tritium-opt %s --tritium-cpu-strip-mine-loops-at-division-periods --canonicalize | FileCheck %s

// out[o + i] = q[o + i] * scale[(o + i) / 128] + bias[(o + i) % 768]: the iterations run as
// strips between multiples of the period; inside a strip the quotient is the strip number
// and the remainder is the index minus the strip's start. Only one period per loop: 768's
// remainder stays a division. When the indices could be negative or wrap, the loop runs as
// it was.
// CHECK-LABEL: func.func @group_scale
// CHECK: %[[OK:.+]] = arith.andi
// CHECK: scf.if %[[OK]] {
// CHECK:   scf.for %[[Q:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:     %[[Q64:.+]] = arith.index_cast %[[Q]] : index to i64
// CHECK:     %[[QI:.+]] = arith.trunci %[[Q64]] : i64 to i32
// CHECK:     scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NOT:   arith.divsi
// CHECK:       llvm.getelementptr %arg1[%[[QI]]]
// CHECK:       arith.remsi %{{.+}}, %{{.+}} : i32
// CHECK:     }
// CHECK:   }
// CHECK: } else {
// CHECK:   scf.for
// CHECK:     arith.divsi
func.func @group_scale(%q: !llvm.ptr, %scale: !llvm.ptr, %bias: !llvm.ptr, %out: !llvm.ptr,
                       %o: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4096 = arith.constant 4096 : index
  %c128 = arith.constant 128 : i32
  %c768 = arith.constant 768 : i32
  scf.for %i = %c0 to %c4096 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %e = arith.addi %o, %ii : i32
    %pq = llvm.getelementptr %q[%e] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %x = llvm.load %pq : !llvm.ptr -> f32
    %g = arith.divsi %e, %c128 : i32
    %ps = llvm.getelementptr %scale[%g] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %s = llvm.load %ps : !llvm.ptr -> f32
    %r = arith.remsi %e, %c768 : i32
    %pb = llvm.getelementptr %bias[%r] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %b = llvm.load %pb : !llvm.ptr -> f32
    %y = arith.mulf %x, %s : f32
    %z = arith.addf %y, %b : f32
    %po = llvm.getelementptr %out[%e] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    llvm.store %z, %po : f32, !llvm.ptr
  }
  return
}

// A remainder by a runtime period, in a loop carrying a sum: remsi becomes index - qC.
// CHECK-LABEL: func.func @row_sums_of_remainders
// CHECK: scf.if %{{.+}} -> (f32) {
// CHECK:   scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%{{.+}} = %{{.+}}) -> (f32) {
// CHECK:     scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%{{.+}} = %{{.+}}) -> (f32) {
// CHECK-NOT:   arith.remsi
// CHECK:       arith.subi
// CHECK: } else {
// CHECK:   arith.remsi
func.func @row_sums_of_remainders(%src: !llvm.ptr, %n: i32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %c1024 step %c1 iter_args(%acc = %zero) -> (f32) {
    %ii = arith.index_cast %i : index to i32
    %r = arith.remsi %ii, %n : i32
    %p = llvm.getelementptr %src[%r] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %v = llvm.load %p : !llvm.ptr -> f32
    %next = arith.addf %acc, %v : f32
    scf.yield %next : f32
  }
  return %sum : f32
}

// Left alone: a constant period below 16 (strips too short to vectorize).
// CHECK-LABEL: func.func @short_period
// CHECK-NOT: scf.if
// CHECK: arith.divsi
func.func @short_period(%src: !llvm.ptr, %dst: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c4 = arith.constant 4 : i32
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %g = arith.divsi %ii, %c4 : i32
    %p = llvm.getelementptr %src[%g] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %v = llvm.load %p : !llvm.ptr -> f32
    %q = llvm.getelementptr %dst[%ii] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    llvm.store %v, %q : f32, !llvm.ptr
  }
  return
}
