// RUN: tritium-opt %s -split-input-file --convert-triton-to-linalg | FileCheck %s

// The tile's addresses first, in a loop of their own into a buffer of integers (plain
// arithmetic, which vectorizes); then one atomic instruction per element at its loaded
// address, under the element's mask; masked-off lanes yield 0.
// CHECK-LABEL: func.func @atomic_rmw_masked
// CHECK-NOT: tritium_launch_runs_alone
// CHECK: %[[ADDRESSES:.+]] = memref.alloc() : memref<16xi64>
// CHECK: scf.for %[[I:.+]] =
// CHECK: %[[BITS:.+]] = llvm.ptrtoint %{{.+}} : !llvm.ptr to i64
// CHECK: memref.store %[[BITS]], %[[ADDRESSES]][%[[I]]]
// CHECK: scf.for %[[J:.+]] =
// CHECK: %[[LOADED:.+]] = memref.load %[[ADDRESSES]][%[[J]]]
// CHECK: %[[PTR:.+]] = llvm.inttoptr %[[LOADED]] : i64 to !llvm.ptr
// CHECK: scf.if %{{.+}} -> (f32)
// CHECK: llvm.atomicrmw fadd %[[PTR]], %{{.+}} acq_rel
// CHECK: } else {
// CHECK: arith.constant 0.000000e+00 : f32
tt.func @atomic_rmw_masked(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf32>, %m: tensor<16xi1>) -> tensor<16xf32> {
  %0 = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v, %m : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>, tensor<16xi1>) -> tensor<16xf32>
  tt.return %0 : tensor<16xf32>
}

// -----

// A relaxed operation of device scope asks once whether its launch runs alone; then each
// element is a plain load, operation and store, else the atomic instruction.
// CHECK-LABEL: func.func @atomic_rmw_relaxed_runs_alone
// CHECK: %[[ANSWER:.+]] = call @tritium_launch_runs_alone() : () -> i32
// CHECK: %[[ALONE:.+]] = arith.cmpi ne, %[[ANSWER]]
// CHECK: scf.for
// CHECK: scf.if %[[ALONE]] -> (i32)
// CHECK: %[[OLD:.+]] = llvm.load %{{.+}} {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK: %[[NEW:.+]] = arith.maxsi %[[OLD]], %{{.+}} : i32
// CHECK: llvm.store %[[NEW]], %{{.+}} {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK: scf.yield %[[OLD]]
// CHECK: } else {
// CHECK: llvm.atomicrmw max %{{.+}}, %{{.+}} monotonic
tt.func @atomic_rmw_relaxed_runs_alone(%p: tensor<16x!tt.ptr<i32>>, %v: tensor<16xi32>) -> tensor<16xi32> {
  %0 = tt.atomic_rmw max, relaxed, gpu, %p, %v : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>) -> tensor<16xi32>
  tt.return %0 : tensor<16xi32>
}

// -----

// System scope reaches memory that other processes may share: always atomic. A scalar's
// address needs no buffer.
// CHECK-LABEL: func.func @atomic_rmw_relaxed_system
// CHECK-NOT: tritium_launch_runs_alone
// CHECK-NOT: memref.alloc
// CHECK: llvm.atomicrmw fadd %{{.+}}, %{{.+}} monotonic
tt.func @atomic_rmw_relaxed_system(%p: !tt.ptr<f32>, %v: f32) -> f32 {
  %0 = tt.atomic_rmw fadd, relaxed, sys, %p, %v : (!tt.ptr<f32>, f32) -> f32
  tt.return %0 : f32
}

// -----

// Compare-and-swap of floats compares their bits.
// CHECK-LABEL: func.func @atomic_cas_float
// CHECK: arith.bitcast %{{.+}} : f32 to i32
// CHECK: llvm.cmpxchg %{{.+}}, %{{.+}}, %{{.+}} acq_rel acquire
// CHECK: arith.bitcast %{{.+}} : i32 to f32
tt.func @atomic_cas_float(%p: !tt.ptr<f32>, %c: f32, %v: f32) -> f32 {
  %0 = tt.atomic_cas acq_rel, gpu, %p, %c, %v : (!tt.ptr<f32>, f32, f32) -> f32
  tt.return %0 : f32
}

// -----

// Atomic loads and stores move the bits as an integer of the element's width.
// CHECK-LABEL: func.func @atomic_load_store
// CHECK: scf.if %{{.+}} -> (f16)
// CHECK: %[[BITS:.+]] = llvm.load %{{.+}} atomic acquire {{.*}}alignment = 2 : i64} : !llvm.ptr -> i16
// CHECK: arith.bitcast %[[BITS]] : i16 to f16
// CHECK: arith.constant 0.000000e+00 : f16
// CHECK: scf.if
// CHECK: %[[OUT:.+]] = arith.bitcast %{{.+}} : f16 to i16
// CHECK: llvm.store %[[OUT]], %{{.+}} atomic release {{.*}}alignment = 2 : i64} : i16, !llvm.ptr
tt.func @atomic_load_store(%p: tensor<16x!tt.ptr<f16>>, %q: tensor<16x!tt.ptr<f16>>, %m: tensor<16xi1>) {
  %0 = tt.atomic_load acquire, gpu, %p, %m : (tensor<16x!tt.ptr<f16>>, tensor<16xi1>) -> tensor<16xf16>
  tt.atomic_store release, gpu, %q, %0, %m : tensor<16x!tt.ptr<f16>>
  tt.return
}

// -----

// atomic_poll spins on an atomic load until the value is seen or the timeout, counted from
// the op's start by the device runtime's clock, expires.
// CHECK-LABEL: func.func @atomic_poll
// CHECK: %[[START:.+]] = call @tritium_nanoseconds() : () -> i64
// CHECK: scf.while : () -> i1 {
// CHECK: %[[V:.+]] = llvm.load %{{.+}} atomic acquire {{.*}}alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK: %[[SEEN:.+]] = arith.cmpi eq, %[[V]], %{{.+}} : i32
// CHECK: %[[NOW:.+]] = func.call @tritium_nanoseconds()
// CHECK: arith.subi %[[NOW]], %[[START]] : i64
// CHECK: arith.cmpi ult
// CHECK: scf.condition(%{{.+}}) %[[SEEN]] : i1
tt.func @atomic_poll(%p: !tt.ptr<i32>, %e: i32, %t: i64) -> i1 {
  %0 = tt.atomic_poll acquire, gpu, %p, %e timeout %t : !tt.ptr<i32>, i32 -> i1
  tt.return %0 : i1
}
