//===- ReadTilesPackedForAMX.cpp - B tiles of AMX matmuls read packed -----===//
//
// Part of tritium-cpu-read-tiles-in-place (ReadTilesInPlace.cpp), for the B tiles of the
// matmuls tritium-cpu-pack-matmuls-for-amx gives to AMX tiles.
//
// On a host whose AMX tiles will compute the matmul (bf16 or int8), B is cached in the
// layout the tile loads read ([K/g, N, g], g K neighbours of a column together), rows close
// together or not: every program packed its B tiles, so the copy costs nothing a program did
// not already do, and the programs of a column after it skip the pack. One thread, 256x128x64
// blocks: bf16 1024^3 ~745 -> ~820 GFLOP/s, 2048^3 ~785 -> ~880, 64x4096x4096 445 -> 543;
// int8 1024^3 ~1165 -> ~1240 GOP/s, 16x4096x4096 ~275 -> ~365 (a B read once packs straight
// from memory instead of through a copy). The same holds for a tile whose transpose is such a
// B (attention's `tl.trans(k)`, read by every program of its head): bf16 attention forward,
// seq 4096, one thread, head dim 128 ~490 -> ~545 GFLOP/s, 64 ~360 -> ~390. And for a
// column-major B (`x @ w.t()` with an nn.Linear weight), whose tile was gathered element by
// element. Both are packed as a transpose of the 32-bit words of the view's rows (each word a
// column's K neighbours), by register blocks. bf16 x @ w.t() at one thread: 1024^3 ~300 ->
// ~815 GFLOP/s, 64x4096x4096 ~120 -> ~375, 16x4096x4096 ~35 -> ~140.
//
// Hosts without AMX but with AVX512-BF16 or AVX512-VNNI read the same layout, as 32-bit words
// of K neighbours, for `vdpbf16ps` and `vpdpbusd` (MatmulsToDotProductInstructions.cpp): their
// B tiles are cached packed alike.
//
//===----------------------------------------------------------------------===//

#include "AMXMatmuls.h"
#include "DotProductMatmuls.h"
#include "ReadTilesInPlace.h"
#include "tritium/Target/CPU/OperandTileCache.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace tritium::cpu {

using namespace tile_reads;

int64_t tile_reads::amxPackGroup(Operation *consumer, bool bf16, bool int8) {
  if (!isAMXMatmul(consumer, bf16, int8))
    return 0;
  auto rhs = cast<linalg::MatmulOp>(consumer).getDpsInputs()[1];
  return amxKGroupOf(cast<RankedTensorType>(rhs.getType()).getElementType());
}

int64_t tile_reads::packGroupOfB(Operation *consumer, bool amxBF16, bool amxInt8,
                                  bool dotProductBF16, bool dotProductInt8) {
  if (int64_t group = amxPackGroup(consumer, amxBF16, amxInt8))
    return group;
  return dotProductKGroup(consumer, dotProductBF16, dotProductInt8);
}

int64_t tile_reads::packGroupOfTransposedB(Operation *transpose, bool amxBF16, bool amxInt8,
                                           bool dotProductBF16, bool dotProductInt8) {
  auto op = dyn_cast<linalg::TransposeOp>(transpose);
  if (!op || op.getPermutation() != ArrayRef<int64_t>{1, 0} || !op->hasOneUse() ||
      op->use_begin()->getOperandNumber() != 1)
    return 0;
  return packGroupOfB(op->use_begin()->getOwner(), amxBF16, amxInt8, dotProductBF16,
                      dotProductInt8);
}

void tile_reads::packTile(OpBuilder &b, Location loc, Value source, Value packed,
                          int64_t group) {
  auto type = cast<MemRefType>(source.getType());
  int64_t k = type.getDimSize(0), n = type.getDimSize(1);
  Value grouped =
      memref::ExpandShapeOp::create(b, loc, ArrayRef<int64_t>{k / group, group, n}, source,
                                    SmallVector<ReassociationIndices>{{0, 1}, {2}});
  linalg::TransposeOp::create(b, loc, grouped, packed, ArrayRef<int64_t>{0, 2, 1});
}

