//===- TileElementMaterializer.cpp - one element of a tile expression -----===//

#include "TileElementMaterializer.h"
#include "PointerUtils.h"
#include "TileLoops.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace tritium {

Value TileElementMaterializer::elementAt(OpBuilder &b, Location loc, Value tile,
                                         ValueRange indices) {
  if (!isa<RankedTensorType>(tile.getType()))
    return rewriter.getRemappedValue(tile);
  std::pair<void *, std::vector<void *>> key;
  key.first = tile.getAsOpaquePointer();
  for (Value index : indices)
    key.second.push_back(index.getAsOpaquePointer());
  auto it = cache.find(key);
  if (it != cache.end())
    return it->second;
  Value element;
  if (auto substitute = substitutes.find(tile); substitute != substitutes.end())
    element = tensor::ExtractOp::create(b, loc, substitute->second, indices);
  else
    element = compute(b, loc, tile, indices);
  cache[key] = element;
  return element;
}

/// Ops whose element at an index depends only on their operands' elements at that index.
static bool isRecomputableElementwise(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0)
    return false;
  if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
    return false;
  if (!op->hasTrait<OpTrait::Elementwise>() || !isPure(op))
    return false;
  return llvm::all_of(op->getOperandTypes(), [&](Type t) {
    return isa<RankedTensorType>(t) &&
           cast<RankedTensorType>(t).getShape() ==
               cast<RankedTensorType>(op->getResult(0).getType()).getShape();
  });
}

bool isCostlyElementwise(Operation *op) {
  return isa<math::MathDialect>(op->getDialect()) ||
         isa<arith::DivFOp, arith::RemFOp, arith::DivSIOp, arith::DivUIOp, arith::RemSIOp,
             arith::RemUIOp>(op);
}

/// Ops the conversion itself created (linalg, tensor, ...): they stand in for kernel ops that are
/// still there to be asked.
static bool isCreatedByConversion(Operation *op) {
  return isa<linalg::LinalgDialect, tensor::TensorDialect, bufferization::BufferizationDialect,
             memref::MemRefDialect>(op->getDialect());
}

/// Whether `user`, an op of the kernel being converted, reads its tile operands as whole
/// tensors rather than element by element through this materializer (as loads, stores and
/// atomics do). Ops the conversion itself created (linalg, tensor, ...) stand in for kernel
/// ops that are still there to be asked, and do not count.
static bool needsWholeTile(Operation *user) {
  if (isCreatedByConversion(user))
    return false;
  // A reduction streamed from loads folds its input element by element too.
  if (isa<tt::ReduceOp>(user) && user->hasAttr(kReadAtUseAttr))
    return false;
  return !isa<tt::LoadOp, tt::StoreOp, tt::AtomicRMWOp, tt::AtomicCASOp>(user) &&
         !isRecomputedPerElement(user);
}

bool isRecomputedPerElement(Operation *op) {
  return isa<tt::BroadcastOp, tt::ExpandDimsOp, tt::AddPtrOp>(op) ||
         isRecomputableElementwise(op);
}

Value loopCarriedTileUpdatedBy(Operation *op) {
  if (op->getNumResults() != 1)
    return {};
  Value carried;
  for (OpOperand &use : op->getResult(0).getUses())
    if (isa<scf::YieldOp>(use.getOwner()) && use.getOwner()->getBlock() == op->getBlock())
      if (auto loop = dyn_cast<scf::ForOp>(use.getOwner()->getParentOp()))
        carried = loop.getRegionIterArgs()[use.getOperandNumber()];
  if (!carried)
    return {};
  // Through the ops recomputed per element on the way to `op`, the carried tile may only be
  // read at the index being computed: by elementwise ops, not through broadcasts or
  // expand_dims (which read other indices, some already overwritten).
  // Each op is visited with whether its elements are computed at the index being written.
  SmallVector<std::pair<Operation *, bool>> worklist = {{op, true}};
  llvm::SmallPtrSet<Operation *, 16> visited[2]; // [elements computed at the index or not]
  while (!worklist.empty()) {
    auto [current, atIndex] = worklist.pop_back_val();
    if (!visited[atIndex].insert(current).second)
      continue;
    bool operandsAtIndex = atIndex && isRecomputableElementwise(current);
    for (Value operand : current->getOperands()) {
      if (operand == carried && !operandsAtIndex)
        return {};
      Operation *def = operand.getDefiningOp();
      if (def && def->getBlock() == op->getBlock() && isRecomputedPerElement(def))
        worklist.push_back({def, operandsAtIndex});
    }
  }
  return carried;
}

