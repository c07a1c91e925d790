//===- NoteWrittenRanges.cpp - the bytes a store nest writes, told the cache ---===//
//
// A program that read an operand tile from the thread's copy (OperandTileCache.h) must read
// its own writes: a persistent matmul stores each C tile inside its loop over tiles, before
// the next tile's operands are read, and without more it could not use the cache at all
// (bf16 at 1024^3 ran 11-14% slower than the plain matmul whose programs store once, last).
// So read-tiles-in-place notes, before each store nest of such a kernel, the bytes the nest
// may write; the cache drops the copies they overlap. The nest's store address is a linear
// function of its induction variables (ReadTilesInPlace.cpp's linear forms), whose extremes
// lie at the nest's corners: the range is [lowest corner, highest corner + one element),
// computed once before the nest, never per element. A mask can only write less.
//
//===----------------------------------------------------------------------===//

#include "ReadTilesInPlace.h"
#include "tritium/Target/CPU/OperandTileCache.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace tritium::cpu::tile_reads;

namespace tritium::cpu {
namespace {

/// The trip count of a loop that counts from 0 by 1 to a constant.
std::optional<int64_t> tripCount(scf::ForOp loop) {
  if (!isConstantIntValue(loop.getLowerBound(), 0) || !isConstantIntValue(loop.getStep(), 1))
    return std::nullopt;
  std::optional<int64_t> count = getConstantIntValue(loop.getUpperBound());
  if (!count || *count <= 0)
    return std::nullopt;
  return count;
}

/// The loops around a store: the innermost scf.for that holds it (through scf.if only) and
/// the scf.for whose body is that loop alone, if there is one. `outer` is null for a store in
/// no loop; `inner` is `outer` for a nest of one loop.
struct StoreNest {
  scf::ForOp outer, inner;
  int64_t outerCount = 1, innerCount = 1;
};

std::optional<StoreNest> matchStoreNest(LLVM::StoreOp store) {
  Operation *parent = store->getParentOp();
  while (isa<scf::IfOp>(parent))
    parent = parent->getParentOp();
  if (isa<FunctionOpInterface>(parent))
    return StoreNest{};
  auto inner = dyn_cast<scf::ForOp>(parent);
  if (!inner)
    return std::nullopt;
  std::optional<int64_t> innerCount = tripCount(inner);
  if (!innerCount)
    return std::nullopt;
  StoreNest nest{inner, inner, *innerCount, 1};
  auto outer = dyn_cast<scf::ForOp>(inner->getParentOp());
  if (outer && &outer.getBody()->front() == inner.getOperation() &&
      outer.getBody()->getTerminator()->getPrevNode() == inner.getOperation()) {
    if (std::optional<int64_t> outerCount = tripCount(outer))
      nest = {outer, inner, *outerCount, *innerCount};
  }
  // The store is the nest's only write of memory other than tile buffers.
  bool alone = !nest.outer
                    ->walk([&](Operation *op) {
                      return op != store && writesGlobalMemory(op) ? WalkResult::interrupt()
                                                                   : WalkResult::advance();
                    })
                    .wasInterrupted();
  if (!alone)
    return std::nullopt;
  return nest;
}

} // namespace

Operation *tile_reads::noteWrittenRange(LLVM::StoreOp store) {
  if (store.getVolatile_() || store.getOrdering() != LLVM::AtomicOrdering::not_atomic)
    return nullptr;
  Type element = store.getValue().getType();
  if (!element.isIntOrFloat())
    return nullptr;
  int64_t elementBytes = (element.getIntOrFloatBitWidth() + 7) / 8;
  std::optional<StoreNest> nest = matchStoreNest(store);
  if (!nest)
    return nullptr;
  auto module = store->getParentOfType<ModuleOp>();
  Operation *at = nest->outer ? nest->outer.getOperation() : store.getOperation();
  Location loc = store.getLoc();
  OpBuilder b(at);
  Operation *before = at->getPrevNode();

  std::optional<AddressAtCorners> corners;
  if (nest->outer) {
    corners = addressAtCorners(b, loc, store.getAddr(), element, nest->outer, nest->outerCount,
                               nest->inner, nest->innerCount);
    if (!corners) {
      eraseBuiltBetween(before, at);
      return nullptr;
    }
  } else {
    corners = AddressAtCorners{store.getAddr(), {i64Constant(b, loc, 0)},
                               arith::ConstantOp::create(b, loc, b.getBoolAttr(true))};
  }
  Value lowest = corners->offsets.front(), highest = lowest;
  for (Value offset : llvm::drop_begin(corners->offsets)) {
    lowest = b.createOrFold<arith::MinSIOp>(loc, lowest, offset);
    highest = b.createOrFold<arith::MaxSIOp>(loc, highest, offset);
  }
  Value size = i64Constant(b, loc, elementBytes);
  Value base = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), corners->base);
  Value first = arith::AddIOp::create(b, loc, base, b.createOrFold<arith::MulIOp>(loc, lowest, size));
  Value end = arith::AddIOp::create(
      b, loc, base,
      b.createOrFold<arith::MulIOp>(
          loc, b.createOrFold<arith::AddIOp>(loc, highest, i64Constant(b, loc, 1)), size));
  // Where an index computation may wrap, the nest may write anywhere.
  first = b.createOrFold<arith::SelectOp>(loc, corners->fits, first, i64Constant(b, loc, 0));
  end = b.createOrFold<arith::SelectOp>(loc, corners->fits, end, i64Constant(b, loc, -1));
  Type i64 = b.getI64Type();
  func::FuncOp note =
      declareCacheFunction(module, kNoteWrittenRange, b.getFunctionType({i64, i64}, {}));
  return func::CallOp::create(b, loc, note, ValueRange{first, end});
}

} // namespace tritium::cpu
