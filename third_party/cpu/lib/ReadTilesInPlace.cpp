//===- ReadTilesInPlace.cpp - operand tiles without a copy per program ----===//
//
// Every K step of a blocked matmul loads its A tile (`tl.load(a_ptrs, mask=...)`) into a
// tile buffer, element by element, and the register blocks then read that buffer. When the
// tile is a plain block of rows of the operand — address `base + i * stride + j`, every
// element inside the mask — the copy buys nothing: the register blocks can read A where it
// is, as a strided view of the operand. Measured at 1024^3 and 2048^3 (fp32, one Zen 3 core),
// reading A in place makes the kernel 4-6% faster. The same holds for the tiles a flash-
// attention step loads: V, the product's B, and K, which is only transposed.
//
// A matmul's B tile is read in place only when its rows lie close together (a row stride of
// at most twice the tile's width, checked at run time): in a large matmul B's rows are a
// whole matrix row apart, and a 16-column strip of 64 of them aliases into a few L1 sets —
// reading it in place made 1024^3 slower. Attention's V tile is one contiguous block.
//
// bf16 and fp16 operand tiles (loaded as 16-bit integers, stored through a bitcast) are read
// in place the same way when they are row-major blocks: the matmul packs them (AMX, vdpbf16ps)
// or widens them, reading each element once. On an AMX host, bf16 at 2048^3, one thread:
// 400-550 -> 500-650 GFLOP/s.
//
// A tile of a column-major operand (`base + i + j * stride`: a transposed A, the B of
// `x @ w.t()` with an nn.Linear weight) was gathered element by element, 2-5x slower than the
// whole matmul with row-major operands. Under the same conditions it is now filled by a
// transpose of a view whose rows are the tile's columns, which runs by register blocks.
//
// Those copies (B's, the transposes) and A's rows a matrix row apart (a TLB miss a row) cost
// the same in every program that reads the tile: a blocked matmul reads each A tile in every
// program of its row and each B tile in every program of its column. A tile of at least 4 KB
// that is not read in place is read from the copy the calling thread made earlier in the
// launch (OperandTileCache.h), where the kernel allows: no atomics (programs that synchronise
// may see each other's writes), and a program must read its own writes: a store nest whose
// bytes can be bounded is noted before it runs, which drops the copies it overlaps
// (NoteWrittenRanges.cpp; a persistent matmul stores C in its loop over tiles), and no tile
// read after any other write takes a copy. 1024^3 and 2048^3 f32 on a Zen 3 core: +2-4% with
// row-major operands, +8-16% with B transposed, +15-25% with A transposed. A copy may be
// replaced once its program has made as many further lookups as the function has (its
// consumer follows it in its block), unless a loop that looks tiles up may run in between.
//
// On a host whose AMX tiles will compute the matmul, B is read packed for the tile loads
// (ReadTilesPackedForAMX.cpp); so is B of a matmul `vdpbf16ps` or `vpdpbusd` will compute.
//
// The buffer's fill is a loop nest over the tile (perhaps one branch of an `scf.if`, the
// other handling a `%` wrap) whose address is a linear function of the two induction
// variables, built from `index_cast`, `extsi`, `addi`, `subi` and `muli` by loop-invariant
// values, and whose mask is a conjunction of signed comparisons of such functions. A linear
// function takes its extremes at the corners of the tile, so the pass evaluates, in i64,
// every narrower intermediate value and every comparison at the four corners: if no value
// leaves its integer type and every comparison holds, the mask is true in the whole tile and
// the address computation never wraps. Then the consumer reads the view; otherwise (the last
// K step of a K that is not a multiple of the tile, a wrapped row, an offset beyond int32)
// the fill runs as before.
//
//===----------------------------------------------------------------------===//

#include "AMXMatmuls.h"
#include "DotProductMatmuls.h"
#include "InductionVariableOffsets.h"
#include "ReadTilesInPlace.h"
#include "tritium/Target/CPU/OperandTileCache.h"
#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_READTILESINPLACE
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;
using namespace tritium::cpu::tile_reads;

namespace tritium::cpu {
namespace {

/// `constant + rowCoefficient * i + columnCoefficient * j`, every part an i64 value computed
/// before the fill.
struct LinearForm {
  Value constant, row, column;
};

/// Builds the linear forms of a fill nest's index computations, before the fill, and
/// remembers each narrower-than-i64 value on the way, whose range must then be checked.
class LinearForms {
public:
  LinearForms(OpBuilder &builder, Location loc, scf::ForOp rows, scf::ForOp columns)
      : b(builder), loc(loc), rows(rows), columns(columns), zero(constant(0)), one(constant(1)) {}

  FailureOr<LinearForm> of(Value value) {
    if (auto known = forms.find(value); known != forms.end())
      return known->second;
    FailureOr<LinearForm> form = compute(value);
    if (failed(form))
      return failure();
    // Values computed in the nest may wrap; those from outside are what they are.
    if (auto type = dyn_cast<IntegerType>(value.getType());
        type && type.getWidth() < 64 && !rows.isDefinedOutsideOfLoop(value))
      narrow.emplace_back(*form, type.getWidth());
    forms[value] = *form;
    return form;
  }

  /// The form of the sum of `values`.
  FailureOr<LinearForm> sum(ArrayRef<Value> values) {
    LinearForm total{zero, zero, zero};
    for (Value value : values) {
      FailureOr<LinearForm> form = of(value);
      if (failed(form))
        return failure();
      total = {add(total.constant, form->constant), add(total.row, form->row),
               add(total.column, form->column)};
    }
    return total;
  }

