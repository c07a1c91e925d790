// RUN: tritium-opt %s -split-input-file --carry-pointer-tile-offsets-as-scalars --canonicalize | FileCheck %s
// RUN: tritium-opt %s -split-input-file --carry-pointer-tile-offsets-as-scalars --convert-triton-to-linalg --canonicalize | FileCheck %s --check-prefix=LINALG

// The K loop of a matmul: `a_ptrs += BLOCK_K * stride` advances every pointer by one scalar,
// so the loop carries that scalar (as i64 elements) and loads from init + splat(offset).
// CHECK-LABEL: tt.func @k_loop
// CHECK-SAME: (%[[BASE:[^:]+]]: !tt.ptr<f32>, %[[STRIDE:[^:]+]]: i32
// CHECK: %[[INIT:.+]] = tt.addptr %{{.+}}, %{{.+}} : tensor<4x8x!tt.ptr<f32>>, tensor<4x8xi32>
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %{{.+}}, %[[OFF:.+]] = %{{.+}}) -> (tensor<4x8xf32>, i64)
// CHECK:   %[[SPLAT:.+]] = tt.splat %[[OFF]] : i64 -> tensor<4x8xi64>
// CHECK:   %[[PTRS:.+]] = tt.addptr %[[INIT]], %[[SPLAT]] : tensor<4x8x!tt.ptr<f32>>, tensor<4x8xi64>
// CHECK:   tt.load %[[PTRS]]
// CHECK:   %[[STEP:.+]] = arith.extsi %{{.+}} : i32 to i64
// CHECK:   %[[NEXT:.+]] = arith.addi %[[OFF]], %[[STEP]] : i64
// CHECK:   scf.yield %{{.+}}, %[[NEXT]] : tensor<4x8xf32>, i64
// CHECK-NOT: !tt.ptr<f32>>)
// LINALG-LABEL: func.func @k_loop
// LINALG: scf.for
// LINALG-NOT: llvm.inttoptr
// LINALG: llvm.getelementptr
// LINALG: llvm.load
tt.func @k_loop(%arg0: !tt.ptr<f32>, %stride: i32, %n: i32) -> tensor<4x8xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<4x8xf32>
  %rows = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %cols = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %r = tt.expand_dims %rows {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
  %s = tt.splat %stride : i32 -> tensor<4x1xi32>
  %rs = arith.muli %r, %s : tensor<4x1xi32>
  %rb = tt.broadcast %rs : tensor<4x1xi32> -> tensor<4x8xi32>
  %c = tt.expand_dims %cols {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
  %cb = tt.broadcast %c : tensor<1x8xi32> -> tensor<4x8xi32>
  %offs = arith.addi %rb, %cb : tensor<4x8xi32>
  %base = tt.splat %arg0 : !tt.ptr<f32> -> tensor<4x8x!tt.ptr<f32>>
  %init = tt.addptr %base, %offs : tensor<4x8x!tt.ptr<f32>>, tensor<4x8xi32>
  %res:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %ptrs = %init) -> (tensor<4x8xf32>, tensor<4x8x!tt.ptr<f32>>) : i32 {
    %v = tt.load %ptrs : tensor<4x8x!tt.ptr<f32>>
    %sum = arith.addf %acc, %v : tensor<4x8xf32>
    %step = arith.muli %c8, %stride : i32
    %steps = tt.splat %step : i32 -> tensor<4x8xi32>
    %next = tt.addptr %ptrs, %steps : tensor<4x8x!tt.ptr<f32>>, tensor<4x8xi32>
    scf.yield %sum, %next : tensor<4x8xf32>, tensor<4x8x!tt.ptr<f32>>
  }
  tt.return %res#0 : tensor<4x8xf32>
}

// -----

