//===- MemoryPatterns.cpp - tt.load and tt.store --------------------------===//
//
// A tile load is a loop nest that reads each element through its recomputed address into a
// fresh buffer, which becomes the result tensor; a tile store is a loop nest that writes each
// element whose mask is set. Both are ordinary side-effecting loops, so their order with
// respect to each other is kept by every later pass. Masked-off lanes never touch memory.
//
//===----------------------------------------------------------------------===//

#include "PointerUtils.h"
#include "TileElementMaterializer.h"
#include "TileLoops.h"
#include "WrappedRanges.h"
#include "tritium/Conversion/TritonToLinalg/PopulatePatterns.h"
#include "tritium/Dialect/Triton/IR/Dialect.h"
#include "tritium/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <array>

using namespace mlir;

namespace tritium {

/// The type an element travels through memory as: floats LLVM has no type for (fp8) and bf16
/// as integers of their width. bf16 vectors are no legal type without AVX512-BF16, which
/// would leave LLVM to scalarize every masked bf16 load and store; i16 vectors are.
static Type accessType(Type pointee) {
  if (pointee.isBF16())
    return IntegerType::get(pointee.getContext(), 16);
  return llvmPointeeType(pointee);
}

Value loadElement(OpBuilder &b, Location loc, Value ptr, Value mask, Value other, Type pointee,
                  bool isVolatile) {
  Type type = accessType(pointee);
  unsigned alignment = pointeeByteSize(pointee);
  // fp8 and bf16 are loaded as integers of their width, chosen against `other` as integers
  // (no value of a type LLVM emulates flows through the branch), and reinterpreted.
  bool reinterpret = isa<FloatType>(pointee) && type != pointee;
  auto load = [&](OpBuilder &b, Location loc) -> Value {
    return LLVM::LoadOp::create(b, loc, type, ptr, alignment, isVolatile);
  };
  if (mask)
    other = !other ? zeroOf(b, loc, type)
            : reinterpret ? arith::BitcastOp::create(b, loc, type, other).getResult()
                          : other;
  Value value =
      valueUnderMask(b, loc, mask, load, [&](OpBuilder &, Location) { return other; });
  if (reinterpret)
    value = arith::BitcastOp::create(b, loc, pointee, value);
  return value;
}

namespace {

void storeElement(OpBuilder &b, Location loc, Value ptr, Value value, Value mask,
                  Type pointee) {
  unsigned alignment = pointeeByteSize(pointee);
  if (Type type = accessType(pointee); isa<FloatType>(pointee) && type != pointee)
    value = arith::BitcastOp::create(b, loc, type, value);
  if (!mask) {
    LLVM::StoreOp::create(b, loc, value, ptr, alignment);
    return;
  }
  scf::IfOp::create(b, loc, mask, [&](OpBuilder &b, Location loc) {
    LLVM::StoreOp::create(b, loc, value, ptr, alignment);
    scf::YieldOp::create(b, loc);
  });
}

/// Loads every element of the (original) pointer tile `ptrs`, masked, into `buffer`.
void loadTileInto(ConversionPatternRewriter &rewriter, Location loc,
                  const TypeConverter &converter, Value ptrs, Value mask, Value other,
                  bool isVolatile, Value buffer) {
  auto ptrType = cast<RankedTensorType>(ptrs.getType());
  Type pointee = cast<tt::PointerType>(ptrType.getElementType()).getPointeeType();
  auto loadAll = [&](OpBuilder &builder, ArrayRef<WrappedRange> unwrapped) {
    TileElementMaterializer elements(rewriter, converter);
    for (const WrappedRange &range : unwrapped)
      elements.assumeUnwrapped(range.remainder);
    forEachIndex(builder, loc, ptrType.getShape(),
                 [&](OpBuilder &b, Location loc, ValueRange indices) {
                   Value ptr = elements.elementAt(b, loc, ptrs, indices);
                   Value maskElement, otherElement;
                   if (mask)
                     maskElement = elements.elementAt(b, loc, mask, indices);
                   if (other)
                     otherElement = elements.elementAt(b, loc, other, indices);
                   Value value =
                       loadElement(b, loc, ptr, maskElement, otherElement, pointee, isVolatile);
                   memref::StoreOp::create(b, loc, asTensorElement(b, loc, value), buffer,
                                           indices);
                 });
  };
  SmallVector<WrappedRange> wrapped = findWrappedRanges({ptrs, mask, other});
  if (wrapped.empty()) {
    loadAll(rewriter, {});
    return;
  }
  // Versioned: consecutive offsets (vector loads) unless a block wraps around.
  Value noWrap = noRangeWraps(rewriter, loc, wrapped);
  scf::IfOp::create(
      rewriter, loc, noWrap,
      [&](OpBuilder &b, Location loc) {
        loadAll(b, wrapped);
        scf::YieldOp::create(b, loc);
      },
      [&](OpBuilder &b, Location loc) {
        loadAll(b, {});
        scf::YieldOp::create(b, loc);
      });
}

struct LoadConversion : OpConversionPattern<tt::LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::LoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type pointee = cast<tt::PointerType>(getElementTypeOrSelf(op.getPtr().getType()))
                       .getPointeeType();
    bool isVolatile = op.getIsVolatile();
    auto tileType = dyn_cast<RankedTensorType>(op.getType());
    if (!tileType) {
      Value value = loadElement(rewriter, loc, adaptor.getPtr(), adaptor.getMask(),
                                adaptor.getOther(), pointee, isVolatile);
      rewriter.replaceOp(op, value);
      return success();
    }

