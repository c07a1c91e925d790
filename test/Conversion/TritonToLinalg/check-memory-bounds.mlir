// RUN: tritium-opt %s -split-input-file --check-memory-bounds | FileCheck %s

// A masked tile load: the kernel takes the bounds table as a trailing argument, reads the
// range of the pointer's argument (slots 8 + 2k, 9 + 2k) at entry, records the smallest
// offending address of the lanes outside it, and masks those lanes off.
// CHECK-LABEL: module attributes {tritium.memory_access_sites = ["{{.*}}kernel.py:4:20: tt.load"]}
// CHECK: tt.func public @masked_load(%[[X:.+]]: !tt.ptr<f32>, %[[N:.+]]: i32, %[[TABLE:.+]]: !tt.ptr<i64>)
// CHECK: %[[C8:.+]] = arith.constant 8 : i32
// CHECK: %[[FIRSTP:.+]] = tt.addptr %[[TABLE]], %[[C8]]
// CHECK: %[[FIRST:.+]] = tt.load %[[FIRSTP]] : !tt.ptr<i64>
// CHECK: %[[C9:.+]] = arith.constant 9 : i32
// CHECK: %[[ENDP:.+]] = tt.addptr %[[TABLE]], %[[C9]]
// CHECK: %[[END:.+]] = tt.load %[[ENDP]] : !tt.ptr<i64>
// CHECK: %[[ADDR:.+]] = tt.ptr_to_int %[[PTRS:.+]] : tensor<64x!tt.ptr<f32>> -> tensor<64xi64>
// CHECK: %[[LAST:.+]] = arith.addi %[[ADDR]], %{{.+}} : tensor<64xi64>
// CHECK: %[[GE:.+]] = arith.cmpi uge, %[[ADDR]]
// CHECK: %[[LE:.+]] = arith.cmpi ule, %[[LAST]]
// CHECK: %[[INSIDE:.+]] = arith.andi %[[GE]], %[[LE]] : tensor<64xi1>
// CHECK: %[[OUTSIDE:.+]] = arith.xori %[[INSIDE]]
// CHECK: %[[BAD:.+]] = arith.andi %[[OUTSIDE]], %[[MASK:.+]] : tensor<64xi1>
// CHECK: %[[ANY:.+]] = "tt.reduce"(%[[BAD]])
// CHECK: arith.ori
// CHECK: %[[WORST:.+]] = "tt.reduce"
// CHECK: arith.minui
// CHECK: scf.if %[[ANY]] {
// CHECK:   %[[FLAG:.+]] = tt.addptr %[[TABLE]], %{{.+}} : !tt.ptr<i64>, i32
// CHECK:   %[[OLD:.+]] = tt.atomic_rmw exch, acq_rel, gpu, %[[FLAG]]
// CHECK:   %[[FIRSTONE:.+]] = arith.cmpi eq, %[[OLD]]
// CHECK:   scf.if %[[FIRSTONE]] {
// CHECK:     tt.store %{{.+}}, %[[WORST]] : !tt.ptr<i64>
// CHECK:     tt.get_program_id x
// CHECK: %[[SAFE:.+]] = arith.andi %[[MASK]], %[[INSIDE]] : tensor<64xi1>
// CHECK: tt.load %[[PTRS]], %[[SAFE]] : tensor<64x!tt.ptr<f32>>
#loc = loc("kernel.py":4:20)
module {
  tt.func public @masked_load(%x: !tt.ptr<f32>, %n: i32) -> tensor<64xf32> {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %s = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %p = tt.addptr %s, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %ns = tt.splat %n : i32 -> tensor<64xi32>
    %m = arith.cmpi slt, %r, %ns : tensor<64xi32>
    %v = tt.load %p, %m : tensor<64x!tt.ptr<f32>> loc(#loc)
    tt.return %v : tensor<64xf32>
  }
}

// -----

// A pointer carried through a loop is traced to its argument through the loop's init; a
// store without a mask gets the in-bounds lanes as its mask.
// CHECK-LABEL: tt.func public @loop_carried_store
// CHECK-SAME: %[[TABLE:[^:]+]]: !tt.ptr<i64>)
// CHECK: scf.for
// CHECK:   %[[INSIDE:.+]] = arith.andi
// CHECK:   tt.store %{{.+}}, %{{.+}}, %[[INSIDE]] : tensor<16x!tt.ptr<i16>>
module {
  tt.func public @loop_carried_store(%out: !tt.ptr<i16>, %v: tensor<16xi16>) {
    %c0 = arith.constant 0 : i32
    %c4 = arith.constant 4 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<16> : tensor<16xi32>
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %s = tt.splat %out : !tt.ptr<i16> -> tensor<16x!tt.ptr<i16>>
    %p0 = tt.addptr %s, %r : tensor<16x!tt.ptr<i16>>, tensor<16xi32>
    %last = scf.for %i = %c0 to %c4 step %c1 iter_args(%p = %p0) -> (tensor<16x!tt.ptr<i16>>) : i32 {
      tt.store %p, %v : tensor<16x!tt.ptr<i16>>
      %q = tt.addptr %p, %step : tensor<16x!tt.ptr<i16>>, tensor<16xi32>
      scf.yield %q : tensor<16x!tt.ptr<i16>>
    }
    tt.return
  }
}

// -----

// A pointer loaded from memory has no argument to check against: the access is left alone
// (the table argument is still added, and the scalar load of the pointer itself is checked).
// CHECK-LABEL: tt.func public @pointer_from_memory
// CHECK: %[[P:.+]] = tt.load %{{.+}}, %{{.+}} : !tt.ptr<!tt.ptr<f32>>
// CHECK: tt.load %[[P]] : !tt.ptr<f32>
module {
  tt.func public @pointer_from_memory(%pp: !tt.ptr<!tt.ptr<f32>>) -> f32 {
    %p = tt.load %pp : !tt.ptr<!tt.ptr<f32>>
    %v = tt.load %p : !tt.ptr<f32>
    tt.return %v : f32
  }
}
