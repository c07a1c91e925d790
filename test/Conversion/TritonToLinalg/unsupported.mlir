// RUN: tritium-opt %s -split-input-file --convert-triton-to-linalg -verify-diagnostics

// Inline assembly is the one op with no CPU meaning: it is named, at its location.
tt.func @inline_asm(%arg0: tensor<16xi32>) -> tensor<16xi32> {
  // expected-error @+1 {{tritium cannot lower 'tt.elementwise_inline_asm': inline assembly is written for a GPU instruction set and has no meaning on this device}}
  %0 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %arg0 : tensor<16xi32> -> tensor<16xi32>
  tt.return %0 : tensor<16xi32>
}

// -----

// TTGIR ops without a CPU meaning are rejected with the reason.
tt.func @warp_id() -> i32 {
  // expected-error @+1 {{tritium cannot lower 'ttg.warp_id': warp specialization divides a program among GPU warps; a CPU program is one thread}}
  %0 = ttg.warp_id
  tt.return %0 : i32
}

// -----

// fp6 operands of dot_scaled are named with what to do.
tt.func @dot_scaled_fp6(%a: tensor<16x32xi8>, %b: tensor<32x8xbf16>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+2 {{tritium lowers tt.dot_scaled for e2m1, e4m3, e5m2, bf16 and fp16 operands; e2m3 (fp6) is not supported: convert the operand to bf16 first}}
  // expected-error @+1 {{failed to legalize operation 'tt.dot_scaled'}}
  %0 = tt.dot_scaled %a, %b, %c lhs = e2m3 rhs = bf16 {fastMath = false} : tensor<16x32xi8> * tensor<32x8xbf16> -> tensor<16x8xf32>
  tt.return %0 : tensor<16x8xf32>
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @warp_specialize(%arg0: tensor<128xf32, #blocked>, %arg1: i32) -> tensor<128xf32, #blocked> {
    // expected-error @+1 {{tritium cannot lower 'ttg.warp_specialize': warp specialization divides a program among GPU warps; a CPU program is one thread}}
    %0 = ttg.warp_specialize(%arg1)
    default {
      ttg.warp_yield %arg0 : tensor<128xf32, #blocked>
    }
    partition0(%arg2: i32) num_warps(4) {
      ttg.warp_return
    } : (i32) -> tensor<128xf32, #blocked>
    tt.return %0 : tensor<128xf32, #blocked>
  }
}

// -----

tt.func @global_scratch() {
  // expected-error @+1 {{tritium cannot lower 'ttg.global_scratch_alloc': global scratch memory is allocated by the GPU launcher}}
  %0 = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @ttg_inline_asm(%arg0: tensor<128xf32, #blocked>) -> tensor<128xf32, #blocked> {
    // expected-error @+1 {{tritium cannot lower 'ttg.inline_asm': inline assembly is written for a GPU instruction set}}
    %0 = ttg.inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", pure = true} %arg0 : (tensor<128xf32, #blocked>) -> tensor<128xf32, #blocked>
    tt.return %0 : tensor<128xf32, #blocked>
  }
}
