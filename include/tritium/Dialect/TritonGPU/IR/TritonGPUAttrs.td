//===- TritonGPUAttrs.td - layout encodings of the `ttg` dialect ----------===//
//
// Tensor and shared-memory encodings, plus the shared-memory space attribute.
// Most encodings have a handwritten syntax in triton, reproduced in Attrs.cpp:
// they are written as a dictionary `<{key = value, ...}>` whose keys may come
// in any order when parsed, and are printed in triton's fixed order with
// optional fields left out when they hold their default.
//
//===----------------------------------------------------------------------===//

#ifndef TRITIUM_TTG_ATTRS
#define TRITIUM_TTG_ATTRS

include "mlir/IR/AttrTypeBase.td"
include "tritium/Dialect/TritonGPU/IR/TritonGPUDialect.td"
include "tritium/Dialect/TritonGPU/IR/TritonGPUAttrInterfaces.td"

//===----------------------------------------------------------------------===//
// Parameters and base classes
//===----------------------------------------------------------------------===//

// A linear layout exactly as the text gives it: named input dimensions, each
// with its list of basis vectors over dim0..dim{rank-1}.
def TTG_LinearBasesParam : AttrOrTypeParameter<"::tritium::ttg::LinearBases",
                                               "bases of a linear layout"> {
  let cppAccessorType = "const ::tritium::ttg::LinearBases &";
}

// How the CTAs of a cluster tile a tensor: a linear layout with the single
// input dimension `block`. One CTA (no `block` bases) is the default and is
// not printed; otherwise it prints as `CGALayout = [[..], ..]`.
def TTG_CGALayoutParam : AttrOrTypeParameter<"::tritium::ttg::LinearBases",
                                             "CTA tiling of the cluster"> {
  let cppAccessorType = "const ::tritium::ttg::LinearBases &";
}

class TTG_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TTG_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

class TTG_DistributedEncoding<string name, string attrMnemonic, list<Trait> traits = []>
    : TTG_Attr<name, attrMnemonic,
               !listconcat([DeclareAttrInterfaceMethods<TTG_LayoutEncodingTrait>,
                            TTG_DistributedEncodingTrait], traits)>;

class TTG_SharedEncoding<string name, string attrMnemonic, list<Trait> traits = []>
    : TTG_Attr<name, attrMnemonic,
               !listconcat([DeclareAttrInterfaceMethods<TTG_LayoutEncodingTrait>,
                            TTG_SharedEncodingTrait], traits)>;

//===----------------------------------------------------------------------===//
// Distributed (register) encodings
//===----------------------------------------------------------------------===//