    auto resultType = cast<RankedTensorType>(getTypeConverter()->convertType(tileType));
    if (op->hasAttr(kReadAtUseAttr)) {
      // Its elements are loaded inside the loops of the stores that use them; the tensor
      // itself is only read by ops those stores no longer need, which fold away.
      rewriter.replaceOpWithNewOp<tensor::EmptyOp>(op, resultType.getShape(),
                                                   resultType.getElementType());
      return success();
    }
    Value buffer = allocateTile(rewriter, loc, resultType);
    loadTileInto(rewriter, loc, *getTypeConverter(), op.getPtr(), op.getMask(), op.getOther(),
                 isVolatile, buffer);
    rewriter.replaceOp(op, tileBufferAsTensor(rewriter, loc, buffer, resultType));
    return success();
  }
};


struct StoreConversion : OpConversionPattern<tt::StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::StoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto pointeeOf = [](tt::StoreOp store) {
      return cast<tt::PointerType>(getElementTypeOrSelf(store.getPtr().getType())).getPointeeType();
    };
    auto tileType = dyn_cast<RankedTensorType>(op.getValue().getType());
    if (!tileType) {
      storeElement(rewriter, loc, adaptor.getPtr(), adaptor.getValue(), adaptor.getMask(),
                   pointeeOf(op));
      rewriter.eraseOp(op);
      return success();
    }
    // One loop for the group: each iteration computes every stored element (reading what
    // they read once) before storing any, so no store of the group changes what the others
    // read at that index.
    SmallVector<tt::StoreOp> group = storesWrittenInOneLoop(op);
    TileElementMaterializer elements(rewriter, *getTypeConverter());
    SmallVector<scf::ForOp> loops = forEachIndex(
        rewriter, loc, tileType.getShape(), [&](OpBuilder &b, Location loc, ValueRange indices) {
                   SmallVector<std::array<Value, 3>> stored;
                   for (tt::StoreOp store : group) {
                     Value ptr = elements.elementAt(b, loc, store.getPtr(), indices);
                     Value value = elements.elementAt(b, loc, store.getValue(), indices);
                     Value mask;
                     if (store.getMask())
                       mask = elements.elementAt(b, loc, store.getMask(), indices);
                     stored.push_back({ptr, value, mask});
                   }
                   for (auto [store, element] : llvm::zip(group, stored))
                     storeElement(b, loc, element[0], element[1], element[2], pointeeOf(store));
                 });
    // Each iteration reads what it stores before storing: under Triton's semantics no
    // iteration depends on another (overlap at other indices is a race on a GPU too).
    markIterationsIndependent(loops);
    for (tt::StoreOp store : llvm::reverse(group))
      rewriter.eraseOp(store);
    return success();
  }
};

/// A TTGIR asynchronous copy into a shared-memory tile: a masked tile load whose elements land
/// in the tile's buffer, complete when the op returns.
struct AsyncCopyConversion : OpConversionPattern<ttg::AsyncCopyGlobalToLocalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttg::AsyncCopyGlobalToLocalOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    loadTileInto(rewriter, loc, *getTypeConverter(), op.getSrc(), op.getMask(), op.getOther(),
                 op.getIsVolatile(), adaptor.getResult());
    rewriter.replaceOp(op, arith::ConstantIntOp::create(rewriter, loc, 0, 32).getResult());
    return success();
  }
};

} // namespace

/// The next value of a loop-carried tile that reads streamed loads (kComputedPerElementAttr):
/// a loop nest computes each element, loading what it reads where it is used, and writes it
/// over the loop-carried tile (read at that index just before), so that the tile is updated in
/// place, with no buffer per iteration. Any elementwise op may carry the marker, so this
/// matches them all.
struct ComputedPerElementConversion : ConversionPattern {
  ComputedPerElementConversion(const TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/2, context) {}

  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                                ConversionPatternRewriter &rewriter) const override {
    if (!op->hasAttr(kComputedPerElementAttr))
      return failure();
    Value carried = loopCarriedTileUpdatedBy(op);
    auto tileType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!carried || !tileType)
      return rewriter.notifyMatchFailure(op, "not the update of a loop-carried tile");
    TileElementMaterializer elements(rewriter, *getTypeConverter());
    Value updated = updateEachElement(
        rewriter, op->getLoc(), rewriter.getRemappedValue(carried),
        [&](OpBuilder &b, Location loc, ValueRange indices, Value current) {
          elements.readFrom(carried, current);
          return asTensorElement(b, loc, elements.elementAt(b, loc, op->getResult(0), indices));
        });
    rewriter.replaceOp(op, updated);
    return success();
  }
};

void populateMemoryPatterns(TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<LoadConversion, StoreConversion, AsyncCopyConversion, ComputedPerElementConversion>(
      converter, patterns.getContext());
}

} // namespace tritium
