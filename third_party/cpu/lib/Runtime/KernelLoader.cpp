//===- KernelLoader.cpp - JIT-linking kernel objects in process -----------===//
//
// One ORC LLJIT per process; each object gets its own JITDylib, so kernels that share a
// name (two specializations of one @triton.jit function) never clash. Symbols the kernels
// need from the C library (malloc, free, memcpy, libm) resolve against this process.
//
//===----------------------------------------------------------------------===//

#include "RunningProgram.h"
#include "tritium/Target/CPU/AMXPermission.h"

#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/TargetSelect.h"

#include <array>
#include <cstring>
#include <map>
#include <string_view>
#include <mutex>

namespace tritium::cpu {
namespace {

struct JITState {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::string error;
  /// What the JIT reported while the current object was linked (e.g. missing symbols).
  std::string linkErrors;
  std::map<uint64_t, llvm::orc::JITDylib *> loaded;
  uint64_t nextHandle = 1;
  std::mutex mutex;
};

JITState &state() {
  static JITState *instance = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    auto *s = new JITState();
    auto jit = llvm::orc::LLJITBuilder().create();
    if (!jit)
      s->error = llvm::toString(jit.takeError());
    else
      s->jit = std::move(*jit);
    if (s->jit)
      s->jit->getExecutionSession().setErrorReporter([s](llvm::Error err) {
        s->linkErrors += llvm::toString(std::move(err)) + "\n";
      });
    return s;
  }();
  return *instance;
}

/// Why `object` cannot be linked safely, or "" when every part of it the JIT linker reads is
/// well-formed. A damaged object (a torn write, a disk error, a manual edit) must become an
/// error here: parts of the linker assume well-formed input and abort the process otherwise.
std::string damageIn(llvm::MemoryBufferRef object) {
  auto file = llvm::object::ObjectFile::createObjectFile(object);
  if (!file)
    return llvm::toString(file.takeError());
  const llvm::object::ObjectFile &obj = **file;
  // The linker asserts that alignments are powers of two; read them raw, before it does.
  if (const auto *elf = llvm::dyn_cast<llvm::object::ELF64LEObjectFile>(&obj)) {
    for (const llvm::object::SectionRef &section : obj.sections()) {
      auto header = elf->getELFFile().getSection(section.getIndex());
      if (!header)
        return llvm::toString(header.takeError());
      uint64_t alignment = (*header)->sh_addralign;
      if (alignment > 1 && !llvm::isPowerOf2_64(alignment))
        return "a section's alignment is not a power of two";
      if (alignment > (uint64_t(1) << 32))
        return "a section's alignment is implausible";
    }
  } else {
    return "not a 64-bit little-endian ELF object";
  }
  for (const llvm::object::SectionRef &section : obj.sections()) {
    if (auto name = section.getName(); !name)
      return llvm::toString(name.takeError());
    if (!section.isBSS())
      if (auto contents = section.getContents(); !contents)
        return llvm::toString(contents.takeError());
    auto target = section.getRelocatedSection();
    if (!target)
      return llvm::toString(target.takeError());
    uint64_t targetSize = *target != obj.section_end() ? (*target)->getSize() : 0;
    for (const llvm::object::RelocationRef &relocation : section.relocations()) {
      if (*target != obj.section_end() && relocation.getOffset() >= targetSize)
        return "a relocation lies outside its section";
      auto symbol = relocation.getSymbol();
      if (symbol != obj.symbol_end())
        if (auto name = symbol->getName(); !name)
          return llvm::toString(name.takeError());
    }
  }
  for (const llvm::object::SymbolRef &symbol : obj.symbols()) {
    if (auto name = symbol.getName(); !name)
      return llvm::toString(name.takeError());
    if (auto flags = symbol.getFlags(); !flags)
      return llvm::toString(flags.takeError());
    if (auto type = symbol.getType(); !type)
      return llvm::toString(type.takeError());
    auto section = symbol.getSection();
    if (!section)
      return llvm::toString(section.takeError());
    auto address = symbol.getAddress();
    if (!address)
      return llvm::toString(address.takeError());
    if (*section != obj.section_end() && !(*section)->isBSS() &&
        *address - (*section)->getAddress() > (*section)->getSize())
      return "a symbol lies outside its section";
  }
  return "";
}

/// The seal tritium's compiler appends to every object: the SHA-256 of the object, then this.
constexpr std::string_view kSealMagic = "TRITSEAL";
constexpr size_t kDigestBytes = 32;

/// Strips the seal from `object` after checking the digest; "" when the object is intact or
/// carries no seal (an object from elsewhere, or one whose seal was cut off: the structural
/// checks of damageIn are then all there is).
std::string unseal(std::string_view &object) {
  if (object.size() < kDigestBytes + kSealMagic.size() ||
      object.substr(object.size() - kSealMagic.size()) != kSealMagic)
    return "";
  std::string_view body = object.substr(0, object.size() - kDigestBytes - kSealMagic.size());
  std::string_view recorded = object.substr(body.size(), kDigestBytes);
  std::array<uint8_t, 32> digest = llvm::SHA256::hash(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(body.data()), body.size()));
  if (std::memcmp(digest.data(), recorded.data(), kDigestBytes) != 0)
    return "its contents do not match the digest it was sealed with";
  object = body;
  return "";
}

} // namespace

