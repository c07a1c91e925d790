//===- Attrs.cpp - layout encodings of tritium's `ttg` dialect ------------===//
//
// The handwritten syntax of the encodings. Triton writes most of them as a
// dictionary between `<` and `>`; parsing goes through MLIR's dictionary
// attribute, so keys may appear in any order, and printing writes triton's
// fixed order, leaving out fields that hold their default. Verifiers check
// what the text itself must satisfy (ranks agree, orders are permutations,
// powers of two where the hardware needs them), not whether a backend can
// lower the layout.
//
//===----------------------------------------------------------------------===//

#include "tritium/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace tritium::ttg;

#define GET_ATTRDEF_CLASSES
#include "tritium/Dialect/TritonGPU/IR/Attrs.cpp.inc"

void TTGDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tritium/Dialect/TritonGPU/IR/Attrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// LinearBases
//===----------------------------------------------------------------------===//

namespace tritium::ttg {

LinearBases LinearBases::getEmpty(llvm::ArrayRef<llvm::StringRef> inDimNames, unsigned rank) {
  llvm::SmallVector<InDim> dims;
  for (llvm::StringRef name : inDimNames)
    dims.push_back(InDim{name.str(), {}});
  return LinearBases(std::move(dims), rank);
}

bool LinearBases::hasInDimNames(llvm::ArrayRef<llvm::StringRef> names) const {
  if (names.size() != inDims.size())
    return false;
  for (auto [dim, name] : llvm::zip(inDims, names))
    if (dim.name != name)
      return false;
  return true;
}

llvm::ArrayRef<LinearBases::Basis> LinearBases::getBases(llvm::StringRef name) const {
  for (const InDim &dim : inDims)
    if (dim.name == name)
      return dim.bases;
  return {};
}

bool LinearBases::isTrivial() const {
  return llvm::all_of(inDims, [](const InDim &dim) { return dim.bases.empty(); });
}

llvm::SmallVector<int64_t> LinearBases::getOutDimSizes() const {
  llvm::SmallVector<int64_t> sizes(rank, 1);
  for (const InDim &dim : inDims)
    for (const Basis &basis : dim.bases)
      for (auto [d, value] : llvm::enumerate(basis))
        if (d < rank && value > 0)
          sizes[d] = std::max<int64_t>(sizes[d], llvm::NextPowerOf2(value));
  return sizes;
}

void LinearBases::print(llvm::raw_ostream &os, bool skipEmpty) const {
  bool first = true;
  for (const InDim &dim : inDims) {
    if (skipEmpty && dim.bases.empty())
      continue;
    if (!first)
      os << ", ";
    first = false;
    os << dim.name << " = [";
    llvm::interleaveComma(dim.bases, os, [&](const Basis &basis) {
      os << "[";
      llvm::interleaveComma(basis, os);
      os << "]";
    });
    os << "]";
  }
}

llvm::hash_code hash_value(const LinearBases &bases) {
  llvm::hash_code hash = llvm::hash_value(bases.getRank());
  for (const LinearBases::InDim &dim : bases.getInDims()) {
    hash = llvm::hash_combine(hash, dim.name, dim.bases.size());
    for (const LinearBases::Basis &basis : dim.bases)
      hash = llvm::hash_combine(hash, llvm::hash_combine_range(basis.begin(), basis.end()));
  }
  return hash;
}

unsigned getEncodingRank(Attribute encoding) {
  if (auto layout = dyn_cast_or_null<LayoutEncodingTrait>(encoding))
    return layout.getRank();
  return 0;
}

} // namespace tritium::ttg

//===----------------------------------------------------------------------===//
// Parsing helpers
//===----------------------------------------------------------------------===//

namespace {

using Basis = LinearBases::Basis;

/// Reads the values of an encoding's `<{...}>` dictionary. Errors point at
/// the dictionary, since the entries themselves carry no locations.
class EncodingParser {
public:
  explicit EncodingParser(AsmParser &parser) : parser(parser), loc(parser.getCurrentLocation()) {}

  InFlightDiagnostic emitError() { return parser.emitError(loc); }

  /// `<{...}>`, or null after reporting an error.
  DictionaryAttr parseAngleDict() {
    DictionaryAttr dict;
    if (parser.parseLess())
      return {};
    loc = parser.getCurrentLocation();
    if (parser.parseAttribute(dict) || parser.parseGreater())
      return {};
    return dict;
  }

  ParseResult getUnsigned(NamedAttribute entry, unsigned &result) {
    auto intAttr = dyn_cast<IntegerAttr>(entry.getValue());
    if (!intAttr)
      return emitError() << "expected an integer for '" << entry.getName().getValue() << "'";
    const APInt &value = intAttr.getValue();
    bool isUnsigned = intAttr.getType().isUnsignedInteger();
    if ((!isUnsigned && value.isNegative()) || value.getActiveBits() > 32)
      return emitError() << "expected an unsigned 32-bit value for '"
                         << entry.getName().getValue() << "'";
    result = static_cast<unsigned>(value.getZExtValue());
    return success();
  }

  ParseResult getBool(NamedAttribute entry, bool &result) {
    auto boolAttr = dyn_cast<BoolAttr>(entry.getValue());
    if (!boolAttr)
      return emitError() << "expected true or false for '" << entry.getName().getValue() << "'";
    result = boolAttr.getValue();
    return success();
  }

  ParseResult getUnsignedArray(NamedAttribute entry, SmallVectorImpl<unsigned> &result) {
    auto array = dyn_cast<ArrayAttr>(entry.getValue());
    if (!array)
      return emitError() << "expected an array of integers for '" << entry.getName().getValue()
                         << "'";
    result.clear();
    for (Attribute element : array) {
      unsigned value;
      if (getUnsigned(NamedAttribute(entry.getName(), element), value))
        return failure();
      result.push_back(value);
    }
    return success();
  }

