//===- FuseIndependentSiblingLoops.cpp - one pass over a row, not one a reduction ===//
//
// Every reduction of a tile becomes a loop of its own, and so does every tile that two ops
// consume. Inductor's softmax folds three values out of each row before its exponentials —
// whether any value is not finite, the row's max and the scaled row's max — so the row was
// read by three loops over the same 4096 elements; then one loop computed the exponentials
// into a tile, one added zero and masked them into another, one stored the first tile and
// one summed the second. Such loops can run as one, each value read once and handed on in
// registers (LLVM forwards the tile stores to the loads of the same iteration and drops the
// tiles nobody reads later).
//
// Two loops of one block with the same bounds and step are fused into the first one's place
// when:
//   - a local buffer (memref.alloc/alloca) that one writes and the other touches is only
//     loaded and stored by both, every access indexing it with the loop's induction variable
//     at one same position — iteration i of either loop touches slice i only (an element, or
//     a row when the loops walk rows), so running the first loop's iteration i just before
//     the second's gives every access the value it had; loops of one iteration are inlined
//     first, so a tile's 1xN nest counts as its row loop, and when two nests join, the loops
//     they hold side by side are fused in turn,
//   - if one of them writes memory outside local buffers, the other touches none there (the
//     kernel's arguments may alias each other), and a memref that leads to no allocation (a
//     `select` between two tiles) counts as any buffer,
//   - their loop attributes agree, or merge (an `llvm.loop_annotation` set by one of them
//     only: unroll disabled, parallel accesses),
//   - every op between them that the second loop needs (a value it uses, a buffer it reads
//     or writes, such as its accumulator's initialisation) can run before the first loop:
//     it neither touches a buffer the first loop writes nor writes one it reads, and depends
//     on nothing else between the loops; the ops left in between (say, reading the first
//     loop's result) do not touch what the second loop writes. Nothing in between may write
//     memory outside local buffers.
// The fused loop carries both loops' iteration arguments; the first loop's body runs first
// in each iteration.
//
//===----------------------------------------------------------------------===//

#include "RootBuffer.h"
#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallBitVector.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_FUSEINDEPENDENTSIBLINGLOOPS
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// The memory an op (with everything nested in it) reads and writes: local buffers by their
/// allocation; the kernel's memory, reached through LLVM pointers, as "outside"; memrefs that
/// lead to no allocation (a `select` or an `scf.if` choosing between buffers, a view of a
/// pointer) as "unknown", which may be either. Constant globals are only read and ignored.
struct MemoryFootprint {
  llvm::SmallPtrSet<Value, 4> reads, writes;
  bool readsOutside = false;
  bool writesOutside = false;
  bool readsUnknown = false;
  bool writesUnknown = false;

  /// The local buffers one of the two writes and the other touches.
  SmallVector<Value> sharedBuffers(const MemoryFootprint &other) const {
    SmallVector<Value> shared;
    auto collect = [&](const llvm::SmallPtrSet<Value, 4> &written, const MemoryFootprint &by) {
      for (Value buffer : written)
        if ((by.reads.contains(buffer) || by.writes.contains(buffer)) &&
            !llvm::is_contained(shared, buffer))
          shared.push_back(buffer);
    };
    collect(writes, other);
    collect(other.writes, *this);
    return shared;
  }

  bool touchesOutside() const { return readsOutside || writesOutside; }
  bool touchesAnything() const {
    return !reads.empty() || !writes.empty() || touchesOutside() || readsUnknown || writesUnknown;
  }
  bool writesAnything() const { return !writes.empty() || writesOutside || writesUnknown; }

  /// Conflicts other than through local buffers both name: in the kernel's memory, or through
  /// memrefs that may be any buffer.
  bool conflictsOutside(const MemoryFootprint &other) const {
    auto oneWay = [](const MemoryFootprint &a, const MemoryFootprint &b) {
      return (a.writesOutside && (b.touchesOutside() || b.readsUnknown)) ||
             (a.readsUnknown && b.writesAnything()) || (a.writesUnknown && b.touchesAnything());
    };
    return oneWay(*this, other) || oneWay(other, *this);
  }

