//===- MatmulsToDotProductInstructions.cpp - bf16 and int8 dot products ---===//
//
// AVX512-BF16 and AVX512-VNNI multiply short vectors of pairs (bf16) or quads (int8) and add
// each group's sum into a 32-bit lane: `vdpbf16ps` does 32 bf16 multiply-adds and `vpdpbusd`
// 64 int8 ones per instruction, where an f32 FMA does 16. A matmul uses them when the K
// elements a lane sums sit next to each other in both operands:
//
//   - B is packed once per matmul into [K/g, N] 32-bit words, word (kk, n) holding
//     B[g*kk .. g*kk+g-1, n] (g = 2 for bf16, 4 for int8), so a row of words is one operand
//     (a B tile tritium-cpu-read-tiles-in-place read packed, [K/g, N, g], is read as it is:
//     the programs of a column of C share one pack a launch);
//   - A is packed likewise along its rows, so word (m, kk) broadcast to every lane is the other;
//   - the C block (mr rows x nr columns) stays in registers across K, one instruction per
//     (row, 16 columns) per K group.
//
// `vpdpbusd` multiplies unsigned by signed bytes: A is biased by 128 (its sign bit flipped,
// which makes it unsigned), and 128 * (the column sums of B) is subtracted from C beforehand.
// Integer arithmetic wraps, so the result is the int32 product bit for bit. `vdpbf16ps`
// treats bf16 subnormals as zero and rounds each addition to nearest-even in f32: within the
// summation bounds of an f32 accumulation.
//
// Matmuls that accumulate into one another (`acc = tl.dot(a1, b1, acc); acc = tl.dot(a2, b2,
// acc)`, which nothing else reads in between) form a chain, computed as one loop nest: each C
// block sums every product's K steps between one load and one store. A kernel's K loop whose
// int8 product sums fewer K groups than kInt8's round trip asks for is unrolled first, so
// that its iterations' products form such a chain.
//
// The host's features decide whether this runs (see the pipeline); matmuls it does not take
// are widened to f32 by tritium-cpu-widen-matmul-operands.
//
//===----------------------------------------------------------------------===//

#include "AMXMatmuls.h"
#include "DotProductMatmuls.h"
#include "KGroupWords.h"
#include "KLoopUnrolling.h"
#include "ReadTilesInPlace.h"
#include "tritium/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace tritium::cpu {
#define GEN_PASS_DEF_MATMULSTODOTPRODUCTINSTRUCTIONS
#include "tritium/Target/CPU/Passes.h.inc"
} // namespace tritium::cpu

using namespace mlir;