  /// An array of bases, each an array of integers; `rank` is set from the
  /// first basis when it is still 0 and checked against every later one.
  ParseResult getBases(StringRef name, Attribute value, unsigned &rank,
                       SmallVectorImpl<Basis> &result) {
    auto array = dyn_cast<ArrayAttr>(value);
    if (!array)
      return emitError() << "expected an array of bases for '" << name << "'";
    for (Attribute basisAttr : array) {
      auto basisArray = dyn_cast<ArrayAttr>(basisAttr);
      if (!basisArray)
        return emitError() << "expected each basis of '" << name << "' to be an array of integers";
      Basis basis;
      for (Attribute element : basisArray) {
        auto intAttr = dyn_cast<IntegerAttr>(element);
        if (!intAttr || intAttr.getValue().getSignificantBits() > 32)
          return emitError() << "expected 32-bit integers in the bases of '" << name << "'";
        basis.push_back(static_cast<int32_t>(intAttr.getValue().getSExtValue()));
      }
      if (rank == 0)
        rank = basis.size();
      if (basis.size() != rank)
        return emitError() << "basis of '" << name << "' has " << basis.size()
                           << " entries but the layout has rank " << rank;
      result.push_back(std::move(basis));
    }
    return success();
  }

  /// The linear layout with input dimensions `names` (in that order) read from
  /// `dict`. Names in `optional` may be missing and are then without bases.
  /// `rank` may be 0 (deduce from the bases) or a rank the bases must match.
  ParseResult getLinearBases(DictionaryAttr dict, ArrayRef<StringRef> names,
                             ArrayRef<StringRef> optional, unsigned rank, LinearBases &result) {
    for (NamedAttribute entry : dict)
      if (!llvm::is_contained(names, entry.getName().getValue()))
        return emitError() << "unexpected key: " << entry.getName().getValue();
    SmallVector<LinearBases::InDim> inDims;
    for (StringRef name : names) {
      LinearBases::InDim dim{name.str(), {}};
      if (Attribute value = dict.get(name)) {
        if (getBases(name, value, rank, dim.bases))
          return failure();
      } else if (!llvm::is_contained(optional, name)) {
        return emitError() << "expected bases for '" << name << "'";
      }
      inDims.push_back(std::move(dim));
    }
    if (rank == 0)
      return emitError() << "cannot tell the rank of a layout without bases";
    result = LinearBases(std::move(inDims), rank);
    return success();
  }

  /// `CGALayout = [[...], ...]`, or a single CTA when `value` is null.
  ParseResult getCGALayout(Attribute value, unsigned rank, LinearBases &result) {
    if (!value) {
      result = LinearBases::getSingleCTA(rank);
      return success();
    }
    // Each entry must have one coordinate per tensor dimension.
    LinearBases::InDim block{"block", {}};
    if (getBases("CGALayout", value, rank, block.bases))
      return failure();
    SmallVector<LinearBases::InDim> inDims;
    inDims.push_back(std::move(block));
    result = LinearBases(std::move(inDims), rank);
    return success();
  }

  ParseResult unexpectedKey(NamedAttribute entry) {
    return emitError() << "unexpected key: " << entry.getName().getValue();
  }

  AsmParser &parser;
  SMLoc loc;
};

//===----------------------------------------------------------------------===//
// Printing and verification helpers
//===----------------------------------------------------------------------===//

void printList(raw_ostream &os, ArrayRef<unsigned> values) {
  os << "[";
  llvm::interleaveComma(values, os);
  os << "]";
}

/// `, CGALayout = [[..], ..]` unless the kernel runs on a single CTA.
void printCGALayout(raw_ostream &os, const LinearBases &cga) {
  if (cga.isTrivial())
    return;
  os << ", CGALayout = [";
  llvm::interleaveComma(cga.getBases("block"), os, [&](const Basis &basis) {
    os << "[";
    llvm::interleaveComma(basis, os);
    os << "]";
  });
  os << "]";
}

bool isPermutation(ArrayRef<unsigned> order) {
  SmallVector<bool> seen(order.size(), false);
  for (unsigned dim : order) {
    if (dim >= order.size() || seen[dim])
      return false;
    seen[dim] = true;
  }
  return true;
}

LogicalResult verifyOrder(function_ref<InFlightDiagnostic()> emitError, ArrayRef<unsigned> order) {
  if (!isPermutation(order)) {
    auto diag = emitError() << "order must be a permutation of 0..rank-1, got [";
    llvm::interleaveComma(order, diag);
    return diag << "]";
  }
  return success();
}

LogicalResult verifyCGALayout(function_ref<InFlightDiagnostic()> emitError,
                              const LinearBases &cga, unsigned rank) {
  if (!cga.hasInDimNames({"block"}))
    return emitError() << "CGALayout must have the single input dimension 'block'";
  if (cga.getRank() != rank)
    return emitError() << "CGALayout has rank " << cga.getRank() << " but the layout has rank "
                       << rank;
  return success();
}

LogicalResult verifyPowersOfTwo(function_ref<InFlightDiagnostic()> emitError, StringRef what,
                                ArrayRef<unsigned> values) {
  if (!llvm::all_of(values, [](unsigned v) { return llvm::isPowerOf2_32(v); }))
    return emitError() << "every element of " << what << " must be a power of two";
  return success();
}

unsigned countNonZero(const Basis &basis) {
  return llvm::count_if(basis, [](int32_t v) { return v != 0; });
}

/// Checks the structure every linear layout shares: input dimensions named
/// `names` in that order and bases of the layout's rank.
LogicalResult verifyLinearShape(function_ref<InFlightDiagnostic()> emitError,
                                const LinearBases &layout, ArrayRef<StringRef> names) {
  if (!layout.hasInDimNames(names)) {
    auto diag = emitError() << "linear layout input dimensions must be [";
    llvm::interleaveComma(names, diag);
    return diag << "]";
  }
  if (layout.getRank() == 0)
    return emitError() << "linear layout must have at least one output dimension";
  for (const LinearBases::InDim &dim : layout.getInDims())
    for (const Basis &basis : dim.bases)
      if (basis.size() != layout.getRank())
        return emitError() << "every basis of '" << dim.name << "' must have "
                           << layout.getRank() << " entries";
  return success();
}

/// Apart from all-zero (broadcast) bases, every basis must move along exactly
/// one dimension by a power of two, and along each dimension those steps must
/// be 1, 2, 4, ... without repetition: the layout is then a bijection onto
/// the tensor it covers.
LogicalResult verifyPermutationBases(function_ref<InFlightDiagnostic()> emitError,
                                     const LinearBases &layout) {
  SmallVector<SmallVector<int64_t>> steps(layout.getRank());
  for (const LinearBases::InDim &dim : layout.getInDims()) {
    for (const Basis &basis : dim.bases) {
      unsigned nonZero = countNonZero(basis);
      if (nonZero == 0)
        continue;
      auto it = llvm::find_if(basis, [](int32_t v) { return v != 0; });
      if (nonZero != 1 || *it < 0 || !llvm::isPowerOf2_32(*it))
        return emitError() << "bases of '" << dim.name
                           << "' must each move along one dimension by a power of two";
      steps[it - basis.begin()].push_back(*it);
    }
  }
  for (unsigned d = 0; d < steps.size(); ++d) {
    SmallVector<int64_t> &values = steps[d];
    llvm::sort(values);
    for (unsigned i = 0; i < values.size(); ++i)
      if (values[i] != (int64_t(1) << i))
        return emitError() << "the bases along dim" << d
                           << " do not form a bijection (after removing broadcast bases)";
  }
  return success();
}

/// The offset bases of the identity layout of `shape` with `order`: the
/// fastest dimension first, each dimension's powers of two in turn.
SmallVector<Basis> identityOffsetBases(ArrayRef<int64_t> shape, ArrayRef<unsigned> order) {
  SmallVector<Basis> bases;
  for (unsigned dim : order) {
    for (int64_t step = 1; step < shape[dim]; step *= 2) {
      Basis basis(shape.size(), 0);
      basis[dim] = static_cast<int32_t>(step);
      bases.push_back(std::move(basis));
    }
  }
  return bases;
}

/// The order of dimensions in which `bases` first move, completed by the
/// remaining dimensions from the highest to the lowest.
SmallVector<unsigned> orderOfBases(ArrayRef<Basis> bases, unsigned rank) {
  SmallVector<unsigned> order;
  for (const Basis &basis : bases) {
    auto it = llvm::find_if(basis, [](int32_t v) { return v != 0; });
    if (it == basis.end())
      continue;
    unsigned dim = it - basis.begin();
    if (!llvm::is_contained(order, dim))
      order.push_back(dim);
  }
  for (unsigned dim = rank; dim-- > 0;)
    if (!llvm::is_contained(order, dim))
      order.push_back(dim);
  return order;
}

} // namespace

