//===- OperandTileCache.h - operand tiles copied once a launch --*- C++ -*-===//
//
// The programs of a blocked matmul read the same operand tiles again and again: the A tile of
// rows m at step k is read by every program of row m, the B tile by every program of column n.
// Read where it lies, a tile whose rows are a whole matrix row apart costs a TLB miss a row and
// aliases in L1; copied at every K step, the copy costs as much as it saves. So a thread keeps
// the tiles it has copied during a launch, contiguous, and the next program on that thread that
// reads the same tile (same address, row stride, shape, element size and layout) reads the copy.
//
// Tiles are kept only for the length of one launch (programs of a launch are unordered, so a
// program may read what another program of the launch read earlier; a later launch may follow
// writes), and only kernels that use no atomics take this path. A program must read what it
// wrote itself: a kernel that stores before a tile read (a persistent matmul stores each C
// tile inside its loop over tiles) notes the range of each store first, which drops the
// thread's copies it overlaps; a store whose range read-tiles-in-place cannot bound keeps the
// tile reads after it away from the cache.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_TARGET_CPU_OPERANDTILECACHE_H
#define TRITIUM_TARGET_CPU_OPERANDTILECACHE_H

#include <cstdint>

namespace tritium::cpu {

/// ptr (ptr first, i64 rowStride, i64 rows, i64 columns, i64 elementBytes, i64 layout,
///      i64 window, ptr fill)
///
/// The calling thread's contiguous copy of the tile of `rows` x `columns` elements of
/// `elementBytes` bytes whose row r starts at `first + r * rowStride` elements, as `layout`
/// (0: as it lies, 1: transposed, 2 and 3: packed for AMX, 16 and above: decoded from fp8;
/// below) in rows of the copy;
/// 64-byte aligned. `*fill` (an i32) is set
/// to 1 when the copy is new and the caller must write it before reading, else to 0. Null the
/// first time the thread looks the tile up in a launch (a tile read once is not worth a copy),
/// when the tile is too large and when the cache is disabled (`TRITIUM_TILE_CACHE_MB=0`): the
/// caller then reads the tile as it would without a cache. A copy stays valid while the program
/// that looked it up makes fewer than `window` more lookups, or until it ends when `window` is
/// kWholeProgram, and until the program notes a write that may overlap the tile.
inline constexpr const char *kCachedOperandTile = "tritium_cached_operand_tile";

/// The `window` of a lookup whose copy may be read after any number of further lookups.
/// read-tiles-in-place bounds the window where a kernel's lookups allow (a persistent matmul
/// looks up thousands of tiles in one program: kept all, they filled the cache, and each
/// further lookup scanned it to find nothing to replace).
inline constexpr int64_t kWholeProgram = 0;

/// void (i64 first, i64 end)
///
/// The calling program is about to write bytes in [first, end) (addresses): the thread's copies
/// of this launch whose tiles may overlap them are dropped, so that a later lookup copies the
/// tile again, after the write.
inline constexpr const char *kNoteWrittenRange = "tritium_note_written_range";

/// The layouts of a copy (the caller fills it; the cache only keeps them apart).
inline constexpr int64_t kTileAsItLies = 0;
inline constexpr int64_t kTileTransposed = 1;
/// A B tile [K, N] of an AMX matmul as the tile loads read it: [K/g, N, g], the g = 4 /
/// elementBytes K neighbours of each column together (tritium-cpu-pack-matmuls-for-amx).
inline constexpr int64_t kTilePackedForAMX = 2;
/// The same for a B that is the tile's transpose (attention's `tl.trans(k)`): the tile
/// [N, K] as [K/g, N, g].
inline constexpr int64_t kTileTransposedPackedForAMX = 3;

/// A tile of fp8 values decoded to bf16 for AMX tiles (tritium-cpu-float8-matmuls-as-bf16):
/// kTileDecodedFromFloat8 + 2 * the format's number (float8FormatNumber) as it lies, + 1 more
/// packed as layout 2 packs B. The copy's elements are bf16 (elementBytes 2).
inline constexpr int64_t kTileDecodedFromFloat8 = 16;

/// Tiles smaller than this are read as they lie: the lookup would cost more than it saves.
inline constexpr int64_t kMinCachedTileBytes = 4096;

} // namespace tritium::cpu

#endif // TRITIUM_TARGET_CPU_OPERANDTILECACHE_H