/// `op` and the stores stream-loads-into-stores grouped with it (the next ones, adjacent, of
/// its shape), or `op` alone.
SmallVector<tt::StoreOp> storesWrittenInOneLoop(tt::StoreOp op) {
  SmallVector<tt::StoreOp> group = {op};
  auto size = op->getAttrOfType<IntegerAttr>(kStoreGroupAttr);
  if (!size)
    return group;
  auto shape = cast<RankedTensorType>(op.getValue().getType()).getShape();
  for (Operation *next = op->getNextNode(); int64_t(group.size()) < size.getInt(); next = next->getNextNode()) {
    auto store = dyn_cast_or_null<tt::StoreOp>(next);
    auto type = store ? dyn_cast<RankedTensorType>(store.getValue().getType()) : nullptr;
    if (!type || type.getShape() != shape)
      return {op}; // not the group the attribute describes: each store on its own
    group.push_back(store);
  }
  return group;
}

tt::StoreOp firstStoreOfGroup(tt::StoreOp store) {
  for (Operation *op = store; auto earlier = dyn_cast_or_null<tt::StoreOp>(op); op = op->getPrevNode())
    if (earlier->hasAttr(kStoreGroupAttr))
      return llvm::is_contained(storesWrittenInOneLoop(earlier), store) ? earlier : store;
  return store;
}

bool reachesSeveralLoops(Operation *op) {
  llvm::SmallPtrSet<Operation *, 4> loops;
  SmallVector<Value> worklist = {op->getResult(0)};
  llvm::SmallPtrSet<Operation *, 16> visited;
  while (!worklist.empty()) {
    for (Operation *user : worklist.pop_back_val().getUsers()) {
      if (!visited.insert(user).second)
        continue;
      if (isCreatedByConversion(user))
        continue;
      Operation *loop = user;
      if (auto store = dyn_cast<tt::StoreOp>(user))
        loop = firstStoreOfGroup(store);
      else if (isRecomputedPerElement(user) ||
               (isa<tt::LoadOp>(user) && user->hasAttr(kReadAtUseAttr))) {
        worklist.push_back(user->getResult(0));
        continue;
      }
      loops.insert(loop);
      if (loops.size() > 1)
        return true;
    }
  }
  return false;
}

/// An integer division or remainder by a constant of at least 16 (Inductor's `x % 64`): the
/// CPU target runs the loops around it as strips in which it costs nothing (see
/// StripMineLoopsAtDivisionPeriods.cpp), where an element read back from a tensor would make
/// the access a gather.
static bool isDivisionByConstantPeriod(Operation *op) {
  if (!isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp>(op))
    return false;
  SplatElementsAttr period;
  return matchPattern(op->getOperand(1), m_Constant(&period)) &&
         isa<IntegerType>(period.getElementType()) &&
         period.getSplatValue<APInt>().getSExtValue() >= 16;
}

/// Whether computing an element of `tile` afresh runs a costly op (an integer division, a
/// math function) somewhere below it, and the tile also exists as a tensor to read from (no
/// streamed load below it). A broadcast repeats each element of such a tile along its new
/// dimensions: the column offsets `(pid * BLOCK + arange(BLOCK)) % N` of a [BLOCK_K, BLOCK]
/// tile would otherwise divide BLOCK_K times per column.
/// `throughBroadcasts` also looks below broadcasts (for a tile that is no broadcast's source,
/// whose tensor exists only if nothing below it is streamed).
static bool isCostlyToRecompute(Value tile,
                                 const llvm::SmallPtrSetImpl<Operation *> &unwrapped,
                                 bool throughBroadcasts = false) {
  SmallVector<Value> pending = {tile};
  llvm::SmallPtrSet<Operation *, 8> seen;
  bool costly = false;
  while (!pending.empty()) {
    Operation *def = pending.pop_back_val().getDefiningOp();
    if (!def || !seen.insert(def).second)
      continue;
    if (auto load = dyn_cast<tt::LoadOp>(def); load && load->hasAttr(kReadAtUseAttr))
      return false;
    if (isa<tt::ExpandDimsOp, tt::AddPtrOp>(def) || isRecomputableElementwise(def) ||
        (throughBroadcasts && isa<tt::BroadcastOp>(def))) {
      costly |= isCostlyElementwise(def) && !unwrapped.contains(def) && !isDivisionByConstantPeriod(def);
      llvm::append_range(pending, def->getOperands());
    }
  }
  return costly;
}

