//===- StoreBoolAndBFloat16AsIntegers.cpp - buffers LLVM can store --------===//
//
// Two element types need another representation in memory:
// - i1: LLVM's memref lowering does not store sub-byte elements; bool buffers hold one byte
//   (0 or 1) per element.
// - bf16: without AVX512-BF16, LLVM keeps a bf16 value in a float register, so a `store bfloat`
//   of a value that was only loaded becomes a call to a rounding helper per element, and the
//   loops around it do not vectorize. bf16 buffers hold their bits as i16; loads and stores
//   reinterpret, and the conversions around them (already integer arithmetic) fold through.
// Every other op on such buffers (allocations, views, casts, control flow) keeps its meaning
// with the integer element type. A module whose bf16 buffers are read by vector ops keeps them
// as bf16 (the vector ops would need retyping too).
//
//===----------------------------------------------------------------------===//

#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_STOREBOOLANDBFLOAT16ASINTEGERS
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// The integer type buffers of `element` hold instead, or null if it stays.
Type storedType(Type element, bool bf16) {
  if (element.isInteger(1))
    return IntegerType::get(element.getContext(), 8);
  if (bf16 && element.isBF16())
    return IntegerType::get(element.getContext(), 16);
  return nullptr;
}

bool isRetypedMemRef(Type type, bool bf16) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && storedType(memref.getElementType(), bf16);
}

/// The value as it is kept in memory (`stored`), from its own type.
Value toStored(OpBuilder &b, Location loc, Value value, Type stored) {
  if (value.getType().isInteger(1))
    return arith::ExtUIOp::create(b, loc, stored, value);
  return arith::BitcastOp::create(b, loc, stored, value);
}

/// The value of type `type` that the memory word `word` holds.
Value fromStored(OpBuilder &b, Location loc, Value word, Type type) {
  if (type.isInteger(1))
    return arith::TruncIOp::create(b, loc, type, word);
  return arith::BitcastOp::create(b, loc, type, word);
}

struct LoadRetyped : OpConversionPattern<memref::LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(memref::LoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Value word = memref::LoadOp::create(rewriter, op.getLoc(), adaptor.getMemref(),
                                        adaptor.getIndices());
    rewriter.replaceOp(op, fromStored(rewriter, op.getLoc(), word, op.getType()));
    return success();
  }
};

struct StoreRetyped : OpConversionPattern<memref::StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(memref::StoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type stored = cast<MemRefType>(adaptor.getMemref().getType()).getElementType();
    Value word = toStored(rewriter, op.getLoc(), adaptor.getValue(), stored);
    rewriter.replaceOpWithNewOp<memref::StoreOp>(op, word, adaptor.getMemref(),
                                                 adaptor.getIndices());
    return success();
  }
};

/// Constant bool tiles become globals of bytes holding 0 or 1; bf16 constants their bits.
struct RetypeGlobal : OpConversionPattern<memref::GlobalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(memref::GlobalOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = cast<MemRefType>(getTypeConverter()->convertType(op.getType()));
    Type stored = type.getElementType();
    Attribute initial = op.getInitialValueAttr();
    if (auto dense = dyn_cast_or_null<DenseIntElementsAttr>(initial))
      initial = dense.mapValues(stored, [](const APInt &bit) { return bit.zext(8); });
    else if (auto floats = dyn_cast_or_null<DenseFPElementsAttr>(initial))
      initial = floats.mapValues(stored, [](const APFloat &value) { return value.bitcastToAPInt(); });
    rewriter.replaceOpWithNewOp<memref::GlobalOp>(op, op.getSymName(), op.getSymVisibilityAttr(),
                                                  type, initial, op.getConstant(),
                                                  op.getAlignmentAttr());
    return success();
  }
};

/// Any other op on retyped buffers (alloc, dealloc, views, casts, metadata) keeps its meaning
/// with the integer element types.
struct RetypeBufferOp : ConversionPattern {
  RetypeBufferOp(TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/0, context) {}
  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                                ConversionPatternRewriter &rewriter) const override {
    if (op->getNumRegions() != 0 || isa<memref::LoadOp, memref::StoreOp>(op))
      return failure();
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(), resultTypes)))
      return failure();
    OperationState state(op->getLoc(), op->getName(), operands, resultTypes, op->getAttrs(),
                         op->getSuccessors());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

/// Whether a vector op reads or writes a bf16 buffer (its vector types would need retyping).
bool vectorOpsTouchBFloat16Buffers(ModuleOp module) {
  bool found = false;
  module.walk([&](Operation *op) {
    if (!isa<vector::VectorDialect>(op->getDialect()))
      return;
    for (Type type : op->getOperandTypes())
      if (auto memref = dyn_cast<MemRefType>(type); memref && memref.getElementType().isBF16())
        found = true;
  });
  return found;
}

struct StoreBoolAndBFloat16AsIntegersPass
    : impl::StoreBoolAndBFloat16AsIntegersBase<StoreBoolAndBFloat16AsIntegersPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    bool bf16 = !vectorOpsTouchBFloat16Buffers(getOperation());
    TypeConverter converter;
    converter.addConversion([](Type type) { return type; });
    converter.addConversion([bf16](MemRefType type) -> Type {
      Type stored = storedType(type.getElementType(), bf16);
      if (!stored)
        return type;
      return MemRefType::get(type.getShape(), stored, type.getLayout(), type.getMemorySpace());
    });
    RewritePatternSet patterns(context);
    ConversionTarget target(*context);
    target.markUnknownOpDynamicallyLegal([&](Operation *op) {
      if (auto global = dyn_cast<memref::GlobalOp>(op))
        return !isRetypedMemRef(global.getType(), bf16);
      if (auto func = dyn_cast<func::FuncOp>(op))
        return converter.isSignatureLegal(func.getFunctionType()) &&
               converter.isLegal(&func.getBody());
      return converter.isLegal(op);
    });
    patterns.add<LoadRetyped, StoreRetyped, RetypeGlobal>(converter, context);
    patterns.add<RetypeBufferOp>(converter, context);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns, converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns, target);
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace tritium::cpu
