// RUN: tritium-opt %s --tritium-cpu-strip-mine-loops-at-division-periods --canonicalize | FileCheck %s

// out[o + i] = q[o + i] * scale[(o + i) / 128] + bias[(o + i) % 768]: the whole strips between
// the first and the last multiple of the smallest period run as loops of 128 iterations j, in
// which the quotient is the strip number q and the remainder the index minus the strip's start.
// 768 is a multiple of 128, so a strip lies within one period of 768 too: its remainder is the
// index minus (q / 6) * 768. The parts of the strips before the first multiple and after the
// last one run with their own q and bounds; the loop runs as it was when the indices could be
// negative or wrap.
// CHECK-LABEL: func.func @group_scale
// CHECK: %[[OK:.+]] = arith.andi
// CHECK: scf.if %[[OK]] {
// CHECK:   scf.for %{{.+}} = %c0 to %{{.+}} step %c1 {
// CHECK-NOT: arith.divsi
// CHECK-NOT: arith.remsi
// CHECK:     arith.subi
// CHECK:   }
// CHECK:   scf.for %[[Q:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:     %[[Q64:.+]] = arith.index_cast %[[Q]] : index to i64
// CHECK:     %[[QI:.+]] = arith.trunci %[[Q64]] : i64 to i32
// CHECK:     %[[Q768:.+]] = arith.divsi %[[Q64]], %c6_i64 : i64
// CHECK:     %[[BASE:.+]] = arith.muli %[[Q768]], %c768_i64 : i64
// CHECK:     %[[BASEI:.+]] = arith.trunci %[[BASE]] : i64 to i32
// CHECK:     scf.for %{{.+}} = %c0 to %c128 step %c1 {
// CHECK-NOT:   arith.divsi
// CHECK-NOT:   arith.remsi
// CHECK:       llvm.getelementptr %arg1[%[[QI]]]
// CHECK:       arith.subi %{{.+}}, %[[BASEI]] : i32
// CHECK:     }
// CHECK:   }
// CHECK:   scf.for %{{.+}} = %{{.+}} to %c4096 step %c1 {
// CHECK-NOT: arith.divsi
// CHECK-NOT: arith.remsi
// CHECK:     arith.subi
// CHECK:   }
// CHECK: } else {
// CHECK:   scf.for
// CHECK:     arith.divsi
// CHECK:     arith.remsi
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

// A remainder by a runtime period n, in a loop carrying a sum: the strips run when n >= 16, the
// whole ones as loops of n iterations j in which the remainder is j; the sum goes through the
// first strip's part, the whole strips and the last strip's part.
// CHECK-LABEL: func.func @row_sums_of_remainders
// CHECK: scf.if %{{.+}} -> (f32) {
// CHECK:   %[[HEAD:.+]] = scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%{{.+}} = %{{.+}}) -> (f32) {
// CHECK-NOT: arith.remsi
// CHECK:   %[[STRIPS:.+]] = scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%{{.+}} = %[[HEAD]]) -> (f32) {
// CHECK:     %[[N:.+]] = arith.index_cast %arg1 : i32 to index
// CHECK:     scf.for %[[J:.+]] = %c0 to %[[N]] step %c1 iter_args(%{{.+}} = %{{.+}}) -> (f32) {
// CHECK-NOT:   arith.remsi
// CHECK:       %[[R:.+]] = arith.index_cast %[[J]] : index to i32
// CHECK:       llvm.getelementptr %arg0[%[[R]]]
// CHECK:   %[[TAIL:.+]] = scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%{{.+}} = %[[STRIPS]]) -> (f32) {
// CHECK-NOT: arith.remsi
// CHECK:   scf.yield %[[TAIL]] : f32
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
// CHECK: scf.for
// CHECK-NOT: scf.for
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

