//===- AMXTileGeneric.cpp - the generic AMX tiles compute -----------------===//

#include "AMXTileGeneric.h"
#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace tritium::cpu {

Value buildAMXTileGeneric(OpBuilder &b, Location loc, ArrayRef<AMXTileProduct> products,
                          Value init) {
  MLIRContext *ctx = b.getContext();
  AffineExpr dm, dn, dk, dj;
  bindDims(ctx, dm, dn, dk, dj);
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  SmallVector<bool> words;
  for (const AMXTileProduct &product : products) {
    bool isWords = cast<ShapedType>(product.packedB.getType()).getRank() == 2;
    inputs.append({product.groupedA, product.packedB});
    maps.push_back(AffineMap::get(4, 0, {dm, dk, dj}, ctx));
    maps.push_back(isWords ? AffineMap::get(4, 0, {dk, dn}, ctx)
                           : AffineMap::get(4, 0, {dk, dn, dj}, ctx));
    words.push_back(isWords);
  }
  maps.push_back(AffineMap::get(4, 0, {dm, dn}, ctx));
  SmallVector<utils::IteratorType> iterators = {
      utils::IteratorType::parallel, utils::IteratorType::parallel,
      utils::IteratorType::reduction, utils::IteratorType::reduction};
  Type acc = getElementTypeOrSelf(init.getType());
  Type element = getElementTypeOrSelf(products.front().groupedA.getType());
  unsigned bits = element.getIntOrFloatBitWidth();
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value sum = args.back();
        for (size_t p = 0; p < products.size(); ++p) {
          Value x = args[2 * p], y = args[2 * p + 1];
          if (words[p]) {
            // B's value is the j-th `bits` of its word.
            Value j = arith::IndexCastOp::create(b, loc, b.getI32Type(),
                                                 linalg::IndexOp::create(b, loc, 3));
            Value shift = arith::MulIOp::create(
                b, loc, j, arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(bits)));
            Value part = arith::ShRUIOp::create(b, loc, y, shift);
            y = arith::TruncIOp::create(b, loc, b.getIntegerType(bits), part);
            if (isa<FloatType>(acc))
              y = arith::BitcastOp::create(b, loc, element, y);
          }
          if (isa<FloatType>(acc)) {
            Value wideX = arith::ExtFOp::create(b, loc, acc, x);
            Value wideY = arith::ExtFOp::create(b, loc, acc, y);
            Value product = arith::MulFOp::create(b, loc, wideX, wideY);
            sum = arith::AddFOp::create(b, loc, sum, product);
          } else {
            Value wideX = arith::ExtSIOp::create(b, loc, acc, x);
            Value wideY = arith::ExtSIOp::create(b, loc, acc, y);
            Value product = arith::MulIOp::create(b, loc, wideX, wideY);
            sum = arith::AddIOp::create(b, loc, sum, product);
          }
        }
        linalg::YieldOp::create(b, loc, sum);
      });
  generic->setAttr(kAMXTilesAttrName, UnitAttr::get(ctx));
  return generic.getResult(0);
}

SmallVector<AMXTileProduct> amxTileProducts(linalg::GenericOp op) {
  SmallVector<AMXTileProduct> products;
  SmallVector<Value> inputs = op.getDpsInputs();
  for (size_t i = 0; i + 1 < inputs.size(); i += 2)
    products.push_back({inputs[i], inputs[i + 1]});
  return products;
}

} // namespace tritium::cpu