  /// `form` at row `row` and column `column` (i64 values; null: 0).
  Value at(const LinearForm &form, Value row, Value column) {
    Value value = form.constant;
    if (row)
      value = add(value, mul(form.row, row));
    if (column)
      value = add(value, mul(form.column, column));
    return value;
  }

  /// Whether every value narrower than i64 stays in its type at row `row` and column `column`
  /// (an i1; null: 0): at the corners of the nest, then everywhere in it.
  Value narrowValuesFitAt(Value row, Value column) {
    Value fits = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
    for (auto &[form, width] : narrow) {
      Value value = at(form, row, column);
      APInt low = APInt::getSignedMinValue(width).sext(64);
      APInt high = APInt::getSignedMaxValue(width).sext(64);
      fits = b.createOrFold<arith::AndIOp>(
          loc, fits,
          b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, value,
                                        constant(low.getSExtValue())));
      fits = b.createOrFold<arith::AndIOp>(
          loc, fits,
          b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sle, value,
                                        constant(high.getSExtValue())));
    }
    return fits;
  }

  Value constant(int64_t value) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(value));
  }

private:
  FailureOr<LinearForm> compute(Value value) {
    Type type = value.getType();
    if (!type.isIndex() && !type.isSignlessInteger())
      return failure();
    if (value == rows.getInductionVar())
      return LinearForm{zero, one, zero};
    if (value == columns.getInductionVar())
      return LinearForm{zero, zero, one};
    if (rows.isDefinedOutsideOfLoop(value))
      return LinearForm{widen(value), zero, zero};
    Operation *op = value.getDefiningOp();
    if (!op)
      return failure();
    if (auto constantOp = dyn_cast<arith::ConstantOp>(op)) {
      auto attr = dyn_cast<IntegerAttr>(constantOp.getValue());
      if (!attr)
        return failure();
      return LinearForm{constant(type.isIndex() ? attr.getInt() : attr.getValue().getSExtValue()),
                        zero, zero};
    }
    if (isa<arith::IndexCastOp, arith::ExtSIOp>(op))
      return of(op->getOperand(0));
    if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(op))
      return failure();
    FailureOr<LinearForm> lhs = of(op->getOperand(0));
    FailureOr<LinearForm> rhs = of(op->getOperand(1));
    if (failed(lhs) || failed(rhs))
      return failure();
    if (isa<arith::AddIOp>(op))
      return LinearForm{add(lhs->constant, rhs->constant), add(lhs->row, rhs->row),
                        add(lhs->column, rhs->column)};
    if (isa<arith::SubIOp>(op))
      return LinearForm{sub(lhs->constant, rhs->constant), sub(lhs->row, rhs->row),
                        sub(lhs->column, rhs->column)};
    // A product is linear when one factor does not depend on the induction variables.
    if (isInvariant(*rhs))
      std::swap(lhs, rhs);
    if (!isInvariant(*lhs))
      return failure();
    Value factor = lhs->constant;
    return LinearForm{mul(factor, rhs->constant), mul(factor, rhs->row), mul(factor, rhs->column)};
  }

  static bool isZero(Value v) { return isConstantIntValue(v, 0); }
  static bool isInvariant(const LinearForm &form) {
    return isZero(form.row) && isZero(form.column);
  }
  Value widen(Value v) { return widenToI64(b, loc, v); }
  Value add(Value x, Value y) { return b.createOrFold<arith::AddIOp>(loc, x, y); }
  Value sub(Value x, Value y) { return b.createOrFold<arith::SubIOp>(loc, x, y); }
  Value mul(Value x, Value y) { return b.createOrFold<arith::MulIOp>(loc, x, y); }

  OpBuilder &b;
  Location loc;
  scf::ForOp rows, columns;
  Value zero, one; // the coefficients of forms that do not (or do, once) depend on an index
  llvm::DenseMap<Value, LinearForm> forms;
  SmallVector<std::pair<LinearForm, unsigned>> narrow;
};

/// A tile buffer's fill: `for i in [0, M) { for j in [0, K) { buf[i, j] = load(addr) } }`
/// with the load perhaps under a mask (`scf.if %mask { load } else { other }`).
struct Fill {
  scf::ForOp rows, columns;
  LLVM::LoadOp load;
  Value mask; // null: none
  // The condition of the `scf.if` whose first branch the nest is (null: none): the nest's
  // addresses hold only where it is true (the other branch handles a `%` wrap).
  Value branch;
};

std::optional<int64_t> constantUpperBound(scf::ForOp loop, int64_t extent) {
  if (!isConstantIntValue(loop.getLowerBound(), 0) || !isConstantIntValue(loop.getStep(), 1) ||
      !isConstantIntValue(loop.getUpperBound(), extent))
    return std::nullopt;
  return extent;
}

