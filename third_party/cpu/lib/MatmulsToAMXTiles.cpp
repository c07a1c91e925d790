//===- MatmulsToAMXTiles.cpp - marked matmuls on AMX tile registers -------===//
//
// An AMX core holds 8 tile registers of 16 rows x 64 bytes. For each block of C of up to 2x2
// tiles of 16x16 (4 registers), K is summed 32 bf16 or 64 int8 values a step (over each
// product of the generic in turn: one per iteration of a merged K loop): a tile of A
// (16 rows x 64 bytes, read with A's row stride) and a tile of packed B (16 rows of K groups x
// 16 columns) for each row and column of tiles, and one tdpbf16ps / tdpbssd per C tile, 8
// multiply-adds of 16x16x32 bf16 (16x16x64 int8) in 4 registers. The C tiles go back to
// memory every `kStepsPerChunk` steps (or after the products that fit in that many), so
// nothing carries a tile across a loop. A product without accumulator (`tl.dot(a, b)`:
// attention's q k^T at every K step) had its C zero-filled, stored and loaded again; its
// first run starts from tilezero instead (bf16 attention forward, seq 4096, one thread: head
// dim 64 ~365 -> ~410 GFLOP/s, 128 ~435 -> ~475).
//
// The generic tritium-cpu-pack-matmuls-for-amx built reads A as a [M, K/g, g] view of the
// [M, K] buffer (tile loads read the [M, K] form) and B as [K/g, N, g] (read as [K/g, N*g])
// or as 32-bit words of K neighbours [K/g, N]: the same bytes, 64 of them a tile row. A tile load needs
// each row's 64 bytes contiguous: when A's layout leaves its column stride open (a tile read
// where it lies in the kernel's memory), the stride is tested at run time and, if it is not
// 1, A is copied into a buffer on the stack first.
//
//===----------------------------------------------------------------------===//

#include "AMXTileGeneric.h"
#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_MATMULSTOAMXTILES
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

constexpr int64_t kTileRows = kAMXTileRows;
/// K steps summed between loading and storing the C tiles (an unrolled run of tile ops).
constexpr int64_t kStepsPerChunk = kAMXStepsPerCRoundTrip;

Value index(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// The generic's operands as 2-D buffers tile loads can read, or failure: each product's A
/// and packed B, and C.
struct TileOperands {
  SmallVector<Value> a, packedB;
  Value c;
  int64_t m, n, k, group;
};

FailureOr<TileOperands> tileOperandsOf(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() < 2 ||
      op.getNumDpsInputs() % 2 != 0 || op.getNumDpsInits() != 1)
    return failure();
  auto cType = cast<MemRefType>(op.getDpsInits()[0].getType());
  if (cType.getRank() != 2 || !cType.hasStaticShape() || !cType.isLastDimUnitStride())
    return failure();
  TileOperands operands;
  operands.c = op.getDpsInits()[0];
  operands.m = cType.getDimSize(0);
  operands.n = cType.getDimSize(1);
  Type acc = cType.getElementType();
  for (AMXTileProduct product : amxTileProducts(op)) {
    auto groupedA = product.groupedA.getDefiningOp<memref::ExpandShapeOp>();
    if (!groupedA)
      return failure();
    auto aType = cast<MemRefType>(groupedA.getSrc().getType());
    auto groupedType = cast<MemRefType>(groupedA.getResult().getType());
    auto bType = cast<MemRefType>(product.packedB.getType());
    if (aType.getRank() != 2 || groupedType.getRank() != 3 || !aType.hasStaticShape() ||
        !bType.hasStaticShape() || aType.getDimSize(0) != operands.m)
      return failure();
    // The types the pack pass built the generic with (a tile generic changed by a later
    // rewrite keeps its loops): B as words [K/g, N] or as values [K/g, N, g].
    Type element = aType.getElementType();
    bool words = bType.getRank() == 2 && bType.getElementType().isInteger(32);
    bool values = bType.getRank() == 3 && bType.getElementType() == element;
    if (!(words || values) ||
        !((element.isBF16() && acc.isF32()) || (element.isInteger(8) && acc.isInteger(32))))
      return failure();
    // Packed B is tritium's own buffer: contiguous rows.
    if (!bType.isLastDimUnitStride() ||
        (values && !memref::CollapseShapeOp::isGuaranteedCollapsible(bType, {{0}, {1, 2}})))
      return failure();
    int64_t k = aType.getDimSize(1), group = groupedType.getDimSize(2);
    if (!operands.a.empty() && (k != operands.k || group != operands.group ||
                                element != getElementTypeOrSelf(operands.a.front().getType())))
      return failure();
    operands.a.push_back(groupedA.getSrc());
    operands.packedB.push_back(product.packedB);
    operands.k = k;
    operands.group = group;
  }
  return operands;
}