// Inductor's rotary embedding indexing: x0 = x % 32, x1 = (x // 32) % 8, x2 = (x // 256) % 256,
// x3 = x // 65536 for x = o + i. All periods are multiples of 32: in a strip of 32 indices, x0
// is the index less the strip's start and the rest are invariants of the strip (x // 256 is
// q / 8, x // 65536 is q / 2048; the remainders of those quotients are taken outside the
// strip's loop once canonicalized). A period that is not a multiple (x % 48) stays a remainder.
// CHECK-LABEL: func.func @nested_periods
// CHECK: scf.if %{{.+}} {
// CHECK:   scf.for %[[Q:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:     %[[Q64:.+]] = arith.index_cast %[[Q]] : index to i64
// CHECK-DAG: arith.divsi %[[Q64]], %c8_i64 : i64
// CHECK-DAG: arith.divsi %[[Q64]], %c2048_i64 : i64
// CHECK:     scf.for %{{.+}} = %c0 to %c32 step %c1 {
// CHECK-NOT:   arith.divsi
// CHECK:       arith.remsi %{{.+}}, %c48_i32 : i32
// CHECK-NOT:   arith.divsi
// CHECK:     }
// CHECK:   }
// CHECK: } else {
// CHECK:   arith.divsi
func.func @nested_periods(%src: !llvm.ptr, %cs: !llvm.ptr, %rem: !llvm.ptr, %out: !llvm.ptr, %o: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %c8 = arith.constant 8 : i32
  %c32 = arith.constant 32 : i32
  %c48 = arith.constant 48 : i32
  %c64 = arith.constant 64 : i32
  %c256 = arith.constant 256 : i32
  %c1536 = arith.constant 1536 : i32
  %c65536 = arith.constant 65536 : i32
  scf.for %i = %c0 to %c1024 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %x = arith.addi %o, %ii : i32
    %x0 = arith.remsi %x, %c32 : i32
    %d32 = arith.divsi %x, %c32 : i32
    %x1 = arith.remsi %d32, %c8 : i32
    %x4 = arith.divsi %x, %c256 : i32
    %x2 = arith.remsi %x4, %c256 : i32
    %x3 = arith.divsi %x, %c65536 : i32
    %r = arith.remsi %x, %c48 : i32
    %a = arith.muli %x1, %c64 : i32
    %b = arith.muli %x4, %c1536 : i32
    %ab = arith.addi %a, %b : i32
    %in = arith.addi %x0, %ab : i32
    %p = llvm.getelementptr %src[%in] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %v = llvm.load %p : !llvm.ptr -> f32
    %c2 = arith.muli %x2, %c32 : i32
    %ci = arith.addi %x0, %c2 : i32
    %pc = llvm.getelementptr %cs[%ci] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %w = llvm.load %pc : !llvm.ptr -> f32
    %pr = llvm.getelementptr %rem[%r] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %u = llvm.load %pr : !llvm.ptr -> f32
    %vw = arith.mulf %v, %w : f32
    %y = arith.addf %vw, %u : f32
    %x3s = arith.muli %x3, %c65536 : i32
    %oi = arith.addi %x, %x3s : i32
    %po = llvm.getelementptr %out[%oi] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    llvm.store %y, %po : f32, !llvm.ptr
  }
  return
}

// Inductor's rotate-half of RoPE: x0 = x % 64 picks the row's second half negated for
// `x0 < 32` and its first half for `x0 >= 32` (both tests, as Inductor writes them). In a whole
// strip x0 is the iteration j, and the tests are constants on either side of j = 32: the
// strip's loop runs as [0, 32) and [32, 64) with neither test nor select left.
// CHECK-LABEL: func.func @halves_by_remainder
// CHECK: scf.if %{{.+}} {
// CHECK:   scf.for
// CHECK:   scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NOT: arith.cmpi
// CHECK:     scf.for %{{.+}} = %c0 to %c32 step %c1 {
// CHECK-NOT:   arith.cmpi
// CHECK-NOT:   arith.select
// CHECK:       arith.negf
// CHECK:     }
// CHECK-NOT: arith.cmpi
// CHECK:     scf.for %{{.+}} = %c32 to %c64 step %c1 {
// CHECK-NOT:   arith.cmpi
// CHECK-NOT:   arith.select
// CHECK-NOT:   arith.negf
// CHECK:     }
// CHECK:   }
// CHECK: } else {
// CHECK:   arith.remsi
// CHECK:   arith.cmpi slt
// CHECK:   arith.select
func.func @halves_by_remainder(%src: !llvm.ptr, %out: !llvm.ptr, %o: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %c32_i64 = arith.constant 32 : i64
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c1024 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %x = arith.addi %o, %ii : i32
    %x0 = arith.remsi %x, %c64 : i32
    %x1 = arith.divsi %x, %c64 : i32
    %row = arith.muli %x1, %c64 : i32
    %first = arith.cmpi slt, %x0, %c32 : i32
    %hi = arith.addi %x, %c32 : i32
    %phi = llvm.getelementptr %src[%hi] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %vhi = scf.if %first -> (f32) {
      %v = llvm.load %phi : !llvm.ptr -> f32
      scf.yield %v : f32
    } else {
      scf.yield %zero : f32
    }
    %neg = arith.negf %vhi : f32
    %x0w = arith.extsi %x0 : i32 to i64
    %second = arith.cmpi sge, %x0w, %c32_i64 : i64
    %lo = arith.subi %x, %c32 : i32
    %plo = llvm.getelementptr %src[%lo] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %vlo = scf.if %second -> (f32) {
      %v = llvm.load %plo : !llvm.ptr -> f32
      scf.yield %v : f32
    } else {
      scf.yield %zero : f32
    }
    %y = arith.select %first, %neg, %vlo : f32
    %po = llvm.getelementptr %out[%x] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    llvm.store %y, %po : f32, !llvm.ptr
  }
  return
}