  bool conflictsWith(const MemoryFootprint &other) const {
    return !sharedBuffers(other).empty() || conflictsOutside(other);
  }
};

bool isLocalBuffer(Value buffer) {
  return buffer.getDefiningOp<memref::AllocOp>() || buffer.getDefiningOp<memref::AllocaOp>();
}

MemoryFootprint footprintOf(Operation *root) {
  MemoryFootprint footprint;
  root->walk([&](Operation *op) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects) {
      // Ops with recursive effects are described by the ops nested in them.
      if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>()) {
        footprint.readsUnknown = true;
        footprint.writesUnknown = true;
      }
      return;
    }
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (const MemoryEffects::EffectInstance &instance : instances) {
      bool isRead = isa<MemoryEffects::Read>(instance.getEffect());
      bool isWrite = isa<MemoryEffects::Write, MemoryEffects::Free>(instance.getEffect());
      if (!isRead && !isWrite)
        continue; // allocation: a fresh buffer nobody else sees
      Value value = instance.getValue();
      if (!value) { // no operand named: anything
        footprint.readsUnknown |= isRead;
        footprint.writesUnknown |= isWrite;
        continue;
      }
      if (!isa<MemRefType>(value.getType())) { // an LLVM pointer: the kernel's memory
        footprint.readsOutside |= isRead;
        footprint.writesOutside |= isWrite;
        continue;
      }
      Value buffer = rootBuffer(value);
      if (isLocalBuffer(buffer)) {
        (isRead ? footprint.reads : footprint.writes).insert(buffer);
      } else if (buffer.getDefiningOp<memref::GetGlobalOp>() && !isWrite) {
        // a constant tile: nothing writes it
      } else {
        footprint.readsUnknown |= isRead;
        footprint.writesUnknown |= isWrite;
      }
    }
  });
  return footprint;
}

/// The index positions at which every access of `loop` to `buffer` indexes it with the loop's
/// induction variable (so that iteration i touches slice i only), if all of them are loads and
/// stores of the buffer itself; nullopt if it is touched otherwise (through a view, by another
/// op).
std::optional<llvm::SmallBitVector> positionsAtInductionVariable(scf::ForOp loop, Value buffer) {
  std::optional<llvm::SmallBitVector> positions;
  bool other = false;
  loop.getBody()->walk([&](Operation *op) {
    if (!llvm::is_contained(op->getOperands(), buffer)) {
      for (Value operand : op->getOperands())
        if (isa<MemRefType>(operand.getType()) && operand != buffer && rootBuffer(operand) == buffer)
          other = true; // a view of it
      return;
    }
    ValueRange indices;
    if (auto load = dyn_cast<memref::LoadOp>(op); load && load.getMemRef() == buffer)
      indices = load.getIndices();
    else if (auto store = dyn_cast<memref::StoreOp>(op);
             store && store.getMemRef() == buffer && store.getValueToStore() != buffer)
      indices = store.getIndices();
    else {
      other = true;
      return;
    }
    llvm::SmallBitVector here(indices.size());
    for (auto [position, index] : llvm::enumerate(indices))
      here[position] = index == loop.getInductionVar();
    if (positions)
      *positions &= here;
    else
      positions = here;
  });
  if (other || !positions)
    return std::nullopt;
  return positions;
}

