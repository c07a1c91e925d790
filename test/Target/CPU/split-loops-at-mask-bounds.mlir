// RUN: tritium-opt %s --tritium-cpu-split-loops-at-mask-bounds --canonicalize | FileCheck %s

// A masked copy of a 1024-element tile at offset %o: the iterations before
// clamp(min(n - o, 2^31 - o), 0, 1024) run without the test (plain load and store); the
// original loop, test and all, runs the rest.
// CHECK-LABEL: func.func @masked_copy
// CHECK-DAG: %[[O:.+]] = arith.extsi %arg2 : i32 to i64
// CHECK-DAG: %[[N:.+]] = arith.extsi %arg3 : i32 to i64
// CHECK: %[[LEFT:.+]] = arith.subi %[[N]], %[[O]] : i64
// CHECK: %[[NOWRAP:.+]] = arith.subi %{{.+}}, %[[O]] : i64
// CHECK: %[[END0:.+]] = arith.minsi %[[LEFT]], %[[NOWRAP]] : i64
// CHECK: %[[END1:.+]] = arith.maxsi %[[END0]], %{{.+}} : i64
// CHECK: %[[END2:.+]] = arith.minsi %[[END1]], %{{.+}} : i64
// CHECK: %[[END:.+]] = arith.index_cast %[[END2]] : i64 to index
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[END]] step
// CHECK-NOT: arith.cmpi
// CHECK-NOT: scf.if
// CHECK: llvm.load
// CHECK: llvm.store
// CHECK: }
// CHECK: scf.for %{{.+}} = %[[END]] to %{{.+}} step
// CHECK: arith.cmpi slt
// CHECK: scf.if
func.func @masked_copy(%src: !llvm.ptr, %dst: !llvm.ptr, %o: i32, %n: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c1024 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %e = arith.addi %o, %ii : i32
    %inside = arith.cmpi slt, %e, %n : i32
    %p = llvm.getelementptr %src[%e] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %v = scf.if %inside -> (f32) {
      %l = llvm.load %p : !llvm.ptr -> f32
      scf.yield %l : f32
    } else {
      scf.yield %zero : f32
    }
    %q = llvm.getelementptr %dst[%e] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %inside2 = arith.cmpi sgt, %n, %e : i32
    scf.if %inside2 {
      llvm.store %v, %q : f32, !llvm.ptr
    }
  }
  return
}

// A short loop (64 iterations) carrying a sum, mask `i <= last` on the bare index: versioned
// on "every iteration inside", with the copy keeping its constant bounds.
// CHECK-LABEL: func.func @masked_sum
// CHECK: %[[WHOLE:.+]] = arith.cmpi eq, %{{.+}}, %{{.+}} : index
// CHECK: scf.if %[[WHOLE]] -> (f32) {
// CHECK:   scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%{{.+}} = %{{.+}}) -> (f32) {
// CHECK-NOT: scf.if
// CHECK:     llvm.load
// CHECK: } else {
// CHECK:   scf.for
// CHECK:     arith.cmpi sle
func.func @masked_sum(%src: !llvm.ptr, %last: i32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
    %ii = arith.index_cast %i : index to i32
    %inside = arith.cmpi sle, %ii, %last : i32
    %p = llvm.getelementptr %src[%ii] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %v = scf.if %inside -> (f32) {
      %l = llvm.load %p : !llvm.ptr -> f32
      scf.yield %l : f32
    } else {
      scf.yield %zero : f32
    }
    %next = arith.addf %acc, %v : f32
    scf.yield %next : f32
  }
  return %sum : f32
}

// Left alone: fewer than 8 iterations, a bound that changes inside the loop, a non-unit step.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-3: scf.for
// CHECK-NOT: scf.for
func.func @left_alone(%dst: !llvm.ptr, %n: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %inside = arith.cmpi slt, %ii, %n : i32
    scf.if %inside {
      %q = llvm.getelementptr %dst[%ii] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %one, %q : f32, !llvm.ptr
    }
  }
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %q = llvm.getelementptr %dst[%ii] : (!llvm.ptr, i32) -> !llvm.ptr, i32
    %m = llvm.load %q : !llvm.ptr -> i32
    %inside = arith.cmpi slt, %ii, %m : i32
    scf.if %inside {
      llvm.store %one, %q : f32, !llvm.ptr
    }
  }
  scf.for %i = %c0 to %c64 step %c2 {
    %ii = arith.index_cast %i : index to i32
    %inside = arith.cmpi slt, %ii, %n : i32
    scf.if %inside {
      %q = llvm.getelementptr %dst[%ii] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      llvm.store %one, %q : f32, !llvm.ptr
    }
  }
  return
}
