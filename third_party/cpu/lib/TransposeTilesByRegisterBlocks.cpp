//===- TransposeTilesByRegisterBlocks.cpp - tl.trans with vector shuffles -===//
//
// `tl.trans(k)` of a tile (attention's `q @ k^T`) becomes a copy with permuted indices. As
// element loops, LLVM vectorizes it along the destination's rows: each vector gathers eight
// elements a source row apart, a scalar load and an insert per element — in a flash-attention
// step (64x64 f32) that copy cost about 4% of the step.
//
// A square block of W x W elements, W the elements of a 256-bit vector (8 floats or i32, 4
// doubles or i64), transposes in registers instead: W row loads, log2(W) rounds of two-source
// shuffles that x86 does in one instruction each (unpack, shufps/unpckpd, vperm2f128 — the
// classic 8x8 transpose), W row stores. So a 2-D transpose of static sizes that are multiples
// of W, between buffers whose rows are contiguous, runs block by block; other transposes stay
// element loops. 256-bit blocks are also what AVX-512 hosts run best here (the tiles' sides
// are often 16 or 32).
//
//===----------------------------------------------------------------------===//

#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_TRANSPOSETILESBYREGISTERBLOCKS
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

constexpr int64_t kBlockBits = 256;

/// Whether `type` is a static 2-D buffer whose rows are contiguous.
bool hasContiguousRows(MemRefType type) {
  int64_t offset;
  SmallVector<int64_t> strides;
  return type.getRank() == 2 && type.hasStaticShape() &&
         succeeded(type.getStridesAndOffset(strides, offset)) && strides[1] == 1;
}

/// The block side for a transpose (`out[i, j] = in[j, i]`, nothing else: a `generic` or a
/// `linalg.transpose`), if it can run by blocks.
std::optional<int64_t> blockSideOf(linalg::LinalgOp generic) {
  if (!isa<linalg::GenericOp, linalg::TransposeOp>(generic))
    return std::nullopt;
  if (!generic.hasPureBufferSemantics() || generic.getNumDpsInputs() != 1 ||
      generic.getNumDpsInits() != 1 || generic.getNumLoops() != 2 ||
      generic.getNumReductionLoops() != 0)
    return std::nullopt;
  MLIRContext *context = generic.getContext();
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  AffineMap transposed = AffineMap::getPermutationMap(ArrayRef<unsigned>{1, 0}, context);
  // `in[j, i]` read at (i, j), or `in[i, j]` written to `out[j, i]`: the same copy.
  if (!(maps[0] == transposed && maps[1].isIdentity()) &&
      !(maps[0].isIdentity() && maps[1] == transposed))
    return std::nullopt;
  Block *body = generic.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (body->getOperations().size() != 1 || yield.getValues().front() != body->getArgument(0))
    return std::nullopt;
  auto source = dyn_cast<MemRefType>(generic.getDpsInputs()[0].getType());
  auto target = dyn_cast<MemRefType>(generic.getDpsInits()[0].getType());
  if (!source || !target || generic.getDpsInputs()[0] == generic.getDpsInits()[0] ||
      !hasContiguousRows(source) || !hasContiguousRows(target) ||
      source.getElementType() != target.getElementType())
    return std::nullopt;
  Type element = source.getElementType();
  if (!element.isIntOrFloat() || (element.getIntOrFloatBitWidth() != 32 &&
                                  element.getIntOrFloatBitWidth() != 64))
    return std::nullopt;
  int64_t side = kBlockBits / element.getIntOrFloatBitWidth();
  if (target.getDimSize(0) % side != 0 || target.getDimSize(1) % side != 0)
    return std::nullopt;
  return side;
}

/// One round of the register transpose: pairs of vectors `distance` apart exchange their
/// elements in groups. `unpack` rounds interleave single elements within 128-bit lanes,
/// later rounds move groups of `group` elements (within the lanes, then whole lanes).
SmallVector<Value> shuffleRound(OpBuilder &b, Location loc, ArrayRef<Value> rows,
                                int64_t distance, ArrayRef<int64_t> lowMask,
                                ArrayRef<int64_t> highMask) {
  SmallVector<Value> result(rows.size());
  for (size_t first = 0; first < rows.size(); ++first) {
    if (first & distance)
      continue;
    size_t second = first + distance;
    result[first] = vector::ShuffleOp::create(b, loc, rows[first], rows[second], lowMask);
    result[second] = vector::ShuffleOp::create(b, loc, rows[first], rows[second], highMask);
  }
  return result;
}

