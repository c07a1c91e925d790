// RUN: tritium-opt %s -split-input-file --unit-dim-reshapes-as-expand-dims | FileCheck %s

// A descriptor block's offsets, as Triton's rewrite of descriptors to pointers builds them:
// rows reshaped to [128, 1] and columns to [1, 64] are expand_dims at axes 1 and 0.
// CHECK-LABEL: tt.func @descriptor_offsets
// CHECK: %[[ROWS:.+]] = tt.expand_dims %{{.+}} {axis = 1 : i32} : tensor<128xi64> -> tensor<128x1xi64>
// CHECK: %[[COLS:.+]] = tt.expand_dims %{{.+}} {axis = 0 : i32} : tensor<64xi64> -> tensor<1x64xi64>
// CHECK-NOT: tt.reshape
// CHECK: arith.muli %[[ROWS]]
// CHECK: tt.broadcast %[[COLS]]
tt.func @descriptor_offsets(%base: !tt.ptr<f32>, %stride: i64) -> tensor<128x64xf32> {
  %rows = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %rows64 = arith.extsi %rows : tensor<128xi32> to tensor<128xi64>
  %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %cols64 = arith.extsi %cols : tensor<64xi32> to tensor<64xi64>
  %r = tt.reshape %rows64 : tensor<128xi64> -> tensor<128x1xi64>
  %c = tt.reshape %cols64 : tensor<64xi64> -> tensor<1x64xi64>
  %s = tt.splat %stride : i64 -> tensor<128x1xi64>
  %scaled = arith.muli %r, %s : tensor<128x1xi64>
  %rb = tt.broadcast %scaled : tensor<128x1xi64> -> tensor<128x64xi64>
  %cb = tt.broadcast %c : tensor<1x64xi64> -> tensor<128x64xi64>
  %offsets = arith.addi %rb, %cb : tensor<128x64xi64>
  %ptrs = tt.splat %base : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>>
  %addresses = tt.addptr %ptrs, %offsets : tensor<128x64x!tt.ptr<f32>>, tensor<128x64xi64>
  %values = tt.load %addresses : tensor<128x64x!tt.ptr<f32>>
  tt.return %values : tensor<128x64xf32>
}

// -----

// A unit dimension inserted in the middle (allow_reorder changes nothing for it); reshapes that
// move elements between dimensions, or add two dimensions, stay.
// CHECK-LABEL: tt.func @other_reshapes
// CHECK: tt.expand_dims %arg0 {axis = 1 : i32} : tensor<4x8xi32> -> tensor<4x1x8xi32>
// CHECK: tt.reshape %arg0 : tensor<4x8xi32> -> tensor<32xi32>
// CHECK: tt.reshape %arg0 : tensor<4x8xi32> -> tensor<8x4xi32>
// CHECK: tt.reshape %arg0 : tensor<4x8xi32> -> tensor<1x4x8x1xi32>
tt.func @other_reshapes(%x: tensor<4x8xi32>) -> (tensor<4x1x8xi32>, tensor<32xi32>, tensor<8x4xi32>, tensor<1x4x8x1xi32>) {
  %a = tt.reshape %x allow_reorder : tensor<4x8xi32> -> tensor<4x1x8xi32>
  %b = tt.reshape %x : tensor<4x8xi32> -> tensor<32xi32>
  %c = tt.reshape %x : tensor<4x8xi32> -> tensor<8x4xi32>
  %d = tt.reshape %x : tensor<4x8xi32> -> tensor<1x4x8x1xi32>
  tt.return %a, %b, %c, %d : tensor<4x1x8xi32>, tensor<32xi32>, tensor<8x4xi32>, tensor<1x4x8x1xi32>
}
