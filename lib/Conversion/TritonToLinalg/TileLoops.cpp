//===- TileLoops.cpp - loop nests over a tile -----------------------------===//

#include "TileLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace tritium {

namespace {
/// Bounds of the loops over every index of `shape`: from 0 by 1 to each extent.
struct IndexBounds {
  SmallVector<Value> lbs, ubs, steps;
  IndexBounds(OpBuilder &b, Location loc, ArrayRef<int64_t> shape) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    for (int64_t size : shape) {
      lbs.push_back(zero);
      ubs.push_back(arith::ConstantIndexOp::create(b, loc, size));
      steps.push_back(one);
    }
  }
};
} // namespace

SmallVector<scf::ForOp> forEachIndex(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                                     function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  IndexBounds bounds(b, loc, shape);
  return scf::buildLoopNest(b, loc, bounds.lbs, bounds.ubs, bounds.steps, body).loops;
}

Value updateEachElement(OpBuilder &b, Location loc, Value tile,
                        function_ref<Value(OpBuilder &, Location, ValueRange, Value)> element) {
  IndexBounds bounds(b, loc, cast<RankedTensorType>(tile.getType()).getShape());
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, bounds.lbs, bounds.ubs, bounds.steps, ValueRange{tile},
      [&](OpBuilder &b, Location loc, ValueRange indices, ValueRange current) -> scf::ValueVector {
        Value value = element(b, loc, indices, current[0]);
        return {tensor::InsertOp::create(b, loc, value, current[0], indices)};
      });
  return nest.results[0];
}

void markIterationsIndependent(ArrayRef<scf::ForOp> loops) {
  if (loops.empty())
    return;
  Operation *outermost = loops.front();
  MLIRContext *context = outermost->getContext();
  auto group = LLVM::AccessGroupAttr::get(context, DistinctAttr::create(UnitAttr::get(context)));
  auto groups = ArrayAttr::get(context, {group});
  outermost->walk([&](Operation *op) {
    if (auto load = dyn_cast<LLVM::LoadOp>(op))
      load.setAccessGroupsAttr(groups);
    else if (auto store = dyn_cast<LLVM::StoreOp>(op))
      store.setAccessGroupsAttr(groups);
  });
  // The discardable form: scf-to-cf moves it onto the loop's latch branch.
  auto annotation = LLVM::LoopAnnotationAttr::get(
      context, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {group});
  for (Operation *loop : loops)
    loop->setAttr("llvm.loop_annotation", annotation);
}

Value zeroOf(OpBuilder &b, Location loc, Type type) {
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::ZeroOp::create(b, loc, type);
  return arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
}

Value valueUnderMask(OpBuilder &b, Location loc, Value mask, ValueBuilder compute,
                     ValueBuilder otherwise) {
  if (!mask)
    return compute(b, loc);
  auto ifOp = scf::IfOp::create(
      b, loc, mask,
      [&](OpBuilder &b, Location loc) { scf::YieldOp::create(b, loc, compute(b, loc)); },
      [&](OpBuilder &b, Location loc) { scf::YieldOp::create(b, loc, otherwise(b, loc)); });
  return ifOp.getResult(0);
}

Value asTensorElement(OpBuilder &b, Location loc, Value value) {
  if (isa<LLVM::LLVMPointerType>(value.getType()))
    return LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), value);
  return value;
}

Value allocateTile(OpBuilder &b, Location loc, RankedTensorType type) {
  return memref::AllocOp::create(b, loc, MemRefType::get(type.getShape(), type.getElementType()));
}

Value tileBufferAsTensor(OpBuilder &b, Location loc, Value buffer, RankedTensorType type) {
  return bufferization::ToTensorOp::create(b, loc, type, buffer, /*restrict=*/true,
                                           /*writable=*/true);
}

} // namespace tritium