/// The columns of the W x W block whose rows are `rows` (W = 8 or 4).
SmallVector<Value> transposeInRegisters(OpBuilder &b, Location loc, ArrayRef<Value> rows) {
  if (rows.size() == 8) {
    // unpcklps/unpckhps, then shufps, then vperm2f128 (see the file comment).
    SmallVector<Value> unpacked =
        shuffleRound(b, loc, rows, 1, {0, 8, 1, 9, 4, 12, 5, 13}, {2, 10, 3, 11, 6, 14, 7, 15});
    SmallVector<Value> paired(8);
    // u[4h+0] = (t[4h], t[4h+2]) low pairs, u[4h+1] = high pairs, u[4h+2], u[4h+3] from t[4h+1], t[4h+3].
    for (int64_t half = 0; half < 2; ++half) {
      Value t0 = unpacked[4 * half], t1 = unpacked[4 * half + 1];
      Value t2 = unpacked[4 * half + 2], t3 = unpacked[4 * half + 3];
      static constexpr int64_t low[] = {0, 1, 8, 9, 4, 5, 12, 13};
      static constexpr int64_t high[] = {2, 3, 10, 11, 6, 7, 14, 15};
      paired[4 * half + 0] = vector::ShuffleOp::create(b, loc, t0, t2, low);
      paired[4 * half + 1] = vector::ShuffleOp::create(b, loc, t0, t2, high);
      paired[4 * half + 2] = vector::ShuffleOp::create(b, loc, t1, t3, low);
      paired[4 * half + 3] = vector::ShuffleOp::create(b, loc, t1, t3, high);
    }
    SmallVector<Value> columns(8);
    for (int64_t c = 0; c < 4; ++c) {
      columns[c] = vector::ShuffleOp::create(b, loc, paired[c], paired[c + 4],
                                             ArrayRef<int64_t>{0, 1, 2, 3, 8, 9, 10, 11});
      columns[c + 4] = vector::ShuffleOp::create(b, loc, paired[c], paired[c + 4],
                                                 ArrayRef<int64_t>{4, 5, 6, 7, 12, 13, 14, 15});
    }
    return columns;
  }
  // 4 x 4 (64-bit elements): unpcklpd/unpckhpd, then vperm2f128.
  SmallVector<Value> unpacked = shuffleRound(b, loc, rows, 1, {0, 4, 2, 6}, {1, 5, 3, 7});
  SmallVector<Value> columns(4);
  for (int64_t c = 0; c < 2; ++c) {
    columns[c] = vector::ShuffleOp::create(b, loc, unpacked[c], unpacked[c + 2],
                                           ArrayRef<int64_t>{0, 1, 4, 5});
    columns[c + 2] = vector::ShuffleOp::create(b, loc, unpacked[c], unpacked[c + 2],
                                               ArrayRef<int64_t>{2, 3, 6, 7});
  }
  return columns;
}

void transposeByBlocks(linalg::LinalgOp generic, int64_t side) {
  OpBuilder b(generic);
  Location loc = generic.getLoc();
  Value source = generic.getDpsInputs()[0], target = generic.getDpsInits()[0];
  auto targetType = cast<MemRefType>(target.getType());
  auto vectorType = VectorType::get({side}, targetType.getElementType());
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value step = arith::ConstantIndexOp::create(b, loc, side);
  Value rowsEnd = arith::ConstantIndexOp::create(b, loc, targetType.getDimSize(0));
  Value columnsEnd = arith::ConstantIndexOp::create(b, loc, targetType.getDimSize(1));
  // target[i0 + r, j0 + c] = source[j0 + c, i0 + r]: the block's source rows are its columns.
  scf::ForOp::create(
      b, loc, zero, rowsEnd, step, ValueRange{},
      [&](OpBuilder &rb, Location rloc, Value i0, ValueRange) {
        scf::ForOp::create(
            rb, rloc, zero, columnsEnd, step, ValueRange{},
            [&](OpBuilder &cb, Location cloc, Value j0, ValueRange) {
              SmallVector<Value> sourceRows;
              for (int64_t c = 0; c < side; ++c) {
                Value row = cb.createOrFold<arith::AddIOp>(
                    cloc, j0, arith::ConstantIndexOp::create(cb, cloc, c));
                sourceRows.push_back(
                    vector::LoadOp::create(cb, cloc, vectorType, source, ValueRange{row, i0}));
              }
              SmallVector<Value> columns = transposeInRegisters(cb, cloc, sourceRows);
              for (int64_t r = 0; r < side; ++r) {
                Value row = cb.createOrFold<arith::AddIOp>(
                    cloc, i0, arith::ConstantIndexOp::create(cb, cloc, r));
                vector::StoreOp::create(cb, cloc, columns[r], target, ValueRange{row, j0});
              }
              scf::YieldOp::create(cb, cloc);
            });
        scf::YieldOp::create(rb, rloc);
      });
  generic->erase();
}

struct TransposeTilesByRegisterBlocksPass
    : impl::TransposeTilesByRegisterBlocksBase<TransposeTilesByRegisterBlocksPass> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, int64_t>> transposes;
    getOperation()->walk([&](linalg::LinalgOp generic) {
      if (std::optional<int64_t> side = blockSideOf(generic))
        transposes.emplace_back(generic, *side);
    });
    for (auto [generic, side] : transposes)
      transposeByBlocks(generic, side);
  }
};

} // namespace
} // namespace tritium::cpu
