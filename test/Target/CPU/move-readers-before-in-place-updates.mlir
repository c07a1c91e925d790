// RUN: tritium-opt %s -split-input-file --tritium-cpu-move-readers-before-in-place-updates | FileCheck %s
// RUN: tritium-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tritium-cpu-move-readers-before-in-place-updates),one-shot-bufferize{bufferize-function-boundaries allow-return-allocs-from-loops})" | FileCheck %s --check-prefix=BUFFERS

// Welford's shape as element loops: `mean` updated in place (the element loop's iter_arg starts
// from it), then `m2` computed from the old `mean`. The `m2` loop moves before the `mean` loop;
// bufferized, neither tile needs a new buffer in the loop.
// CHECK-LABEL: func.func @welford_chunks
// CHECK: scf.for {{.+}} iter_args(%[[MEAN:.+]] = %{{.+}}, %[[M2:.+]] = %{{.+}})
// CHECK:   %[[NEXT_M2:.+]] = scf.for {{.+}} iter_args(%{{.+}} = %[[M2]])
// CHECK:     tensor.extract %[[MEAN]]
// CHECK:   %[[NEXT_MEAN:.+]] = scf.for {{.+}} iter_args(%{{.+}} = %[[MEAN]])
// CHECK:   scf.yield %[[NEXT_MEAN]], %[[NEXT_M2]]
// BUFFERS-LABEL: func.func @welford_chunks
// BUFFERS: scf.for
// BUFFERS-NOT: memref.alloc
// BUFFERS-NOT: memref.copy
// BUFFERS: scf.yield
func.func @welford_chunks(%x: tensor<4x16xf32>, %mean0: tensor<16xf32>, %m20: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %half = arith.constant 0.5 : f32
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%mean = %mean0, %m2 = %m20) -> (tensor<16xf32>, tensor<16xf32>) {
    %new_mean = scf.for %j = %c0 to %c16 step %c1 iter_args(%t = %mean) -> (tensor<16xf32>) {
      %v = tensor.extract %x[%i, %j] : tensor<4x16xf32>
      %m = tensor.extract %t[%j] : tensor<16xf32>
      %d = arith.subf %v, %m : f32
      %s = arith.mulf %d, %half : f32
      %n = arith.addf %m, %s : f32
      %u = tensor.insert %n into %t[%j] : tensor<16xf32>
      scf.yield %u : tensor<16xf32>
    }
    %new_m2 = scf.for %j = %c0 to %c16 step %c1 iter_args(%t = %m2) -> (tensor<16xf32>) {
      %v = tensor.extract %x[%i, %j] : tensor<4x16xf32>
      %m = tensor.extract %mean[%j] : tensor<16xf32>
      %d = arith.subf %v, %m : f32
      %q = arith.mulf %d, %d : f32
      %a = tensor.extract %t[%j] : tensor<16xf32>
      %n = arith.addf %a, %q : f32
      %u = tensor.insert %n into %t[%j] : tensor<16xf32>
      scf.yield %u : tensor<16xf32>
    }
    scf.yield %new_mean, %new_m2 : tensor<16xf32>, tensor<16xf32>
  }
  return %r#0, %r#1 : tensor<16xf32>, tensor<16xf32>
}

// -----

// The same under a branch (a mask split versions the body; the branches of one condition are
// one scf.if): the reader moves inside each branch.
// CHECK-LABEL: func.func @welford_in_branch
// CHECK: scf.for {{.+}} iter_args(%[[MEAN:.+]] = %{{.+}}, %[[M2:.+]] = %{{.+}})
// CHECK:   scf.if
// CHECK:     %[[NEXT_M2:.+]] = scf.for {{.+}} iter_args(%{{.+}} = %[[M2]])
// CHECK:     %[[NEXT_MEAN:.+]] = scf.for {{.+}} iter_args(%{{.+}} = %[[MEAN]])
// CHECK:     scf.yield %[[NEXT_MEAN]], %[[NEXT_M2]]
// CHECK:   } else {
// CHECK:     scf.yield %[[MEAN]], %[[M2]]
func.func @welford_in_branch(%x: tensor<4x16xf32>, %mean0: tensor<16xf32>, %m20: tensor<16xf32>, %c: i1) -> (tensor<16xf32>, tensor<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%mean = %mean0, %m2 = %m20) -> (tensor<16xf32>, tensor<16xf32>) {
    %b:2 = scf.if %c -> (tensor<16xf32>, tensor<16xf32>) {
      %new_mean = scf.for %j = %c0 to %c16 step %c1 iter_args(%t = %mean) -> (tensor<16xf32>) {
        %v = tensor.extract %x[%i, %j] : tensor<4x16xf32>
        %u = tensor.insert %v into %t[%j] : tensor<16xf32>
        scf.yield %u : tensor<16xf32>
      }
      %new_m2 = scf.for %j = %c0 to %c16 step %c1 iter_args(%t = %m2) -> (tensor<16xf32>) {
        %m = tensor.extract %mean[%j] : tensor<16xf32>
        %u = tensor.insert %m into %t[%j] : tensor<16xf32>
        scf.yield %u : tensor<16xf32>
      }
      scf.yield %new_mean, %new_m2 : tensor<16xf32>, tensor<16xf32>
    } else {
      scf.yield %mean, %m2 : tensor<16xf32>, tensor<16xf32>
    }
    scf.yield %b#0, %b#1 : tensor<16xf32>, tensor<16xf32>
  }
  return %r#0, %r#1 : tensor<16xf32>, tensor<16xf32>
}

// -----

