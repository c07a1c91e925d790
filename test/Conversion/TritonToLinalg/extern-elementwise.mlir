// RUN: tritium-opt %s -split-input-file --convert-triton-to-linalg --canonicalize | FileCheck %s

// CUDA libdevice's integer functions become arith ops, not calls.
// CHECK-LABEL: func.func @cuda_integer_functions
// CHECK-NOT: func.call
// CHECK: arith.mulsi_extended
// CHECK: arith.mului_extended
// CHECK: math.ctpop %{{.+}} : tensor<8xi64>
// CHECK: arith.trunci %{{.+}} : tensor<8xi64> to tensor<8xi32>
// CHECK-NOT: func.call
tt.func @cuda_integer_functions(%x: tensor<8xi32>, %y: tensor<8xi64>) -> (tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi32>) {
  %0 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_brev"} : (tensor<8xi32>) -> tensor<8xi32>
  %1 = tt.extern_elementwise %x, %x {libname = "", libpath = "", pure = true, symbol = "__nv_mulhi"} : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
  %2 = tt.extern_elementwise %x, %x {libname = "", libpath = "", pure = true, symbol = "__nv_umulhi"} : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
  %3 = tt.extern_elementwise %y {libname = "", libpath = "", pure = true, symbol = "__nv_popcll"} : (tensor<8xi64>) -> tensor<8xi32>
  tt.return %0, %1, %2, %3 : tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi32>
}

// -----

// Directed rounding: arithmetic calls the device runtime's function for that direction; a
// float-to-integer conversion rounds in the direction (ceil for ru) and converts.
// CHECK: func.func private @tritium_fadd_rd(f32, f32) -> f32
// CHECK-LABEL: func.func @directed_rounding
// CHECK: linalg.generic
// CHECK: func.call @tritium_fadd_rd(%{{.+}}, %{{.+}}) : (f32, f32) -> f32
// CHECK: %[[UP:.+]] = math.ceil %{{.+}} : tensor<8xf32>
// CHECK: arith.fptosi %[[UP]] : tensor<8xf32> to tensor<8xi64>
tt.func @directed_rounding(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xi64>) {
  %0 = tt.extern_elementwise %x, %x {libname = "", libpath = "", pure = true, symbol = "__nv_fadd_rd"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %1 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_float2ll_ru"} : (tensor<8xf32>) -> tensor<8xi64>
  tt.return %0, %1 : tensor<8xf32>, tensor<8xi64>
}