KernelEntry loadKernel(const std::string &object, const std::string &entryName,
                       uint64_t &handle, std::string &error) {
  JITState &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.jit) {
    error = "the in-process JIT could not start: " + s.error;
    return nullptr;
  }
  std::string_view body = object;
  if (std::string damage = unseal(body); !damage.empty()) {
    error = "the kernel object is damaged (" + damage + ")";
    return nullptr;
  }
  if (std::string damage = damageIn(llvm::MemoryBufferRef(body, entryName)); !damage.empty()) {
    error = "the kernel object is damaged (" + damage + ")";
    return nullptr;
  }
  // A kernel with AMX instructions may come from the cache of an earlier process.
  (void)requestAMXTileData();
  uint64_t id = s.nextHandle++;
  auto dylib = s.jit->createJITDylib("tritium_kernel_" + std::to_string(id));
  if (!dylib) {
    error = llvm::toString(dylib.takeError());
    return nullptr;
  }
  char prefix = s.jit->getDataLayout().getGlobalPrefix();
  auto processSymbols =
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(prefix);
  if (!processSymbols) {
    error = llvm::toString(processSymbols.takeError());
    return nullptr;
  }
  dylib->addGenerator(std::move(*processSymbols));
  llvm::orc::SymbolMap runtimeSymbols;
  for (auto &[name, address] : deviceLibrarySymbols())
    runtimeSymbols[s.jit->mangleAndIntern(name)] = llvm::orc::ExecutorSymbolDef(
        llvm::orc::ExecutorAddr::fromPtr(address), llvm::JITSymbolFlags::Exported);
  if (llvm::Error err = dylib->define(llvm::orc::absoluteSymbols(std::move(runtimeSymbols)))) {
    error = llvm::toString(std::move(err));
    return nullptr;
  }
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(body, entryName);
  if (llvm::Error err = s.jit->addObjectFile(*dylib, std::move(buffer))) {
    error = llvm::toString(std::move(err));
    return nullptr;
  }
  s.linkErrors.clear();
  auto symbol = s.jit->lookup(*dylib, entryName);
  if (!symbol) {
    error = llvm::toString(symbol.takeError());
    if (!s.linkErrors.empty())
      error += " (" + s.linkErrors.substr(0, s.linkErrors.size() - 1) + ")";
    return nullptr;
  }
  s.loaded[id] = &*dylib;
  handle = id;
  auto entry = symbol->toPtr<KernelEntry>();
  llvm::StringRef kernelName(entryName);
  kernelName.consume_back("__entry");
  registerKernelName(entry, kernelName.str());
  return entry;
}

void unloadKernel(uint64_t handle) {
  JITState &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto it = s.loaded.find(handle);
  if (it == s.loaded.end() || !s.jit)
    return;
  llvm::consumeError(s.jit->getExecutionSession().removeJITDylib(*it->second));
  s.loaded.erase(it);
}

} // namespace tritium::cpu