/// Whether every buffer one loop writes and the other touches is indexed, by every access of
/// both, with the loop's induction variable at one same position: iteration i of either loop
/// then touches slice i of it only, whatever its other indices (a row of a tile, when the
/// loops walk rows), so running the first loop's iteration i just before the second's gives
/// every access the value it had.
bool sharedBuffersSlicedAlike(scf::ForOp first, scf::ForOp second, ArrayRef<Value> shared) {
  for (Value buffer : shared) {
    auto inFirst = positionsAtInductionVariable(first, buffer);
    auto inSecond = positionsAtInductionVariable(second, buffer);
    if (!inFirst || !inSecond || inFirst->size() != inSecond->size() ||
        !(*inFirst & *inSecond).any())
      return false;
  }
  return true;
}

/// The two loops' `llvm.loop_annotation`s as one: each field set by at most one of them (or
/// equal), parallel access groups of both.
std::optional<LLVM::LoopAnnotationAttr> mergedAnnotation(LLVM::LoopAnnotationAttr a,
                                                         LLVM::LoopAnnotationAttr b) {
  bool clash = false;
  auto pick = [&](auto x, auto y) {
    if (x && y && x != y)
      clash = true;
    return x ? x : y;
  };
  SmallVector<LLVM::AccessGroupAttr> groups(a.getParallelAccesses());
  llvm::append_range(groups, b.getParallelAccesses());
  auto merged = LLVM::LoopAnnotationAttr::get(
      a.getContext(), pick(a.getDisableNonforced(), b.getDisableNonforced()),
      pick(a.getVectorize(), b.getVectorize()), pick(a.getInterleave(), b.getInterleave()),
      pick(a.getUnroll(), b.getUnroll()), pick(a.getUnrollAndJam(), b.getUnrollAndJam()),
      pick(a.getLicm(), b.getLicm()), pick(a.getDistribute(), b.getDistribute()),
      pick(a.getPipeline(), b.getPipeline()), pick(a.getPeeled(), b.getPeeled()),
      pick(a.getUnswitch(), b.getUnswitch()), pick(a.getMustProgress(), b.getMustProgress()),
      pick(a.getIsVectorized(), b.getIsVectorized()), pick(a.getStartLoc(), b.getStartLoc()),
      pick(a.getEndLoc(), b.getEndLoc()), groups);
  if (clash)
    return std::nullopt;
  return merged;
}

constexpr llvm::StringLiteral kLoopAnnotation = "llvm.loop_annotation";

/// The attributes the fused loop keeps, if the two loops' agree or merge.
std::optional<DictionaryAttr> mergedAttributes(scf::ForOp first, scf::ForOp second) {
  DictionaryAttr a = first->getDiscardableAttrDictionary();
  DictionaryAttr b = second->getDiscardableAttrDictionary();
  if (a == b || b.empty())
    return a;
  if (a.empty())
    return b;
  // Both annotated: only loop annotations are merged.
  auto onlyAnnotation = [](DictionaryAttr attributes) {
    return attributes.size() == 1 &&
           isa<LLVM::LoopAnnotationAttr>(attributes.get(kLoopAnnotation));
  };
  if (!onlyAnnotation(a) || !onlyAnnotation(b))
    return std::nullopt;
  auto merged = mergedAnnotation(cast<LLVM::LoopAnnotationAttr>(a.get(kLoopAnnotation)),
                                 cast<LLVM::LoopAnnotationAttr>(b.get(kLoopAnnotation)));
  if (!merged)
    return std::nullopt;
  return DictionaryAttr::get(first->getContext(),
                             {NamedAttribute(StringAttr::get(first->getContext(), kLoopAnnotation),
                                             *merged)});
}

/// Whether `user` (or an op nested in it) uses a result of `definer`.
bool usesResultOf(Operation *user, Operation *definer) {
  return llvm::any_of(definer->getUsers(), [&](Operation *use) { return user->isAncestor(use); });
}