//===----------------------------------------------------------------------===//
// blocked
//===----------------------------------------------------------------------===//

Attribute BlockedEncodingAttr::parse(AsmParser &parser, Type) {
  EncodingParser p(parser);
  DictionaryAttr dict = p.parseAngleDict();
  if (!dict)
    return {};
  SmallVector<unsigned> sizePerThread, threadsPerWarp, warpsPerCTA, order;
  Attribute cga;
  for (NamedAttribute entry : dict) {
    StringRef key = entry.getName().getValue();
    ParseResult result = success();
    if (key == "sizePerThread")
      result = p.getUnsignedArray(entry, sizePerThread);
    else if (key == "threadsPerWarp")
      result = p.getUnsignedArray(entry, threadsPerWarp);
    else if (key == "warpsPerCTA")
      result = p.getUnsignedArray(entry, warpsPerCTA);
    else if (key == "order")
      result = p.getUnsignedArray(entry, order);
    else if (key == "CGALayout")
      cga = entry.getValue();
    else
      result = p.unexpectedKey(entry);
    if (failed(result))
      return {};
  }
  LinearBases cgaLayout;
  if (p.getCGALayout(cga, sizePerThread.size(), cgaLayout))
    return {};
  return parser.getChecked<BlockedEncodingAttr>(parser.getContext(), sizePerThread,
                                                threadsPerWarp, warpsPerCTA, order, cgaLayout);
}

void BlockedEncodingAttr::print(AsmPrinter &printer) const {
  raw_ostream &os = printer.getStream();
  os << "<{sizePerThread = ";
  printList(os, getSizePerThread());
  os << ", threadsPerWarp = ";
  printList(os, getThreadsPerWarp());
  os << ", warpsPerCTA = ";
  printList(os, getWarpsPerCTA());
  os << ", order = ";
  printList(os, getOrder());
  printCGALayout(os, getCGALayout());
  os << "}>";
}

LogicalResult BlockedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                          ArrayRef<unsigned> sizePerThread,
                                          ArrayRef<unsigned> threadsPerWarp,
                                          ArrayRef<unsigned> warpsPerCTA,
                                          ArrayRef<unsigned> order, LinearBases CGALayout) {
  size_t rank = order.size();
  if (sizePerThread.size() != rank || threadsPerWarp.size() != rank || warpsPerCTA.size() != rank)
    return emitError() << "sizePerThread, threadsPerWarp, warpsPerCTA and order must have the "
                          "same rank";
  if (failed(verifyPowersOfTwo(emitError, "sizePerThread", sizePerThread)) ||
      failed(verifyPowersOfTwo(emitError, "threadsPerWarp", threadsPerWarp)) ||
      failed(verifyPowersOfTwo(emitError, "warpsPerCTA", warpsPerCTA)) ||
      failed(verifyOrder(emitError, order)))
    return failure();
  return verifyCGALayout(emitError, CGALayout, rank);
}

unsigned BlockedEncodingAttr::getRank() const { return getOrder().size(); }

//===----------------------------------------------------------------------===//
// linear, generic_linear
//===----------------------------------------------------------------------===//

static const StringRef kDistributedInDims[] = {"register", "lane", "warp", "block"};

/// `<{register = [..], lane = [..], warp = [..], block = [..]}>`
static LinearBases parseDistributedLinear(AsmParser &parser, bool &failedToParse) {
  EncodingParser p(parser);
  LinearBases layout;
  DictionaryAttr dict = p.parseAngleDict();
  failedToParse = !dict || failed(p.getLinearBases(dict, kDistributedInDims, {}, 0, layout));
  return layout;
}

Attribute LinearEncodingAttr::parse(AsmParser &parser, Type) {
  bool failedToParse;
  LinearBases layout = parseDistributedLinear(parser, failedToParse);
  if (failedToParse)
    return {};
  return parser.getChecked<LinearEncodingAttr>(parser.getContext(), layout);
}

void LinearEncodingAttr::print(AsmPrinter &printer) const {
  raw_ostream &os = printer.getStream();
  os << "<{";
  getLinearLayout().print(os);
  os << "}>";
}