// A reader that uses the update's result stays after it.
// CHECK-LABEL: func.func @reader_of_the_update
// CHECK: scf.for {{.+}} iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}})
// CHECK: %[[NEXT:.+]] = scf.for
// CHECK: %[[AFTER:.+]] = scf.for
// CHECK:   tensor.extract %[[NEXT]]
func.func @reader_of_the_update(%mean0: tensor<16xf32>, %m20: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1.0 : f32
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%mean = %mean0, %m2 = %m20) -> (tensor<16xf32>, tensor<16xf32>) {
    %new_mean = scf.for %j = %c0 to %c16 step %c1 iter_args(%t = %mean) -> (tensor<16xf32>) {
      %m = tensor.extract %t[%j] : tensor<16xf32>
      %n = arith.addf %m, %one : f32
      %u = tensor.insert %n into %t[%j] : tensor<16xf32>
      scf.yield %u : tensor<16xf32>
    }
    %new_m2 = scf.for %j = %c0 to %c16 step %c1 iter_args(%t = %m2) -> (tensor<16xf32>) {
      %old = tensor.extract %mean[%j] : tensor<16xf32>
      %new = tensor.extract %new_mean[%j] : tensor<16xf32>
      %d = arith.subf %new, %old : f32
      %u = tensor.insert %d into %t[%j] : tensor<16xf32>
      scf.yield %u : tensor<16xf32>
    }
    scf.yield %new_mean, %new_m2 : tensor<16xf32>, tensor<16xf32>
  }
  return %r#0, %r#1 : tensor<16xf32>, tensor<16xf32>
}

// -----

// A reader of memory does not pass an op that writes memory.
// CHECK-LABEL: func.func @reader_of_memory_after_a_store
// CHECK: scf.for {{.+}} iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}})
// CHECK: scf.for
// CHECK: memref.store
// CHECK: scf.for
// CHECK:   memref.load
func.func @reader_of_memory_after_a_store(%mean0: tensor<16xf32>, %m20: tensor<16xf32>, %buf: memref<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1.0 : f32
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%mean = %mean0, %m2 = %m20) -> (tensor<16xf32>, tensor<16xf32>) {
    %new_mean = scf.for %j = %c0 to %c16 step %c1 iter_args(%t = %mean) -> (tensor<16xf32>) {
      %m = tensor.extract %t[%j] : tensor<16xf32>
      %n = arith.addf %m, %one : f32
      %u = tensor.insert %n into %t[%j] : tensor<16xf32>
      scf.yield %u : tensor<16xf32>
    }
    memref.store %one, %buf[%i] : memref<16xf32>
    %new_m2 = scf.for %j = %c0 to %c16 step %c1 iter_args(%t = %m2) -> (tensor<16xf32>) {
      %old = tensor.extract %mean[%j] : tensor<16xf32>
      %b = memref.load %buf[%j] : memref<16xf32>
      %d = arith.subf %b, %old : f32
      %u = tensor.insert %d into %t[%j] : tensor<16xf32>
      scf.yield %u : tensor<16xf32>
    }
    scf.yield %new_mean, %new_m2 : tensor<16xf32>, tensor<16xf32>
  }
  return %r#0, %r#1 : tensor<16xf32>, tensor<16xf32>
}

// -----

// A mask split runs the tile's update as two loops, the second continuing the first: the reader
// moves before the first.
// CHECK-LABEL: func.func @update_split_in_two_loops
// CHECK: scf.for {{.+}} iter_args(%[[MEAN:.+]] = %{{.+}}, %[[M2:.+]] = %{{.+}})
// CHECK:   %[[NEXT_M2:.+]] = scf.for {{.+}} iter_args(%{{.+}} = %[[M2]])
// CHECK:     tensor.extract %[[MEAN]]
// CHECK:   %[[HEAD:.+]] = scf.for {{.+}} iter_args(%{{.+}} = %[[MEAN]])
// CHECK:   %[[TAIL:.+]] = scf.for {{.+}} iter_args(%{{.+}} = %[[HEAD]])
// CHECK:   scf.yield %[[TAIL]], %[[NEXT_M2]]
// BUFFERS-LABEL: func.func @update_split_in_two_loops
// BUFFERS: scf.for
// BUFFERS-NOT: memref.alloc
// BUFFERS-NOT: memref.copy
// BUFFERS: scf.yield
func.func @update_split_in_two_loops(%x: tensor<4x16xf32>, %mean0: tensor<16xf32>, %m20: tensor<16xf32>, %split: index) -> (tensor<16xf32>, tensor<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%mean = %mean0, %m2 = %m20) -> (tensor<16xf32>, tensor<16xf32>) {
    %head = scf.for %j = %c0 to %split step %c1 iter_args(%t = %mean) -> (tensor<16xf32>) {
      %v = tensor.extract %x[%i, %j] : tensor<4x16xf32>
      %u = tensor.insert %v into %t[%j] : tensor<16xf32>
      scf.yield %u : tensor<16xf32>
    }
    %tail = scf.for %j = %split to %c16 step %c1 iter_args(%t = %head) -> (tensor<16xf32>) {
      %m = tensor.extract %t[%j] : tensor<16xf32>
      %u = tensor.insert %m into %t[%j] : tensor<16xf32>
      scf.yield %u : tensor<16xf32>
    }
    %new_m2 = scf.for %j = %c0 to %c16 step %c1 iter_args(%t = %m2) -> (tensor<16xf32>) {
      %m = tensor.extract %mean[%j] : tensor<16xf32>
      %u = tensor.insert %m into %t[%j] : tensor<16xf32>
      scf.yield %u : tensor<16xf32>
    }
    scf.yield %tail, %new_m2 : tensor<16xf32>, tensor<16xf32>
  }
  return %r#0, %r#1 : tensor<16xf32>, tensor<16xf32>
}
