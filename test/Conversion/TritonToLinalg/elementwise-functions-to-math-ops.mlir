// RUN: tritium-opt %s -split-input-file --elementwise-functions-to-math-ops | FileCheck %s

// libdevice's exp (C and CUDA spellings) of f32 becomes math.exp, and so do the other
// functions the CPU computes with vector instructions.
// CHECK-LABEL: tt.func @vectorized_functions
// CHECK: %[[E:.+]] = math.exp %arg0 : tensor<8xf32>
// CHECK: %[[F:.+]] = math.exp %arg0 : tensor<8xf32>
// CHECK: %[[S:.+]] = math.sqrt %arg1 : tensor<8xf64>
// CHECK: %[[M:.+]] = math.fma %arg0, %arg0, %arg0 : tensor<8xf32>
// CHECK-NOT: tt.extern_elementwise
// CHECK: tt.return %[[E]], %[[F]], %[[S]], %[[M]]
tt.func @vectorized_functions(%x: tensor<8xf32>, %d: tensor<8xf64>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf64>, tensor<8xf32>) {
  %0 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "expf"} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_expf"} : (tensor<8xf32>) -> tensor<8xf32>
  %2 = tt.extern_elementwise %d {libname = "", libpath = "", pure = true, symbol = "sqrt"} : (tensor<8xf64>) -> tensor<8xf64>
  %3 = tt.extern_elementwise %x, %x, %x {libname = "", libpath = "", pure = true, symbol = "fmaf"} : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  tt.return %0, %1, %2, %3 : tensor<8xf32>, tensor<8xf32>, tensor<8xf64>, tensor<8xf32>
}

// -----

// Calls stay calls where the math op would be a C library call per element anyway (f64 exp,
// pow, sin), where the function is not pure, or is no math op (erfinv).
// CHECK-LABEL: tt.func @calls_kept
// CHECK-COUNT-5: tt.extern_elementwise
// CHECK-NOT: math.
tt.func @calls_kept(%x: tensor<8xf32>, %d: tensor<8xf64>) -> (tensor<8xf64>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = tt.extern_elementwise %d {libname = "", libpath = "", pure = true, symbol = "exp"} : (tensor<8xf64>) -> tensor<8xf64>
  %1 = tt.extern_elementwise %x, %x {libname = "", libpath = "", pure = true, symbol = "powf"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %2 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "sinf"} : (tensor<8xf32>) -> tensor<8xf32>
  %3 = tt.extern_elementwise %x {libname = "", libpath = "", pure = false, symbol = "expf"} : (tensor<8xf32>) -> tensor<8xf32>
  %4 = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "erfinvf"} : (tensor<8xf32>) -> tensor<8xf32>
  tt.return %0, %1, %2, %3, %4 : tensor<8xf64>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// Triton's precise square root and divisions are the IEEE operations of a CPU.
// CHECK-LABEL: tt.func @precise_and_approximate
// CHECK: %[[S:.+]] = math.sqrt %arg0 : tensor<8xf32>
// CHECK: %[[D:.+]] = arith.divf %[[S]], %arg0 : tensor<8xf32>
// CHECK: %[[A:.+]] = arith.divf %[[D]], %arg0 : tensor<8xf32>
// CHECK: tt.return %[[A]]
tt.func @precise_and_approximate(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = tt.precise_sqrt %x : tensor<8xf32>
  %1 = tt.precise_divf %0, %x : tensor<8xf32>
  %2 = tt.approx_divf %1, %x : tensor<8xf32>
  tt.return %2 : tensor<8xf32>
}
