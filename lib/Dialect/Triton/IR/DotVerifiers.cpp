//===- DotVerifiers.cpp - verifiers of tt.dot and tt.dot_scaled -----------===//
//
// The rules triton 3.9 checks on matrix products: 2-D or batched 3-D shapes
// that agree on M, N, K and the batch, operands of equal element width, and,
// once layouts are assigned, encodings that fit together (checked by the ttg
// dialect through LayoutVerifierInterface). For dot_scaled, e2m1 operands
// pack two values per i8 and the scale shapes must agree with the operands.
//
//===----------------------------------------------------------------------===//

#include "tritium/Dialect/Triton/IR/Dialect.h"

using namespace mlir;
using namespace tritium::tt;

//===----------------------------------------------------------------------===//
// dot
//===----------------------------------------------------------------------===//

LogicalResult DotOp::verify() {
  RankedTensorType aType = getA().getType(), bType = getB().getType();
  RankedTensorType cType = getC().getType();
  ArrayRef<int64_t> a = aType.getShape(), b = bType.getShape(), d = getD().getType().getShape();
  size_t rank = d.size();
  if ((rank != 2 && rank != 3) || a.size() != rank || b.size() != rank)
    return emitOpError("operands must all be 2-D, or all 3-D (batched)");
  if (a[rank - 1] != b[rank - 2])
    return emitOpError("the K dimensions of a and b differ");
  if (rank == 3 && (a[0] != d[0] || b[0] != d[0]))
    return emitOpError("the batch dimensions differ");
  if (d[rank - 2] != a[rank - 2] || d[rank - 1] != b[rank - 1])
    return emitOpError("the result must be M x N for a M x K and b K x N");

  // Mixed element types are allowed (e.g. two fp8 formats) as long as both
  // operands have the same width.
  Type aElement = aType.getElementType(), bElement = bType.getElementType();
  if (aElement.getIntOrFloatBitWidth() != bElement.getIntOrFloatBitWidth())
    return emitOpError("a and b must have element types of the same bit width, got ")
           << aElement << " and " << bElement;

  Attribute aEncoding = aType.getEncoding(), bEncoding = bType.getEncoding();
  if (!aEncoding && !bEncoding)
    return success();
  if (!aEncoding || !bEncoding)
    return emitOpError("a and b must both have an encoding, or neither");
  Attribute cEncoding = cType.getEncoding();
  if (!cEncoding)
    return emitOpError("the accumulator must have an encoding when a and b have one");
  if (auto *verifier = cEncoding.getDialect().getRegisteredInterface<LayoutVerifierInterface>())
    return verifier->verifyDotLayouts(*this);
  return success();
}

//===----------------------------------------------------------------------===//
// dot_scaled
//===----------------------------------------------------------------------===//

namespace {
/// How many values each element of an operand in `format` holds: e2m1 (fp4)
/// values come two to an i8.
int64_t valuesPerElement(ScaleDotElemType format) {
  return format == ScaleDotElemType::E2M1 ? 2 : 1;
}

/// The number of K values one scale covers, read off the shape of `scale` for
/// an operand with `k` values along K; 0 when there is no scale or it is a
/// single value, which tells nothing.
int64_t scaleFactorOf(Value scale, int64_t k) {
  if (!scale)
    return 0;
  ArrayRef<int64_t> shape = cast<RankedTensorType>(scale.getType()).getShape();
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  if (count == 1)
    return 0;
  return shape.back() > 0 ? k / shape.back() : -1;
}
} // namespace

LogicalResult DotScaledOp::verify() {
  ArrayRef<int64_t> a = getA().getType().getShape(), b = getB().getType().getShape();
  ArrayRef<int64_t> c = getC().getType().getShape();
  size_t rank = a.size();
  if ((rank != 2 && rank != 3) || b.size() != rank || c.size() != rank)
    return emitOpError("operands must all be 2-D, or all 3-D (batched)");

  // An e2m1 operand packs two values per i8, along K when its k_pack is set
  // and along M (for a) or N (for b) otherwise.
  int64_t aValues = valuesPerElement(getAElemType()), bValues = valuesPerElement(getBElemType());
  bool aAlongK = getLhsKPack(), bAlongK = getRhsKPack();
  int64_t aK = a[rank - 1] * (aAlongK ? aValues : 1);
  int64_t bK = b[rank - 2] * (bAlongK ? bValues : 1);
  if (aK != bK)
    return emitOpError("the K dimensions of a and b differ (") << aK << " vs " << bK
                                                                << " values once e2m1 is unpacked)";
  if (rank == 3 && (a[0] != c[0] || b[0] != c[0]))
    return emitOpError("the batch dimensions differ");
  int64_t m = a[rank - 2] * (aAlongK ? 1 : aValues);
  int64_t n = b[rank - 1] * (bAlongK ? 1 : bValues);
  if (c[rank - 2] != m || c[rank - 1] != n)
    return emitOpError("the result must be ") << m << " x " << n
                                              << " (M x N once e2m1 is unpacked)";

  for (Value scale : {getAScale(), getBScale()})
    if (scale && cast<RankedTensorType>(scale.getType()).getRank() != static_cast<int64_t>(rank))
      return emitOpError("scales must have the rank of the operands");

  // Each scale covers 16 or 32 consecutive K values; when both operands are
  // scaled they must agree, and with no informative scale it is 32.
  int64_t aFactor = scaleFactorOf(getAScale(), aK), bFactor = scaleFactorOf(getBScale(), bK);
  for (auto [name, factor] : {std::make_pair("a", aFactor), std::make_pair("b", bFactor)})
    if (factor != 0 && factor != 16 && factor != 32)
      return emitOpError("each scale of ")
             << name << " must cover 16 or 32 values of K, but covers " << factor;
  if (aFactor && bFactor && aFactor != bFactor)
    return emitOpError("a and b are scaled per ") << aFactor << " and per " << bFactor
                                                  << " values of K; they must agree";
  int64_t factor = aFactor ? aFactor : (bFactor ? bFactor : 32);

  if (Value scale = getAScale()) {
    ArrayRef<int64_t> shape = cast<RankedTensorType>(scale.getType()).getShape();
    if (shape[rank - 2] != c[rank - 2])
      return emitOpError("the scale of a must have M = ") << c[rank - 2] << " rows";
    if (shape[rank - 1] != aK / factor)
      return emitOpError("the scale of a must have K / ") << factor << " = " << aK / factor
                                                          << " columns";
  }
  if (Value scale = getBScale()) {
    ArrayRef<int64_t> shape = cast<RankedTensorType>(scale.getType()).getShape();
    if (shape[rank - 2] != c[rank - 1])
      return emitOpError("the scale of b must have N = ") << c[rank - 1] << " rows";
    if (shape[rank - 1] != aK / factor)
      return emitOpError("the scale of b must have K / ") << factor << " = " << aK / factor
                                                          << " columns";
  }
  return success();
}
