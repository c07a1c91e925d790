//===- StreamLoadsIntoStores.cpp - read loaded tiles where they are stored ===//
//
// A tile load becomes a loop filling a buffer, and a tile store a loop that recomputes each
// stored element. When everything a load feeds is recomputed per element and ends in stores,
// or in reductions that fold one element at a time (sum, max, ...), the buffer is a detour:
// each element can be loaded inside the consumer's loop, right where it is used, so that
// `out = x + y` is one loop of (masked) loads, an add and a store, which LLVM vectorizes,
// instead of three passes through tile buffers, and a row sum reads the row once.
//
// Reading at the consumer is the same as reading at the load when nothing in between writes
// memory: the load and its consumers must be in one block, with only loads and
// side-effect-free ops between them. A store into the load's own base pointer must also address the same
// elements (the same pointer tile, as for an in-place update): a store that moves data within
// one buffer keeps the buffer.
//
// A loop that accumulates loaded tiles into a loop-carried tile (`acc = tl.where(mask, acc + x,
// acc)`, as Inductor writes every reduction that loops, and `acc += tl.load(...)` in
// tutorials) is a consumer too: the elementwise op whose tile the loop yields computes its
// elements one by one into the next tile, loading each element of `x` where it is added,
// instead of copying the loaded tile into a buffer and adding the buffer.
//
// Tile stores of one shape with nothing but side-effect-free ops between them (Inductor's
// kernels end with one store per output) are moved next to each other and written in one
// loop, each iteration computing every stored element before storing any: loads read there
// are read once for all of them, and a value several of them use is computed once. Each
// element is then read before any element at its index is written, as when the tiles are
// loaded whole; two stores of a group into one base pointer must address the same elements.
//
//===----------------------------------------------------------------------===//

#include "TileElementMaterializer.h"
#include "tritium/Conversion/TritonToLinalg/Passes.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"

namespace tritium {
#define GEN_PASS_DEF_STREAMLOADSINTOSTORES
#include "tritium/Conversion/TritonToLinalg/Passes.h.inc"
} // namespace tritium

using namespace mlir;

namespace tritium {
namespace {

/// The scalar pointer a tile of pointers is built from (through splats, broadcasts,
/// expand_dims and addptrs), or null if it is not built that way.
Value basePointer(Value ptr) {
  while (Operation *def = ptr.getDefiningOp()) {
    if (auto addptr = dyn_cast<tt::AddPtrOp>(def))
      ptr = addptr.getPtr();
    else if (auto splat = dyn_cast<tt::SplatOp>(def))
      ptr = splat.getSrc();
    else if (auto broadcast = dyn_cast<tt::BroadcastOp>(def))
      ptr = broadcast.getSrc();
    else if (auto expand = dyn_cast<tt::ExpandDimsOp>(def))
      ptr = expand.getSrc();
    else
      return {};
  }
  return ptr; // a block argument: the kernel's pointer parameter
}

/// Whether `op` may write memory (conservatively: anything not known to only read or do
/// nothing to memory).
bool mayWrite(Operation *op) {
  if (isa<tt::LoadOp>(op))
    return false;
  return !isMemoryEffectFree(op);
}

class LoadStreamer {
public:
  /// Groups the stores written in one loop, then marks every tile load of `root` that can be
  /// read at its stores.
  void run(Operation *root) {
    root->walk([&](Block *block) { groupStores(*block); });
    SmallVector<tt::LoadOp> candidates;
    root->walk([&](tt::LoadOp load) {
      if (isa<RankedTensorType>(load.getType()) && !load.getIsVolatile())
        candidates.push_back(load);
    });
    streamed.insert(candidates.begin(), candidates.end());
    // A load may feed the address of another (a gather): it is streamable only if that load
    // is. Dropping one candidate can disqualify others, so iterate to a fixed point.
    for (bool changed = true; changed;) {
      changed = false;
      for (tt::LoadOp load : candidates)
        if (streamed.contains(load) && !streamable(load)) {
          streamed.remove(load);
          changed = true;
        }
    }
    for (tt::LoadOp load : streamed) {
      load->setAttr(kReadAtUseAttr, UnitAttr::get(load.getContext()));
      for (tt::ReduceOp reduce : reductionsFed[load])
        reduce->setAttr(kReadAtUseAttr, UnitAttr::get(load.getContext()));
      for (Operation *next : loopCarriedTilesFed[load])
        next->setAttr(kComputedPerElementAttr, UnitAttr::get(load.getContext()));
    }
  }

private:
  /// Whether `store` may join `group` (the stores written in one loop): a tile of the same
  /// shape, into a known base pointer, the same elements as any store of the group into it.
  static bool joins(ArrayRef<tt::StoreOp> group, tt::StoreOp store) {
    auto shapeOf = [](tt::StoreOp s) { return cast<RankedTensorType>(s.getValue().getType()).getShape(); };
    Value base = basePointer(store.getPtr());
    if (!base || shapeOf(group.front()) != shapeOf(store))
      return false;
    return llvm::all_of(group, [&](tt::StoreOp other) {
      return basePointer(other.getPtr()) != base || other.getPtr() == store.getPtr();
    });
  }