/// The fill of `buffer` that `nest` is, if it is one.
std::optional<Fill> matchFill(scf::ForOp nest, memref::AllocOp buffer) {
  ArrayRef<int64_t> shape = buffer.getType().getShape();
  if (!constantUpperBound(nest, shape[0]))
    return std::nullopt;
  auto columns = dyn_cast<scf::ForOp>(nest.getBody()->front());
  if (!columns || &nest.getBody()->front() != nest.getBody()->getTerminator()->getPrevNode() ||
      !constantUpperBound(columns, shape[1]))
    return std::nullopt;
  auto store = dyn_cast<memref::StoreOp>(columns.getBody()->getTerminator()->getPrevNode());
  if (!store || store.getMemRef() != buffer.getResult() ||
      store.getIndices()[0] != nest.getInductionVar() ||
      store.getIndices()[1] != columns.getInductionVar())
    return std::nullopt;
  Fill fill{nest, columns, {}, {}, {}};
  Value stored = store.getValueToStore();
  // bf16 is loaded as i16 and stored through a bitcast.
  if (auto cast = stored.getDefiningOp<arith::BitcastOp>())
    stored = cast.getIn();
  if (auto masked = stored.getDefiningOp<scf::IfOp>()) {
    // scf.if %mask { %v = llvm.load; yield %v } else { yield %other }
    if (masked->getNumResults() != 1 || masked.elseBlock() == nullptr)
      return std::nullopt;
    Block *then = masked.thenBlock();
    if (then->getOperations().size() != 2)
      return std::nullopt;
    fill.load = dyn_cast<LLVM::LoadOp>(then->front());
    fill.mask = masked.getCondition();
    if (!fill.load || then->getTerminator()->getOperand(0) != fill.load.getResult() ||
        masked.elseBlock()->getOperations().size() != 1)
      return std::nullopt;
  } else {
    fill.load = stored.getDefiningOp<LLVM::LoadOp>();
  }
  if (!fill.load || fill.load.getVolatile_() || fill.load.getOrdering() != LLVM::AtomicOrdering::not_atomic ||
      !fill.load.getType().isIntOrFloat() ||
      fill.load.getType().getIntOrFloatBitWidth() !=
          buffer.getType().getElementTypeBitWidth())
    return std::nullopt;
  // Nothing else in the nest may touch memory.
  bool pure = true;
  nest.getBody()->walk([&](Operation *op) {
    if (op != store && op != fill.load && !isMemoryEffectFree(op) &&
        !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      pure = false;
  });
  if (!pure)
    return std::nullopt;
  return fill;
}

/// The pointer an address is built from with element-sized steps, and the steps' indices.
std::optional<std::pair<Value, SmallVector<Value>>> addressSteps(Value address, Type element,
                                                                 scf::ForOp nest) {
  SmallVector<Value> indices;
  while (!nest.isDefinedOutsideOfLoop(address)) {
    auto gep = address.getDefiningOp<LLVM::GEPOp>();
    // Steps of the element's size (fp8 elements are addressed as i8).
    Type stepType = gep ? gep.getElemType() : Type();
    bool elementSized = stepType == element ||
                        (stepType && stepType.isInteger() && element.isIntOrFloat() &&
                         stepType.getIntOrFloatBitWidth() == element.getIntOrFloatBitWidth());
    if (!gep || !elementSized || gep.getDynamicIndices().size() != 1 ||
        gep.getRawConstantIndices().size() != 1)
      return std::nullopt;
    indices.push_back(gep.getDynamicIndices()[0]);
    address = gep.getBase();
  }
  return std::make_pair(address, indices);
}

/// The comparisons whose conjunction `mask` is, if it is one of signed comparisons.
bool collectComparisons(Value mask, SmallVectorImpl<arith::CmpIOp> &comparisons) {
  if (auto conjunction = mask.getDefiningOp<arith::AndIOp>())
    return collectComparisons(conjunction.getLhs(), comparisons) &&
           collectComparisons(conjunction.getRhs(), comparisons);
  auto comparison = mask.getDefiningOp<arith::CmpIOp>();
  if (!comparison)
    return false;
  switch (comparison.getPredicate()) {
  case arith::CmpIPredicate::slt:
  case arith::CmpIPredicate::sle:
  case arith::CmpIPredicate::sgt:
  case arith::CmpIPredicate::sge:
  case arith::CmpIPredicate::eq: // not `ne`: true at the corners, it may be false between
    comparisons.push_back(comparison);
    return true;
  default:
    return false;
  }
}

} // namespace

Value tile_reads::i64Constant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(value));
}

Value tile_reads::memrefAt(OpBuilder &b, Location loc, Value base, MemRefType type,
                           Value rowStride) {
  MLIRContext *context = b.getContext();
  auto pointerType = LLVM::LLVMPointerType::get(context);
  Type i64 = b.getI64Type();
  auto sizesType = LLVM::LLVMArrayType::get(i64, 2);
  auto descriptorType =
      LLVM::LLVMStructType::getLiteral(context, {pointerType, pointerType, i64, sizesType, sizesType});
  auto constant = [&](int64_t value) { return i64Constant(b, loc, value); };
  Value descriptor = LLVM::PoisonOp::create(b, loc, descriptorType);
  auto insert = [&](Value value, ArrayRef<int64_t> position) {
    descriptor = LLVM::InsertValueOp::create(b, loc, descriptor, value, position);
  };
  insert(base, {0});
  insert(base, {1});
  insert(constant(0), {2});
  insert(constant(type.getShape()[0]), {3, 0});
  insert(constant(type.getShape()[1]), {3, 1});
  insert(rowStride, {4, 0});
  insert(constant(1), {4, 1});
  return UnrealizedConversionCastOp::create(b, loc, TypeRange{type}, ValueRange{descriptor})
      .getResult(0);
}

func::FuncOp tile_reads::declareCacheFunction(ModuleOp module, StringRef name,
                                              FunctionType type) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto function = func::FuncOp::create(b, module.getLoc(), name, type);
  function.setPrivate();
  return function;
}

void tile_reads::eraseBuiltBetween(Operation *before, Operation *at) {
  Block *block = at->getBlock();
  SmallVector<Operation *> built;
  for (auto it = before ? std::next(before->getIterator()) : block->begin(); &*it != at; ++it)
    built.push_back(&*it);
  for (Operation *op : llvm::reverse(built))
    op->erase();
}

bool tile_reads::isCacheCall(Operation *op) {
  auto call = dyn_cast<func::CallOp>(op);
  return call && (call.getCallee() == kCachedOperandTile || call.getCallee() == kNoteWrittenRange);
}

