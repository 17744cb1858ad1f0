//===- DiskCache.cpp - compile results kept on disk -------------*- C++ -*-===//
//
// Files named by the SHA-256 of their keys under <directory>/<kind>/. Keys
// are whole descriptions of what the entry depends on (the op or module as
// text, the options, getBuildAndHostKey): an entry is never invalidated, a
// changed input is another key.
//
//===----------------------------------------------------------------------===//

#include "dl/Support/DiskCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <dlfcn.h>

#define DEBUG_TYPE "dl-disk-cache"

using namespace mlir;
using namespace mlir::dl;

/// The version of the entries' format: part of the path, so that a format
/// change starts a new cache beside the old.
static constexpr const char *kFormatVersion = "v1";

DiskCache::DiskCache(StringRef directory, StringRef kind) {
  if (directory.empty())
    return;
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, kFormatVersion, kind);
  this->directory = path.str().str();
}

std::string DiskCache::getPath(StringRef key) const {
  std::array<uint8_t, 32> hash =
      llvm::SHA256::hash(ArrayRef<uint8_t>(key.bytes_begin(), key.bytes_end()));
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, llvm::toHex(hash, /*LowerCase=*/true));
  return path.str().str();
}

std::unique_ptr<llvm::MemoryBuffer> DiskCache::lookup(StringRef key) const {
  if (!isEnabled())
    return nullptr;
  std::string path = getPath(key);
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    LLVM_DEBUG(llvm::dbgs() << "miss: " << path << "\n");
    return nullptr;
  }
  LLVM_DEBUG(llvm::dbgs() << "hit: " << path << "\n");
  return std::move(*buffer);
}

bool DiskCache::store(StringRef key, StringRef value) const {
  if (!isEnabled())
    return false;
  if (llvm::sys::fs::create_directories(directory))
    return false;
  std::string path = getPath(key);
  llvm::SmallString<256> temporary;
  int fd;
  if (llvm::sys::fs::createUniqueFile(path + ".%%%%%%.tmp", fd, temporary))
    return false;
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << value;
    os.close();
    if (os.has_error()) {
      os.clear_error();
      llvm::sys::fs::remove(temporary);
      return false;
    }
  }
  if (llvm::sys::fs::rename(temporary, path)) {
    llvm::sys::fs::remove(temporary);
    return false;
  }
  LLVM_DEBUG(llvm::dbgs() << "stored: " << path << "\n");
  return true;
}

std::string DiskCache::getBuildAndHostKey(const void *codeAddress) {
  std::string key;
  llvm::raw_string_ostream os(key);
  // dladdr: LLVM has no portable query for the file a function was loaded
  // from (getMainExecutable is the executable, not a library like the
  // Python module's).
  Dl_info info;
  llvm::sys::fs::file_status status;
  if (dladdr(codeAddress, &info) && info.dli_fname &&
      !llvm::sys::fs::status(info.dli_fname, status))
    os << "build: " << info.dli_fname << " " << status.getSize() << " "
       << status.getLastModificationTime().time_since_epoch().count() << "\n";
  else
    os << "build: unknown\n";
  os << "cpu: " << llvm::sys::getHostCPUName() << "\n";
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  SmallVector<StringRef> enabled;
  for (const auto &feature : features)
    if (feature.getValue())
      enabled.push_back(feature.getKey());
  llvm::sort(enabled);
  os << "features: " << llvm::join(enabled, ",") << "\n";
  return key;
}

std::string DiskCache::getDefaultDirectory() {
  if (std::optional<std::string> directory =
          llvm::sys::Process::GetEnv("DL_CACHE_DIR"))
    return *directory;
  llvm::SmallString<256> path;
  if (!llvm::sys::path::cache_directory(path))
    return "";
  llvm::sys::path::append(path, "dl");
  return path.str().str();
}
