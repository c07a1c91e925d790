// RUN: tritium-opt %s --tritium-cpu-add-kernel-entry | FileCheck %s

// The entry reads each argument from its 8-byte slot and forwards program id and grid size;
// the kernel becomes private so LLVM inlines it.
// CHECK-LABEL: func.func private @kernel(
// CHECK-LABEL: func.func @kernel__entry
// CHECK-SAME: (%[[ARGS:[^:]+]]: !llvm.ptr, %[[PX:[^:]+]]: i32, %[[PY:[^:]+]]: i32, %[[PZ:[^:]+]]: i32, %[[GX:[^:]+]]: i32, %[[GY:[^:]+]]: i32, %[[GZ:[^:]+]]: i32)
// CHECK: %[[S0:.+]] = llvm.getelementptr %[[ARGS]][0] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK: %[[A0:.+]] = llvm.load %[[S0]] {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[S1:.+]] = llvm.getelementptr %[[ARGS]][1] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK: %[[A1:.+]] = llvm.load %[[S1]] {alignment = 8 : i64} : !llvm.ptr -> f32
// CHECK: call @kernel(%[[A0]], %[[A1]], %[[PX]], %[[PY]], %[[PZ]], %[[GX]], %[[GY]], %[[GZ]])
func.func public @kernel(%arg0: !llvm.ptr, %arg1: f32, %px: i32, %py: i32, %pz: i32, %gx: i32, %gy: i32, %gz: i32) {
  return
}