LogicalResult LinearEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                         LinearBases linearLayout) {
  if (failed(verifyLinearShape(emitError, linearLayout, kDistributedInDims)))
    return failure();
  return verifyPermutationBases(emitError, linearLayout);
}

unsigned LinearEncodingAttr::getRank() const { return getLinearLayout().getRank(); }

Attribute GenericLinearEncodingAttr::parse(AsmParser &parser, Type) {
  bool failedToParse;
  LinearBases layout = parseDistributedLinear(parser, failedToParse);
  if (failedToParse)
    return {};
  return parser.getChecked<GenericLinearEncodingAttr>(parser.getContext(), layout);
}

void GenericLinearEncodingAttr::print(AsmPrinter &printer) const {
  raw_ostream &os = printer.getStream();
  os << "<{";
  getLinearLayout().print(os);
  os << "}>";
}

LogicalResult GenericLinearEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                                LinearBases linearLayout) {
  if (failed(verifyLinearShape(emitError, linearLayout, kDistributedInDims)))
    return failure();
  // Only warps may be swizzled; registers, lanes and CTAs move along one
  // dimension at a time.
  for (StringRef name : {"register", "lane", "block"})
    for (const Basis &basis : linearLayout.getBases(name))
      if (countNonZero(basis) > 1)
        return emitError() << "bases of '" << name << "' must move along at most one dimension";
  return success();
}

unsigned GenericLinearEncodingAttr::getRank() const { return getLinearLayout().getRank(); }

//===----------------------------------------------------------------------===//
// slice, dot_op
//===----------------------------------------------------------------------===//

Attribute SliceEncodingAttr::parse(AsmParser &parser, Type) {
  EncodingParser p(parser);
  DictionaryAttr dict = p.parseAngleDict();
  if (!dict)
    return {};
  unsigned dim = 0;
  bool hasDim = false;
  Attribute parent;
  for (NamedAttribute entry : dict) {
    StringRef key = entry.getName().getValue();
    if (key == "dim") {
      if (p.getUnsigned(entry, dim))
        return {};
      hasDim = true;
    } else if (key == "parent") {
      parent = entry.getValue();
    } else {
      (void)p.unexpectedKey(entry);
      return {};
    }
  }
  if (!hasDim || !parent) {
    (void)(p.emitError() << "expected both 'dim' and 'parent'");
    return {};
  }
  return parser.getChecked<SliceEncodingAttr>(parser.getContext(), dim, parent);
}

void SliceEncodingAttr::print(AsmPrinter &printer) const {
  printer.getStream() << "<{dim = " << getDim() << ", parent = ";
  printer.printAttribute(getParent());
  printer.getStream() << "}>";
}

LogicalResult SliceEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                        unsigned dim, Attribute parent) {
  if (!isa_and_nonnull<DistributedEncodingTrait>(parent))
    return emitError() << "parent of a slice must be a distributed encoding";
  unsigned rank = getEncodingRank(parent);
  if (rank < 2)
    return emitError() << "parent layout must have rank >= 2";
  if (dim >= rank)
    return emitError() << "slice dim=" << dim << " must be less than the parent rank=" << rank;
  return success();
}

unsigned SliceEncodingAttr::getRank() const { return getEncodingRank(getParent()) - 1; }

LogicalResult DotOperandEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                             unsigned opIdx, Attribute parent, unsigned kWidth) {
  if (opIdx > 1)
    return emitError() << "opIdx must be 0 (operand a) or 1 (operand b)";
  if (!isa_and_nonnull<DistributedEncodingTrait>(parent))
    return emitError() << "parent of a dot operand must be a distributed encoding";
  return success();
}

unsigned DotOperandEncodingAttr::getRank() const { return getEncodingRank(getParent()); }

//===----------------------------------------------------------------------===//
// nvidia_mma
//===----------------------------------------------------------------------===//

Attribute NvidiaMmaEncodingAttr::parse(AsmParser &parser, Type) {
  EncodingParser p(parser);
  DictionaryAttr dict = p.parseAngleDict();
  if (!dict)
    return {};
  unsigned versionMajor = 0, versionMinor = 0;
  SmallVector<unsigned> warpsPerCTA, instrShape;
  Attribute cga;
  for (NamedAttribute entry : dict) {
    StringRef key = entry.getName().getValue();
    ParseResult result = success();
    if (key == "versionMajor")
      result = p.getUnsigned(entry, versionMajor);
    else if (key == "versionMinor")
      result = p.getUnsigned(entry, versionMinor);
    else if (key == "warpsPerCTA")
      result = p.getUnsignedArray(entry, warpsPerCTA);
    else if (key == "instrShape")
      result = p.getUnsignedArray(entry, instrShape);
    else if (key == "CGALayout")
      cga = entry.getValue();
    else
      result = p.unexpectedKey(entry);
    if (failed(result))
      return {};
  }
  LinearBases cgaLayout;
  if (p.getCGALayout(cga, warpsPerCTA.size(), cgaLayout))
    return {};
  return parser.getChecked<NvidiaMmaEncodingAttr>(parser.getContext(), versionMajor,
                                                  versionMinor, warpsPerCTA, cgaLayout,
                                                  instrShape);
}

void NvidiaMmaEncodingAttr::print(AsmPrinter &printer) const {
  raw_ostream &os = printer.getStream();
  os << "<{versionMajor = " << getVersionMajor() << ", versionMinor = " << getVersionMinor()
     << ", warpsPerCTA = ";
  printList(os, getWarpsPerCTA());
  printCGALayout(os, getCGALayout());
  os << ", instrShape = ";
  printList(os, getInstrShape());
  os << "}>";
}

LogicalResult NvidiaMmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                            unsigned versionMajor, unsigned versionMinor,
                                            ArrayRef<unsigned> warpsPerCTA,
                                            LinearBases CGALayout,
                                            ArrayRef<unsigned> instrShape) {
  // Volta (versionMajor 1) is no longer supported by triton either.
  if (versionMajor < 2)
    return emitError() << "versionMajor must be at least 2";
  if (warpsPerCTA.empty())
    return emitError() << "warpsPerCTA must not be empty";
  return verifyCGALayout(emitError, CGALayout, warpsPerCTA.size());
}

unsigned NvidiaMmaEncodingAttr::getRank() const { return getWarpsPerCTA().size(); }