def TTG_BlockedEncodingAttr : TTG_DistributedEncoding<"BlockedEncoding", "blocked"> {
  let summary = "each thread, warp and CTA owns a contiguous block of the tensor";
  let description = [{
    Per dimension, a thread holds `sizePerThread` consecutive elements, a warp
    spreads its lanes as `threadsPerWarp` and the CTA its warps as
    `warpsPerCTA`; `order` lists the dimensions fastest-varying first. The
    block is repeated to cover larger tensors and broadcast over smaller ones.

    `#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4],
    warpsPerCTA = [4, 1], order = [1, 0]}>`, with `, CGALayout = [[1, 0]]`
    before the `}` when the kernel runs on a cluster of CTAs.
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$sizePerThread,
                        ArrayRefParameter<"unsigned">:$threadsPerWarp,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$order,
                        TTG_CGALayoutParam:$CGALayout);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTG_LinearEncodingAttr : TTG_DistributedEncoding<"LinearEncoding", "linear"> {
  let summary = "a distributed layout given directly as a linear map";
  let description = [{
    The bases of each input dimension (`register`, `lane`, `warp`, `block`,
    always in that order) give the tensor coordinates reached by setting one
    bit of that index; other indices combine bases by XOR. Every basis moves
    along at most one dimension, and apart from all-zero (broadcast) bases
    the map is a bijection.

    `#ttg.linear<{register = [[0, 1]], lane = [[1, 0], [2, 0]], warp = [],
    block = []}>`
  }];
  let parameters = (ins TTG_LinearBasesParam:$linearLayout);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTG_GenericLinearEncodingAttr : TTG_DistributedEncoding<"GenericLinearEncoding",
                                                            "generic_linear"> {
  let summary = "a linear distributed layout with swizzled warps allowed";
  let description = [{
    Written like `#ttg.linear`, but warp bases may move along several
    dimensions at once, and the map only needs to cover the tensor.
  }];
  let parameters = (ins TTG_LinearBasesParam:$linearLayout);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTG_SliceEncodingAttr : TTG_DistributedEncoding<"SliceEncoding", "slice"> {
  let summary = "the parent layout with dimension `dim` squeezed out";
  let description = [{
    Used for the result of a reduction and the operand of `tt.expand_dims`:
    each element is owned by every thread that owned some element of the
    squeezed dimension in the parent.
    `#ttg.slice<{dim = 1, parent = #blocked}>`
  }];
  let parameters = (ins "unsigned":$dim, "::mlir::Attribute":$parent);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTG_DotOperandEncodingAttr : TTG_DistributedEncoding<"DotOperandEncoding", "dot_op"> {
  let summary = "layout of operand a (opIdx 0) or b (opIdx 1) of a dot";
  let description = [{
    `parent` is the layout of the dot's result; `kWidth` is the number of
    consecutive K elements a thread holds (0 when the parent does not use it,
    and then not printed).
    `#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>`
  }];
  let parameters = (ins "unsigned":$opIdx, "::mlir::Attribute":$parent,
                        DefaultValuedParameter<"unsigned", "0">:$kWidth);
  // Triton declares this one with ODS too, so the generated syntax matches.
  let assemblyFormat = "`<` `{` struct(params) `}` `>`";
  let genVerifyDecl = 1;
}

def TTG_NvidiaMmaEncodingAttr : TTG_DistributedEncoding<"NvidiaMmaEncoding", "nvidia_mma",
                                                        [TTG_MmaEncodingTrait]> {
  let summary = "result layout of NVIDIA tensor-core instructions";
  let description = [{
    versionMajor 2 is mma.sync (Turing/Ampere), 3 is wgmma (Hopper);
    `instrShape` is the instruction tile.
    `#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2],
    instrShape = [16, 8]}>`
  }];
  let parameters = (ins "unsigned":$versionMajor, "unsigned":$versionMinor,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        TTG_CGALayoutParam:$CGALayout,
                        ArrayRefParameter<"unsigned">:$instrShape);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTG_AMDMfmaEncodingAttr : TTG_DistributedEncoding<"AMDMfmaEncoding", "amd_mfma",
                                                      [TTG_MmaEncodingTrait]> {
  let summary = "result layout of AMD CDNA matrix-core (MFMA) instructions";
  let description = [{
    `version` is the CDNA generation (3 = gfx942, 4 = gfx950), `instrShape`
    is M, N, K of one instruction, `isTransposed` swaps the per-thread
    direction of the result. `tilesPerWarp` (printed unless all 1) and
    `elementBitWidth` (printed unless 32) are optional.
    `#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8],
    isTransposed = true}>`
  }];
  let parameters = (ins "unsigned":$version,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$instrShape,
                        "bool":$isTransposed,
                        TTG_CGALayoutParam:$CGALayout,
                        ArrayRefParameter<"unsigned">:$tilesPerWarp,
                        "unsigned":$elementBitWidth);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTG_AMDWmmaEncodingAttr : TTG_DistributedEncoding<"AMDWmmaEncoding", "amd_wmma",
                                                      [TTG_MmaEncodingTrait]> {
  let summary = "result layout of AMD RDNA/gfx1250 matrix-core (WMMA) instructions";
  let description = [{
    `ctaLayout` places the WMMA tiles on warps as a linear layout with input
    dimensions `register` (repetitions, omitted from the text when empty) and
    `warp`. `instrShape` is printed unless it is the default [16, 16, 16].
    Note the key is `isTranspose`, not `isTransposed`.
    `#ttg.amd_wmma<{version = 1, isTranspose = true, ctaLayout = {warp = [[0, 1],
    [1, 0]]}}>`
  }];
  let parameters = (ins "unsigned":$version,
                        TTG_LinearBasesParam:$ctaLayout,
                        "bool":$isTransposed,
                        TTG_CGALayoutParam:$CGALayout,
                        ArrayRefParameter<"unsigned">:$instrShape);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Shared-memory encodings
//===----------------------------------------------------------------------===//

def TTG_SwizzledSharedEncodingAttr : TTG_SharedEncoding<"SwizzledSharedEncoding",
                                                        "swizzled_shared"> {
  let summary = "row-major tile whose rows are XOR-swizzled in vectors";
  let description = [{
    Row r is XORed, in units of `vec` elements, with (r / perPhase) % maxPhase;
    `order` lists dimensions fastest-varying first.
    `#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>`
  }];
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase, "unsigned":$maxPhase,
                        ArrayRefParameter<"unsigned">:$order,
                        TTG_CGALayoutParam:$CGALayout);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTG_AMDRotatingSharedEncodingAttr : TTG_SharedEncoding<"AMDRotatingSharedEncoding",
                                                           "amd_rotating_shared"> {
  let summary = "swizzled tile whose pattern also rotates from block to block";
  let description = [{
    Like `#ttg.swizzled_shared`, but the phase of each block of
    perPhase * maxPhase rows is XORed with the block number as well, which
    avoids bank conflicts between row- and column-ordered accesses on hardware
    without a transposing shared-memory load.
  }];
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase, "unsigned":$maxPhase,
                        ArrayRefParameter<"unsigned">:$order,
                        TTG_CGALayoutParam:$CGALayout);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTG_NVMMASharedEncodingAttr : TTG_SharedEncoding<"NVMMASharedEncoding", "nvmma_shared"> {
  let summary = "the swizzled tile format read by wgmma/tcgen05 and written by TMA";
  let description = [{
    `swizzlingByteWidth` is 0, 32, 64 or 128; `transposed` means the
    contiguous dimension is the outer one. `fp4Padded = true` is printed only
    when set. The encoding's rank comes from its CGA layout; a rank other than
    2 with a single CTA is printed as `rank = N`.
    `#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false,
    elementBitWidth = 16}>`
  }];
  let parameters = (ins "unsigned":$swizzlingByteWidth, "bool":$transposed,
                        "unsigned":$elementBitWidth, "bool":$fp4Padded,
                        TTG_CGALayoutParam:$CGALayout);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTG_PaddedSharedEncodingAttr : TTG_SharedEncoding<"PaddedSharedEncoding",
                                                      "padded_shared"> {
  let summary = "tile with padding inserted after every `interval` elements";
  let description = [{
    `[interval:+padding, ...]` inserts `padding` elements after each
    `interval` elements (the pairs add up). The linear component maps the
    shared-memory `offset` (and `block`) to tensor coordinates; an identity
    component with no `block` bases is printed in the short form
    `{order = [..], shape = [..]}`.
    `#ttg.padded_shared<[32:+4] {order = [1, 0], shape = [32, 32]}>`
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$intervals,
                        ArrayRefParameter<"unsigned">:$paddings,
                        TTG_LinearBasesParam:$linearComponent);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTG_SharedLinearEncodingAttr : TTG_SharedEncoding<"SharedLinearEncoding",
                                                      "shared_linear"> {
  let summary = "a shared-memory layout given directly as a linear map";
  let description = [{
    The bases of `offset` (and `block`, left out of the text when empty) map
    shared-memory offsets to tensor coordinates; `alignment` is the required
    byte alignment of the allocation.
    `#ttg.shared_linear<{offset = [[0, 1], [1, 0]]}, alignment = 16>`
  }];
  let parameters = (ins TTG_LinearBasesParam:$linearLayout, "unsigned":$layoutAlignment);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TTG_PartitionedSharedEncodingAttr : TTG_SharedEncoding<"PartitionedSharedEncoding",
                                                           "partitioned_shared"> {
  let summary = "a tile split along one dimension over several shared-memory buffers";
  let description = [{
    The tile is cut along `partitionDim` into numPartitions * numGroups pieces
    laid out with `partitionLayout`; piece i lives in buffer i % numPartitions.
    `#ttg.partitioned_shared<{numPartitions = 2, numGroups = 2, partitionDim = 0,
    partitionLayout = #shared}>`
  }];
  let parameters = (ins "unsigned":$numPartitions, "unsigned":$numGroups,
                        "unsigned":$partitionDim, "::mlir::Attribute":$partitionLayout);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Memory spaces
//===----------------------------------------------------------------------===//

def TTG_SharedMemorySpaceAttr : TTG_Attr<"SharedMemorySpace", "shared_memory"> {
  let summary = "memory space of descriptors that point into shared memory";
  let description = [{
    The memory space of a `!ttg.memdesc` in shared memory: `#ttg.shared_memory`.
  }];
}

#endif // TRITIUM_TTG_ATTRS