bool tile_reads::writesGlobalMemory(Operation *op) {
  if (isCacheCall(op))
    return false;
  if (isa<CallOpInterface>(op))
    return true;
  if (!op->getDialect() || !isa<LLVM::LLVMDialect>(op->getDialect()))
    return false;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  return !effects || effects.hasEffect<MemoryEffects::Write>();
}

bool tile_reads::writesGlobalMemoryBetween(Operation *from, Operation *to) {
  for (Operation *op = from->getNextNode(); op && op != to; op = op->getNextNode()) {
    WalkResult result = op->walk([](Operation *nested) {
      return writesGlobalMemory(nested) ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (result.wasInterrupted())
      return true;
  }
  return false;
}

std::optional<AddressAtCorners>
tile_reads::addressAtCorners(OpBuilder &b, Location loc, Value address, Type element,
                             scf::ForOp rows, int64_t rowCount, scf::ForOp columns,
                             int64_t columnCount) {
  auto steps = addressSteps(address, element, rows);
  if (!steps)
    return std::nullopt;
  LinearForms forms(b, loc, rows, columns);
  FailureOr<LinearForm> offset = forms.sum(steps->second);
  if (failed(offset))
    return std::nullopt;
  AddressAtCorners corners{steps->first, {}, arith::ConstantOp::create(b, loc, b.getBoolAttr(true))};
  Value lastRow = forms.constant(rowCount - 1), lastColumn = forms.constant(columnCount - 1);
  for (Value row : {Value(), lastRow}) {
    for (Value column : {Value(), lastColumn}) {
      corners.offsets.push_back(forms.at(*offset, row, column));
      corners.fits =
          b.createOrFold<arith::AndIOp>(loc, corners.fits, forms.narrowValuesFitAt(row, column));
    }
  }
  return corners;
}

namespace {

/// Whether the fill of `buffer` is a fill of rows of one strided block; if so, builds (at the
/// builder's point, before the fill) the condition under which it is, and the view of that block.
std::optional<InPlaceRead> buildInPlaceRead(OpBuilder &b, Fill fill, memref::AllocOp buffer,
                                            MemRefType viewType) {
  Location loc = fill.load.getLoc();
  Type element = buffer.getType().getElementType();
  auto steps = addressSteps(fill.load.getAddr(), element, fill.rows);
  if (!steps)
    return std::nullopt;
  SmallVector<arith::CmpIOp> comparisons;
  if (fill.mask && !fill.rows.isDefinedOutsideOfLoop(fill.mask) &&
      !collectComparisons(fill.mask, comparisons))
    return std::nullopt;

  LinearForms forms(b, loc, fill.rows, fill.columns);
  FailureOr<LinearForm> summed = forms.sum(steps->second);
  if (failed(summed))
    return std::nullopt;
  LinearForm offset = *summed;
  // Consecutive columns must be consecutive elements, or consecutive rows (a column-major
  // block, transposed into the buffer by whole vectors instead of gathered).
  bool transposed = !isConstantIntValue(offset.column, 1);
  if (transposed && !isConstantIntValue(offset.row, 1))
    return std::nullopt;
  SmallVector<std::pair<arith::CmpIOp, std::pair<LinearForm, LinearForm>>> tests;
  for (arith::CmpIOp comparison : comparisons) {
    FailureOr<LinearForm> lhs = forms.of(comparison.getLhs());
    FailureOr<LinearForm> rhs = forms.of(comparison.getRhs());
    if (failed(lhs) || failed(rhs))
      return std::nullopt;
    tests.push_back({comparison, {*lhs, *rhs}});
  }

  ArrayRef<int64_t> shape = buffer.getType().getShape();
  Value lastRow = forms.constant(shape[0] - 1), lastColumn = forms.constant(shape[1] - 1);
  Value condition = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  auto require = [&](Value test) { condition = b.createOrFold<arith::AndIOp>(loc, condition, test); };
  for (Value row : {Value(), lastRow}) {
    for (Value column : {Value(), lastColumn}) {
      require(forms.narrowValuesFitAt(row, column));
      for (auto &[comparison, sides] : tests)
        require(b.createOrFold<arith::CmpIOp>(loc, comparison.getPredicate(),
                                              forms.at(sides.first, row, column),
                                              forms.at(sides.second, row, column)));
    }
  }
  if (fill.mask && fill.rows.isDefinedOutsideOfLoop(fill.mask))
    require(fill.mask);
  // A block read where its first branch would not run (a block whose rows wrap) is no view.
  if (fill.branch)
    require(fill.branch);
  Value compact = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sle, offset.row,
                                                forms.constant(2 * shape[1]));

  // The loaded type: an element's size, and one LLVM knows (fp8 elements are loaded as i8).
  Value base = LLVM::GEPOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()),
                                   fill.load.getType(), steps->first,
                                   ValueRange{offset.constant});
  if (transposed)
    viewType = MemRefType::get({shape[1], shape[0]}, viewType.getElementType(),
                               viewType.getLayout());
  Value view = memrefAt(b, loc, base, viewType, transposed ? offset.column : offset.row);
  return InPlaceRead{condition, view, transposed, base, transposed ? offset.column : offset.row,
                     compact};
}