Value TileElementMaterializer::compute(OpBuilder &b, Location loc, Value tile,
                                       ValueRange indices) {
  Operation *def = tile.getDefiningOp();
  if (!def)
    return readFromTensor(b, loc, tile, indices);

  if (auto splat = dyn_cast<tt::SplatOp>(def))
    return rewriter.getRemappedValue(splat.getSrc());

  if (unwrapped.contains(def))
    return elementAt(b, loc, def->getOperand(0), indices);

  if (auto range = dyn_cast<tt::MakeRangeOp>(def)) {
    Value i32 = arith::IndexCastOp::create(b, loc, b.getI32Type(), indices[0]);
    if (range.getStart() == 0)
      return i32;
    return arith::AddIOp::create(b, loc, i32,
                                 arith::ConstantIntOp::create(b, loc, range.getStart(), 32));
  }

  if (auto broadcast = dyn_cast<tt::BroadcastOp>(def)) {
    auto srcShape = cast<RankedTensorType>(broadcast.getSrc().getType()).getShape();
    auto shape = cast<RankedTensorType>(broadcast.getType()).getShape();
    SmallVector<Value> srcIndices;
    for (auto [i, index] : llvm::enumerate(indices))
      srcIndices.push_back(srcShape[i] == 1 && shape[i] != 1
                               ? arith::ConstantIndexOp::create(b, loc, 0).getResult()
                               : index);
    // Loops nest in dimension order and LLVM hoists what inner loops do not change, so only
    // a broadcast along a dimension outside one the source varies in repeats its work.
    int64_t innermostVarying = -1, outermostBroadcast = shape.size();
    for (auto [i, extent] : llvm::enumerate(srcShape)) {
      if (extent != 1)
        innermostVarying = i;
      else if (shape[i] != 1 && outermostBroadcast == int64_t(shape.size()))
        outermostBroadcast = i;
    }
    if (outermostBroadcast < innermostVarying && isCostlyToRecompute(broadcast.getSrc(), unwrapped))
      return readFromTensor(b, loc, broadcast.getSrc(), srcIndices);
    return elementAt(b, loc, broadcast.getSrc(), srcIndices);
  }

  if (auto expand = dyn_cast<tt::ExpandDimsOp>(def)) {
    SmallVector<Value> srcIndices(indices);
    srcIndices.erase(srcIndices.begin() + expand.getAxis());
    return elementAt(b, loc, expand.getSrc(), srcIndices);
  }

  if (auto addptr = dyn_cast<tt::AddPtrOp>(def)) {
    Value ptr = elementAt(b, loc, addptr.getPtr(), indices);
    Value offset = elementAt(b, loc, addptr.getOffset(), indices);
    Type pointee = cast<tt::PointerType>(getElementTypeOrSelf(addptr.getType())).getPointeeType();
    return advancePointer(b, loc, ptr, offset, pointee);
  }

  if (auto load = dyn_cast<tt::LoadOp>(def); load && load->hasAttr(kReadAtUseAttr)) {
    Value ptr = elementAt(b, loc, load.getPtr(), indices);
    Value mask = load.getMask() ? elementAt(b, loc, load.getMask(), indices) : Value();
    Value other = load.getOther() ? elementAt(b, loc, load.getOther(), indices) : Value();
    Type pointee = cast<tt::PointerType>(getElementTypeOrSelf(load.getPtr().getType()))
                       .getPointeeType();
    return loadElement(b, loc, ptr, mask, other, pointee, /*isVolatile=*/false);
  }

  if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
    auto dense = dyn_cast<SplatElementsAttr>(constant.getValue());
    if (dense)
      return arith::ConstantOp::create(b, loc, cast<TypedAttr>(dense.getSplatValue<Attribute>()));
    return readFromTensor(b, loc, tile, indices);
  }

  if (isRecomputableElementwise(def)) {
    // A costly tile that some other op needs whole (a reduction, a loop) exists in memory
    // anyway: reading it is cheaper than computing it again (softmax's exp would run twice).
    // So is a costly float value that more than one loop would compute (a GELU's erf that a
    // layer norm's two reductions and its store all need).
    bool isFloat = isa<FloatType>(getElementTypeOrSelf(tile.getType()));
    if (isCostlyElementwise(def)) {
      if (llvm::any_of(def->getUsers(), needsWholeTile) || (isFloat && reachesSeveralLoops(def)))
        return readFromTensor(b, loc, tile, indices);
    } else if (isFloat && reachesSeveralLoops(def) &&
               isCostlyToRecompute(tile, unwrapped, /*throughBroadcasts=*/true)) {
      // A cheap float value computed from such a costly tile, that several loops need too (the
      // GELU x * 0.5 * (erf(x / sqrt 2) + 1) itself) is in memory for them anyway: reading it
      // is one load where computing it again reads each operand, and it leaves the costly tile
      // a single consumer to be fused into (one loop computes erf and GELU together).
      return readFromTensor(b, loc, tile, indices);
    }
    SmallVector<Value> operands;
    for (Value operand : def->getOperands())
      operands.push_back(elementAt(b, loc, operand, indices));
    Type elementType =
        converter.convertType(cast<RankedTensorType>(tile.getType()).getElementType());
    SmallVector<NamedAttribute> attributes;
    for (NamedAttribute attribute : def->getAttrs())
      if (attribute.getName() != kComputedPerElementAttr)
        attributes.push_back(attribute);
    OperationState state(loc, def->getName(), operands, TypeRange{elementType}, attributes);
    return b.create(state)->getResult(0);
  }

  return readFromTensor(b, loc, tile, indices);
}

Value TileElementMaterializer::readFromTensor(OpBuilder &b, Location loc, Value tile,
                                              ValueRange indices) {
  Value converted = rewriter.getRemappedValue(tile);
  Value element = tensor::ExtractOp::create(b, loc, converted, indices);
  if (isa<tt::PointerType>(cast<RankedTensorType>(tile.getType()).getElementType()))
    element = LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()),
                                       element);
  return element;
}

} // namespace tritium
