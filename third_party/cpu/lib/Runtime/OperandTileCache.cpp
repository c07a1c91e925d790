//===- OperandTileCache.cpp - each thread's copies of operand tiles -------===//
//
// The function of OperandTileCache.h. Each thread owns its cache: no lock, no sharing. Entries
// are found through an open-addressing index over their keys and replaced in clock order with
// a second chance (an entry found again since the hand last passed is skipped once: the A
// tiles a group of programs keeps reading outlive the B tiles that stream past), never one the
// running program may still read: it may load several tiles before the dots that read them,
// so its copies stay for the lookups the caller's window allows, or until it ends. An entry's
// buffer is reused by the entry that replaces it when of the same size, so a kernel launched
// again and again allocates nothing once its first launch has filled the cache; an entry of an
// earlier launch whose tile comes again is refilled in place. A tile is copied the second time
// it is looked up in a launch, not the first: a tile no other program reads (B when the grid
// has one row of programs) is read as it would be without the cache, not copied into memory no
// one reads again (16x4096x4096 with B transposed ran 20% slower when every tile was copied).
//
// A program's stores are noted before they happen (tritium_note_written_range): the copies of
// the launch whose tiles overlap the written bytes are dropped. The cache keeps the bounds of
// all tiles of the running launch, so a store elsewhere (C of a matmul, apart from A and B)
// costs two comparisons.
//
//===----------------------------------------------------------------------===//

#include "RunningProgram.h"
#include "tritium/Target/CPU/OperandTileCache.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace tritium::cpu {
namespace {

constexpr int64_t kDefaultCapacityBytes = int64_t(16) << 20;
constexpr size_t kAlignment = 64;

/// TRITIUM_TILE_CACHE_MB (0 disables the cache), else 16 MB a thread.
int64_t capacityBytes() {
  static const int64_t capacity = [] {
    if (const char *env = std::getenv("TRITIUM_TILE_CACHE_MB")) {
      char *end = nullptr;
      long long megabytes = std::strtoll(env, &end, 10);
      if (end != env && megabytes >= 0)
        return int64_t(megabytes) << 20;
    }
    return kDefaultCapacityBytes;
  }();
  return capacity;
}

struct TileKey {
  const void *first;
  int64_t rowStride, rows, columns, elementBytes, layout;

  bool operator==(const TileKey &other) const {
    return first == other.first && rowStride == other.rowStride && rows == other.rows &&
           columns == other.columns && elementBytes == other.elementBytes &&
           layout == other.layout;
  }
  /// Bytes the tile may span in memory: its rows of the view, from `first` `rowStride` elements
  /// apart, bounded by the larger of rows and columns either way (layouts that transpose and
  /// decoded fp8, whose copy's elements are wider than the tile's, are then covered too).
  std::pair<uintptr_t, uintptr_t> extent() const {
    int64_t side = std::max(rows, columns);
    int64_t reach = (side - 1) * rowStride * elementBytes;
    uintptr_t start = reinterpret_cast<uintptr_t>(first);
    return {start + std::min<int64_t>(reach, 0),
            start + std::max<int64_t>(reach, 0) + side * elementBytes};
  }
  uint64_t hash() const {
    uint64_t h = reinterpret_cast<uintptr_t>(first) * 0x9E3779B97F4A7C15ull;
    for (int64_t part : {rowStride, rows, columns, elementBytes, layout})
      h = (h ^ uint64_t(part)) * 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 31);
  }
};

struct Entry {
  TileKey key{};
  uint64_t launch = 0; // 0: holds nothing
  int64_t program = -1; // the last program of `launch` that looked it up
  uint64_t lookedUpAt = 0; // the thread's lookup count then
  bool foundAgain = false; // since the clock hand last passed, or new since then
  void *data = nullptr;
  int64_t bytes = 0; // of data
};

class ThreadTileCache {
public:
  ThreadTileCache() : seen(kSeenSlots) {}
  ~ThreadTileCache() {
    for (Entry &entry : entries)
      std::free(entry.data);
  }