//===----------------------------------------------------------------------===//
// amd_mfma
//===----------------------------------------------------------------------===//

Attribute AMDMfmaEncodingAttr::parse(AsmParser &parser, Type) {
  EncodingParser p(parser);
  DictionaryAttr dict = p.parseAngleDict();
  if (!dict)
    return {};
  unsigned version = 0, elementBitWidth = 32;
  bool isTransposed = false, hasIsTransposed = false;
  SmallVector<unsigned> warpsPerCTA, instrShape, tilesPerWarp;
  Attribute cga;
  for (NamedAttribute entry : dict) {
    StringRef key = entry.getName().getValue();
    ParseResult result = success();
    if (key == "version") {
      result = p.getUnsigned(entry, version);
    } else if (key == "warpsPerCTA") {
      result = p.getUnsignedArray(entry, warpsPerCTA);
    } else if (key == "instrShape") {
      result = p.getUnsignedArray(entry, instrShape);
    } else if (key == "isTransposed") {
      result = p.getBool(entry, isTransposed);
      hasIsTransposed = true;
    } else if (key == "CGALayout") {
      cga = entry.getValue();
    } else if (key == "tilesPerWarp") {
      result = p.getUnsignedArray(entry, tilesPerWarp);
    } else if (key == "elementBitWidth") {
      result = p.getUnsigned(entry, elementBitWidth);
    } else {
      result = p.unexpectedKey(entry);
    }
    if (failed(result))
      return {};
  }
  if (!hasIsTransposed) {
    (void)(p.emitError() << "expected 'isTransposed'");
    return {};
  }
  // One tile per warp in every dimension unless the text says otherwise.
  if (tilesPerWarp.empty())
    tilesPerWarp.assign(warpsPerCTA.size(), 1);
  LinearBases cgaLayout;
  if (p.getCGALayout(cga, warpsPerCTA.size(), cgaLayout))
    return {};
  return parser.getChecked<AMDMfmaEncodingAttr>(parser.getContext(), version, warpsPerCTA,
                                                instrShape, isTransposed, cgaLayout,
                                                tilesPerWarp, elementBitWidth);
}

void AMDMfmaEncodingAttr::print(AsmPrinter &printer) const {
  raw_ostream &os = printer.getStream();
  os << "<{version = " << getVersion() << ", warpsPerCTA = ";
  printList(os, getWarpsPerCTA());
  os << ", instrShape = ";
  printList(os, getInstrShape());
  os << ", isTransposed = " << (getIsTransposed() ? "true" : "false");
  printCGALayout(os, getCGALayout());
  if (!llvm::all_of(getTilesPerWarp(), [](unsigned n) { return n == 1; })) {
    os << ", tilesPerWarp = ";
    printList(os, getTilesPerWarp());
  }
  if (getElementBitWidth() != 32)
    os << ", elementBitWidth = " << getElementBitWidth();
  os << "}>";
}

LogicalResult AMDMfmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                          unsigned version, ArrayRef<unsigned> warpsPerCTA,
                                          ArrayRef<unsigned> instrShape, bool isTransposed,
                                          LinearBases CGALayout, ArrayRef<unsigned> tilesPerWarp,
                                          unsigned elementBitWidth) {
  if (version > 4)
    return emitError() << "version must be in the [0, 4] range";
  if (instrShape.size() < 2)
    return emitError() << "instrShape must give at least M and N";
  std::pair<unsigned, unsigned> mn(instrShape[0], instrShape[1]);
  const std::pair<unsigned, unsigned> validMN[] = {{32, 32}, {16, 16}, {64, 4}, {4, 64}};
  if (!llvm::is_contained(validMN, mn))
    return emitError() << "invalid (mDim, nDim) combination: (" << mn.first << ", " << mn.second
                       << ")";
  if (elementBitWidth != 32 && elementBitWidth != 64)
    return emitError() << "elementBitWidth must be 32 or 64";
  if (tilesPerWarp.size() != warpsPerCTA.size())
    return emitError() << "tilesPerWarp and warpsPerCTA must have the same rank";
  return verifyCGALayout(emitError, CGALayout, warpsPerCTA.size());
}

unsigned AMDMfmaEncodingAttr::getRank() const { return getWarpsPerCTA().size(); }

//===----------------------------------------------------------------------===//
// amd_wmma
//===----------------------------------------------------------------------===//

static const unsigned kDefaultWmmaInstrShape[] = {16, 16, 16};

Attribute AMDWmmaEncodingAttr::parse(AsmParser &parser, Type) {
  EncodingParser p(parser);
  DictionaryAttr dict = p.parseAngleDict();
  if (!dict)
    return {};
  unsigned version = 0, rank = 0;
  bool isTransposed = false;
  SmallVector<unsigned> instrShape(std::begin(kDefaultWmmaInstrShape),
                                   std::end(kDefaultWmmaInstrShape));
  Attribute cga;
  DictionaryAttr ctaDict;
  for (NamedAttribute entry : dict) {
    StringRef key = entry.getName().getValue();
    ParseResult result = success();
    if (key == "version") {
      result = p.getUnsigned(entry, version);
    } else if (key == "rank") {
      result = p.getUnsigned(entry, rank);
    } else if (key == "isTranspose") {
      result = p.getBool(entry, isTransposed);
    } else if (key == "ctaLayout") {
      ctaDict = dyn_cast<DictionaryAttr>(entry.getValue());
      if (!ctaDict)
        result = p.emitError() << "expected a dictionary for 'ctaLayout'";
    } else if (key == "CGALayout") {
      cga = entry.getValue();
    } else if (key == "instrShape") {
      result = p.getUnsignedArray(entry, instrShape);
    } else {
      result = p.unexpectedKey(entry);
    }
    if (failed(result))
      return {};
  }
  if (!ctaDict) {
    (void)(p.emitError() << "expected 'ctaLayout'");
    return {};
  }
  // Triton leaves out input dimensions without bases (usually `register`)
  // and does not print the rank, which then follows from the bases. Without
  // any bases it is the `rank` entry, or 2.
  bool hasBases = llvm::any_of(ctaDict, [](NamedAttribute entry) {
    auto bases = dyn_cast<ArrayAttr>(entry.getValue());
    return bases && !bases.empty();
  });
  if (!hasBases && !rank)
    rank = 2;
  LinearBases ctaLayout;
  if (p.getLinearBases(ctaDict, {"register", "warp"}, {"register", "warp"}, rank, ctaLayout))
    return {};
  LinearBases cgaLayout;
  if (p.getCGALayout(cga, ctaLayout.getRank(), cgaLayout))
    return {};
  return parser.getChecked<AMDWmmaEncodingAttr>(parser.getContext(), version, ctaLayout,
                                                isTransposed, cgaLayout, instrShape);
}