/// `a` as a buffer whose rows are contiguous: itself when its layout says so, else (tested at
/// run time) a view of it or a copy of it in `scratch`.
Value withContiguousRows(OpBuilder &b, Location loc, Value a, func::FuncOp func) {
  auto type = cast<MemRefType>(a.getType());
  if (type.isLastDimUnitStride())
    return a;
  auto rowsType = MemRefType::get(
      type.getShape(), type.getElementType(),
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, {ShapedType::kDynamic, 1}));
  Value scratch;
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&func.getBody().front());
    scratch = memref::AllocaOp::create(
        b, loc, MemRefType::get(type.getShape(), type.getElementType()));
  }
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, a);
  Value unit = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, metadata.getStrides()[1],
                                     index(b, loc, 1));
  auto choice = scf::IfOp::create(b, loc, TypeRange{rowsType}, unit, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(choice.thenBlock());
    SmallVector<OpFoldResult> sizes = {b.getIndexAttr(type.getDimSize(0)),
                                       b.getIndexAttr(type.getDimSize(1))};
    SmallVector<OpFoldResult> strides = {metadata.getStrides()[0], b.getIndexAttr(1)};
    Value view = memref::ReinterpretCastOp::create(
        b, loc, rowsType, a, OpFoldResult(metadata.getOffset()), sizes, strides);
    scf::YieldOp::create(b, loc, view);
    b.setInsertionPointToStart(choice.elseBlock());
    memref::CopyOp::create(b, loc, a, scratch);
    scf::YieldOp::create(b, loc, memref::CastOp::create(b, loc, rowsType, scratch).getResult());
  }
  return choice.getResult(0);
}

/// Whether `value` is an all-zero constant: a scalar, or a global memref whose initial value
/// is a splat of zeros (+0.0: tilezero's bits).
bool isZero(Value value) {
  if (matchPattern(value, m_Zero()) || matchPattern(value, m_PosZeroFloat()))
    return true;
  auto global = value.getDefiningOp<memref::GetGlobalOp>();
  if (!global)
    return false;
  auto symbol = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(global, global.getNameAttr());
  if (!symbol || !symbol.getConstant())
    return false;
  auto initial = dyn_cast_or_null<DenseElementsAttr>(symbol.getInitialValueAttr());
  if (!initial || !initial.isSplat())
    return false;
  if (auto value = dyn_cast<FloatAttr>(initial.getSplatValue<Attribute>()))
    return value.getValue().isPosZero();
  if (auto value = dyn_cast<IntegerAttr>(initial.getSplatValue<Attribute>()))
    return value.getValue().isZero();
  return false;
}

/// The op that fills C with zeros for `op` (`memref.copy` of an all-zero constant, or
/// `linalg.fill` of zero: a `tl.dot` without accumulator), when C is a buffer of the function's
/// own that nothing but that fill uses before `op` (no view of it either, so nothing reaches it
/// by another name): the C tiles can then start from tilezero instead of loading the zeros
/// (64 KB written and read again at every K step of attention's q k^T), and the fill can go.
/// Null otherwise.
Operation *zeroFillOf(linalg::GenericOp op, Value c) {
  if (!c.getDefiningOp<memref::AllocOp>() && !c.getDefiningOp<memref::AllocaOp>())
    return nullptr;
  Operation *fill = nullptr;
  for (Operation *user : c.getUsers()) {
    if (user == op || isa<memref::DeallocOp>(user))
      continue;
    Operation *ancestor = op->getBlock()->findAncestorOpInBlock(*user);
    if (!ancestor)
      return nullptr;
    if (op->isBeforeInBlock(ancestor))
      continue; // reads the product
    auto copy = dyn_cast<memref::CopyOp>(user);
    auto zeros = dyn_cast<linalg::FillOp>(user);
    bool fillsC = (copy && copy.getTarget() == c && isZero(copy.getSource())) ||
                  (zeros && zeros.getOutputs()[0] == c && isZero(zeros.getInputs()[0]));
    if (fill || !fillsC || ancestor != user)
      return nullptr;
    fill = user;
  }
  return fill;
}