namespace tritium::cpu {
namespace {

/// 32-bit lanes of one 512-bit register.
constexpr int64_t kLanes = 16;

/// What differs between the bf16 and the int8 instruction.
struct DotProductKind {
  int64_t group;            // K elements per 32-bit word
  int64_t roundTripKGroups; // K groups a C block should sum between its load and its store
  StringRef intrinsic;      // the LLVM intrinsic
  bool biasLhs;             // vpdpbusd: A unsigned (biased by 128), B signed
};

// A kernel's `acc = tl.dot(a, b, acc)` over BLOCK_K = 64 int8 gives each C block 16 K groups
// per round trip through memory, and the C tile (128 KB at 256x128) streams through L2 at
// every iteration of the kernel's K loop. A C model of the 8x32 vpdpbusd block loop on a Zen 5
// core, C 256x128 in memory: 16 groups a round trip ~680 GOP/s (tritium's rate), 64 ~780-800,
// 128 ~880, the core's peak ~950. tritium, 2048^3 at 256x128x64, one thread: 16 groups
// 694-706 GOP/s, 64 730, 128 702-724; at 128x128x64 64 and 128 both ahead of 16 (noisy). bf16
// gained nothing from longer runs (BLOCK_K = 32 and 64 at 64 groups within the noise, at 128
// groups 10-15% slower: the chain's packed operands outgrow L1), so it keeps one product a
// round trip.
const DotProductKind kBF16 = {2, 0, "llvm.x86.avx512bf16.dpbf16ps.512", false};
const DotProductKind kInt8 = {4, 64, "llvm.x86.avx512.vpdpbusd.512", true};

struct MatmulShape {
  int64_t m, n, k, mr, nr;
};

std::optional<MatmulShape> shapeOf(linalg::MatmulOp op, const DotProductKind &kind) {
  auto a = cast<RankedTensorType>(op.getDpsInputs()[0].getType());
  auto c = cast<RankedTensorType>(op.getDpsInits()[0].getType());
  if (!a.hasStaticShape() || !c.hasStaticShape())
    return std::nullopt;
  MatmulShape shape{c.getDimSize(0), c.getDimSize(1), a.getDimSize(1), 0, 0};
  if (shape.k % kind.group != 0)
    return std::nullopt;
  // 8 x 32 keeps 16 accumulators, 2 words of B and a broadcast of A in 19 of 32 registers.
  for (auto [mr, nrVectors] : {std::pair<int64_t, int64_t>{8, 2}, {4, 2}, {4, 1}, {2, 1}})
    if (shape.m % mr == 0 && shape.n % (nrVectors * kLanes) == 0) {
      shape.mr = mr;
      shape.nr = nrVectors * kLanes;
      return shape;
    }
  return std::nullopt;
}

const DotProductKind *kindOf(linalg::MatmulOp op, bool bf16, bool int8) {
  switch (dotProductKGroup(op, bf16, int8)) {
  case 2:
    return &kBF16;
  case 4:
    return &kInt8;
  default:
    return nullptr;
  }
}

Value index(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// A [M, K] as [M, K/g] words of g K neighbours, each xor `xorMask`. The words are A's own
/// bytes in order, so a row is read and written by whole vectors; packAlongK's generic reads
/// every g-th element, which LLVM vectorizes as interleaved byte loads and truncations, slow
/// from a strided view (A read from the thread's cached copy).
Value lhsWords(OpBuilder &b, Location loc, Value lhs, int64_t group, uint32_t xorMask) {
  auto type = cast<RankedTensorType>(lhs.getType());
  int64_t rows = type.getDimSize(0), kGroups = type.getDimSize(1) / group;
  int64_t lanes = kLanes;
  while (kGroups % lanes != 0)
    lanes /= 2;
  Type i32 = b.getI32Type();
  Type element = type.getElementType();
  auto operandVector = VectorType::get({lanes * group}, element);
  auto wordVector = VectorType::get({lanes}, i32);
  Value pad = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  Value flip = xorMask ? arith::ConstantOp::create(
                             b, loc, DenseElementsAttr::get(wordVector, b.getI32IntegerAttr(
                                                                            int32_t(xorMask))))
                           .getResult()
                       : Value();
  SmallVector<bool> inBounds = {true};
  Value init = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{rows, kGroups}, i32);
  Value c0 = index(b, loc, 0);
  auto rowLoop = scf::ForOp::create(
      b, loc, c0, index(b, loc, rows), index(b, loc, 1), ValueRange{init},
      [&](OpBuilder &b, Location loc, Value m, ValueRange rowIter) {
        auto chunkLoop = scf::ForOp::create(
            b, loc, c0, index(b, loc, kGroups), index(b, loc, lanes), rowIter,
            [&](OpBuilder &b, Location loc, Value kk, ValueRange chunkIter) {
              Value k = arith::MulIOp::create(b, loc, kk, index(b, loc, group));
              Value bytes = vector::TransferReadOp::create(b, loc, operandVector, lhs,
                                                           ValueRange{m, k}, pad, inBounds);
              Value words = vector::BitCastOp::create(b, loc, wordVector, bytes);
              if (flip)
                words = arith::XOrIOp::create(b, loc, words, flip);
              Value written = vector::TransferWriteOp::create(b, loc, words, chunkIter[0],
                                                              ValueRange{m, kk}, inBounds)
                                  .getResult();
              scf::YieldOp::create(b, loc, written);
            });
        scf::YieldOp::create(b, loc, chunkLoop.getResults());
      });
  return rowLoop.getResult(0);
}

/// One product's operands as the register blocks read them: A packed into words, B packed
/// into words (or the rows of the cached packed tile).
struct PackedProduct {
  Value packedLhs, packedRhs, packedRows;
  int64_t kGroups;
};

PackedProduct packProduct(OpBuilder &b, Location loc, linalg::MatmulOp op,
                          const DotProductKind &kind) {
  Value lhs = op.getDpsInputs()[0], rhs = op.getDpsInputs()[1];
  PackedProduct product;
  product.kGroups = cast<RankedTensorType>(lhs.getType()).getDimSize(1) / kind.group;
  product.packedLhs = lhsWords(b, loc, lhs, kind.group, kind.biasLhs ? 0x80808080u : 0u);
  Value packedTile = packedTileOf(rhs, kind.group);
  if (packedTile)
    product.packedRows = tensor::CollapseShapeOp::create(
        b, loc, packedTile, SmallVector<ReassociationIndices>{{0}, {1, 2}});
  else
    product.packedRhs = packAlongK(b, loc, rhs, kind.group, /*alongRows=*/false, 0);
  return product;
}

/// The vector of g K neighbours of B for the 16 columns from `column` at K group `kk`: one
/// operand of the instruction.
Value columnWords(OpBuilder &b, Location loc, const PackedProduct &product,
                  const DotProductKind &kind, Value kk, Value column) {
  Type element = kind.group == 2 ? Type(b.getBF16Type()) : Type(b.getIntegerType(8));
  auto operandVector = VectorType::get({kLanes * kind.group}, element);
  SmallVector<bool> inBounds = {true};
  if (product.packedRows) {
    Value at = arith::MulIOp::create(b, loc, column, index(b, loc, kind.group));
    Value pad = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
    return vector::TransferReadOp::create(b, loc, operandVector, product.packedRows,
                                          ValueRange{kk, at}, pad, inBounds);
  }
  Type i32 = b.getI32Type();
  Value pad = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  Value words = vector::TransferReadOp::create(b, loc, VectorType::get({kLanes}, i32),
                                               product.packedRhs, ValueRange{kk, column}, pad,
                                               inBounds);
  return vector::BitCastOp::create(b, loc, operandVector, words);
}

/// 128 * (the sum over every product's K of B[k, n]) for each column n, as int32: what
/// biasing A by 128 adds to the chain's sum. Each column's sum is a vpdpbusd of bytes 1 by
/// B's words, 16 columns a K group: one instruction where widening B's bytes took a dozen.
Value biasCorrection(OpBuilder &b, Location loc, ArrayRef<PackedProduct> products,
                     const DotProductKind &kind, int64_t columns) {
  Type i32 = b.getI32Type();
  auto wordVector = VectorType::get({kLanes}, i32);
  auto byteVector = VectorType::get({kLanes * kind.group}, b.getIntegerType(8));
  Value ones = vector::BitCastOp::create(
      b, loc, byteVector,
      arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(wordVector, b.getI32IntegerAttr(0x01010101))));
  Value zero = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(wordVector, b.getI32IntegerAttr(0)));
  Value seven = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(wordVector, b.getI32IntegerAttr(7)));
  StringAttr intrinsic = b.getStringAttr(kind.intrinsic);
  Value init = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{columns}, i32);
  Value c0 = index(b, loc, 0), c1 = index(b, loc, 1);
  auto columnLoop = scf::ForOp::create(
      b, loc, c0, index(b, loc, columns), index(b, loc, kLanes), ValueRange{init},
      [&](OpBuilder &b, Location loc, Value n, ValueRange iter) {
        Value sum = zero;
        for (const PackedProduct &product : products) {
          auto kLoop = scf::ForOp::create(
              b, loc, c0, index(b, loc, product.kGroups), c1, ValueRange{sum},
              [&](OpBuilder &b, Location loc, Value kk, ValueRange sums) {
                Value words = columnWords(b, loc, product, kind, kk, n);
                Value next = LLVM::CallIntrinsicOp::create(b, loc, wordVector, intrinsic,
                                                           ValueRange{sums[0], ones, words})
                                 .getResult(0);
                scf::YieldOp::create(b, loc, next);
              });
          sum = kLoop.getResult(0);
        }
        Value scaled = arith::ShLIOp::create(b, loc, sum, seven);
        Value written = vector::TransferWriteOp::create(b, loc, scaled, iter[0], ValueRange{n},
                                                        SmallVector<bool>{true})
                            .getResult();
        scf::YieldOp::create(b, loc, written);
      });
  return columnLoop.getResult(0);
}