  /// Finds runs of tile stores in `block` separated only by side-effect-free ops, moves the
  /// stores of each run next to its last one (a store moved later past ops that neither read
  /// nor write memory stores the same values) and marks the first with the group's size.
  void groupStores(Block &block) {
    SmallVector<SmallVector<tt::StoreOp>> runs;
    SmallVector<tt::StoreOp> run;
    auto close = [&] {
      if (run.size() > 1)
        runs.push_back(run);
      run.clear();
    };
    for (Operation &op : block) {
      auto store = dyn_cast<tt::StoreOp>(&op);
      if (store && isa<RankedTensorType>(store.getValue().getType())) {
        if (!run.empty() && !joins(run, store))
          close();
        if (run.empty() && !basePointer(store.getPtr()))
          continue; // not groupable; nothing it writes is known
        run.push_back(store);
        continue;
      }
      if (!isMemoryEffectFree(&op))
        close();
    }
    close();
    for (SmallVector<tt::StoreOp> &group : runs) {
      Operation *last = group.back();
      for (tt::StoreOp store : ArrayRef<tt::StoreOp>(group).drop_back())
        store->moveBefore(last);
      Operation *first = group.front();
      first->setAttr(kStoreGroupAttr, IntegerAttr::get(IntegerType::get(first->getContext(), 32),
                                                       int64_t(group.size())));
    }
  }

  /// A reduction that can fold its input element by element: one operand and a combiner
  /// with an identity (sums, products, minima, maxima, bitwise folds).
  static bool foldsElementByElement(tt::ReduceOp reduce) {
    return reduce.getSrcs().size() == 1 && combinerIdentity(reduce.getCombineOp());
  }

  /// The elementwise op that computes the next value of a loop-carried tile, when `value` (a
  /// tile some streamed load feeds) is what `yield` hands to the next iteration of an scf.for;
  /// null otherwise (a loaded tile yielded as it is, a while loop). Cheap ops only: each
  /// element is computed once, in the loop nest that writes the new tile.
  static Operation *nextLoopCarriedTile(Value value, Operation *yield) {
    Operation *def = value.getDefiningOp();
    if (!isa<scf::YieldOp>(yield) || !isa<scf::ForOp>(yield->getParentOp()) || !def ||
        def->getBlock() != yield->getBlock())
      return nullptr;
    if (!isa<arith::ArithDialect, math::MathDialect>(def->getDialect()) ||
        !isRecomputedPerElement(def) || isCostlyElementwise(def) ||
        !loopCarriedTileUpdatedBy(def))
      return nullptr;
    return def;
  }

  /// Whether every use of `load` is recomputed per element and ends in stores, reductions that
  /// fold element by element, the next values of loop-carried tiles, or streamed loads, which
  /// may all read it there. A costly value
  /// (exp, a division) on the way that more than one loop would compute (two reductions, or a
  /// reduction and the stores) is better computed once into a tile: the load is then not
  /// streamed.
  bool streamable(tt::LoadOp load) {
    SmallVector<Value> worklist = {load.getResult()};
    llvm::SmallPtrSet<Operation *, 16> visited;
    SmallVector<Operation *> consumers;
    SmallVector<tt::ReduceOp> reductions;
    SmallVector<Operation *> loopCarried;
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      for (Operation *user : value.getUsers()) {
        // A loop's yield hands on several tiles: each one this load feeds is a consumer (so
        // the yield is not visited once for all of them).
        if (isa<scf::YieldOp>(user)) {
          Operation *next = nextLoopCarriedTile(value, user);
          if (!next)
            return false;
          if (!llvm::is_contained(loopCarried, next)) {
            consumers.push_back(next);
            loopCarried.push_back(next);
          }
          continue;
        }
        if (!visited.insert(user).second)
          continue;
        if (isa<tt::StoreOp>(user)) {
          consumers.push_back(user);
          continue;
        }
        if (auto reduce = dyn_cast<tt::ReduceOp>(user)) {
          if (!foldsElementByElement(reduce))
            return false;
          consumers.push_back(user);
          reductions.push_back(reduce);
          continue;
        }
        if (auto consumer = dyn_cast<tt::LoadOp>(user)) {
          if (!streamed.contains(consumer))
            return false;
          worklist.push_back(consumer.getResult());
          continue;
        }
        if (!isRecomputedPerElement(user))
          return false;
        if (isCostlyElementwise(user) && reachesSeveralLoops(user))
          return false;
        worklist.push_back(user->getResult(0));
      }
    }
    if (consumers.empty())
      return false;
    Value base = basePointer(load.getPtr());
    for (Operation *consumer : consumers) {
      auto store = dyn_cast<tt::StoreOp>(consumer);
      SmallVector<tt::StoreOp> loop;
      if (store)
        loop = storesWrittenInOneLoop(firstStoreOfGroup(store));
      // The loop of a group of stores runs where its first store is.
      Operation *at = consumer;
      if (store)
        at = loop.front();
      if (at->getBlock() != load->getBlock() || !nothingWritesBetween(load, at))
        return false;
      for (tt::StoreOp written : loop)
        if ((!base || basePointer(written.getPtr()) == base) && written.getPtr() != load.getPtr())
          return false;
    }
    reductionsFed[load] = std::move(reductions);
    loopCarriedTilesFed[load] = std::move(loopCarried);
    return true;
  }

  static bool nothingWritesBetween(Operation *first, Operation *last) {
    if (!first->isBeforeInBlock(last))
      return false;
    for (Operation *op = first->getNextNode(); op != last; op = op->getNextNode())
      if (mayWrite(op))
        return false;
    return true;
  }

  llvm::SetVector<tt::LoadOp> streamed;
  llvm::DenseMap<tt::LoadOp, SmallVector<tt::ReduceOp>> reductionsFed;
  llvm::DenseMap<tt::LoadOp, SmallVector<Operation *>> loopCarriedTilesFed;
};

struct StreamLoadsIntoStoresPass
    : impl::StreamLoadsIntoStoresBase<StreamLoadsIntoStoresPass> {
  void runOnOperation() override { LoadStreamer().run(getOperation()); }
};

} // namespace
} // namespace tritium