namespace {

/// The aligned pointer of `buffer`, a memref of the function's own, as an LLVM pointer.
Value pointerOf(OpBuilder &b, Location loc, Value buffer) {
  Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
  Value bits = arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
  return LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()), bits);
}

/// Packs the B whose columns are the `n` rows of `k` elements at `first` (`rowStride`
/// elements apart, a multiple of `group`) into [K/g, N, g] at `packed`: the g K neighbours of a
/// column are one 32-bit word of a row, so this is a transpose of 32-bit words, which runs by
/// register blocks (tritium-cpu-transpose-tiles-by-register-blocks) where a transpose of the
/// [N, K/g, g] view ran element by element.
void packRowsAsWords(OpBuilder &b, Location loc, Value first, Value rowStride, int64_t n,
                     int64_t k, Value packed, int64_t group) {
  MLIRContext *context = b.getContext();
  Type word = b.getI32Type();
  auto rowsType = MemRefType::get(
      {n, k / group}, word, StridedLayoutAttr::get(context, 0, {ShapedType::kDynamic, 1}));
  Value wordStride = arith::DivSIOp::create(b, loc, rowStride, i64Constant(b, loc, group));
  Value rows = memrefAt(b, loc, first, rowsType, wordStride);
  Value columns = memrefAt(b, loc, packed, MemRefType::get({k / group, n}, word),
                           i64Constant(b, loc, n));
  linalg::TransposeOp::create(b, loc, rows, columns, ArrayRef<int64_t>{1, 0});
}

} // namespace

Value tile_reads::packedSlot(OpBuilder &b, Location loc, Value slot, MemRefType packedType) {
  ArrayRef<int64_t> shape = packedType.getShape(); // [K/g, N, g]
  Value rows = memrefAt(b, loc, slot,
                        MemRefType::get({shape[0], shape[1] * shape[2]}, packedType.getElementType()),
                        i64Constant(b, loc, shape[1] * shape[2]));
  return memref::ExpandShapeOp::create(b, loc, packedType, rows,
                                       SmallVector<ReassociationIndices>{{0}, {1, 2}});
}

Value tile_reads::unpackedAMXTile(OpBuilder &b, Location loc, Value packed, int64_t group) {
  auto packedType = cast<RankedTensorType>(packed.getType());
  Type element = packedType.getElementType();
  int64_t k = packedType.getDimSize(0) * group, n = packedType.getDimSize(1);
  MLIRContext *context = b.getContext();
  AffineExpr row, column;
  bindDims(context, row, column);
  AffineMap packedAt = AffineMap::get(2, 0, {row.floorDiv(group), column, row % group}, context);
  auto bType = RankedTensorType::get({k, n}, element);
  Value init = tensor::EmptyOp::create(b, loc, bType.getShape(), element);
  auto unpacked = linalg::GenericOp::create(
      b, loc, TypeRange{bType}, ValueRange{packed}, ValueRange{init},
      ArrayRef<AffineMap>{packedAt, AffineMap::getMultiDimIdentityMap(2, context)},
      SmallVector<utils::IteratorType>(2, utils::IteratorType::parallel),
      [](OpBuilder &b, Location loc, ValueRange values) {
        linalg::YieldOp::create(b, loc, values[0]);
      });
  unpacked->setAttr(kUnpackedAMXTileAttrName, b.getUnitAttr());
  return unpacked.getResult(0);
}

