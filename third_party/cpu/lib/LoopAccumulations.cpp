//===- LoopAccumulations.cpp - loops that fold values into one element ----===//

#include "LoopAccumulations.h"
#include "RootBuffer.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace tritium::cpu {
namespace {

/// Whether `op` at most reads memory, other than the accumulator's buffer `root`.
bool onlyReadsOtherMemory(Operation *op, Value root) {
  if (isMemoryEffectFree(op) || op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
    return true; // nested ops are checked one by one
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects || !effects.onlyHasEffect<MemoryEffects::Read>())
    return false; // a store, a call, ...: it might change what the loop reads
  for (Value operand : op->getOperands())
    if (isa<MemRefType>(operand.getType()) && rootBuffer(operand) == root)
      return false; // reads the accumulator's buffer: it would see the running value
  return true;
}

} // namespace

std::optional<LoopAccumulation> loopAccumulationOf(scf::ForOp loop) {
  if (loop.getNumResults() != 0)
    return std::nullopt;
  Block *body = loop.getBody();
  memref::StoreOp store;
  for (Operation &op : body->without_terminator())
    if (auto candidate = dyn_cast<memref::StoreOp>(op)) {
      if (store)
        return std::nullopt;
      store = candidate;
    }
  if (!store || !loop.isDefinedOutsideOfLoop(store.getMemRef()) ||
      !llvm::all_of(store.getIndices(), [&](Value i) { return loop.isDefinedOutsideOfLoop(i); }))
    return std::nullopt;
  Operation *combiner = store.getValueToStore().getDefiningOp();
  if (!combiner || combiner->getBlock() != body || combiner->getNumOperands() != 2 ||
      combiner->getNumResults() != 1 || !combiner->hasOneUse())
    return std::nullopt;
  // The operand loaded from where the result is stored is the accumulator; the value folded
  // in may be a load too.
  auto accumulatorLoad = [&](Value operand) {
    auto load = operand.getDefiningOp<memref::LoadOp>();
    return load && load.getMemRef() == store.getMemRef() && load.getIndices() == store.getIndices()
               ? load
               : memref::LoadOp();
  };
  memref::LoadOp load = accumulatorLoad(combiner->getOperand(0));
  Value value = combiner->getOperand(1);
  if (!load) {
    load = accumulatorLoad(combiner->getOperand(1));
    value = combiner->getOperand(0);
  }
  if (!load || load->getBlock() != body || !load->hasOneUse() || value == load.getResult())
    return std::nullopt;
  Value root = rootBuffer(store.getMemRef());
  if (!root.getDefiningOp<memref::AllocOp>() && !root.getDefiningOp<memref::AllocaOp>())
    return std::nullopt;
  bool safe = true;
  body->walk([&](Operation *op) {
    if (op != load && op != store && !isa<scf::YieldOp>(op) && !onlyReadsOtherMemory(op, root))
      safe = false;
  });
  if (!safe)
    return std::nullopt;
  return LoopAccumulation{load, combiner, store, value};
}

} // namespace tritium::cpu
