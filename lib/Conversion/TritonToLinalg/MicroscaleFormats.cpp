//===- MicroscaleFormats.cpp - e2m1 values and e8m0 scales as f32 ---------===//

#include "MicroscaleFormats.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace tritium {

Value decodeE2M1(OpBuilder &b, Location loc, Value nibble) {
  auto i32 = [&](int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 32).getResult(); };
  Value exponent = arith::AndIOp::create(b, loc, arith::ShRUIOp::create(b, loc, nibble, i32(1)),
                                         i32(3));
  Value mantissa = arith::AndIOp::create(b, loc, nibble, i32(1));
  // Normal: 2^(e-1) * (1 + m/2); as f32 bits the exponent field is e - 1 + 127.
  Value normalBits = arith::OrIOp::create(
      b, loc,
      arith::ShLIOp::create(b, loc, arith::AddIOp::create(b, loc, exponent, i32(126)), i32(23)),
      arith::ShLIOp::create(b, loc, mantissa, i32(22)));
  Value normal = arith::BitcastOp::create(b, loc, b.getF32Type(), normalBits);
  Value subnormal = arith::MulFOp::create(
      b, loc, arith::UIToFPOp::create(b, loc, b.getF32Type(), mantissa),
      arith::ConstantFloatOp::create(b, loc, b.getF32Type(), APFloat(0.5f)));
  Value isSubnormal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, exponent, i32(0));
  Value magnitude = arith::SelectOp::create(b, loc, isSubnormal, subnormal, normal);
  Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                         arith::AndIOp::create(b, loc, nibble, i32(8)), i32(0));
  return arith::SelectOp::create(b, loc, negative, arith::NegFOp::create(b, loc, magnitude),
                                 magnitude);
}

Value decodeE8M0(OpBuilder &b, Location loc, Value scale) {
  auto i32 = [&](int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 32).getResult(); };
  Value s = arith::ExtUIOp::create(b, loc, b.getI32Type(), scale);
  Value bits = arith::ShLIOp::create(b, loc, s, i32(23));
  bits = arith::SelectOp::create(b, loc,
                                 arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, s, i32(0)),
                                 i32(0x00400000), bits);
  bits = arith::SelectOp::create(
      b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, s, i32(255)),
      i32(0x7FC00000), bits);
  return arith::BitcastOp::create(b, loc, b.getF32Type(), bits);
}

Value e2m1ElementAt(OpBuilder &b, Location loc, Value packed, ValueRange indices,
                    unsigned packedDim) {
  Value two = arith::ConstantIndexOp::create(b, loc, 2);
  SmallVector<Value> at(indices);
  at[packedDim] = arith::DivUIOp::create(b, loc, indices[packedDim], two);
  Value byte = tensor::ExtractOp::create(b, loc, packed, at);
  Value odd = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                    arith::RemUIOp::create(b, loc, indices[packedDim], two),
                                    arith::ConstantIndexOp::create(b, loc, 0));
  Value bits = arith::ExtUIOp::create(b, loc, b.getI32Type(), byte);
  Value high = arith::ShRUIOp::create(b, loc, bits, arith::ConstantIntOp::create(b, loc, 4, 32));
  return decodeE2M1(b, loc, arith::SelectOp::create(b, loc, odd, high, bits));
}

Value e2m1NibbleAt(OpBuilder &b, Location loc, Value packed, ValueRange byteIndices, bool high) {
  Value bits = arith::ExtUIOp::create(b, loc, b.getI32Type(),
                                      tensor::ExtractOp::create(b, loc, packed, byteIndices));
  if (high)
    bits = arith::ShRUIOp::create(b, loc, bits, arith::ConstantIntOp::create(b, loc, 4, 32));
  return decodeE2M1(b, loc, bits);
}

} // namespace tritium