// Two uniform steps a round (one a splat constant) add up; the tile used after the loop is
// rebuilt from the final offset.
// CHECK-LABEL: tt.func @two_steps_and_use_after
// CHECK: %[[INIT:.+]] = tt.addptr %{{.+}}, %{{.+}} : tensor<16x!tt.ptr<f16>>, tensor<16xi32>
// CHECK: %[[FINAL:.+]] = scf.for {{.+}} iter_args(%[[OFF:.+]] = %{{.+}}) -> (i64)
// CHECK:   tt.addptr %[[INIT]]
// CHECK:   arith.addi %[[OFF]]
// CHECK:   arith.addi
// CHECK: %[[SPLAT:.+]] = tt.splat %[[FINAL]] : i64 -> tensor<16xi64>
// CHECK: %[[AFTER:.+]] = tt.addptr %[[INIT]], %[[SPLAT]]
// CHECK: tt.store %[[AFTER]]
tt.func @two_steps_and_use_after(%arg0: !tt.ptr<f16>, %step: i64, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %four = arith.constant dense<4> : tensor<16xi32>
  %range = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %base = tt.splat %arg0 : !tt.ptr<f16> -> tensor<16x!tt.ptr<f16>>
  %init = tt.addptr %base, %range : tensor<16x!tt.ptr<f16>>, tensor<16xi32>
  %last = scf.for %k = %c0 to %n step %c1 iter_args(%ptrs = %init) -> (tensor<16x!tt.ptr<f16>>) : i32 {
    %v = tt.load %ptrs : tensor<16x!tt.ptr<f16>>
    tt.store %ptrs, %v : tensor<16x!tt.ptr<f16>>
    %a = tt.addptr %ptrs, %four : tensor<16x!tt.ptr<f16>>, tensor<16xi32>
    %steps = tt.splat %step : i64 -> tensor<16xi64>
    %b = tt.addptr %a, %steps : tensor<16x!tt.ptr<f16>>, tensor<16xi64>
    scf.yield %b : tensor<16x!tt.ptr<f16>>
  }
  %zero = arith.constant dense<0.000000e+00> : tensor<16xf16>
  tt.store %last, %zero : tensor<16x!tt.ptr<f16>>
  tt.return
}

// -----

// A tile advanced by a non-uniform offset stays a loop-carried tile.
// CHECK-LABEL: tt.func @non_uniform_step_left_alone
// CHECK: scf.for {{.+}} iter_args(%{{.+}} = %{{.+}}) -> (tensor<16x!tt.ptr<f32>>)
// CHECK-NOT: tt.splat %{{.+}} : i64
tt.func @non_uniform_step_left_alone(%arg0: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %range = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %base = tt.splat %arg0 : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %init = tt.addptr %base, %range : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %last = scf.for %k = %c0 to %n step %c1 iter_args(%ptrs = %init) -> (tensor<16x!tt.ptr<f32>>) : i32 {
    %v = tt.load %ptrs : tensor<16x!tt.ptr<f32>>
    tt.store %ptrs, %v : tensor<16x!tt.ptr<f32>>
    %next = tt.addptr %ptrs, %range : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    scf.yield %next : tensor<16x!tt.ptr<f32>>
  }
  tt.return
}

// -----

// Nested loops: the inner tile starts from the outer one, each loop carries its own offset.
// CHECK-LABEL: tt.func @nested
// CHECK: %[[INIT:.+]] = tt.addptr %{{.+}}, %{{.+}} : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
// CHECK: scf.for {{.+}} iter_args(%[[OUTER:.+]] = %{{.+}}) -> (i64)
// CHECK:   %[[OS:.+]] = tt.splat %[[OUTER]] : i64 -> tensor<8xi64>
// CHECK:   %[[O:.+]] = tt.addptr %[[INIT]], %[[OS]] : tensor<8x!tt.ptr<i32>>, tensor<8xi64>
// CHECK:   %[[FINAL:.+]] = scf.for {{.+}} iter_args(%[[INNER:.+]] = %{{.+}}) -> (i64)
// CHECK:     %[[S:.+]] = tt.splat %[[INNER]] : i64 -> tensor<8xi64>
// CHECK:     tt.addptr %[[O]], %[[S]]
// CHECK:   %[[T:.+]] = arith.addi %[[OUTER]], %{{.+}} : i64
// CHECK:   %[[U:.+]] = arith.addi %[[T]], %[[FINAL]] : i64
// CHECK:   scf.yield %[[U]] : i64
// CHECK-NOT: !tt.ptr<i32>>)
tt.func @nested(%arg0: !tt.ptr<i32>, %n: i32, %step: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %range = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %base = tt.splat %arg0 : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
  %init = tt.addptr %base, %range : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
  %steps = tt.splat %step : i32 -> tensor<8xi32>
  %o = scf.for %i = %c0 to %n step %c1 iter_args(%outer = %init) -> (tensor<8x!tt.ptr<i32>>) : i32 {
    %in = scf.for %j = %c0 to %n step %c1 iter_args(%inner = %outer) -> (tensor<8x!tt.ptr<i32>>) : i32 {
      %v = tt.load %inner : tensor<8x!tt.ptr<i32>>
      tt.store %inner, %v : tensor<8x!tt.ptr<i32>>
      %next = tt.addptr %inner, %steps : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
      scf.yield %next : tensor<8x!tt.ptr<i32>>
    }
    %next = tt.addptr %in, %steps : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
    scf.yield %next : tensor<8x!tt.ptr<i32>>
  }
  tt.return
}