/// The ops between `first` and `second` to move before `first`, in order, so that the loops
/// can be fused at `first`'s place; nullopt if they cannot be.
std::optional<SmallVector<Operation *>> opsToHoist(scf::ForOp first, scf::ForOp second,
                                                  const MemoryFootprint &firstFootprint,
                                                  const MemoryFootprint &secondFootprint) {
  if (usesResultOf(second, first))
    return std::nullopt; // the second loop starts from the first one's results
  SmallVector<Operation *> between;
  for (Operation *op = first->getNextNode(); op != second.getOperation(); op = op->getNextNode())
    between.push_back(op);
  // Needed by the second loop: walked backwards, an op is needed if the loop or a needed op
  // uses its results, or if its memory conflicts with theirs (a needed op moves before the
  // first loop, so it must not pass an op it depends on, such as the initialisation of the
  // accumulator it loads).
  llvm::SmallPtrSet<Operation *, 8> needed;
  // Each op's footprint, by its place between the loops (computed once; never reallocated).
  SmallVector<MemoryFootprint> footprints(between.size());
  SmallVector<const MemoryFootprint *> neededFootprints{&secondFootprint};
  for (size_t place = between.size(); place-- > 0;) {
    Operation *op = between[place];
    MemoryFootprint &footprint = footprints[place] = footprintOf(op);
    if (footprint.writesOutside || footprint.writesUnknown)
      return std::nullopt; // the loops' reads would move across it
    bool isNeeded =
        usesResultOf(second, op) ||
        llvm::any_of(needed, [&](Operation *user) { return usesResultOf(user, op); }) ||
        llvm::any_of(neededFootprints,
                     [&](const MemoryFootprint *later) { return footprint.conflictsWith(*later); });
    if (isNeeded) {
      needed.insert(op);
      neededFootprints.push_back(&footprint);
    }
  }
  SmallVector<Operation *> hoisted;
  SmallVector<Operation *> staying{first};
  for (auto [op, footprint] : llvm::zip(between, footprints)) {
    if (!needed.contains(op)) {
      staying.push_back(op);
      continue;
    }
    // Runs before the first loop now: it must not see or change what the loop does, nor
    // depend on anything that stays after it.
    if (footprint.conflictsWith(firstFootprint) ||
        llvm::any_of(staying, [&](Operation *earlier) { return usesResultOf(op, earlier); }))
      return std::nullopt;
    hoisted.push_back(op);
  }
  return hoisted;
}

/// `second`'s iterations run in `first`'s, at `first`'s place (after `hoisted` moved there).
scf::ForOp fuse(scf::ForOp first, scf::ForOp second, ArrayRef<Operation *> hoisted,
                DictionaryAttr attributes) {
  for (Operation *op : hoisted)
    op->moveBefore(first);
  IRRewriter rewriter(first->getContext());
  rewriter.setInsertionPoint(first);
  SmallVector<Value> inits(first.getInitArgs());
  llvm::append_range(inits, second.getInitArgs());
  auto fused = scf::ForOp::create(rewriter, first.getLoc(), first.getLowerBound(),
                                  first.getUpperBound(), first.getStep(), inits);
  fused->setDiscardableAttrs(attributes);
  Block *body = fused.getBody();
  if (!body->empty())
    rewriter.eraseOp(body->getTerminator());
  unsigned firstCount = first.getNumRegionIterArgs();
  SmallVector<Value> yielded;
  auto append = [&](scf::ForOp loop, ValueRange iterArgs) {
    SmallVector<Value> arguments{fused.getInductionVar()};
    llvm::append_range(arguments, iterArgs);
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    llvm::append_range(yielded, yield.getOperands());
    rewriter.eraseOp(yield);
    rewriter.mergeBlocks(loop.getBody(), body, arguments);
  };
  append(first, fused.getRegionIterArgs().take_front(firstCount));
  append(second, fused.getRegionIterArgs().drop_front(firstCount));
  rewriter.setInsertionPointToEnd(body);
  scf::YieldOp::create(rewriter, fused.getLoc(), yielded);
  rewriter.replaceOp(first, fused.getResults().take_front(firstCount));
  rewriter.replaceOp(second, fused.getResults().drop_front(firstCount));
  return fused;
}

