//===- ReadTilesInPlace.h - shared by read-tiles-in-place's parts -*- C++ -*-===//
//
// tritium-cpu-read-tiles-in-place (ReadTilesInPlace.cpp) finds the operand tiles a matmul or a
// transpose may read where they lie or from the thread's cached copy; the B tiles of matmuls
// AMX tiles compute are read packed for the tile loads (ReadTilesPackedForAMX.cpp), fp8 tiles of
// such matmuls decoded to bf16 (ReadFloat8TilesDecoded.cpp). All build
// on the view of a tile and the lookup of its cached copy declared here.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_TARGET_CPU_LIB_READTILESINPLACE_H
#define TRITIUM_TARGET_CPU_LIB_READTILESINPLACE_H

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace tritium::cpu::tile_reads {

using mlir::Value;

/// A tile buffer's fill found to be a fill of rows of one strided block (ReadTilesInPlace.cpp,
/// buildInPlaceRead): the condition, built before the fill, under which the whole tile is that
/// block, and the view of the block.
struct InPlaceRead {
  Value condition;
  Value view; // meaningful only under `condition`
  // The tile's columns are the view's rows (`base + i + j * stride`: a tile of a column-major
  // operand): the view is memref<KxMxT, strided<[?, 1]>>, to be transposed into the buffer.
  // Otherwise the view is the tile itself, memref<MxKxT, strided<[?, 1]>>.
  bool transposed;
  Value first;     // !llvm.ptr to the view's first element
  Value rowStride; // i64, elements between the view's rows
  Value compact;   // i1, the view's rows at most twice the tile's width apart (row-major only)
};

mlir::Value i64Constant(mlir::OpBuilder &b, mlir::Location loc, int64_t value);

/// A 2-D memref of `type` whose rows start `rowStride` (an i64) elements apart from `base`:
/// a memref descriptor, as the LLVM lowering of memrefs builds it.
mlir::Value memrefAt(mlir::OpBuilder &b, mlir::Location loc, mlir::Value base,
                     mlir::MemRefType type, mlir::Value rowStride);

/// The cache's runtime function `name` of `type`, declared in `module` once.
mlir::func::FuncOp declareCacheFunction(mlir::ModuleOp module, llvm::StringRef name,
                                        mlir::FunctionType type);

/// Erases what was built before `at` (in its block) since `before` (the op before it then;
/// null: the block's start): the checks of a read that turned out not to apply.
void eraseBuiltBetween(mlir::Operation *before, mlir::Operation *at);

/// Whether `op` calls the operand tile cache (a lookup, a note of written bytes): such calls
/// write only the cache's own state.
bool isCacheCall(mlir::Operation *op);

/// Whether `op` itself may write memory other than tile buffers: a call (but the cache's) or
/// an LLVM op with a write effect (a store, a masked store, an atomic) or none declared (a
/// fence, inline asm). Tile buffers are memrefs, written by memref and linalg ops; global
/// memory is reached through LLVM pointers only.
bool writesGlobalMemory(mlir::Operation *op);

/// Whether an op after `from` and before `to` (in one block), or one nested in it, may write
/// memory other than tile buffers: a consumer moved from `from` to `to` must not read an
/// operand tile where it lies after such a write.
bool writesGlobalMemoryBetween(mlir::Operation *from, mlir::Operation *to);

/// An address of a loop nest at the nest's four corners (row 0 or last, column 0 or last):
/// `base` plus `offsets` elements (i64, computed before the nest), valid where `fits` (an i1:
/// no narrower-than-i64 value of the computation leaves its type). A linear function takes
/// its extremes at the corners.
struct AddressAtCorners {
  Value base;
  llvm::SmallVector<Value, 4> offsets;
  Value fits;
};

/// `address` (GEPs of `element`-sized steps from a pointer defined outside `rows`, indices
/// linear in the induction variables of `rows` [0, rowCount) and `columns` [0, columnCount))
/// at the corners, built at the builder's point (before `rows`); none if it is not such an
/// address (some of what was built may be left, unused). `columns` may be `rows` with a
/// `columnCount` of 1 for a nest of one loop.
std::optional<AddressAtCorners> addressAtCorners(mlir::OpBuilder &b, mlir::Location loc,
                                                 Value address, mlir::Type element,
                                                 mlir::scf::ForOp rows, int64_t rowCount,
                                                 mlir::scf::ForOp columns, int64_t columnCount);

/// Notes, before the loop nest that holds `store` (or before `store` when it is in no loop),
/// the bytes the nest will write (OperandTileCache.h, kNoteWrittenRange): the nest of one or
/// two loops from 0 by 1 to constants, `store` its only global write, at an address linear
/// in the induction variables; its mask is ignored (it can only shrink the range). The whole
/// address space where an index computation may wrap. Returns the call, or null (nothing
/// built) when the store is not such a store.
mlir::Operation *noteWrittenRange(mlir::LLVM::StoreOp store);

/// A lookup of the thread's copy of a tile (OperandTileCache.h): whether it gave one, the
/// copy, and whether the copy is new (to be filled before it is read; valid where found).
struct CacheLookup {
  Value found, slot;
  Value fillFlag; // !llvm.ptr to the i32 the cache sets
};

/// Looks up, before `at`, the thread's copy of the `rows` x `columns` tile at `first` (rows
/// `rowStride` elements apart) in `layout` (OperandTileCache.h).
CacheLookup lookUpCachedTile(mlir::OpBuilder &b, mlir::Location loc, mlir::Operation *at,
                             mlir::Value first, mlir::Value rowStride, int64_t rows,
                             int64_t columns, int64_t elementBytes, int64_t layout);

/// Whether the copy a lookup gave is new (to be filled first).
mlir::Value isFresh(mlir::OpBuilder &b, mlir::Location loc, const CacheLookup &lookup);

/// Gives every lookup of `function` the window its lookups allow (OperandTileCache.h): a pass
/// that unrolls a loop holding lookups, so that a consumer reads the copies of several
/// iterations after all their lookups, calls it again.
void boundLookupWindows(mlir::FunctionOpInterface function);

/// g, the K neighbours a 32-bit lane of an AMX tile sums, when `consumer` is a matmul that
/// tritium-cpu-pack-matmuls-for-amx will give to AMX tiles; else 0.
int64_t amxPackGroup(mlir::Operation *consumer, bool bf16, bool int8);

/// g, the K neighbours of B's packed words, when `consumer` is a matmul whose B tiles are read
/// packed: one AMX tiles compute (with `amxBF16`, `amxInt8`), or else one vdpbf16ps or
/// vpdpbusd compute (DotProductMatmuls.h); else 0.
int64_t packGroupOfB(mlir::Operation *consumer, bool amxBF16, bool amxInt8, bool dotProductBF16,
                     bool dotProductInt8);

/// The same for `transpose` (a 2-D `linalg.transpose`, `tl.trans(k)`) whose only use is as B
/// of such a matmul (attention's q k^T); else 0.
int64_t packGroupOfTransposedB(mlir::Operation *transpose, bool amxBF16, bool amxInt8,
                               bool dotProductBF16, bool dotProductInt8);

/// Packs the B tile `source` [K, N] (a memref) into `packed` [K/g, N, g]: a transpose of its
/// [K/g, g, N] view (which LLVM does with vpermt2w).
void packTile(mlir::OpBuilder &b, mlir::Location loc, mlir::Value source, mlir::Value packed,
              int64_t group);
/// The cache's copy at `slot` (an !llvm.ptr) as the packed B tile `packedType` [K/g, N, g].
mlir::Value packedSlot(mlir::OpBuilder &b, mlir::Location loc, mlir::Value slot,
                       mlir::MemRefType packedType);
/// B [K, N] of an AMX matmul from the tensor `packed` [K/g, N, g]: a generic marked for
/// tritium-cpu-pack-matmuls-for-amx, which takes the packed tensor back.
mlir::Value unpackedAMXTile(mlir::OpBuilder &b, mlir::Location loc, mlir::Value packed,
                            int64_t group);
/// The B tile of an AMX matmul, read packed: the thread's copy packed once a launch where the
/// tile is a whole block and the cache gives one, else packed into a buffer of its own (from
/// the view, or from `buffer` after the fill). The matmul reads the packed tile unpacked by a
/// marked generic, which tritium-cpu-pack-matmuls-for-amx takes back. With a `transpose`
/// (`tl.trans` of the tile), B is the tile's transpose, which the generic replaces.
void readPackedForAMX(mlir::OpBuilder &b, mlir::Location loc, const InPlaceRead &read,
                      mlir::memref::AllocOp buffer, mlir::Operation *filler,
                      mlir::bufferization::ToTensorOp tile, int64_t group,
                      mlir::linalg::TransposeOp transpose);

/// An fp8 operand tile of an AMX matmul, widened to bf16 (`widening`, the operand): the
/// thread's copy decoded (for B, `group` > 0: decoded and packed) once a launch where the tile
/// is a whole block and `cacheable` (ReadFloat8TilesDecoded.cpp), else decoded from the view
/// or, after the fill, from `buffer` into a buffer of its own.
void readFloat8Decoded(mlir::OpBuilder &b, mlir::Location loc, const InPlaceRead &read,
                       mlir::memref::AllocOp buffer, mlir::Operation *filler,
                       mlir::bufferization::ToTensorOp tile, mlir::Operation *widening,
                       int64_t group, bool cacheable);
} // namespace tritium::cpu::tile_reads

#endif // TRITIUM_TARGET_CPU_LIB_READTILESINPLACE_H
