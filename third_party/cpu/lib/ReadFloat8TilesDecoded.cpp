//===- ReadFloat8TilesDecoded.cpp - fp8 tiles of AMX matmuls decoded once --===//
//
// Part of tritium-cpu-read-tiles-in-place (ReadTilesInPlace.cpp), for the fp8 operand tiles of
// the matmuls tritium-cpu-float8-matmuls-as-bf16 gives to AMX tiles (`arith.extf` of the tile
// to bf16).
//
// Each program filled its fp8 tile element by element and decoded all of it at every K step:
// a blocked matmul reads each A tile in every program of its row and each B tile in every
// program of its column, so the same tiles were decoded again and again (e4m3 1024^3 at
// 256x128x64, one thread: the decode of A alone ~22% of the kernel's samples). Where the tile
// is a whole block, the thread's copy of it is decoded once a launch (B decoded and then
// packed as ReadTilesPackedForAMX.cpp packs bf16 B tiles) and read by every later program;
// where the cache gives no copy, the tile is decoded straight from the view, without the fill.
//
//===----------------------------------------------------------------------===//

#include "ReadTilesInPlace.h"
#include "tritium/Target/CPU/OperandTileCache.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace tritium::cpu {

using namespace tile_reads;

namespace {

/// The number that keeps the copies of one tile decoded from different fp8 formats apart.
int64_t float8FormatNumber(Type element) {
  if (isa<Float8E5M2Type>(element))
    return 0;
  if (isa<Float8E4M3FNType>(element))
    return 1;
  if (isa<Float8E5M2FNUZType>(element))
    return 2;
  if (isa<Float8E4M3FNUZType>(element))
    return 3;
  return 4; // f8E4M3B11FNUZ
}

/// `destination` (a bf16 memref) = `source` (an fp8 memref of its shape) widened; the widening
/// is expanded on the bits later (tritium-cpu-expand-fp8-conversions).
void decode(OpBuilder &b, Location loc, Value source, Value destination) {
  int64_t rank = cast<MemRefType>(source.getType()).getRank();
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  linalg::GenericOp::create(
      b, loc, TypeRange{}, ValueRange{source}, ValueRange{destination},
      ArrayRef<AffineMap>{identity, identity},
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [](OpBuilder &b, Location loc, ValueRange values) {
        linalg::YieldOp::create(
            b, loc, arith::ExtFOp::create(b, loc, values[1].getType(), values[0]).getResult());
      });
}

} // namespace

void tile_reads::readFloat8Decoded(OpBuilder &b, Location loc, const InPlaceRead &read,
                                   memref::AllocOp buffer, Operation *filler,
                                   bufferization::ToTensorOp tile, Operation *widening,
                                   int64_t group, bool cacheable) {
  MLIRContext *context = b.getContext();
  MemRefType tileType = buffer.getType();
  int64_t rows = tileType.getDimSize(0), columns = tileType.getDimSize(1);
  Type bf16 = b.getBF16Type();
  auto decodedType = MemRefType::get({rows, columns}, bf16);
  // A: what the matmul reads, rows `columns` apart (the cache's copy, or a buffer of its own).
  // B: [K/g, N, g], packed for the tile loads.
  MemRefType resultType =
      group ? MemRefType::get({rows / group, columns, group}, bf16)
            : MemRefType::get({rows, columns}, bf16,
                              StridedLayoutAttr::get(context, 0, {ShapedType::kDynamic, 1}));
  Value own = memref::AllocOp::create(b, loc, group ? resultType : decodedType);
  Value unpackedDecoded = group ? memref::AllocOp::create(b, loc, decodedType).getResult() : Value();
  auto decodeInto = [&](Value source, Value destination) {
    if (!group)
      return decode(b, loc, source, destination);
    decode(b, loc, source, unpackedDecoded);
    packTile(b, loc, unpackedDecoded, destination, group);
  };
  auto asResult = [&](Value memref) {
    return memref.getType() == resultType
               ? memref
               : memref::CastOp::create(b, loc, resultType, memref).getResult();
  };
  auto decodeOwn = [&](Value source) {
    decodeInto(source, own);
    scf::YieldOp::create(b, loc, asResult(own));
  };

  auto choice = scf::IfOp::create(b, loc, TypeRange{resultType}, read.condition,
                                  /*withElseRegion=*/true);
  b.setInsertionPointToStart(choice.thenBlock());
  if (cacheable) {
    int64_t layout = kTileDecodedFromFloat8 +
                     2 * float8FormatNumber(tileType.getElementType()) + (group ? 1 : 0);
    CacheLookup lookup = lookUpCachedTile(b, loc, buffer, read.first, read.rowStride, rows,
                                          columns, /*elementBytes=*/2, layout);
    auto cached =
        scf::IfOp::create(b, loc, TypeRange{resultType}, lookup.found, /*withElseRegion=*/true);
    b.setInsertionPointToStart(cached.thenBlock());
    Value copy = group ? packedSlot(b, loc, lookup.slot, resultType)
                       : memrefAt(b, loc, lookup.slot, decodedType, i64Constant(b, loc, columns));
    auto fill =
        scf::IfOp::create(b, loc, TypeRange{}, isFresh(b, loc, lookup), /*withElseRegion=*/false);
    b.setInsertionPointToStart(fill.thenBlock());
    decodeInto(read.view, copy);
    b.setInsertionPointAfter(fill);
    scf::YieldOp::create(b, loc, asResult(copy));
    b.setInsertionPointToStart(cached.elseBlock());
    decodeOwn(read.view);
    b.setInsertionPointAfter(cached);
    scf::YieldOp::create(b, loc, cached.getResult(0));
  } else {
    decodeOwn(read.view);
  }

  // Not a whole block: the fill, then the decode of its buffer.
  b.setInsertionPointToStart(choice.elseBlock());
  auto yield = scf::YieldOp::create(b, loc, ValueRange{});
  filler->moveBefore(yield);
  b.setInsertionPoint(yield);
  decodeOwn(buffer.getResult());
  yield->erase();

  b.setInsertionPoint(widening);
  auto decoded = bufferization::ToTensorOp::create(
      b, widening->getLoc(),
      RankedTensorType::get(resultType.getShape(), bf16), choice.getResult(0),
      /*restrict=*/true, /*writable=*/false);
  Value operand = group ? unpackedAMXTile(b, loc, decoded.getResult(), group) : decoded.getResult();
  widening->replaceAllUsesWith(ValueRange{operand});
  widening->erase();
  tile->erase();
}

} // namespace tritium::cpu