/// The op in `buffer`'s block that fills it, and the nest to read in place: the fill itself,
/// or the first branch of an `scf.if` whose other branch fills it another way.
std::optional<std::pair<Operation *, Fill>> findFill(memref::AllocOp buffer,
                                                     bufferization::ToTensorOp tile) {
  Operation *filler = nullptr;
  for (Operation *user : buffer->getUsers()) {
    if (user == tile)
      continue;
    if (!isa<memref::StoreOp>(user))
      return std::nullopt;
    Operation *ancestor = buffer->getBlock()->findAncestorOpInBlock(*user);
    if (!ancestor || (filler && filler != ancestor))
      return std::nullopt;
    filler = ancestor;
  }
  if (!filler || !filler->isBeforeInBlock(tile))
    return std::nullopt;
  scf::ForOp nest = dyn_cast<scf::ForOp>(filler);
  if (auto branches = dyn_cast<scf::IfOp>(filler)) {
    if (branches->getNumResults() != 0 || branches.thenBlock()->getOperations().size() != 2)
      return std::nullopt;
    nest = dyn_cast<scf::ForOp>(branches.thenBlock()->front());
  }
  if (!nest)
    return std::nullopt;
  std::optional<Fill> fill = matchFill(nest, buffer);
  if (!fill)
    return std::nullopt;
  if (auto branches = dyn_cast<scf::IfOp>(filler))
    fill->branch = branches.getCondition();
  return std::make_pair(filler, *fill);
}

/// Whether `op` looks up a cached operand tile.
bool isCacheLookup(Operation *op) {
  auto call = dyn_cast<func::CallOp>(op);
  return call && call.getCallee() == kCachedOperandTile;
}

/// Whether anything from `from` up to `to` (in one block) may write memory other than tile
/// buffers: the in-place view must read what the copy would have read.
bool writesGlobalMemoryFrom(Operation *from, Operation *to) {
  if (from == to)
    return false;
  WalkResult result = from->walk([&](Operation *nested) {
    return writesGlobalMemory(nested) ? WalkResult::interrupt() : WalkResult::advance();
  });
  return result.wasInterrupted() || writesGlobalMemoryBetween(from, to);
}

/// How a consumer may read an operand tile.
enum class TileUse {
  MatmulLhs,      // in place whenever the tile is whole
  MatmulRhs,      // in place only when its rows are close together
  TransposeInput, // in place whenever the tile is whole
};

/// What decides whether the programs of a function may read copies of its tiles that other
/// programs of the launch made (OperandTileCache.h): the function synchronises with no other
/// program (no atomic op, no fence), and a program reads what it wrote itself. Stores whose
/// range noteWrittenRange bounds are noted before they run (the cache drops the copies they
/// overlap); a fill is done from a copy only before any other write (a call, a store it
/// cannot bound). Writes of other programs a program need not see. Computed once per function;
/// `dropUnusedNotes` erases the notes of functions that got no lookup.
class CachedCopyPermission {
public:
  bool allows(Operation *filler) {
    auto function = filler->getParentOfType<FunctionOpInterface>();
    if (!function || !function.getFunctionBody().hasOneBlock())
      return false;
    auto [it, inserted] = functions.try_emplace(function.getOperation());
    if (inserted)
      it->second = summarize(function);
    const Summary &summary = it->second;
    if (summary.synchronises)
      return false;
    Operation *fillerAtTop = function.getFunctionBody().front().findAncestorOpInBlock(*filler);
    return fillerAtTop &&
           (!summary.firstUnboundedWrite || fillerAtTop->isBeforeInBlock(summary.firstUnboundedWrite));
  }

  void dropUnusedNotes() {
    for (auto &[function, summary] : functions) {
      bool looksUp = function->walk([](Operation *op) {
                               return isCacheLookup(op) ? WalkResult::interrupt()
                                                        : WalkResult::advance();
                             }).wasInterrupted();
      if (!looksUp)
        for (Operation *note : summary.notes)
          note->erase();
    }
  }

private:
  struct Summary {
    bool synchronises = false;
    Operation *firstUnboundedWrite = nullptr; // the first op of the body that holds one
    SmallVector<Operation *> notes;
  };

  static Summary summarize(FunctionOpInterface function) {
    Summary summary;
    Block &body = function.getFunctionBody().front();
    SmallVector<Operation *> writes;
    function->walk([&](Operation *op) {
      if (isa<LLVM::AtomicRMWOp, LLVM::AtomicCmpXchgOp, LLVM::FenceOp, LLVM::InlineAsmOp>(op))
        summary.synchronises = true;
      if (writesGlobalMemory(op))
        writes.push_back(op);
    });
    if (summary.synchronises)
      return summary;
    for (Operation *write : writes) {
      if (auto store = dyn_cast<LLVM::StoreOp>(write))
        if (Operation *note = noteWrittenRange(store)) {
          summary.notes.push_back(note);
          continue;
        }
      Operation *atTop = body.findAncestorOpInBlock(*write);
      if (atTop &&
          (!summary.firstUnboundedWrite || atTop->isBeforeInBlock(summary.firstUnboundedWrite)))
        summary.firstUnboundedWrite = atTop;
    }
    return summary;
  }

  llvm::DenseMap<Operation *, Summary> functions;
};

/// The lookup's operand that is its window, built as kWholeProgram and bounded last.
constexpr unsigned kLookupWindowOperand = 6;

/// Declares the cache's lookup function in `module` (once).
func::FuncOp cacheLookup(ModuleOp module) {
  Builder b(module.getContext());
  auto pointer = LLVM::LLVMPointerType::get(module.getContext());
  Type i64 = b.getI64Type();
  return declareCacheFunction(
      module, kCachedOperandTile,
      b.getFunctionType({pointer, i64, i64, i64, i64, i64, i64, pointer}, {pointer}));
}