/// The chain of matmuls (each accumulating into the previous one's result, the first into
/// `chain[0]`'s init) as loops over (mr x nr) blocks of C, each summed over every product's
/// K/g steps in registers between one load and one store of the block.
Value emitDotProductMatmuls(OpBuilder &b, ArrayRef<linalg::MatmulOp> chain,
                            const DotProductKind &kind, const MatmulShape &shape) {
  Location loc = chain.back()->getLoc();
  Value init = chain.front()->getOperand(2); // the first product's C
  SmallVector<PackedProduct> products;
  for (linalg::MatmulOp op : chain)
    products.push_back(packProduct(b, loc, op, kind));
  // One correction for the whole chain.
  Value correction = kind.biasLhs ? biasCorrection(b, loc, products, kind, shape.n) : Value();

  Type accElement = getElementTypeOrSelf(init.getType());
  Type i32 = b.getI32Type();
  auto accVector = VectorType::get({kLanes}, accElement);
  auto wordVector = VectorType::get({kLanes}, i32);
  Type operandElement = kind.group == 2 ? Type(b.getBF16Type()) : Type(b.getIntegerType(8));
  auto operandVector = VectorType::get({kLanes * kind.group}, operandElement);
  StringAttr intrinsic = b.getStringAttr(kind.intrinsic);
  int64_t columnVectors = shape.nr / kLanes;
  Value c0 = index(b, loc, 0);
  Value accPad = arith::ConstantOp::create(b, loc, b.getZeroAttr(accElement));
  SmallVector<bool> inBounds = {true};

  auto rowLoop = scf::ForOp::create(
      b, loc, c0, index(b, loc, shape.m), index(b, loc, shape.mr), ValueRange{init},
      [&](OpBuilder &b, Location loc, Value m, ValueRange rowIter) {
        auto colLoop = scf::ForOp::create(
            b, loc, c0, index(b, loc, shape.n), index(b, loc, shape.nr), rowIter,
            [&](OpBuilder &b, Location loc, Value n, ValueRange colIter) {
              Value block = colIter[0];
              auto rowAt = [&](int64_t i) {
                return arith::AddIOp::create(b, loc, m, index(b, loc, i)).getResult();
              };
              auto colAt = [&](int64_t j) {
                return arith::AddIOp::create(b, loc, n, index(b, loc, j * kLanes)).getResult();
              };
              SmallVector<Value> biases;
              for (int64_t j = 0; correction && j < columnVectors; ++j)
                biases.push_back(vector::TransferReadOp::create(
                    b, loc, accVector, correction, ValueRange{colAt(j)}, accPad, inBounds));
              SmallVector<Value> accs;
              for (int64_t i = 0; i < shape.mr; ++i)
                for (int64_t j = 0; j < columnVectors; ++j) {
                  Value acc = vector::TransferReadOp::create(b, loc, accVector, block,
                                                             ValueRange{rowAt(i), colAt(j)},
                                                             accPad, inBounds);
                  if (correction)
                    acc = arith::SubIOp::create(b, loc, acc, biases[j]);
                  accs.push_back(acc);
                }
              SmallVector<Value> sumsSoFar = accs;
              for (const PackedProduct &product : products) {
                auto kLoop = scf::ForOp::create(
                    b, loc, c0, index(b, loc, product.kGroups), index(b, loc, 1), sumsSoFar,
                    [&](OpBuilder &b, Location loc, Value kk, ValueRange sums) {
                      SmallVector<Value> columns;
                      for (int64_t j = 0; j < columnVectors; ++j)
                        columns.push_back(columnWords(b, loc, product, kind, kk, colAt(j)));
                      SmallVector<Value> next;
                      for (int64_t i = 0; i < shape.mr; ++i) {
                        Value word = tensor::ExtractOp::create(b, loc, product.packedLhs,
                                                               ValueRange{rowAt(i), kk});
                        Value splat = vector::BroadcastOp::create(b, loc, wordVector, word);
                        Value row = vector::BitCastOp::create(b, loc, operandVector, splat);
                        for (int64_t j = 0; j < columnVectors; ++j) {
                          Value sum = sums[i * columnVectors + j];
                          next.push_back(LLVM::CallIntrinsicOp::create(
                                             b, loc, accVector, intrinsic,
                                             ValueRange{sum, row, columns[j]})
                                             .getResult(0));
                        }
                      }
                      scf::YieldOp::create(b, loc, next);
                    });
                sumsSoFar.assign(kLoop.getResults().begin(), kLoop.getResults().end());
              }
              for (int64_t i = 0; i < shape.mr; ++i)
                for (int64_t j = 0; j < columnVectors; ++j)
                  block = vector::TransferWriteOp::create(b, loc,
                                                          sumsSoFar[i * columnVectors + j],
                                                          block, ValueRange{rowAt(i), colAt(j)},
                                                          inBounds)
                              .getResult();
              scf::YieldOp::create(b, loc, block);
            });
        scf::YieldOp::create(b, loc, colLoop.getResults());
      });
  return rowLoop.getResult(0);
}

