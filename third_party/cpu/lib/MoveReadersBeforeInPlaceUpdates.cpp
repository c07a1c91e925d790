//===- MoveReadersBeforeInPlaceUpdates.cpp - old tiles read before overwritten -===//
//
// A loop-carried tile is updated in place when the op that computes its next value writes over
// it (tritium-cpu-update-loop-carried-tiles-in-place, or an element loop whose iter_arg starts
// from it). If an op after that update still reads the old value, one-shot bufferization keeps
// the old value alive by giving the update a new buffer, and because the new buffer escapes the
// iteration through the yield it is a malloc and a free in every iteration of every program.
//
// Inductor's Welford reduction (the statistics of batch norm, layer norm, var_mean over long
// rows) has this shape: `mean` is updated first, then `m2` is computed from the old `mean`
// (`delta = x - mean`). Neither depends on the other's result, so computing `m2` first changes
// nothing but the order: the readers of an old tile that do not depend on its update move
// before it, when nothing they pass over writes memory. Bufferization then updates every tile
// in place, in buffers allocated once before the loop.
//
//===----------------------------------------------------------------------===//

#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_MOVEREADERSBEFOREINPLACEUPDATES
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// Whether `op` or an op nested in it uses `value`.
bool uses(Operation *op, Value value) {
  return llvm::any_of(value.getUsers(), [&](Operation *user) { return op->isAncestor(user); });
}

/// Whether `op` (with everything nested in it) may write memory: it says it writes, frees or
/// allocates, or does not say.
bool mayWrite(Operation *op) {
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects = getEffectsRecursively(op);
  if (!effects)
    return true;
  return llvm::any_of(*effects, [](const MemoryEffects::EffectInstance &effect) {
    return !isa<MemoryEffects::Read>(effect.getEffect());
  });
}

/// Whether `op` (with everything nested in it) may read memory.
bool mayRead(Operation *op) {
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects = getEffectsRecursively(op);
  return !effects || llvm::any_of(*effects, [](const MemoryEffects::EffectInstance &effect) {
           return isa<MemoryEffects::Read>(effect.getEffect());
         });
}

/// Whether every value `op` (or an op nested in it) uses from outside itself is available
/// before `point`, an earlier op of the same block.
bool operandsAvailableBefore(Operation *op, Operation *point) {
  bool available = true;
  op->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands()) {
      if (Operation *def = operand.getDefiningOp()) {
        if (op->isAncestor(def))
          continue;
        if (def->getBlock() == point->getBlock() && !def->isBeforeInBlock(point)) {
          available = false;
          return WalkResult::interrupt();
        }
      }
    }
    return WalkResult::advance();
  });
  return available;
}

/// Moves the readers of `iterArg` that follow `update`, the op computing its next value from it,
/// to before `update` where that changes no result.
void moveReadersBefore(Operation *update, Value iterArg) {
  SmallVector<Operation *> readers;
  for (Operation *op = update->getNextNode(); op && !op->hasTrait<OpTrait::IsTerminator>();
       op = op->getNextNode())
    if (uses(op, iterArg))
      readers.push_back(op);
  for (Operation *reader : readers) {
    if (!operandsAvailableBefore(reader, update) || mayWrite(reader))
      continue;
    // A reader of memory may not pass an op that writes it.
    bool passesAWrite = false;
    if (mayRead(reader))
      for (Operation *op = update; op != reader; op = op->getNextNode())
        passesAWrite |= mayWrite(op);
    if (!passesAWrite)
      reader->moveBefore(update);
  }
}

/// The operand `result` of `op` is written over (a loop's init, a destination-style op's init),
/// or null.
Value destinationOf(Operation *op, OpResult result) {
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return loop.getTiedLoopInit(result)->get();
  if (auto destination = dyn_cast<DestinationStyleOpInterface>(op))
    return destination.getTiedOpOperand(result)->get();
  return Value();
}

/// Finds the in-place update of `iterArg` that computes `next` and moves the readers after it.
/// The update may be a chain of ops each writing over the previous one's result (a mask split
/// runs a tile's loop as two loops, the second continuing the first): the readers move before
/// its first op. Behind a branch (the branches of one condition are merged into one scf.if),
/// the update and its readers are in each branch: each is treated there.
void moveReadersBeforeUpdateOf(Value next, Value iterArg) {
  Operation *update = next.getDefiningOp();
  while (update) {
    Value previous = destinationOf(update, cast<OpResult>(next));
    Operation *def = previous ? previous.getDefiningOp() : nullptr;
    if (!def || def->getBlock() != update->getBlock())
      break;
    next = previous;
    update = def;
  }
  if (!update || !uses(update, iterArg))
    return;
  moveReadersBefore(update, iterArg);
  if (auto branch = dyn_cast<scf::IfOp>(update)) {
    unsigned position = cast<OpResult>(next).getResultNumber();
    for (Region *region : {&branch.getThenRegion(), &branch.getElseRegion()})
      if (!region->empty())
        moveReadersBeforeUpdateOf(region->front().getTerminator()->getOperand(position), iterArg);
  }
}

struct MoveReadersBeforeInPlaceUpdatesPass
    : impl::MoveReadersBeforeInPlaceUpdatesBase<MoveReadersBeforeInPlaceUpdatesPass> {
  void runOnOperation() override {
    getOperation().walk([](scf::ForOp loop) {
      Operation *yield = loop.getBody()->getTerminator();
      for (auto [iterArg, next] : llvm::zip(loop.getRegionIterArgs(), yield->getOperands())) {
        if (!isa<RankedTensorType>(iterArg.getType()))
          continue;
        if (Operation *update = next.getDefiningOp(); update && update->getBlock() == loop.getBody())
          moveReadersBeforeUpdateOf(next, iterArg);
      }
    });
  }
};

} // namespace
} // namespace tritium::cpu