void tile_reads::readPackedForAMX(OpBuilder &b, Location loc, const InPlaceRead &read,
                                  memref::AllocOp buffer, Operation *filler,
                                  bufferization::ToTensorOp tile, int64_t group,
                                  linalg::TransposeOp transpose) {
  MemRefType tileType = buffer.getType();
  Type element = tileType.getElementType();
  // The tile (and its buffer) is x [N, K] with B = x^T, or B [K, N] itself.
  bool transposed = transpose != nullptr;
  int64_t k = tileType.getDimSize(transposed ? 1 : 0), n = tileType.getDimSize(transposed ? 0 : 1);
  // The view's rows are B's columns for x, and for a column-major B (`x @ w.t()`'s weight),
  // whose view is read transposed: packed alike, and cached alike (layout 3).
  bool viewRowsAreColumns = transposed || read.transposed;
  ArrayRef<int64_t> viewShape = cast<MemRefType>(read.view.getType()).getShape();
  auto packedType = MemRefType::get({k / group, n, group}, element);
  Value own = memref::AllocOp::create(b, loc, packedType);
  // A view whose rows are B's columns is packed as 32-bit words of its rows: their starts must
  // be whole words apart.
  Value condition = read.condition;
  if (viewRowsAreColumns) {
    Value wordsApart = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        arith::RemSIOp::create(b, loc, read.rowStride, i64Constant(b, loc, group)),
        i64Constant(b, loc, 0));
    condition = arith::AndIOp::create(b, loc, condition, wordsApart);
  }
  auto packView = [&](Value packed, Value packedPointer) {
    if (viewRowsAreColumns)
      packRowsAsWords(b, loc, read.first, read.rowStride, n, k, packedPointer, group);
    else
      packTile(b, loc, read.view, packed, group);
  };
  auto choice = scf::IfOp::create(b, loc, TypeRange{packedType}, condition,
                                  /*withElseRegion=*/true);

  b.setInsertionPointToStart(choice.thenBlock());
  CacheLookup lookup = lookUpCachedTile(
      b, loc, buffer, read.first, read.rowStride, viewShape[0], viewShape[1],
      tileType.getElementTypeBitWidth() / 8,
      viewRowsAreColumns ? kTileTransposedPackedForAMX : kTilePackedForAMX);
  auto cached =
      scf::IfOp::create(b, loc, TypeRange{packedType}, lookup.found, /*withElseRegion=*/true);
  b.setInsertionPointToStart(cached.thenBlock());
  Value copy = packedSlot(b, loc, lookup.slot, packedType);
  auto fill =
      scf::IfOp::create(b, loc, TypeRange{}, isFresh(b, loc, lookup), /*withElseRegion=*/false);
  b.setInsertionPointToStart(fill.thenBlock());
  packView(copy, lookup.slot);
  b.setInsertionPointAfter(fill);
  scf::YieldOp::create(b, loc, copy);
  b.setInsertionPointToStart(cached.elseBlock());
  packView(own, viewRowsAreColumns ? pointerOf(b, loc, own) : Value());
  scf::YieldOp::create(b, loc, own);
  b.setInsertionPointAfter(cached);
  scf::YieldOp::create(b, loc, cached.getResult(0));

  b.setInsertionPointToStart(choice.elseBlock());
  auto yield = scf::YieldOp::create(b, loc, own);
  filler->moveBefore(yield);
  b.setInsertionPoint(yield);
  if (transposed)
    packRowsAsWords(b, loc, pointerOf(b, loc, buffer.getResult()),
                    i64Constant(b, loc, tileType.getDimSize(1)), n, k, pointerOf(b, loc, own),
                    group);
  else
    packTile(b, loc, buffer.getResult(), own, group);

  b.setInsertionPoint(tile);
  auto packed = bufferization::ToTensorOp::create(
      b, tile.getLoc(), RankedTensorType::get(packedType.getShape(), element),
      choice.getResult(0), /*restrict=*/true, /*writable=*/false);
  Value unpacked = unpackedAMXTile(b, loc, packed.getResult(), group);
  if (transposed) {
    transpose->replaceAllUsesWith(ValueRange{unpacked});
    transpose->erase();
  } else {
    tile.replaceAllUsesWith(unpacked);
  }
  tile->erase();
}

} // namespace tritium::cpu