/// Copies the whole tile `read` views into `destination` (a row-major buffer of the tile's
/// shape): a transpose for a column-major tile.
void copyTile(OpBuilder &b, Location loc, const InPlaceRead &read, Value destination) {
  if (read.transposed)
    linalg::TransposeOp::create(b, loc, read.view, destination, ArrayRef<int64_t>{1, 0});
  else
    linalg::CopyOp::create(b, loc, read.view, destination);
}

} // namespace

CacheLookup tile_reads::lookUpCachedTile(OpBuilder &b, Location loc, Operation *at, Value first,
                                         Value rowStride, int64_t rows, int64_t columns,
                                         int64_t elementBytes, int64_t layout) {
  auto module = at->getParentOfType<ModuleOp>();
  auto function = at->getParentOfType<FunctionOpInterface>();
  auto pointer = LLVM::LLVMPointerType::get(b.getContext());
  auto constant = [&](int64_t value) { return i64Constant(b, loc, value); };
  Value fillFlag;
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&function.getFunctionBody().front());
    fillFlag = LLVM::AllocaOp::create(b, loc, pointer, b.getI32Type(), constant(1));
  }
  Value slot = func::CallOp::create(b, loc, cacheLookup(module),
                                    ValueRange{first, rowStride, constant(rows), constant(columns),
                                               constant(elementBytes), constant(layout),
                                               constant(kWholeProgram), fillFlag})
                   .getResult(0);
  Value null = LLVM::ZeroOp::create(b, loc, pointer);
  Value found = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, slot, null);
  return {found, slot, fillFlag};
}

Value tile_reads::isFresh(OpBuilder &b, Location loc, const CacheLookup &lookup) {
  Value flag = LLVM::LoadOp::create(b, loc, b.getI32Type(), lookup.fillFlag);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, flag,
                               arith::ConstantIntOp::create(b, loc, 0, 32));
}