void AMDWmmaEncodingAttr::print(AsmPrinter &printer) const {
  raw_ostream &os = printer.getStream();
  os << "<{version = " << getVersion()
     << ", isTranspose = " << (getIsTransposed() ? "true" : "false") << ", ctaLayout = {";
  getCtaLayout().print(os, /*skipEmpty=*/true);
  os << "}";
  printCGALayout(os, getCGALayout());
  if (getInstrShape() != ArrayRef<unsigned>(kDefaultWmmaInstrShape)) {
    os << ", instrShape = ";
    printList(os, getInstrShape());
  }
  os << "}>";
}

LogicalResult AMDWmmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                          unsigned version, LinearBases ctaLayout,
                                          bool isTransposed, LinearBases CGALayout,
                                          ArrayRef<unsigned> instrShape) {
  if (version < 1 || version > 3)
    return emitError() << "WMMA version must be in the [1, 3] range";
  if (instrShape.size() != 3)
    return emitError() << "instrShape must give M, N and K";
  if (failed(verifyLinearShape(emitError, ctaLayout, {"register", "warp"})))
    return failure();
  return verifyCGALayout(emitError, CGALayout, ctaLayout.getRank());
}

unsigned AMDWmmaEncodingAttr::getRank() const { return getCtaLayout().getRank(); }

//===----------------------------------------------------------------------===//
// swizzled_shared, amd_rotating_shared
//===----------------------------------------------------------------------===//

/// `<{vec = .., perPhase = .., maxPhase = .., order = [..] (, CGALayout = ..)?}>`
template <typename EncodingAttr>
static Attribute parseSwizzled(AsmParser &parser) {
  EncodingParser p(parser);
  DictionaryAttr dict = p.parseAngleDict();
  if (!dict)
    return {};
  unsigned vec = 0, perPhase = 0, maxPhase = 0;
  SmallVector<unsigned> order;
  Attribute cga;
  for (NamedAttribute entry : dict) {
    StringRef key = entry.getName().getValue();
    ParseResult result = success();
    if (key == "vec")
      result = p.getUnsigned(entry, vec);
    else if (key == "perPhase")
      result = p.getUnsigned(entry, perPhase);
    else if (key == "maxPhase")
      result = p.getUnsigned(entry, maxPhase);
    else if (key == "order")
      result = p.getUnsignedArray(entry, order);
    else if (key == "CGALayout")
      cga = entry.getValue();
    else
      result = p.unexpectedKey(entry);
    if (failed(result))
      return {};
  }
  LinearBases cgaLayout;
  if (p.getCGALayout(cga, order.size(), cgaLayout))
    return {};
  return parser.getChecked<EncodingAttr>(parser.getContext(), vec, perPhase, maxPhase, order,
                                         cgaLayout);
}

template <typename EncodingAttr>
static void printSwizzled(AsmPrinter &printer, EncodingAttr attr) {
  raw_ostream &os = printer.getStream();
  os << "<{vec = " << attr.getVec() << ", perPhase = " << attr.getPerPhase()
     << ", maxPhase = " << attr.getMaxPhase() << ", order = ";
  printList(os, attr.getOrder());
  printCGALayout(os, attr.getCGALayout());
  os << "}>";
}

static LogicalResult verifySwizzled(function_ref<InFlightDiagnostic()> emitError,
                                    ArrayRef<unsigned> order, const LinearBases &cga) {
  if (failed(verifyOrder(emitError, order)))
    return failure();
  return verifyCGALayout(emitError, cga, order.size());
}

Attribute SwizzledSharedEncodingAttr::parse(AsmParser &parser, Type) {
  return parseSwizzled<SwizzledSharedEncodingAttr>(parser);
}

void SwizzledSharedEncodingAttr::print(AsmPrinter &printer) const {
  printSwizzled(printer, *this);
}

LogicalResult SwizzledSharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                                 unsigned vec, unsigned perPhase,
                                                 unsigned maxPhase, ArrayRef<unsigned> order,
                                                 LinearBases CGALayout) {
  return verifySwizzled(emitError, order, CGALayout);
}

unsigned SwizzledSharedEncodingAttr::getRank() const { return getOrder().size(); }

Attribute AMDRotatingSharedEncodingAttr::parse(AsmParser &parser, Type) {
  return parseSwizzled<AMDRotatingSharedEncodingAttr>(parser);
}

void AMDRotatingSharedEncodingAttr::print(AsmPrinter &printer) const {
  printSwizzled(printer, *this);
}

LogicalResult AMDRotatingSharedEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, unsigned vec, unsigned perPhase,
    unsigned maxPhase, ArrayRef<unsigned> order, LinearBases CGALayout) {
  return verifySwizzled(emitError, order, CGALayout);
}

unsigned AMDRotatingSharedEncodingAttr::getRank() const { return getOrder().size(); }

//===----------------------------------------------------------------------===//
// nvmma_shared
//===----------------------------------------------------------------------===//