  void *lookup(const TileKey &key, int64_t bytes, uint64_t launch, int64_t program,
               int64_t window, int32_t *fill) {
    ++lookups;
    if (int32_t found = find(key); found >= 0) {
      // The same tile in an earlier launch: its buffer has the size, the contents may be old.
      Entry &entry = entries[found];
      *fill = entry.launch != launch;
      entry.launch = launch;
      entry.program = program;
      entry.lookedUpAt = lookups;
      entry.foundAgain = true;
      widenLaunchExtent(key, launch);
      return entry.data;
    }
    if (!seenBefore(key, launch))
      return nullptr;
    int32_t slot = replaceable(bytes, launch, program, window);
    if (slot < 0)
      return nullptr;
    Entry &entry = entries[slot];
    if (!entry.data) { // a free entry: no buffer yet
      entry.data = std::aligned_alloc(kAlignment, (bytes + kAlignment - 1) / kAlignment * kAlignment);
      if (!entry.data) {
        freeEntries.push_back(slot);
        return nullptr;
      }
      entry.bytes = bytes;
      used += bytes;
    }
    entry.key = key;
    entry.launch = launch;
    entry.program = program;
    entry.lookedUpAt = lookups;
    entry.foundAgain = true; // a new tile gets its chance to be found again too
    remember(slot);
    widenLaunchExtent(key, launch);
    *fill = 1;
    return entry.data;
  }

  /// Drops the copies of `launch` whose tiles may overlap the bytes [first, end), which the
  /// running program is about to write. Their buffers stay, to be reused.
  void forgetWritten(uintptr_t first, uintptr_t end, uint64_t launch) {
    if (extentLaunch != launch || end <= extentFirst || first >= extentEnd)
      return;
    for (size_t slot = 0; slot < entries.size(); ++slot) {
      Entry &entry = entries[slot];
      if (entry.launch != launch)
        continue;
      auto [tileFirst, tileEnd] = entry.key.extent();
      if (end <= tileFirst || first >= tileEnd)
        continue;
      forget(int32_t(slot));
      entry.launch = 0;
      entry.foundAgain = false;
    }
  }

private:
  void widenLaunchExtent(const TileKey &key, uint64_t launch) {
    auto [first, end] = key.extent();
    if (extentLaunch != launch) {
      extentLaunch = launch;
      extentFirst = first;
      extentEnd = end;
      return;
    }
    extentFirst = std::min(extentFirst, first);
    extentEnd = std::max(extentEnd, end);
  }

  /// Whether the tile was looked up before in this launch (lately): a tile is copied only the
  /// second time, so that tiles read once (B in a matmul of one row of programs) cost no copy
  /// into memory nobody reads again. Remembers it if not.
  bool seenBefore(const TileKey &key, uint64_t launch) {
    uint64_t hash = key.hash();
    Seen &slot = seen[hash & (kSeenSlots - 1)];
    if (slot.hash == hash && slot.launch == launch)
      return true;
    slot = {hash, launch};
    return false;
  }

  // The index: slots of entry numbers (kEmpty, kErased or an entry), a power of two at least
  // twice the entries, probed linearly.
  static constexpr int32_t kEmpty = -1, kErased = -2;

  /// The entry holding `key`, of this launch or an earlier one; -1 if none.
  int32_t find(const TileKey &key) const {
    if (index.empty())
      return -1;
    size_t mask = index.size() - 1;
    for (size_t i = key.hash() & mask;; i = (i + 1) & mask) {
      int32_t slot = index[i];
      if (slot == kEmpty)
        return -1;
      if (slot >= 0 && entries[slot].key == key)
        return slot;
    }
  }

  /// Keeps the index at most half full (erased slots counted), so that probes end soon.
  void makeRoomInIndex() {
    if ((entries.size() + erased) * 2 > index.size())
      reindex(entries.size() * 4);
  }

  void remember(int32_t slot) {
    makeRoomInIndex();
    size_t mask = index.size() - 1;
    size_t i = entries[slot].key.hash() & mask;
    while (index[i] >= 0)
      i = (i + 1) & mask;
    if (index[i] == kErased)
      --erased;
    index[i] = slot;
  }

  void forget(int32_t slot) {
    size_t mask = index.size() - 1;
    for (size_t i = entries[slot].key.hash() & mask;; i = (i + 1) & mask) {
      if (index[i] == slot) {
        index[i] = kErased;
        ++erased;
        return;
      }
    }
  }

