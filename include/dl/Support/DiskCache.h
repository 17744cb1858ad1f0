//===- DiskCache.h - compile results kept on disk ---------------*- C++ -*-===//
//
// A directory of files named by the SHA-256 of their keys, where compilations
// keep what a later compilation by the same build of dl on the same machine
// can reuse: the ranking's schedule per op (dl-rank-variants) and the
// generated code per module (the JIT).
//
//===----------------------------------------------------------------------===//

#ifndef DL_SUPPORT_DISKCACHE_H
#define DL_SUPPORT_DISKCACHE_H

#include "mlir/Support/LLVM.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>

namespace mlir {
namespace dl {

/// One kind of entries (a subdirectory) of a cache directory. Lookups and
/// stores never fail the compilation: an unreadable or unwritable directory
/// is a cache that holds nothing.
class DiskCache {
public:
  /// Entries of `kind` under `directory` (created on the first store); an
  /// empty `directory` is a cache that holds nothing.
  DiskCache(StringRef directory, StringRef kind);

  bool isEnabled() const { return !directory.empty(); }

  /// The entry of `key`, or null.
  std::unique_ptr<llvm::MemoryBuffer> lookup(StringRef key) const;

  /// Writes the entry of `key` (a temporary file renamed into place, so that
  /// concurrent compilations read whole entries). Returns false when it
  /// could not be written.
  bool store(StringRef key, StringRef value) const;

  /// The path of the entry of `key`.
  std::string getPath(StringRef key) const;

  /// What the entries of a build of dl depend on besides their keys: the
  /// file holding the code at `codeAddress` (path, size and modification
  /// time: a rebuilt dl does not read its predecessor's decisions) and the
  /// host CPU (name and features).
  static std::string getBuildAndHostKey(const void *codeAddress);

  /// $DL_CACHE_DIR, else dl/ in the user's cache directory
  /// ($XDG_CACHE_HOME or ~/.cache); empty when there is neither.
  static std::string getDefaultDirectory();

private:
  std::string directory;
};

} // namespace dl
} // namespace mlir

#endif // DL_SUPPORT_DISKCACHE_H