void emitAMXTiles(OpBuilder &b, linalg::GenericOp op, const TileOperands &in,
                  bool startsFromZero) {
  Location loc = op.getLoc();
  auto func = op->getParentOfType<func::FuncOp>();
  Type element = getElementTypeOrSelf(in.a.front().getType());
  Type acc = getElementTypeOrSelf(in.c.getType());
  bool isFloat = isa<FloatType>(acc);
  int64_t tileK = kTileRows * in.group; // K values a tile step sums: 32 bf16, 64 int8
  auto operandTile = amx::TileType::get({kTileRows, tileK}, element);
  auto accTile = amx::TileType::get({kTileRows, kTileRows}, acc);

  // A tile row of B is 16 columns of g K neighbours: 16 words, or 16 * g values of the
  // [K/g, N * g] form of [K/g, N, g].
  SmallVector<Value> as, packedBs;
  SmallVector<int64_t> columnScales;
  for (auto [a, packed] : llvm::zip_equal(in.a, in.packedB)) {
    as.push_back(withContiguousRows(b, loc, a, func));
    Value packedB = packed;
    int64_t columnScale = 1;
    if (cast<MemRefType>(packedB.getType()).getRank() == 3) {
      packedB = memref::CollapseShapeOp::create(b, loc, packedB,
                                                SmallVector<ReassociationIndices>{{0}, {1, 2}});
      columnScale = in.group;
    }
    packedBs.push_back(packedB);
    columnScales.push_back(columnScale);
  }
  Value c = in.c;

  // 2x2 tiles of C where the block divides, else 2x1, 1x2 or 1x1.
  int64_t rowTiles = in.m % (2 * kTileRows) == 0 ? 2 : 1;
  int64_t colTiles = in.n % (2 * kTileRows) == 0 ? 2 : 1;
  int64_t steps = in.k / tileK;
  int64_t chunkSteps = std::min(steps, kStepsPerChunk);
  while (steps % chunkSteps != 0)
    --chunkSteps;
  // Products summed between a load and a store of the C tiles (with one product, its K is
  // cut into chunks instead).
  int64_t productsPerChunk = std::max<int64_t>(1, kStepsPerChunk / steps);
  int64_t numProducts = in.a.size();

  // Loads the C tiles of the block at (m, n), sums `chunkSteps` steps from K offset `k0` of
  // each product in [first, last), stores the tiles.
  auto chunk = [&](OpBuilder &b, Location loc, Value m, Value n, Value k0, int64_t first,
                   int64_t last, bool fromZero) {
    auto at = [&](Value base, int64_t offset) {
      return arith::AddIOp::create(b, loc, base, index(b, loc, offset)).getResult();
    };
    SmallVector<Value> sums;
    for (int64_t i = 0; i < rowTiles; ++i)
      for (int64_t j = 0; j < colTiles; ++j)
        sums.push_back(fromZero ? amx::TileZeroOp::create(b, loc, accTile).getResult()
                                : amx::TileLoadOp::create(b, loc, accTile, c,
                                                          ValueRange{at(m, i * kTileRows),
                                                                     at(n, j * kTileRows)})
                                      .getResult());
    for (int64_t p = first; p < last; ++p) {
      for (int64_t s = 0; s < chunkSteps; ++s) {
        Value k = at(k0, s * tileK);
        Value kGroup = arith::DivUIOp::create(b, loc, k, index(b, loc, in.group));
        SmallVector<Value> rows, cols;
        for (int64_t i = 0; i < rowTiles; ++i)
          rows.push_back(amx::TileLoadOp::create(b, loc, operandTile, as[p],
                                                 ValueRange{at(m, i * kTileRows), k}));
        for (int64_t j = 0; j < colTiles; ++j) {
          Value column = at(n, j * kTileRows);
          if (columnScales[p] != 1)
            column = arith::MulIOp::create(b, loc, column, index(b, loc, columnScales[p]));
          cols.push_back(amx::TileLoadOp::create(b, loc, operandTile, packedBs[p],
                                                 ValueRange{kGroup, column}));
        }
        for (int64_t i = 0; i < rowTiles; ++i)
          for (int64_t j = 0; j < colTiles; ++j) {
            Value &sum = sums[i * colTiles + j];
            sum = isFloat ? amx::TileMulFOp::create(b, loc, accTile, rows[i], cols[j], sum)
                                .getResult()
                          : amx::TileMulIOp::create(b, loc, accTile, rows[i], cols[j], sum,
                                                    /*isZextLhs=*/nullptr,
                                                    /*isZextRhs=*/nullptr)
                                .getResult();
          }
      }
    }
    for (int64_t i = 0; i < rowTiles; ++i)
      for (int64_t j = 0; j < colTiles; ++j)
        amx::TileStoreOp::create(b, loc, c, ValueRange{at(m, i * kTileRows), at(n, j * kTileRows)},
                                 sums[i * colTiles + j]);
  };

  Value c0 = index(b, loc, 0);
  scf::ForOp::create(
      b, loc, c0, index(b, loc, in.m), index(b, loc, rowTiles * kTileRows), ValueRange{},
      [&](OpBuilder &b, Location loc, Value m, ValueRange) {
        scf::ForOp::create(
            b, loc, c0, index(b, loc, in.n), index(b, loc, colTiles * kTileRows), ValueRange{},
            [&](OpBuilder &b, Location loc, Value n, ValueRange) {
              if (chunkSteps == steps) {
                for (int64_t first = 0; first < numProducts; first += productsPerChunk)
                  chunk(b, loc, m, n, c0, first, std::min(numProducts, first + productsPerChunk),
                        startsFromZero && first == 0);
              } else {
                // The first chunk apart when it starts from zero.
                int64_t firstChunk = startsFromZero ? 1 : 0;
                if (firstChunk)
                  chunk(b, loc, m, n, c0, 0, 1, /*fromZero=*/true);
                for (int64_t p = 0; p < numProducts; ++p)
                  scf::ForOp::create(
                      b, loc, index(b, loc, p == 0 ? firstChunk * chunkSteps * tileK : 0),
                      index(b, loc, in.k), index(b, loc, chunkSteps * tileK), ValueRange{},
                      [&](OpBuilder &b, Location loc, Value k0, ValueRange) {
                        chunk(b, loc, m, n, k0, p, p + 1, /*fromZero=*/false);
                        scf::YieldOp::create(b, loc);
                      });
              }
              scf::YieldOp::create(b, loc);
            });
        scf::YieldOp::create(b, loc);
      });
}

struct MatmulsToAMXTilesPass : impl::MatmulsToAMXTilesBase<MatmulsToAMXTilesPass> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::GenericOp, TileOperands>> marked;
    getOperation().walk([&](linalg::GenericOp op) {
      if (!op->hasAttr(kAMXTilesAttrName))
        return;
      // A generic the pass cannot read keeps its loops, which compute the same matmul.
      if (FailureOr<TileOperands> operands = tileOperandsOf(op); succeeded(operands))
        marked.push_back({op, *operands});
    });
    OpBuilder b(&getContext());
    for (auto &[op, operands] : marked) {
      Operation *zeroFill = zeroFillOf(op, operands.c);
      b.setInsertionPoint(op);
      emitAMXTiles(b, op, operands, /*startsFromZero=*/zeroFill != nullptr);
      op->erase();
      if (zeroFill)
        zeroFill->erase();
    }
  }
};

} // namespace
} // namespace tritium::cpu
