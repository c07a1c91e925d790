//===- KGroupWords.cpp - K neighbours packed into 32-bit words ------------===//

#include "KGroupWords.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace tritium::cpu {

Value packAlongK(OpBuilder &b, Location loc, Value operand, int64_t group, bool alongRows,
                 uint32_t xorMask) {
  auto type = cast<RankedTensorType>(operand.getType());
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  // [rows, K] -> [rows, K/g, g] or [K, cols] -> [K/g, g, cols]; one rank-reduced slice per
  // position within the group.
  SmallVector<int64_t> grouped =
      alongRows ? SmallVector<int64_t>{rows, cols / group, group}
                : SmallVector<int64_t>{rows / group, group, cols};
  SmallVector<ReassociationIndices> reassociation =
      alongRows ? SmallVector<ReassociationIndices>{{0}, {1, 2}}
                : SmallVector<ReassociationIndices>{{0, 1}, {2}};
  Value expanded = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(grouped, type.getElementType()), operand, reassociation);
  SmallVector<int64_t> packedShape =
      alongRows ? SmallVector<int64_t>{rows, cols / group} : SmallVector<int64_t>{rows / group, cols};
  unsigned groupDim = alongRows ? 2 : 1;
  SmallVector<Value> parts;
  for (int64_t j = 0; j < group; ++j) {
    SmallVector<OpFoldResult> offsets(3, b.getIndexAttr(0)), sizes, strides(3, b.getIndexAttr(1));
    for (int64_t extent : grouped)
      sizes.push_back(b.getIndexAttr(extent));
    offsets[groupDim] = b.getIndexAttr(j);
    sizes[groupDim] = b.getIndexAttr(1);
    auto sliceType = RankedTensorType::get(packedShape, type.getElementType());
    parts.push_back(tensor::ExtractSliceOp::create(b, loc, sliceType, expanded, offsets, sizes,
                                                   strides));
  }
  Type i32 = b.getI32Type();
  Value init = tensor::EmptyOp::create(b, loc, packedShape, i32);
  SmallVector<AffineMap> maps(group + 1, b.getMultiDimIdentityMap(2));
  SmallVector<utils::IteratorType> iterators(2, utils::IteratorType::parallel);
  Type narrow = b.getIntegerType(bits);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, parts, ValueRange{init}, maps, iterators,
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value word;
        for (int64_t j = 0; j < group; ++j) {
          Value part = args[j];
          if (part.getType() != narrow)
            part = arith::BitcastOp::create(b, loc, narrow, part);
          part = arith::ExtUIOp::create(b, loc, i32, part);
          if (j > 0)
            part = arith::ShLIOp::create(
                b, loc, part, arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(j * bits)));
          word = j == 0 ? part : arith::OrIOp::create(b, loc, word, part).getResult();
        }
        if (xorMask)
          word = arith::XOrIOp::create(
              b, loc, word,
              arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(int32_t(xorMask))));
        linalg::YieldOp::create(b, loc, word);
      });
  return generic.getResult(0);
}

} // namespace tritium::cpu
