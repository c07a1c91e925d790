// RUN: tritium-opt %s -split-input-file --convert-triton-to-linalg | FileCheck %s

// Pointer arguments become !llvm.ptr; six i32 follow: program id x, y, z, grid size x, y, z.
// CHECK-LABEL: func.func public @kernel_abi
// CHECK-SAME: (%[[P:[^:]+]]: !llvm.ptr {tt.divisibility = 16 : i32}, %[[N:[^:]+]]: i32, %[[PX:[^:]+]]: i32, %[[PY:[^:]+]]: i32, %[[PZ:[^:]+]]: i32, %[[GX:[^:]+]]: i32, %[[GY:[^:]+]]: i32, %[[GZ:[^:]+]]: i32)
// CHECK: arith.addi %[[PY]], %[[GZ]]
// CHECK: return
tt.func public @kernel_abi(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %arg1: i32) {
  %0 = tt.get_program_id y : i32
  %1 = tt.get_num_programs z : i32
  %2 = arith.addi %0, %1 : i32
  tt.return
}

// -----

// Calls forward the caller's program id and grid size.
// CHECK-LABEL: func.func private @helper
// CHECK-SAME: (%{{.+}}: f32, %{{.+}}: i32, %{{.+}}: i32, %{{.+}}: i32, %{{.+}}: i32, %{{.+}}: i32, %{{.+}}: i32) -> f32
// CHECK-LABEL: func.func public @caller
// CHECK-SAME: (%[[X:[^:]+]]: f32, %[[PX:[^:]+]]: i32, %[[PY:[^:]+]]: i32, %[[PZ:[^:]+]]: i32, %[[GX:[^:]+]]: i32, %[[GY:[^:]+]]: i32, %[[GZ:[^:]+]]: i32)
// CHECK: call @helper(%[[X]], %[[PX]], %[[PY]], %[[PZ]], %[[GX]], %[[GY]], %[[GZ]]) : (f32, i32, i32, i32, i32, i32, i32) -> f32
tt.func private @helper(%arg0: f32) -> f32 {
  %0 = tt.get_program_id x : i32
  %1 = arith.sitofp %0 : i32 to f32
  %2 = arith.addf %arg0, %1 : f32
  tt.return %2 : f32
}
tt.func public @caller(%arg0: f32) {
  %0 = tt.call @helper(%arg0) : (f32) -> f32
  tt.return
}
