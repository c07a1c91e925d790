//===- LinearBases.h - linear layouts as ttg encodings write them -*- C++ -*-===//
//
// Several ttg encodings (linear, shared_linear, padded_shared, amd_wmma and
// every CGA layout) describe a layout as a linear map given by its basis
// vectors: for each named input dimension (register, lane, warp, block,
// offset) a list of vectors over the output dimensions dim0..dim{rank-1}.
// This class keeps exactly what the text says, in the text's order, so that
// printing reproduces it; it is the storage of those attribute parameters.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_DIALECT_TRITONGPU_IR_LINEARBASES_H
#define TRITIUM_DIALECT_TRITONGPU_IR_LINEARBASES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace tritium::ttg {

class LinearBases {
public:
  /// One basis vector: the output coordinates reached from input index 2^i.
  using Basis = llvm::SmallVector<int32_t, 4>;

  /// A named input dimension and its bases, lowest bit first.
  struct InDim {
    std::string name;
    llvm::SmallVector<Basis> bases;

    friend bool operator==(const InDim &a, const InDim &b) {
      return a.name == b.name && a.bases == b.bases;
    }
    friend bool operator!=(const InDim &a, const InDim &b) { return !(a == b); }
  };

  LinearBases() = default;
  LinearBases(llvm::SmallVector<InDim> inDims, unsigned rank)
      : inDims(std::move(inDims)), rank(rank) {}

  /// The given input dimensions, all without bases, onto `rank` outputs.
  static LinearBases getEmpty(llvm::ArrayRef<llvm::StringRef> inDimNames, unsigned rank);

  /// The CGA layout of a kernel that runs on a single CTA: `block` without bases.
  static LinearBases getSingleCTA(unsigned rank) { return getEmpty({"block"}, rank); }

  unsigned getRank() const { return rank; }
  llvm::ArrayRef<InDim> getInDims() const { return inDims; }

  /// Whether the input dimensions are exactly `names`, in that order.
  bool hasInDimNames(llvm::ArrayRef<llvm::StringRef> names) const;

  /// The bases of input dimension `name`; empty when there is no such dimension.
  llvm::ArrayRef<Basis> getBases(llvm::StringRef name) const;

  /// Whether every input dimension is without bases.
  bool isTrivial() const;

  /// Per output dimension, the smallest power of two exceeding every basis
  /// coordinate: the extent of the tensor the layout covers.
  llvm::SmallVector<int64_t> getOutDimSizes() const;

  /// Prints `name = [[..], ..], ...` in input-dimension order. With
  /// `skipEmpty`, input dimensions without bases are left out.
  void print(llvm::raw_ostream &os, bool skipEmpty = false) const;

  friend bool operator==(const LinearBases &a, const LinearBases &b) {
    return a.rank == b.rank && a.inDims == b.inDims;
  }
  friend bool operator!=(const LinearBases &a, const LinearBases &b) { return !(a == b); }

private:
  llvm::SmallVector<InDim> inDims;
  unsigned rank = 0;
};

/// Needed by the attribute storage uniquer.
llvm::hash_code hash_value(const LinearBases &bases);

} // namespace tritium::ttg

#endif // TRITIUM_DIALECT_TRITONGPU_IR_LINEARBASES_H