Attribute NVMMASharedEncodingAttr::parse(AsmParser &parser, Type) {
  EncodingParser p(parser);
  DictionaryAttr dict = p.parseAngleDict();
  if (!dict)
    return {};
  unsigned swizzlingByteWidth = 0, elementBitWidth = 0, rank = 0;
  bool transposed = false, fp4Padded = false;
  bool hasSwizzle = false, hasBitWidth = false;
  Attribute cga;
  for (NamedAttribute entry : dict) {
    StringRef key = entry.getName().getValue();
    ParseResult result = success();
    if (key == "swizzlingByteWidth") {
      result = p.getUnsigned(entry, swizzlingByteWidth);
      hasSwizzle = true;
    } else if (key == "transposed") {
      result = p.getBool(entry, transposed);
    } else if (key == "elementBitWidth") {
      result = p.getUnsigned(entry, elementBitWidth);
      hasBitWidth = true;
    } else if (key == "fp4Padded") {
      result = p.getBool(entry, fp4Padded);
    } else if (key == "CGALayout") {
      cga = entry.getValue();
    } else if (key == "rank") {
      result = p.getUnsigned(entry, rank);
    } else {
      result = p.unexpectedKey(entry);
    }
    if (failed(result))
      return {};
  }
  if (!hasSwizzle || !hasBitWidth) {
    (void)(p.emitError() << "expected 'swizzlingByteWidth' and 'elementBitWidth'");
    return {};
  }
  // The rank is explicit, or follows from the CGA layout, or is 2.
  if (!rank) {
    auto cgaArray = dyn_cast_or_null<ArrayAttr>(cga);
    if (cgaArray && !cgaArray.empty())
      if (auto firstBasis = dyn_cast<ArrayAttr>(cgaArray[0]))
        rank = firstBasis.size();
  }
  if (!rank)
    rank = 2;
  LinearBases cgaLayout;
  if (p.getCGALayout(cga, rank, cgaLayout))
    return {};
  return parser.getChecked<NVMMASharedEncodingAttr>(parser.getContext(), swizzlingByteWidth,
                                                    transposed, elementBitWidth, fp4Padded,
                                                    cgaLayout);
}

void NVMMASharedEncodingAttr::print(AsmPrinter &printer) const {
  raw_ostream &os = printer.getStream();
  os << "<{swizzlingByteWidth = " << getSwizzlingByteWidth()
     << ", transposed = " << (getTransposed() ? "true" : "false")
     << ", elementBitWidth = " << getElementBitWidth();
  // Printed only when set, which keeps the common case short.
  if (getFp4Padded())
    os << ", fp4Padded = true";
  const LinearBases &cga = getCGALayout();
  if (cga.isTrivial() && cga.getRank() != 2)
    os << ", rank = " << cga.getRank();
  else
    printCGALayout(os, cga);
  os << "}>";
}

LogicalResult NVMMASharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                              unsigned swizzlingByteWidth, bool transposed,
                                              unsigned elementBitWidth, bool fp4Padded,
                                              LinearBases CGALayout) {
  if (elementBitWidth == 0)
    return emitError() << "elementBitWidth must be non-zero";
  if (swizzlingByteWidth != 0 && swizzlingByteWidth != 32 && swizzlingByteWidth != 64 &&
      swizzlingByteWidth != 128)
    return emitError() << "swizzlingByteWidth must be 0, 32, 64, or 128";
  return verifyCGALayout(emitError, CGALayout, CGALayout.getRank());
}

unsigned NVMMASharedEncodingAttr::getRank() const { return getCGALayout().getRank(); }

//===----------------------------------------------------------------------===//
// padded_shared
//===----------------------------------------------------------------------===//

Attribute PaddedSharedEncodingAttr::parse(AsmParser &parser, Type) {
  EncodingParser p(parser);
  // <[interval:+padding, ...]
  SmallVector<unsigned> intervals, paddings;
  auto parsePair = [&]() -> ParseResult {
    unsigned interval = 0, padding = 0;
    if (parser.parseInteger(interval) || parser.parseColon() || parser.parsePlus() ||
        parser.parseInteger(padding))
      return failure();
    intervals.push_back(interval);
    paddings.push_back(padding);
    return success();
  };
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parsePair))
    return {};

  // {offset = .., block = ..} or the identity short form {order = .., shape = ..}
  p.loc = parser.getCurrentLocation();
  DictionaryAttr dict;
  if (parser.parseAttribute(dict) || parser.parseGreater())
    return {};
  LinearBases layout;
  if (dict.contains("offset") || dict.contains("block")) {
    if (p.getLinearBases(dict, {"offset", "block"}, {"block"}, 0, layout))
      return {};
  } else {
    SmallVector<unsigned> order, shape;
    for (NamedAttribute entry : dict) {
      StringRef key = entry.getName().getValue();
      ParseResult result = success();
      if (key == "order")
        result = p.getUnsignedArray(entry, order);
      else if (key == "shape")
        result = p.getUnsignedArray(entry, shape);
      else
        result = p.unexpectedKey(entry);
      if (failed(result))
        return {};
    }
    if (order.size() != shape.size() || shape.empty()) {
      (void)(p.emitError() << "order and shape of a padded layout must have the same, "
                              "non-zero rank");
      return {};
    }
    if (!isPermutation(order) ||
        !llvm::all_of(shape, [](unsigned s) { return llvm::isPowerOf2_32(s); })) {
      (void)(p.emitError() << "expected a permutation for 'order' and powers of two for "
                              "'shape'");
      return {};
    }
    SmallVector<int64_t> shape64(shape.begin(), shape.end());
    SmallVector<LinearBases::InDim> inDims;
    inDims.push_back({"offset", identityOffsetBases(shape64, order)});
    inDims.push_back({"block", {}});
    layout = LinearBases(std::move(inDims), shape.size());
  }
  return parser.getChecked<PaddedSharedEncodingAttr>(parser.getContext(), intervals, paddings,
                                                     layout);
}

void PaddedSharedEncodingAttr::print(AsmPrinter &printer) const {
  raw_ostream &os = printer.getStream();
  os << "<[";
  llvm::interleaveComma(llvm::zip(getIntervals(), getPaddings()), os, [&](auto pair) {
    os << std::get<0>(pair) << ":+" << std::get<1>(pair);
  });
  os << "] {";
  // The short form stands for an identity offset mapping on a single CTA.
  const LinearBases &layout = getLinearComponent();
  SmallVector<int64_t> shape = layout.getOutDimSizes();
  SmallVector<unsigned> order = orderOfBases(layout.getBases("offset"), layout.getRank());
  SmallVector<Basis> identity = identityOffsetBases(shape, order);
  bool isIdentity = layout.getBases("block").empty() &&
                    ArrayRef<Basis>(identity) == layout.getBases("offset");
  if (isIdentity) {
    os << "order = ";
    printList(os, order);
    os << ", shape = [";
    llvm::interleaveComma(shape, os);
    os << "]";
  } else {
    layout.print(os);
  }
  os << "}>";
}