  void reindex(size_t size) {
    size_t capacity = 64;
    while (capacity < size)
      capacity *= 2;
    index.assign(capacity, kEmpty);
    erased = 0;
    size_t mask = capacity - 1;
    for (size_t slot = 0; slot < entries.size(); ++slot) {
      if (!entries[slot].launch)
        continue;
      size_t i = entries[slot].key.hash() & mask;
      while (index[i] != kEmpty)
        i = (i + 1) & mask;
      index[i] = int32_t(slot);
    }
  }

  /// An entry to hold a new tile of `bytes`: while the capacity allows another buffer, one
  /// without a buffer (new, or given back); else the next one in clock order that was not
  /// found again since the hand last passed and that the running program will not read again —
  /// whose buffer is reused if of the size, else given back until there is room. -1 if every
  /// entry is in use.
  int32_t replaceable(int64_t bytes, uint64_t launch, int64_t program, int64_t window) {
    for (size_t visited = 0;; ++visited) {
      if (used + bytes <= capacityBytes()) {
        if (!freeEntries.empty()) {
          int32_t slot = freeEntries.back();
          freeEntries.pop_back();
          return slot;
        }
        entries.emplace_back();
        makeRoomInIndex(); // before the entry is remembered
        return int32_t(entries.size() - 1);
      }
      if (visited >= 2 * entries.size())
        return -1;
      size_t slot = hand;
      hand = (hand + 1) % entries.size();
      Entry &entry = entries[slot];
      if (!entry.data)
        continue; // free already
      if (entry.launch == launch && entry.program == program &&
          (window == kWholeProgram || lookups - entry.lookedUpAt < uint64_t(window)))
        continue; // the program may still read it
      if (entry.foundAgain) {
        entry.foundAgain = false;
        continue;
      }
      if (entry.launch) {
        forget(int32_t(slot));
        entry.launch = 0;
      }
      // Only a buffer of the size is reused: larger ones would hold small tiles in room that
      // the capacity counts (after the six tile shapes of an autotuned matmul, a 2048^3 one
      // ran at 53 GFLOP/s instead of 73).
      if (entry.bytes == bytes)
        return int32_t(slot);
      std::free(entry.data);
      used -= entry.bytes;
      entry.data = nullptr;
      entry.bytes = 0;
      freeEntries.push_back(int32_t(slot));
    }
  }

  struct Seen {
    uint64_t hash = 0, launch = 0;
  };
  static constexpr size_t kSeenSlots = 4096;

  std::vector<Seen> seen; // by hash, direct-mapped: tiles looked up once
  std::vector<Entry> entries;
  std::vector<int32_t> freeEntries; // entries without a buffer
  std::vector<int32_t> index;
  size_t erased = 0;
  size_t hand = 0;
  int64_t used = 0; // bytes held by entries' buffers
  uint64_t lookups = 0; // made on this thread
  // Bytes the tiles of copies given in launch `extentLaunch` may span.
  uint64_t extentLaunch = 0;
  uintptr_t extentFirst = 0, extentEnd = 0;
};

thread_local ThreadTileCache cache;

} // namespace

extern "C" void *tritiumCachedOperandTile(const void *first, int64_t rowStride, int64_t rows,
                                         int64_t columns, int64_t elementBytes, int64_t layout,
                                         int64_t window, int32_t *fill) {
  const RunningProgram &running = runningProgram();
  uint64_t launch = running.launch;
  int64_t bytes = rows * columns * elementBytes;
  if (!launch || rows <= 0 || columns <= 0 || elementBytes <= 0 ||
      bytes > capacityBytes() / 4)
    return nullptr;
  return cache.lookup(TileKey{first, rowStride, rows, columns, elementBytes, layout}, bytes,
                      launch, running.program, window, fill);
}

extern "C" void tritiumNoteWrittenRange(uint64_t first, uint64_t end) {
  if (uint64_t launch = runningProgram().launch)
    cache.forgetWritten(uintptr_t(first), uintptr_t(end), launch);
}

} // namespace tritium::cpu
