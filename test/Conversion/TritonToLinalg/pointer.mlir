// RUN: tritium-opt %s -split-input-file --convert-triton-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @addptr_scalar
// CHECK-SAME: (%[[P:[^:]+]]: !llvm.ptr, %[[OFF:[^:]+]]: i32
// CHECK: llvm.getelementptr %[[P]][%[[OFF]]] : (!llvm.ptr, i32) -> !llvm.ptr, f16
tt.func @addptr_scalar(%arg0: !tt.ptr<f16>, %arg1: i32) -> !tt.ptr<f16> {
  %0 = tt.addptr %arg0, %arg1 : !tt.ptr<f16>, i32
  tt.return %0 : !tt.ptr<f16>
}

// -----

// Tensors of pointers are i64 byte addresses: offsets are scaled by the element size.
// CHECK-LABEL: func.func @addptr_tensor
// CHECK-SAME: -> tensor<16xi64>
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.+}}, %{{.+}} : tensor<16xi64>, tensor<16xi32>)
// CHECK: ^bb0(%[[ADDR:.+]]: i64, %[[OFF:.+]]: i32, %{{.+}}: i64):
// CHECK: %[[WIDE:.+]] = arith.extsi %[[OFF]] : i32 to i64
// CHECK: %[[SIZE:.+]] = arith.constant 8 : i64
// CHECK: %[[BYTES:.+]] = arith.muli %[[WIDE]], %[[SIZE]] : i64
// CHECK: arith.addi %[[ADDR]], %[[BYTES]] : i64
tt.func @addptr_tensor(%arg0: tensor<16x!tt.ptr<f64>>, %arg1: tensor<16xi32>) -> tensor<16x!tt.ptr<f64>> {
  %0 = tt.addptr %arg0, %arg1 : tensor<16x!tt.ptr<f64>>, tensor<16xi32>
  tt.return %0 : tensor<16x!tt.ptr<f64>>
}

// -----

// CHECK-LABEL: func.func @int_ptr_casts
// CHECK: %[[P:.+]] = llvm.inttoptr %{{.+}} : i64 to !llvm.ptr
// CHECK: llvm.ptrtoint %[[P]] : !llvm.ptr to i64
tt.func @int_ptr_casts(%arg0: i64) -> i64 {
  %0 = tt.int_to_ptr %arg0 : i64 -> !tt.ptr<f32>
  %1 = tt.ptr_to_int %0 : !tt.ptr<f32> -> i64
  tt.return %1 : i64
}

// -----

// CHECK-LABEL: func.func @bitcast
// CHECK: arith.bitcast %{{.+}} : tensor<4xf32> to tensor<4xi32>
tt.func @bitcast(%arg0: tensor<4xf32>) -> tensor<4xi32> {
  %0 = tt.bitcast %arg0 : tensor<4xf32> -> tensor<4xi32>
  tt.return %0 : tensor<4xi32>
}

// -----

// Pointers chosen by arith.select (Inductor) or carried by scf.for keep their converted type.
// CHECK-LABEL: func.func @pointer_select_and_loop
// CHECK: %[[SEL:.+]] = arith.select %{{.+}}, %{{.+}}, %{{.+}} : !llvm.ptr
// CHECK: scf.for {{.+}} iter_args(%[[IT:.+]] = %[[SEL]]) -> (!llvm.ptr)
// CHECK: llvm.getelementptr %[[IT]]
tt.func @pointer_select_and_loop(%arg0: !tt.ptr<f32>, %arg1: !tt.ptr<f32>, %arg2: i1, %arg3: i32) -> !tt.ptr<f32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %0 = arith.select %arg2, %arg0, %arg1 : !tt.ptr<f32>
  %1 = scf.for %i = %c0 to %arg3 step %c1 iter_args(%p = %0) -> (!tt.ptr<f32>) : i32 {
    %2 = tt.addptr %p, %c1 : !tt.ptr<f32>, i32
    scf.yield %2 : !tt.ptr<f32>
  }
  tt.return %1 : !tt.ptr<f32>
}