LogicalResult PaddedSharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                               ArrayRef<unsigned> intervals,
                                               ArrayRef<unsigned> paddings,
                                               LinearBases linearComponent) {
  if (intervals.size() != paddings.size())
    return emitError() << "intervals size (" << intervals.size()
                       << ") must match paddings size (" << paddings.size() << ")";
  if (intervals.empty())
    return emitError() << "must have at least one interval-padding pair";
  if (failed(verifyPowersOfTwo(emitError, "the intervals", intervals)) ||
      failed(verifyPowersOfTwo(emitError, "the paddings", paddings)))
    return failure();
  llvm::SmallSet<unsigned, 4> unique(intervals.begin(), intervals.end());
  if (unique.size() != intervals.size())
    return emitError() << "interval values cannot have duplicates";
  if (failed(verifyLinearShape(emitError, linearComponent, {"offset", "block"})))
    return failure();
  for (const LinearBases::InDim &dim : linearComponent.getInDims())
    for (const Basis &basis : dim.bases)
      if (countNonZero(basis) > 1 || llvm::any_of(basis, [](int32_t v) {
            return v < 0 || (v != 0 && !llvm::isPowerOf2_32(v));
          }))
        return emitError() << "each basis must move along at most one dimension by a power "
                              "of two";
  // Distinct offsets must be distinct elements.
  ArrayRef<Basis> offsets = linearComponent.getBases("offset");
  for (auto [i, basis] : llvm::enumerate(offsets))
    if (countNonZero(basis) == 0 || llvm::is_contained(offsets.drop_front(i + 1), basis))
      return emitError() << "broadcasting in the offset dimension is not supported";
  return success();
}

unsigned PaddedSharedEncodingAttr::getRank() const { return getLinearComponent().getRank(); }

//===----------------------------------------------------------------------===//
// shared_linear
//===----------------------------------------------------------------------===//

Attribute SharedLinearEncodingAttr::parse(AsmParser &parser, Type) {
  EncodingParser p(parser);
  DictionaryAttr dict;
  if (parser.parseLess())
    return {};
  p.loc = parser.getCurrentLocation();
  if (parser.parseAttribute(dict))
    return {};
  if (dict.contains("alignment")) {
    (void)(p.emitError() << "alignment must be specified outside of the linear layout braces");
    return {};
  }
  unsigned alignment = 0;
  LinearBases layout;
  if (p.getLinearBases(dict, {"offset", "block"}, {"block"}, 0, layout) || parser.parseComma() ||
      parser.parseKeyword("alignment") || parser.parseEqual() ||
      parser.parseInteger(alignment) || parser.parseGreater())
    return {};
  return parser.getChecked<SharedLinearEncodingAttr>(parser.getContext(), layout, alignment);
}

void SharedLinearEncodingAttr::print(AsmPrinter &printer) const {
  raw_ostream &os = printer.getStream();
  const LinearBases &layout = getLinearLayout();
  auto printBases = [&](StringRef name) {
    os << name << " = [";
    llvm::interleaveComma(layout.getBases(name), os, [&](const Basis &basis) {
      os << "[";
      llvm::interleaveComma(basis, os);
      os << "]";
    });
    os << "]";
  };
  // `block` is left out when the layout lives in a single CTA.
  os << "<{";
  printBases("offset");
  if (!layout.getBases("block").empty()) {
    os << ", ";
    printBases("block");
  }
  os << "}, alignment = " << getLayoutAlignment() << ">";
}

LogicalResult SharedLinearEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                               LinearBases linearLayout,
                                               unsigned layoutAlignment) {
  if (!llvm::isPowerOf2_32(layoutAlignment))
    return emitError() << "alignment must be a positive power of two";
  return verifyLinearShape(emitError, linearLayout, {"offset", "block"});
}

unsigned SharedLinearEncodingAttr::getRank() const { return getLinearLayout().getRank(); }

//===----------------------------------------------------------------------===//
// partitioned_shared
//===----------------------------------------------------------------------===//

Attribute PartitionedSharedEncodingAttr::parse(AsmParser &parser, Type) {
  EncodingParser p(parser);
  DictionaryAttr dict = p.parseAngleDict();
  if (!dict)
    return {};
  unsigned numPartitions = 0, numGroups = 0, partitionDim = 0;
  Attribute partitionLayout;
  for (NamedAttribute entry : dict) {
    StringRef key = entry.getName().getValue();
    ParseResult result = success();
    if (key == "numPartitions")
      result = p.getUnsigned(entry, numPartitions);
    else if (key == "numGroups")
      result = p.getUnsigned(entry, numGroups);
    else if (key == "partitionDim")
      result = p.getUnsigned(entry, partitionDim);
    else if (key == "partitionLayout")
      partitionLayout = entry.getValue();
    else
      result = p.unexpectedKey(entry);
    if (failed(result))
      return {};
  }
  if (!partitionLayout) {
    (void)(p.emitError() << "missing partitionLayout");
    return {};
  }
  return parser.getChecked<PartitionedSharedEncodingAttr>(
      parser.getContext(), numPartitions, numGroups, partitionDim, partitionLayout);
}

void PartitionedSharedEncodingAttr::print(AsmPrinter &printer) const {
  printer.getStream() << "<{numPartitions = " << getNumPartitions()
                      << ", numGroups = " << getNumGroups()
                      << ", partitionDim = " << getPartitionDim() << ", partitionLayout = ";
  printer.printAttribute(getPartitionLayout());
  printer.getStream() << "}>";
}

LogicalResult PartitionedSharedEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, unsigned numPartitions, unsigned numGroups,
    unsigned partitionDim, Attribute partitionLayout) {
  // A single partition would just be the inner layout.
  if (numPartitions < 2 || !llvm::isPowerOf2_32(numPartitions))
    return emitError() << "numPartitions must be a power of 2 and at least 2";
  if (!llvm::isPowerOf2_32(numGroups))
    return emitError() << "numGroups must be a power of 2 and greater than 0";
  if (!isa_and_nonnull<SharedEncodingTrait>(partitionLayout))
    return emitError() << "partitionLayout must be a shared encoding";
  unsigned rank = getEncodingRank(partitionLayout);
  if (partitionDim >= rank)
    return emitError() << "partitionDim (" << partitionDim
                       << ") must be less than the layout rank (" << rank << ")";
  return success();
}

unsigned PartitionedSharedEncodingAttr::getRank() const {
  return getEncodingRank(getPartitionLayout());
}