struct DotProductMatmul {
  const DotProductKind *kind;
  MatmulShape shape;
};

/// `op` as the dot-product instructions compute it, or nothing.
std::optional<DotProductMatmul> dotProductMatmul(linalg::MatmulOp op, bool bf16, bool int8,
                                                 bool amxBF16, bool amxInt8) {
  if (isAMXMatmul(op, amxBF16, amxInt8))
    return std::nullopt; // AMX tiles take it after fusion
  const DotProductKind *kind = kindOf(op, bf16, int8);
  if (!kind)
    return std::nullopt;
  std::optional<MatmulShape> shape = shapeOf(op, *kind);
  if (!shape)
    return std::nullopt;
  return DotProductMatmul{kind, *shape};
}

struct MatmulsToDotProductInstructionsPass
    : impl::MatmulsToDotProductInstructionsBase<MatmulsToDotProductInstructionsPass> {
  using Base::Base;

  std::optional<DotProductMatmul> taken(linalg::MatmulOp op) {
    return dotProductMatmul(op, avx512BF16, avx512VNNI, amxBF16, amxInt8);
  }

  /// Unrolls the loops whose `acc = tl.dot(a, b, acc)` sums fewer K groups than its kind's
  /// round trip asks for, so that the unrolled iterations' products form one chain.
  void unrollShortKLoops() {
    llvm::MapVector<scf::ForOp, int64_t> factors;
    getOperation().walk([&](linalg::MatmulOp op) {
      std::optional<DotProductMatmul> matmul = taken(op);
      if (!matmul || !accumulatedIterArg(op))
        return;
      int64_t groups = matmul->shape.k / matmul->kind->group;
      int64_t target = matmul->kind->roundTripKGroups;
      if (groups >= target)
        return;
      auto loop = cast<scf::ForOp>(op->getParentOp());
      auto [it, inserted] = factors.try_emplace(loop, target / groups);
      it->second = std::min(it->second, target / groups);
    });
    // The chains form below, from the unrolled iterations' matmuls.
    unrollKLoops(getOperation(), factors, [](scf::ForOp, scf::ForOp) {});
  }

  void runOnOperation() override {
    if (!avx512BF16 && !avx512VNNI)
      return;
    unrollShortKLoops();
    SmallVector<linalg::MatmulOp> matmuls;
    getOperation().walk([&](linalg::MatmulOp op) { matmuls.push_back(op); });
    // Chains: each matmul accumulating into the previous one's result, which nothing else
    // reads. A chain is emitted from its last matmul, where it reads every product's operands:
    // no store may come in between (an operand tile read where it lies could change).
    auto previousInChain = [&](linalg::MatmulOp op, const DotProductMatmul &matmul) {
      auto previous = op.getDpsInits()[0].getDefiningOp<linalg::MatmulOp>();
      if (!previous || previous->getBlock() != op->getBlock() ||
          !previous->getResult(0).hasOneUse() ||
          tile_reads::writesGlobalMemoryBetween(previous, op))
        return linalg::MatmulOp();
      std::optional<DotProductMatmul> other = taken(previous);
      if (!other || other->kind != matmul.kind || other->shape.mr != matmul.shape.mr ||
          other->shape.nr != matmul.shape.nr)
        return linalg::MatmulOp();
      return previous;
    };
    llvm::DenseSet<Operation *> inChains;
    IRRewriter rewriter(&getContext());
    for (linalg::MatmulOp op : llvm::reverse(matmuls)) {
      if (inChains.contains(op))
        continue;
      std::optional<DotProductMatmul> matmul = taken(op);
      if (!matmul)
        continue;
      SmallVector<linalg::MatmulOp> chain = {op};
      while (linalg::MatmulOp previous = previousInChain(chain.back(), *matmul))
        chain.push_back(previous);
      std::reverse(chain.begin(), chain.end());
      for (linalg::MatmulOp member : chain)
        inChains.insert(member);
      rewriter.setInsertionPoint(op);
      Value result = emitDotProductMatmuls(rewriter, chain, *matmul->kind, matmul->shape);
      rewriter.replaceOp(op, result);
      for (linalg::MatmulOp member : llvm::reverse(ArrayRef(chain).drop_back()))
        rewriter.eraseOp(member);
    }
  }
};

} // namespace
} // namespace tritium::cpu
