//===- TileElementMaterializer.h - one element of a tile expression -------===//
//
// Loads and stores are emitted as loops over their tile. Inside the loop body, the
// address, mask and stored value of the current element are recomputed from the ops that
// built them (make_range, splat, broadcast, expand_dims, addptr, arith, math) instead of
// being read back from materialized tensors. Contiguous accesses then show up as affine
// address arithmetic that LLVM vectorizes, and any value the walk does not understand is
// simply read from its tensor: the walk never fails.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_LIB_CONVERSION_TRITONTOLINALG_TILEELEMENTMATERIALIZER_H
#define TRITIUM_LIB_CONVERSION_TRITONTOLINALG_TILEELEMENTMATERIALIZER_H

#include "tritium/Dialect/Triton/IR/Dialect.h"

#include "mlir/Transforms/DialectConversion.h"

#include <map>
#include <vector>

namespace tritium {

/// Attribute on a tile `tt.load` whose elements are read where they are used, inside the loops
/// of the stores that consume them, instead of into a buffer (see StreamLoadsIntoStores.cpp).
constexpr llvm::StringLiteral kReadAtUseAttr = "tritium.read_at_use";

/// Attribute on an elementwise op whose tile is the next value of a loop-carried tile (`acc =
/// tl.where(mask, acc + x, acc)` yielded by a loop) and reads a streamed load: a loop nest
/// computes its elements one by one, loading where they are used, into the new tile (see
/// StreamLoadsIntoStores.cpp).
constexpr llvm::StringLiteral kComputedPerElementAttr = "tritium.computed_per_element";

/// Attribute on the first of adjacent tile `tt.store`s of one shape that are written in one
/// loop (see StreamLoadsIntoStores.cpp): the number of stores in the group, itself included.
constexpr llvm::StringLiteral kStoreGroupAttr = "tritium.store_group";

/// The first tile store of a group (the one carrying kStoreGroupAttr) and the stores grouped
/// with it: the next ones, adjacent, of its shape; or `op` alone.
llvm::SmallVector<tt::StoreOp> storesWrittenInOneLoop(tt::StoreOp op);

/// The first store of the group `store` is written in (itself when it is in none).
tt::StoreOp firstStoreOfGroup(tt::StoreOp store);

/// Whether the elements of `op`'s result would be computed in more than one loop: the ops it
/// reaches through ops recomputed per element (and loads read where they are used) are more
/// than one group of stores, reduction or other op that reads tiles whole.
bool reachesSeveralLoops(mlir::Operation *op);

/// The identity element of a combiner region that is a single op of its two arguments (`a + b`,
/// `max(a, b)`, ...), or null (ReductionPatterns.cpp).
mlir::TypedAttr combinerIdentity(mlir::Region &combiner);

/// Math functions and divisions: many instructions per element, unlike index arithmetic. The
/// materializer reads such a tile from its tensor when something needs it whole.
bool isCostlyElementwise(mlir::Operation *op);

/// The loop-carried tile whose next value `op` computes (kComputedPerElementAttr): the
/// iter_arg of the scf.for whose yield takes `op`'s result, when every op through which that
/// iter_arg reaches `op` reads it elementwise, at the index it computes (so the tile can be
/// updated in place, each element read before it is written); null otherwise.
mlir::Value loopCarriedTileUpdatedBy(mlir::Operation *op);

/// Whether the materializer recomputes the elements of `op`'s result from the elements of its
/// tile operands at the same indices (broadcasts, expand_dims, addptr, pure elementwise
/// arith/math), rather than reading them back from a materialized tensor.
bool isRecomputedPerElement(mlir::Operation *op);

class TileElementMaterializer {
public:
  TileElementMaterializer(mlir::ConversionPatternRewriter &rewriter,
                          const mlir::TypeConverter &converter)
      : rewriter(rewriter), converter(converter) {}

  /// The element of the original (unconverted) value `tile` at `indices`, of the converted
  /// element type; scalars are returned as they are.
  mlir::Value elementAt(mlir::OpBuilder &b, mlir::Location loc, mlir::Value tile,
                        mlir::ValueRange indices);

  /// From now on, the remainder `op` (of a wrapped range, see WrappedRanges.h) is its
  /// dividend: the caller has established that the range does not wrap.
  void assumeUnwrapped(mlir::Operation *op) { unwrapped.insert(op); }

  /// From now on, elements of the original tile `tile` are read from the converted tensor
  /// `tensor` (a loop-carried tile being updated in place, whose element at an index is read
  /// before it is written).
  void readFrom(mlir::Value tile, mlir::Value tensor) { substitutes[tile] = tensor; }

private:
  mlir::Value compute(mlir::OpBuilder &b, mlir::Location loc, mlir::Value tile,
                      mlir::ValueRange indices);
  mlir::Value readFromTensor(mlir::OpBuilder &b, mlir::Location loc, mlir::Value tile,
                             mlir::ValueRange indices);

  mlir::ConversionPatternRewriter &rewriter;
  const mlir::TypeConverter &converter;
  std::map<std::pair<void *, std::vector<void *>>, mlir::Value> cache;
  llvm::SmallPtrSet<mlir::Operation *, 4> unwrapped;
  llvm::DenseMap<mlir::Value, mlir::Value> substitutes;
};

} // namespace tritium

#endif // TRITIUM_LIB_CONVERSION_TRITONTOLINALG_TILEELEMENTMATERIALIZER_H
