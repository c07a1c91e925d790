// RUN: tritium-opt %s -split-input-file --verify-linalg-contract -verify-diagnostics | FileCheck %s

// A kernel inside the contract: pointers and scalars, the six grid i32, linalg on tensors,
// LLVM pointer ops, a device runtime function and a C library function.
// CHECK-LABEL: func.func @add_kernel
func.func private @tritium_nanoseconds() -> i64
func.func private @fmodf(f32, f32) -> f32
func.func @add_kernel(%x: !llvm.ptr, %n: i32, %scale: f32, %px: i32, %py: i32, %pz: i32,
                      %gx: i32, %gy: i32, %gz: i32) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1 = arith.constant 1 : index
  %buf = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %i32 = arith.index_cast %i : index to i32
    %p = llvm.getelementptr %x[%i32] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %v = llvm.load %p : !llvm.ptr -> f32
    %r = func.call @fmodf(%v, %scale) : (f32, f32) -> f32
    memref.store %r, %buf[%i] : memref<16xf32>
  }
  %t = bufferization.to_tensor %buf restrict writable : memref<16xf32> to tensor<16xf32>
  %e = tensor.empty() : tensor<16xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]} ins(%t : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = math.exp %in : f32
    linalg.yield %m : f32
  } -> tensor<16xf32>
  %time = func.call @tritium_nanoseconds() : () -> i64
  return
}

// -----

// Triton's ops are not part of it.
func.func @leftover(%x: !llvm.ptr, %px: i32, %py: i32, %pz: i32, %gx: i32, %gy: i32, %gz: i32) {
  // expected-error @+1 {{outside the linalg contract (docs/new-device.md): 'vector.broadcast' is not an op of the contract}}
  %0 = vector.broadcast %px : i32 to vector<4xi32>
  return
}

// -----

// Only the LLVM dialect's pointer ops are.
func.func @llvm_call(%x: !llvm.ptr, %px: i32, %py: i32, %pz: i32, %gx: i32, %gy: i32, %gz: i32) {
  %f = arith.constant 1.0 : f32
  // expected-error @+1 {{'llvm.fadd' is not an op of the contract}}
  %0 = llvm.fadd %f, %f : f32
  return
}

// -----

// The six grid arguments close the kernel's signature.
// expected-error @+1 {{argument 2 of 'short_grid' is 'f32'; the last six are i32 (program id x, y, z; grid size x, y, z)}}
func.func @short_grid(%x: !llvm.ptr, %px: i32, %py: f32, %pz: i32, %gx: i32, %gy: i32, %gz: i32) {
  return
}

// -----

// expected-error @+1 {{the kernel 'too_few' lacks the six trailing i32 grid arguments}}
func.func @too_few(%x: !llvm.ptr) {
  return
}

// -----

// expected-error @+1 {{argument 0 of 'indexed' is 'index'; kernel arguments are !llvm.ptr, integers and floats}}
func.func @indexed(%x: index, %px: i32, %py: i32, %pz: i32, %gx: i32, %gy: i32, %gz: i32) {
  return
}

// -----

// expected-error @+1 {{the kernel 'returns' returns values}}
func.func @returns(%px: i32, %py: i32, %pz: i32, %gx: i32, %gy: i32, %gz: i32) -> i32 {
  return %px : i32
}

// -----

func.func @first(%px: i32, %py: i32, %pz: i32, %gx: i32, %gy: i32, %gz: i32) {
  return
}
// expected-error @+1 {{a second public function 'second': a module holds one kernel (helpers are private)}}
func.func @second(%px: i32, %py: i32, %pz: i32, %gx: i32, %gy: i32, %gz: i32) {
  return
}

// -----

// expected-error @+1 {{the external function 'takes_a_tile' is neither a device runtime function nor a scalar function}}
func.func private @takes_a_tile(tensor<4xf32>) -> f32
func.func @kernel(%px: i32, %py: i32, %pz: i32, %gx: i32, %gy: i32, %gz: i32) {
  return
}

// -----

// Types: x87's f80 and odd-width integers are not devices' business.
func.func @wide(%px: i32, %py: i32, %pz: i32, %gx: i32, %gy: i32, %gz: i32) {
  // expected-error @+1 {{'arith.constant' produces a value of type 'f80'}}
  %0 = arith.constant 1.0 : f80
  return
}

// -----

// expected-error @+1 {{no kernel: one public func.func with a body is expected}}
module {
  func.func private @helper(%a: i32) -> i32 {
    return %a : i32
  }
}
