//===- WidenMatmulOperands.cpp - 16- and 8-bit matmuls computed in f32 ----===//
//
// The CPU has no multiply-add for bf16 or fp16 vectors that LLVM reaches from plain IR, so a
// matmul of 16-bit operands lowered as is converts every operand element once per multiply,
// and one that accumulates in fp16 rounds after every addition (a GPU's tensor core sums a
// whole K step before it rounds). Widening each operand tile to f32 once costs M*K + K*N
// conversions against M*N*K multiply-adds, after which the matmul takes the f32 path: register
// blocks of C, one rounding per result.
//
// int8 x int8 -> int32 products are computed in f32 as well: every product is an integer of at
// most 2^14 in magnitude (2^16 for uint8), so for K up to 2^24 / 2^14 every partial sum is an
// integer f32 holds exactly and the result converts back to int32 without error. The f32 sum
// starts from zero and is added to the int32 accumulator afterwards, since the accumulator
// itself may be any int32.
//
//===----------------------------------------------------------------------===//

#include "AMXMatmuls.h"
#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_WIDENMATMULOPERANDS
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// Integers up to this magnitude are exact in f32 (a 24-bit significand).
constexpr int64_t kExactF32Integers = int64_t(1) << 24;

RankedTensorType tensorTypeOf(Value value) {
  return dyn_cast<RankedTensorType>(value.getType());
}

/// `value` converted elementwise to `element`, or `value` itself when it already is of it.
Value convertTensor(OpBuilder &b, Location loc, Value value, Type element, bool isUnsigned) {
  RankedTensorType type = tensorTypeOf(value);
  Type from = type.getElementType();
  if (from == element)
    return value;
  RankedTensorType to = type.clone(element);
  if (isa<FloatType>(from) && isa<FloatType>(element))
    return from.getIntOrFloatBitWidth() < element.getIntOrFloatBitWidth()
               ? arith::ExtFOp::create(b, loc, to, value).getResult()
               : arith::TruncFOp::create(b, loc, to, value).getResult();
  if (isa<IntegerType>(from))
    return isUnsigned ? arith::UIToFPOp::create(b, loc, to, value).getResult()
                      : arith::SIToFPOp::create(b, loc, to, value).getResult();
  return arith::FPToSIOp::create(b, loc, to, value);
}

/// The same kind of matmul as `op` (plain or batched) over new operands.
Value createMatmulLike(OpBuilder &b, linalg::LinalgOp op, Value lhs, Value rhs, Value init) {
  Location loc = op.getLoc();
  if (isa<linalg::BatchMatmulOp>(op.getOperation()))
    return linalg::BatchMatmulOp::create(b, loc, ValueRange{lhs, rhs}, ValueRange{init})
        .getResult(0);
  return linalg::MatmulOp::create(b, loc, ValueRange{lhs, rhs}, ValueRange{init}).getResult(0);
}

bool isUnsignedMatmul(linalg::LinalgOp op) {
  if (auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation()))
    return matmul.getCast() == linalg::TypeFn::cast_unsigned;
  if (auto batched = dyn_cast<linalg::BatchMatmulOp>(op.getOperation()))
    return batched.getCast() == linalg::TypeFn::cast_unsigned;
  return false;
}

/// A float matmul with operands or accumulator narrower than f32, computed in f32 (or in the
/// accumulator's type when that is wider), rounded once to the accumulator's type at the end.
FailureOr<Value> widenFloatMatmul(OpBuilder &b, linalg::LinalgOp op) {
  Value lhs = op.getDpsInputs()[0], rhs = op.getDpsInputs()[1], init = op.getDpsInits()[0];
  auto acc = cast<FloatType>(tensorTypeOf(init).getElementType());
  Type wide = acc.getWidth() < 32 ? b.getF32Type() : acc;
  unsigned wideBits = wide.getIntOrFloatBitWidth();
  bool narrower = acc != wide;
  for (Value operand : {lhs, rhs}) {
    auto element = dyn_cast<FloatType>(tensorTypeOf(operand).getElementType());
    if (!element || element.getWidth() > wideBits)
      return failure();
    narrower |= element.getWidth() < wideBits;
  }
  if (!narrower)
    return failure();
  Location loc = op.getLoc();
  Value product = createMatmulLike(b, op, convertTensor(b, loc, lhs, wide, false),
                                   convertTensor(b, loc, rhs, wide, false),
                                   convertTensor(b, loc, init, wide, false));
  return convertTensor(b, loc, product, acc, false);
}

/// An i8 x i8 -> i32 matmul whose K keeps every partial sum exact in f32: the f32 product of
/// the widened operands from zero, converted back and added to the accumulator.
FailureOr<Value> widenInt8Matmul(OpBuilder &b, linalg::LinalgOp op) {
  Value lhs = op.getDpsInputs()[0], rhs = op.getDpsInputs()[1], init = op.getDpsInits()[0];
  RankedTensorType lhsType = tensorTypeOf(lhs), initType = tensorTypeOf(init);
  if (!initType.getElementType().isInteger(32) || !lhsType.getElementType().isInteger(8) ||
      !tensorTypeOf(rhs).getElementType().isInteger(8))
    return failure();
  bool isUnsigned = isUnsignedMatmul(op);
  int64_t largestProduct = isUnsigned ? 255 * 255 : 128 * 128;
  int64_t k = lhsType.getShape().back();
  if (ShapedType::isDynamic(k) || k * largestProduct > kExactF32Integers ||
      !initType.hasStaticShape())
    return failure();
  Location loc = op.getLoc();
  Type f32 = b.getF32Type();
  Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(f32, 0.0));
  Value empty = tensor::EmptyOp::create(b, loc, initType.getShape(), f32);
  Value zeros = linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  Value product = createMatmulLike(b, op, convertTensor(b, loc, lhs, f32, isUnsigned),
                                   convertTensor(b, loc, rhs, f32, isUnsigned), zeros);
  Value sum = convertTensor(b, loc, product, initType.getElementType(), false);
  return arith::AddIOp::create(b, loc, init, sum).getResult();
}

struct WidenMatmulOperandsPass : impl::WidenMatmulOperandsBase<WidenMatmulOperandsPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> matmuls;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op.getOperation()) &&
          op.hasPureTensorSemantics() && !op.hasUserDefinedMaps() &&
          !isAMXMatmul(op, amxBF16, amxInt8)) // AMX tiles take it after fusion
        matmuls.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : matmuls) {
      rewriter.setInsertionPoint(op);
      Type acc = tensorTypeOf(op.getDpsInits()[0]).getElementType();
      FailureOr<Value> widened =
          isa<FloatType>(acc) ? widenFloatMatmul(rewriter, op) : widenInt8Matmul(rewriter, op);
      if (succeeded(widened))
        rewriter.replaceOp(op, *widened);
    }
  }
};

} // namespace
} // namespace tritium::cpu