namespace {

/// Under the tile's corner checks: the thread's cached copy of the tile (filled first if new);
/// where the cache has none to give, `read`'s view itself (`fallBackInPlace`) or a copy into
/// `buffer`.
Value cachedCopy(OpBuilder &b, Location loc, const InPlaceRead &read, memref::AllocOp buffer,
                 MemRefType viewType, bool fallBackInPlace) {
  MemRefType tileType = buffer.getType();
  auto constant = [&](int64_t value) { return i64Constant(b, loc, value); };
  ArrayRef<int64_t> viewShape = cast<MemRefType>(read.view.getType()).getShape();
  CacheLookup lookup = lookUpCachedTile(
      b, loc, buffer, read.first, read.rowStride, viewShape[0], viewShape[1],
      tileType.getElementTypeBitWidth() / 8, read.transposed ? kTileTransposed : kTileAsItLies);
  auto choice =
      scf::IfOp::create(b, loc, TypeRange{viewType}, lookup.found, /*withElseRegion=*/true);

  b.setInsertionPointToStart(choice.thenBlock());
  Value copy = memrefAt(b, loc, lookup.slot, tileType, constant(tileType.getShape()[1]));
  auto fill =
      scf::IfOp::create(b, loc, TypeRange{}, isFresh(b, loc, lookup), /*withElseRegion=*/false);
  b.setInsertionPointToStart(fill.thenBlock());
  copyTile(b, loc, read, copy);
  b.setInsertionPointAfter(fill);
  scf::YieldOp::create(b, loc, memref::CastOp::create(b, loc, viewType, copy).getResult());

  b.setInsertionPointToStart(choice.elseBlock());
  if (fallBackInPlace && !read.transposed) {
    scf::YieldOp::create(b, loc, read.view);
  } else {
    copyTile(b, loc, read, buffer.getResult());
    scf::YieldOp::create(b, loc,
                         memref::CastOp::create(b, loc, viewType, buffer.getResult()).getResult());
  }
  b.setInsertionPointAfter(choice);
  return choice.getResult(0);
}

/// An fp8 tile widened to bf16 as an operand of a matmul AMX tiles compute
/// (tritium-cpu-float8-matmuls-as-bf16) is decoded from the thread's copy or straight from
/// its view where it is a whole row-major block (ReadFloat8TilesDecoded.cpp).
void readWidenedFloat8Tile(OpOperand &use, arith::ExtFOp widening, TileUse role,
                           CachedCopyPermission &cachePermission, bool amxBF16) {
  Operation *consumer = use.getOwner();
  if (!amxBF16 || role == TileUse::TransposeInput || !widening->hasOneUse() ||
      !isAMXMatmul(consumer, /*bf16=*/true, /*int8=*/false))
    return;
  auto tile = widening.getIn().getDefiningOp<bufferization::ToTensorOp>();
  if (!tile || !tile->hasOneUse())
    return;
  auto buffer = tile.getBuffer().getDefiningOp<memref::AllocOp>();
  if (!buffer || buffer->getBlock() != tile->getBlock() ||
      widening->getBlock() != tile->getBlock() || consumer->getBlock() != tile->getBlock())
    return;
  MemRefType type = buffer.getType();
  auto element = dyn_cast<FloatType>(type.getElementType());
  if (!element || element.getWidth() != 8 || type.getRank() != 2 || !type.hasStaticShape() ||
      !type.getLayout().isIdentity())
    return;
  auto found = findFill(buffer, tile);
  if (!found)
    return;
  auto [filler, fill] = *found;
  if (writesGlobalMemoryFrom(filler, consumer))
    return;
  // The decoded copy's bytes decide whether a lookup is worth it.
  bool cacheable = type.getNumElements() * 2 >= kMinCachedTileBytes &&
                   cachePermission.allows(filler);
  auto viewType = MemRefType::get(
      type.getShape(), element,
      StridedLayoutAttr::get(consumer->getContext(), /*offset=*/0, {ShapedType::kDynamic, 1}));
  OpBuilder b(filler);
  Operation *before = filler->getPrevNode();
  std::optional<InPlaceRead> read = buildInPlaceRead(b, fill, buffer, viewType);
  if (!read || read->transposed) {
    eraseBuiltBetween(before, filler);
    return;
  }
  tile_reads::readFloat8Decoded(b, filler->getLoc(), *read, buffer, filler, tile, widening,
                                role == TileUse::MatmulRhs ? 2 : 0, cacheable);
}

/// The consumer of `use` reads the tile in place where it can. A tile read by more than one op,
/// or whose buffer is filled elsewhere, keeps its copy. A matmul operand that is not read in
/// place (rows far apart, or column-major) is read from the thread's cached copy when its
/// kernel allows (`CachedCopyPermission`) and it is large enough to be worth a lookup.
void readInPlace(OpOperand &use, TileUse role, CachedCopyPermission &cachePermission,
                 bool amxBF16, bool amxInt8, bool dotProductBF16, bool dotProductInt8) {
  Operation *consumer = use.getOwner();
  if (auto widening = use.get().getDefiningOp<arith::ExtFOp>())
    return readWidenedFloat8Tile(use, widening, role, cachePermission, amxBF16);
  auto tile = use.get().getDefiningOp<bufferization::ToTensorOp>();
  if (!tile || !tile->hasOneUse())
    return;
  auto buffer = tile.getBuffer().getDefiningOp<memref::AllocOp>();
  if (!buffer || buffer->getBlock() != tile->getBlock() || consumer->getBlock() != tile->getBlock())
    return;
  MemRefType type = buffer.getType();
  // Tiles of 16-bit floats (bf16, fp16) only as matmul operands in row-major blocks: their
  // consumers pack or widen them, reading each element once; transposes by register blocks
  // take 32- and 64-bit elements. int8 tiles only for AMX's tiles and vpdpbusd's A (below):
  // elsewhere, a quarter of f32's bytes, they gained nothing (on an AMX host 1024^3 and 2048^3
  // ran 0-12% slower with B from the cached copy as it lies).
  bool wide = isa<Float32Type, Float64Type>(type.getElementType());
  bool half = isa<BFloat16Type, Float16Type>(type.getElementType());
  // B of a matmul AMX tiles compute (bf16 or int8) is cached packed: the copy is the pack.
  // So is B of a matmul vdpbf16ps or vpdpbusd computes, whose words of K neighbours are the
  // same layout (MatmulsToDotProductInstructions.cpp).
  int64_t packGroup =
      role == TileUse::MatmulRhs
          ? packGroupOfB(consumer, amxBF16, amxInt8, dotProductBF16, dotProductInt8)
      : role == TileUse::TransposeInput
          ? packGroupOfTransposedB(consumer, amxBF16, amxInt8, dotProductBF16, dotProductInt8)
          : 0;
  // A of an int8 matmul AMX tiles compute: the tile loads read its rows where they lie like a
  // bf16 A's, instead of the copy each program filled (one thread, 1024^3 ~1250 -> ~1435
  // GOP/s, 2048^3 ~1170 -> ~1525).
  bool amxInt8A = role == TileUse::MatmulLhs && amxPackGroup(consumer, false, amxInt8);
  // A of an int8 matmul vpdpbusd computes: read from the thread's copy where its rows lie a
  // matrix row apart, as a bf16 A is, instead of the copy each program filled (its loads, a
  // miss a row, were 13% of 2048^3's samples on a Zen 5 core).
  bool dotProductInt8A =
      role == TileUse::MatmulLhs && dotProductKGroup(consumer, false, dotProductInt8) == 4;
  bool readable = wide || (half && role != TileUse::TransposeInput) || amxInt8A || dotProductInt8A;
  // A of any matmul AMX tiles compute is read where it lies, never from a cached copy: the
  // tile loads stream along A's rows, K step after K step, where the copies are scattered
  // over the cache's buffers. Copies cost bf16 20-35% (1024^3 and 2048^3, autotuned, one
  // thread: 559-601 -> 704-787 GFLOP/s; two threads 775-871 -> 1007-1177 at 128x64x64)
  // and int8 3-18%.
  bool amxA = role == TileUse::MatmulLhs && amxPackGroup(consumer, amxBF16, amxInt8);
  if (type.getRank() != 2 || !type.hasStaticShape() || !type.getLayout().isIdentity() ||
      !(readable || packGroup))
    return;
  auto found = findFill(buffer, tile);
  if (!found)
    return;
  auto [filler, fill] = *found;
  if (writesGlobalMemoryFrom(filler, consumer))
    return;
  bool cacheable =
      !amxA && type.getNumElements() * type.getElementTypeBitWidth() / 8 >= kMinCachedTileBytes &&
      cachePermission.allows(filler);
  bool cached = role != TileUse::TransposeInput && cacheable;
  bool packed = packGroup && cacheable;
  if (!packed && !readable)
    return;

  MLIRContext *context = consumer->getContext();
  auto viewType = MemRefType::get(
      type.getShape(), type.getElementType(),
      StridedLayoutAttr::get(context, /*offset=*/0, {ShapedType::kDynamic, 1}));
  OpBuilder b(filler);
  Location loc = filler->getLoc();
  // The checks are built before the fill; if the fill turns out not to be a strided block,
  // they are erased again.
  Operation *before = filler->getPrevNode();
  std::optional<InPlaceRead> read = buildInPlaceRead(b, fill, buffer, viewType);
  if (!read || (read->transposed && !wide && !(packed && role == TileUse::MatmulRhs))) {
    eraseBuiltBetween(before, filler);
    return;
  }
  if (packed) {
    readPackedForAMX(b, loc, *read, buffer, filler, tile, packGroup,
                     dyn_cast<linalg::TransposeOp>(consumer));
    return;
  }
  if (read->transposed && !cached) {
    // The buffer is still what the consumer reads; it is filled by a transpose of the view
    // (by register blocks, later) where the block is whole, else by the fill.
    auto choice = scf::IfOp::create(b, loc, TypeRange{}, read->condition, /*withElseRegion=*/true);
    b.setInsertionPointToStart(choice.thenBlock());
    copyTile(b, loc, *read, buffer.getResult());
    filler->moveBefore(choice.elseBlock()->getTerminator());
    return;
  }
  Value condition = read->condition;
  if (role == TileUse::MatmulRhs && !cached)
    condition = b.createOrFold<arith::AndIOp>(loc, condition, read->compact);
  auto choice = scf::IfOp::create(b, loc, TypeRange{viewType}, condition,
                                  /*withElseRegion=*/true);
  b.setInsertionPointToStart(choice.thenBlock());
  if (!cached) {
    scf::YieldOp::create(b, loc, read->view);
  } else if (read->transposed) {
    scf::YieldOp::create(b, loc, cachedCopy(b, loc, *read, buffer, viewType, false));
  } else {
    // Rows close together are read in place; rows a matrix row apart from the cached copy.
    auto compact = scf::IfOp::create(b, loc, TypeRange{viewType}, read->compact,
                                     /*withElseRegion=*/true);
    b.setInsertionPointToStart(compact.thenBlock());
    scf::YieldOp::create(b, loc, read->view);
    b.setInsertionPointToStart(compact.elseBlock());
    scf::YieldOp::create(
        b, loc, cachedCopy(b, loc, *read, buffer, viewType, role == TileUse::MatmulLhs));
    b.setInsertionPointAfter(compact);
    scf::YieldOp::create(b, loc, compact.getResult(0));
  }
  b.setInsertionPointToStart(choice.elseBlock());
  auto copied = memref::CastOp::create(b, loc, viewType, buffer.getResult());
  scf::YieldOp::create(b, loc, copied.getResult());
  filler->moveBefore(copied);
  // Read only: without `writable`, bufferization copies before anything writes into it.
  b.setInsertionPoint(tile);
  auto viewed = bufferization::ToTensorOp::create(b, tile.getLoc(), tile.getType(),
                                                  choice.getResult(0), /*restrict=*/true,
                                                  /*writable=*/false);
  tile.replaceAllUsesWith(viewed.getResult());
  tile->erase();
}

} // namespace