void fuseLoopsOf(Block &block);

/// How far after a loop (in ops of its block) loops that may join it are looked for: the ops
/// between a reduction and the next one are a few (its result stored, the next accumulator's
/// initialisation, a NaN check's fallback), and kernels with hundreds of loops in one block
/// (sorting networks) would otherwise cost time quadratic in their number.
constexpr int kSearchWindow = 48;

/// The loop that `first` becomes once the loops that can join it (among the ops that follow
/// it) have; `fusedAway` collects the loops erased on the way.
scf::ForOp fuseFollowingLoops(scf::ForOp first, llvm::SmallPtrSetImpl<Operation *> &fusedAway) {
  MemoryFootprint firstFootprint = footprintOf(first);
  bool fusedAny = false;
  int distance = 0;
  // Loops that cannot join are ops between the first loop and a later one.
  for (Operation *op = first->getNextNode(); op && distance < kSearchWindow;
       op = op->getNextNode(), ++distance) {
    auto second = dyn_cast<scf::ForOp>(op);
    if (!second || !isEqualConstantIntOrValue(first.getLowerBound(), second.getLowerBound()) ||
        !isEqualConstantIntOrValue(first.getUpperBound(), second.getUpperBound()) ||
        !isEqualConstantIntOrValue(first.getStep(), second.getStep()))
      continue;
    MemoryFootprint secondFootprint = footprintOf(second);
    std::optional<DictionaryAttr> attributes = mergedAttributes(first, second);
    if (!attributes || firstFootprint.conflictsOutside(secondFootprint) ||
        !sharedBuffersSlicedAlike(first, second, firstFootprint.sharedBuffers(secondFootprint)))
      continue;
    auto hoisted = opsToHoist(first, second, firstFootprint, secondFootprint);
    if (!hoisted)
      continue;
    fusedAway.insert(first);
    fusedAway.insert(second);
    first = fuse(first, second, *hoisted, *attributes);
    fusedAny = true;
    firstFootprint = footprintOf(first);
    // The ops after the fused loop are those that were after the first loop, less the
    // hoisted ones and the second loop: look from the start again.
    op = first;
    distance = -1;
  }
  // Nests: the loops the fused one now holds side by side may join in turn.
  if (fusedAny)
    fuseLoopsOf(*first.getBody());
  return first;
}

/// Fuses what it can among the loops of `block`, each loop with the ones that follow it.
void fuseLoopsOf(Block &block) {
  SmallVector<scf::ForOp> loops(block.getOps<scf::ForOp>());
  llvm::SmallPtrSet<Operation *, 16> fusedAway;
  for (scf::ForOp loop : loops)
    if (!fusedAway.contains(loop))
      fuseFollowingLoops(loop, fusedAway);
}

/// Loops of one iteration become their body: a tile's 1xN loop nest is then a row loop that
/// can join the row loops next to it.
void inlineSingleIterationLoops(Operation *root) {
  SmallVector<scf::ForOp> loops;
  root->walk([&](scf::ForOp loop) { loops.push_back(loop); });
  IRRewriter rewriter(root->getContext());
  for (scf::ForOp loop : loops)
    (void)loop.promoteIfSingleIteration(rewriter); // only if its trip count is 1
}

struct FuseIndependentSiblingLoopsPass
    : impl::FuseIndependentSiblingLoopsBase<FuseIndependentSiblingLoopsPass> {
  void runOnOperation() override {
    inlineSingleIterationLoops(getOperation());
    // Blocks holding two loops or more, inner ones first: fusing two loops erases the body of
    // the second, by then worked on (the fused loop's body is worked on when it is made).
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) {
      if (llvm::range_size(block->getOps<scf::ForOp>()) >= 2)
        blocks.push_back(block);
    });
    for (Block *block : blocks)
      fuseLoopsOf(*block);
  }
};

} // namespace
} // namespace tritium::cpu
