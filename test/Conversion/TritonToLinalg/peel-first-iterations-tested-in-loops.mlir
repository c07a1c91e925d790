// RUN: tritium-opt %s -split-input-file --peel-first-iterations-tested-in-loops | FileCheck %s

// Inductor's Welford step: `roffset == 0` picks the first iteration's arm. The first iteration
// runs apart (upper bound min(ub, lb + step): no iteration when the loop has none) with the
// first arm, the rest from lb + step with the other; no branch is left.
// CHECK-LABEL: tt.func @welford_like
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : i32
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : i32
// CHECK: %[[FIRST_UB:.+]] = arith.minsi %[[UB:.+]], %[[C4]] : i32
// CHECK: %[[FIRST:.+]] = scf.for %[[I:.+]] = %[[C0]] to %[[FIRST_UB]] step %[[C4]] iter_args(%[[A:.+]] = %{{.+}})
// CHECK-NOT: scf.if
// CHECK: scf.yield %[[X:.+]] : tensor<4xf32>
// CHECK: scf.for %{{.+}} = %[[C4]] to %[[UB]] step %[[C4]] iter_args(%[[B:.+]] = %[[FIRST]])
// CHECK-NOT: scf.if
// CHECK: arith.addf %[[B]]
// CHECK-NOT: scf.if
tt.func @welford_like(%ub: i32, %x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %r = scf.for %i = %c0 to %ub step %c4 iter_args(%acc = %zero) -> (tensor<4xf32>) : i32 {
    %first = arith.cmpi eq, %i, %c0 : i32
    %next = scf.if %first -> (tensor<4xf32>) {
      scf.yield %x : tensor<4xf32>
    } else {
      %sum = arith.addf %acc, %x : tensor<4xf32>
      scf.yield %sum : tensor<4xf32>
    }
    scf.yield %next : tensor<4xf32>
  }
  tt.return %r : tensor<4xf32>
}

// -----

// `ne` answers the other way round; a nonzero lower bound is what the test compares with.
// CHECK-LABEL: tt.func @not_first_from_two
// CHECK-DAG: %[[TWO:.+]] = arith.constant 2.000000e+00 : f32
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : i32
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : i32
// CHECK: scf.for %{{.+}} = %[[C2]] to
// CHECK-NEXT: tt.store %{{.+}}, %[[TWO]]
// CHECK: scf.for %{{.+}} = %[[C3]] to
// CHECK-NEXT: tt.store %{{.+}}, %[[ONE]]
tt.func @not_first_from_two(%ub: i32, %p: !tt.ptr<f32>) {
  %c2 = arith.constant 2 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c2 to %ub step %c1 : i32 {
    %later = arith.cmpi ne, %c2, %i : i32
    %v = scf.if %later -> (f32) {
      %one = arith.constant 1.0 : f32
      scf.yield %one : f32
    } else {
      %two = arith.constant 2.0 : f32
      scf.yield %two : f32
    }
    tt.store %p, %v : !tt.ptr<f32>
  }
  tt.return
}

// -----

// Left alone: a test against another value than the lower bound, a loop of one iteration,
// and a non-constant step.
// CHECK-LABEL: tt.func @left_alone
// CHECK-COUNT-3: scf.if
// CHECK-NOT: arith.minsi
tt.func @left_alone(%ub: i32, %step: i32, %p: !tt.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  scf.for %i = %c0 to %ub step %c4 : i32 {
    %second = arith.cmpi eq, %i, %c4 : i32
    %v = scf.if %second -> (f32) {
      scf.yield %one : f32
    } else {
      scf.yield %two : f32
    }
    tt.store %p, %v : !tt.ptr<f32>
  }
  scf.for %i = %c0 to %c1 step %c4 : i32 {
    %first = arith.cmpi eq, %i, %c0 : i32
    %v = scf.if %first -> (f32) {
      scf.yield %one : f32
    } else {
      scf.yield %two : f32
    }
    tt.store %p, %v : !tt.ptr<f32>
  }
  scf.for %i = %c0 to %ub step %step : i32 {
    %first = arith.cmpi eq, %i, %c0 : i32
    %v = scf.if %first -> (f32) {
      scf.yield %one : f32
    } else {
      scf.yield %two : f32
    }
    tt.store %p, %v : !tt.ptr<f32>
  }
  tt.return
}