/// How many lookups after its own a lookup's copy may still be read (OperandTileCache.h's
/// `window`): its consumer is in the block of the filler, after it, so at most every other
/// lookup of the function once, unless a loop holding a lookup may run in between. Else, or
/// with no lookup, kWholeProgram.
int64_t lookupWindow(FunctionOpInterface function) {
  SmallVector<Operation *> lookups;
  function->walk([&](Operation *op) {
    if (isCacheLookup(op))
      lookups.push_back(op);
  });
  // Whether a loop in `after` (or `after` itself) holds a lookup.
  auto repeatsLookups = [&](Operation *after) {
    for (Operation *other : lookups) {
      if (!after->isAncestor(other))
        continue;
      for (Operation *parent = other->getParentOp();; parent = parent->getParentOp()) {
        if (isa<LoopLikeOpInterface>(parent))
          return true;
        if (parent == after)
          break;
      }
    }
    return false;
  };
  for (Operation *lookup : lookups)
    for (Operation *ancestor = lookup; ancestor != function.getOperation();
         ancestor = ancestor->getParentOp())
      for (Operation *after = ancestor->getNextNode(); after; after = after->getNextNode())
        if (repeatsLookups(after))
          return kWholeProgram;
  return lookups.empty() ? kWholeProgram : int64_t(lookups.size()) + 1;
}

void tile_reads::boundLookupWindows(FunctionOpInterface function) {
  // Set even when it is kWholeProgram, which lookups are built with: a second call may find
  // fewer bounds than the first did.
  int64_t window = lookupWindow(function);
  function->walk([&](func::CallOp lookup) {
    if (!isCacheLookup(lookup))
      return;
    OpBuilder b(lookup);
    lookup->setOperand(kLookupWindowOperand, i64Constant(b, lookup.getLoc(), window));
  });
}

namespace {

struct ReadTilesInPlacePass : impl::ReadTilesInPlaceBase<ReadTilesInPlacePass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<std::pair<OpOperand *, TileUse>> uses;
    getOperation()->walk([&](Operation *op) {
      if (auto matmul = dyn_cast<linalg::MatmulOp>(op)) {
        uses.emplace_back(&matmul.getInputsMutable()[0], TileUse::MatmulLhs);
        uses.emplace_back(&matmul.getInputsMutable()[1], TileUse::MatmulRhs);
      } else if (auto transpose = dyn_cast<linalg::TransposeOp>(op)) {
        uses.emplace_back(&transpose.getInputMutable(), TileUse::TransposeInput);
      }
    });
    CachedCopyPermission cachePermission;
    for (auto [use, role] : uses)
      readInPlace(*use, role, cachePermission, amxBF16, amxInt8, dotProductBF16, dotProductInt8);
    cachePermission.dropUnusedNotes();
    getOperation()->walk([](FunctionOpInterface function) { boundLookupWindows(function); });
  }
};

} // namespace
} // namespace tritium::cpu
