//===- RootBuffer.h - the buffer a memref view was made from -----*- C++ -*-===//
//
// Passes that reason about aliasing between local buffers compare the allocations views come
// from: two distinct allocations never alias.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_TARGET_CPU_ROOTBUFFER_H
#define TRITIUM_TARGET_CPU_ROOTBUFFER_H

#include "mlir/Interfaces/ViewLikeInterface.h"

namespace tritium::cpu {

/// The buffer a view was made from (the view itself if it is not one).
inline mlir::Value rootBuffer(mlir::Value view) {
  while (auto viewLike = view.getDefiningOp<mlir::ViewLikeOpInterface>())
    view = viewLike.getViewSource();
  return view;
}

} // namespace tritium::cpu

#endif // TRITIUM_TARGET_CPU_ROOTBUFFER_H
