// RUN: tritium-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// Triton 3.9 names the address spaces of its pointers: `tl.const` pointers (read-only global
// memory) are "constant", pointers to tensor descriptors "descriptor"; global memory prints
// bare, and other spaces print as numbers. Each prints back as it was written.
// CHECK-LABEL: tt.func @named
// CHECK-SAME: %{{.+}}: !tt.ptr<f32, "constant">, %{{.+}}: !tt.ptr<i8, "descriptor">, %{{.+}}: !tt.ptr<f16>, %{{.+}}: !tt.ptr<f32, 3>
// CHECK: tt.splat %{{.+}} : !tt.ptr<f32, "constant"> -> tensor<4x!tt.ptr<f32, "constant">>
// CHECK: tt.load %{{.+}} : tensor<4x!tt.ptr<f32, "constant">>
tt.func @named(%c: !tt.ptr<f32, "constant">, %d: !tt.ptr<i8, "descriptor">, %g: !tt.ptr<f16, "global">, %n: !tt.ptr<f32, 3>) -> tensor<4xf32> {
  %0 = tt.splat %c : !tt.ptr<f32, "constant"> -> tensor<4x!tt.ptr<f32, "constant">>
  %1 = tt.load %0 : tensor<4x!tt.ptr<f32, "constant">>
  tt.return %1 : tensor<4xf32>
}

// -----

// expected-error @+1 {{unknown address space "shared" (expected "global", "descriptor" or "constant")}}
tt.func @unknown(%p: !tt.ptr<f32, "shared">) {
  tt.return
}
