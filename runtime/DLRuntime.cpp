//===- DLRuntime.cpp - dl's microkernel runtime over LIBXSMM ----*- C++ -*-===//
//
// Row-major GEMM / batch-reduce GEMM kernels for generated code, dispatched
// from LIBXSMM 1.17. LIBXSMM is column-major, so C = A * B (row-major) is
// computed as C^T = B^T * A^T: the kernel gets (n, m, k), B as its first
// operand and A as its second. LIBXSMM's own code registry is the kernel
// cache: libxsmm_smmdispatch* is thread-safe and returns the same function
// for the same descriptor; a small per-thread cache in front of it keeps the
// dispatches generated code makes once per block (run-time sizes) off the
// shared registry.
//
//===----------------------------------------------------------------------===//

#include "dl-runtime/DLRuntime.h"

#include <array>
#include <csetjmp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#ifdef DL_RUNTIME_HAS_LIBXSMM
#include <libxsmm.h>
#endif

namespace {
/// Base + offset elements, as a float pointer.
inline float *at(intptr_t base, int64_t offset) {
  return reinterpret_cast<float *>(base) + offset;
}
} // namespace

#ifdef DL_RUNTIME_HAS_LIBXSMM

//===----------------------------------------------------------------------===//
// Dispatch refusals
//===----------------------------------------------------------------------===//
//
// A handle of 0 sends generated code to its loops. Two environment variables,
// read once: DL_RUNTIME_REFUSE_DISPATCH=1 makes every dispatch refuse (as
// LIBXSMM does for a shape it cannot generate), to test that fallback;
// DL_RUNTIME_REMARKS=1 prints a remark to stderr for each distinct shape
// that got no kernel (dl-compile --remarks sets it).

namespace {
bool isEnvironmentFlagSet(const char *name) {
  const char *value = std::getenv(name);
  return value && *value && std::string(value) != "0";
}

bool shouldRefuseDispatch() {
  static const bool refuse = isEnvironmentFlagSet("DL_RUNTIME_REFUSE_DISPATCH");
  return refuse;
}

/// Whether a kernel of these run-time sizes would compute nothing (the empty
/// remainder of a dynamic size): no kernel, and no remark.
bool isEmpty(int64_t m, int64_t n, int64_t k) {
  return m <= 0 || n <= 0 || k <= 0;
}

/// A per-thread cache of the last dispatches: generated code dispatches the
/// kernels of a dynamic GEMM's partial blocks with run-time sizes once per
/// block, and LIBXSMM's registry lookup, shared by the threads, cost more
/// than the kernel call for small blocks (a 251^3 GEMM with dynamic sizes
/// ran no faster at 2 threads than at 1). Direct-mapped on the arguments.
class DispatchCache {
public:
  using Key = std::array<int64_t, 10>;

  /// The handle for `key`, from the cache or from `dispatch`.
  template <typename Fn> int64_t lookup(const Key &key, Fn dispatch) {
    uint64_t hash = 14695981039346656037ull;
    for (int64_t value : key)
      hash = (hash ^ static_cast<uint64_t>(value)) * 1099511628211ull;
    Entry &entry = entries[hash % kEntries];
    if (!entry.valid || entry.key != key) {
      entry.key = key;
      entry.handle = dispatch();
      entry.valid = true;
    }
    return entry.handle;
  }

private:
  static constexpr size_t kEntries = 64;
  struct Entry {
    Key key;
    int64_t handle;
    bool valid = false;
  };
  std::array<Entry, kEntries> entries;
};

thread_local DispatchCache dispatchCache;

/// The handle of `kernel`; a remark when there is none.
int64_t toHandle(const void *kernel, const char *kind, int64_t m, int64_t n,
                 int64_t k) {
  static const bool remarks = isEnvironmentFlagSet("DL_RUNTIME_REMARKS");
  if (!kernel && remarks) {
    static std::mutex mutex;
    static std::set<std::tuple<std::string, int64_t, int64_t, int64_t>> seen;
    std::lock_guard<std::mutex> lock(mutex);
    if (seen.emplace(kind, m, n, k).second)
      std::fprintf(stderr,
                   "dl-runtime: remark: no %s microkernel for m=%lld n=%lld "
                   "k=%lld%s; the loops run instead\n",
                   kind, static_cast<long long>(m), static_cast<long long>(n),
                   static_cast<long long>(k),
                   shouldRefuseDispatch() ? " (DL_RUNTIME_REFUSE_DISPATCH)"
                                          : "");
  }
  return reinterpret_cast<int64_t>(kernel);
}
} // namespace

//===----------------------------------------------------------------------===//
// Streaming stores of C
//===----------------------------------------------------------------------===//
//
// With beta_zero == DL_RUNTIME_STREAM_C, a dispatch returns two kernels,
// LIBXSMM's with non-temporal stores of C (LIBXSMM_GEMM_FLAG_ALIGN_C_NTS_HINT)
// and the plain one, as a handle tagged in its lowest bit (kernel addresses
// and the pairs' are aligned); each invoke takes the streaming kernel only
// where its C starts on a 64-byte boundary, since that kernel loads and
// stores C's rows with aligned moves.

namespace {
struct StreamingPair {
  int64_t streaming, plain;
};

/// A handle for `streaming` and `plain`: the plain one alone when there is
/// no streaming kernel. The pairs live as long as the process, as LIBXSMM's
/// kernels do.
int64_t pairHandle(int64_t streaming, int64_t plain) {
  if (!streaming || !plain)
    return plain;
  static std::mutex mutex;
  static std::map<std::pair<int64_t, int64_t>, StreamingPair *> pairs;
  static std::deque<StreamingPair> storage;
  std::lock_guard<std::mutex> lock(mutex);
  StreamingPair *&pair = pairs[{streaming, plain}];
  if (!pair)
    pair = &storage.emplace_back(StreamingPair{streaming, plain});
  return reinterpret_cast<int64_t>(pair) | 1;
}

/// The kernel of `handle` for a C at `c`.
inline int64_t kernelFor(int64_t handle, const float *c) {
  if (!(handle & 1))
    return handle;
  const auto *pair = reinterpret_cast<const StreamingPair *>(handle & ~1ll);
  return reinterpret_cast<uintptr_t>(c) % 64 == 0 ? pair->streaming
                                                  : pair->plain;
}

/// The LIBXSMM flags of a dispatch: non-temporal stores of C where asked
/// for, C's rows can be aligned and they are whole 16-float vectors; null
/// for LIBXSMM's defaults. LIBXSMM 1.17's generator exits the process on a
/// masked last vector of C with these flags (n = 19).
const int *streamingFlags(int64_t beta_zero, int64_t n, int64_t ldc) {
  static const int flags =
      LIBXSMM_GEMM_FLAG_ALIGN_C_NTS_HINT | LIBXSMM_GEMM_FLAG_BETA_0;
  return beta_zero == DL_RUNTIME_STREAM_C && n % 16 == 0 && ldc % 16 == 0
             ? &flags
             : nullptr;
}

/// The handle of the kernels `dispatch` (given LIBXSMM's flags, or null
/// for its defaults) makes of a `kind` of GEMM: the plain kernel, or, with
/// beta_zero == DL_RUNTIME_STREAM_C where streamingFlags allows, the pair.
template <typename DispatchFn>
int64_t dispatchKernels(DispatchFn dispatch, const char *kind, int64_t m,
                        int64_t n, int64_t k, int64_t ldc, int64_t beta_zero) {
  int64_t plain = toHandle(dispatch(nullptr), kind, m, n, k);
  const int *flags = streamingFlags(beta_zero, n, ldc);
  return flags ? pairHandle(reinterpret_cast<int64_t>(dispatch(flags)), plain)
               : plain;
}
} // namespace

namespace {
int64_t dispatchGemm(int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb,
                     int64_t ldc, int64_t beta_zero) {
  if (shouldRefuseDispatch())
    return toHandle(nullptr, "GEMM", m, n, k);
  const libxsmm_blasint xlda = ldb, xldb = lda, xldc = ldc;
  const float alpha = 1.0f, beta = beta_zero ? 0.0f : 1.0f;
  auto dispatch = [&](const int *flags) {
    return reinterpret_cast<const void *>(libxsmm_smmdispatch(
        n, m, k, &xlda, &xldb, &xldc, &alpha, &beta, flags, nullptr));
  };
  return dispatchKernels(dispatch, "GEMM", m, n, k, ldc, beta_zero);
}

int64_t dispatchStridedBatch(int64_t m, int64_t n, int64_t k, int64_t lda,
                             int64_t ldb, int64_t ldc, int64_t stride_a,
                             int64_t stride_b, int64_t beta_zero) {
  if (shouldRefuseDispatch())
    return toHandle(nullptr, "strided batch-reduce GEMM", m, n, k);
  const libxsmm_blasint xlda = ldb, xldb = lda, xldc = ldc;
  const float alpha = 1.0f, beta = beta_zero ? 0.0f : 1.0f;
  // LIBXSMM 1.17 takes the strides in bytes.
  auto dispatch = [&](const int *flags) {
    return reinterpret_cast<const void *>(libxsmm_smmdispatch_reducebatch_strd(
        n, m, k, stride_b * sizeof(float), stride_a * sizeof(float), &xlda,
        &xldb, &xldc, &alpha, &beta, flags, nullptr));
  };
  return dispatchKernels(dispatch, "strided batch-reduce GEMM", m, n, k, ldc,
                         beta_zero);
}

int64_t dispatchOffsetBatch(int64_t m, int64_t n, int64_t k, int64_t lda,
                            int64_t ldb, int64_t ldc, int64_t beta_zero) {
  if (shouldRefuseDispatch())
    return toHandle(nullptr, "offset batch-reduce GEMM", m, n, k);
  const libxsmm_blasint xlda = ldb, xldb = lda, xldc = ldc;
  const float alpha = 1.0f, beta = beta_zero ? 0.0f : 1.0f;
  auto dispatch = [&](const int *flags) {
    return reinterpret_cast<const void *>(libxsmm_smmdispatch_reducebatch_offs(
        n, m, k, &xlda, &xldb, &xldc, &alpha, &beta, flags, nullptr));
  };
  return dispatchKernels(dispatch, "offset batch-reduce GEMM", m, n, k, ldc,
                         beta_zero);
}
} // namespace

extern "C" int64_t dl_gemm_dispatch(int64_t m, int64_t n, int64_t k,
                                    int64_t lda, int64_t ldb, int64_t ldc,
                                    int64_t beta_zero) {
  if (isEmpty(m, n, k))
    return 0;
  return dispatchCache.lookup(
      {0, m, n, k, lda, ldb, ldc, 0, 0, beta_zero},
      [&] { return dispatchGemm(m, n, k, lda, ldb, ldc, beta_zero); });
}

extern "C" void dl_gemm_invoke(int64_t kernel, intptr_t a, int64_t a_offset,
                               intptr_t b, int64_t b_offset, intptr_t c,
                               int64_t c_offset) {
  float *cBlock = at(c, c_offset);
  reinterpret_cast<libxsmm_smmfunction>(kernelFor(kernel, cBlock))(
      at(b, b_offset), at(a, a_offset), cBlock);
}

extern "C" int64_t dl_brgemm_dispatch(int64_t m, int64_t n, int64_t k,
                                      int64_t lda, int64_t ldb, int64_t ldc,
                                      int64_t stride_a, int64_t stride_b,
                                      int64_t beta_zero) {
  if (isEmpty(m, n, k))
    return 0;
  return dispatchCache.lookup(
      {1, m, n, k, lda, ldb, ldc, stride_a, stride_b, beta_zero}, [&] {
        return dispatchStridedBatch(m, n, k, lda, ldb, ldc, stride_a, stride_b,
                                    beta_zero);
      });
}

extern "C" void dl_brgemm_invoke(int64_t kernel, intptr_t a, int64_t a_offset,
                                 intptr_t b, int64_t b_offset, intptr_t c,
                                 int64_t c_offset, int64_t count) {
  unsigned long long batch = count;
  float *cBlock = at(c, c_offset);
  reinterpret_cast<libxsmm_smmfunction_reducebatch_strd>(kernelFor(
      kernel, cBlock))(at(b, b_offset), at(a, a_offset), cBlock, &batch);
}

extern "C" int64_t dl_brgemm_offs_dispatch(int64_t m, int64_t n, int64_t k,
                                           int64_t lda, int64_t ldb,
                                           int64_t ldc, int64_t beta_zero) {
  if (isEmpty(m, n, k))
    return 0;
  return dispatchCache.lookup(
      {2, m, n, k, lda, ldb, ldc, 0, 0, beta_zero},
      [&] { return dispatchOffsetBatch(m, n, k, lda, ldb, ldc, beta_zero); });
}

extern "C" void dl_brgemm_offs_invoke(int64_t kernel, intptr_t a,
                                      int64_t a_offset, intptr_t b,
                                      int64_t b_offset, intptr_t c,
                                      int64_t c_offset, int64_t count,
                                      const int64_t *offsets_a,
                                      const int64_t *offsets_b) {
  // LIBXSMM 1.17 takes byte offsets; callers give elements. A per-thread
  // buffer keeps the conversion free of allocation after the first call.
  thread_local std::vector<unsigned long long> byteOffsets;
  byteOffsets.resize(2 * count);
  for (int64_t i = 0; i < count; ++i) {
    byteOffsets[i] = offsets_b[i] * sizeof(float);
    byteOffsets[count + i] = offsets_a[i] * sizeof(float);
  }
  unsigned long long batch = count;
  float *cBlock = at(c, c_offset);
  reinterpret_cast<libxsmm_smmfunction_reducebatch_offs>(kernelFor(
      kernel, cBlock))(at(b, b_offset), at(a, a_offset), cBlock, &batch,
                       byteOffsets.data(), byteOffsets.data() + count);
}

extern "C" const char *dl_runtime_target(void) {
  return libxsmm_get_target_arch();
}

#else // Built without LIBXSMM: no kernel is ever available.

extern "C" int64_t dl_gemm_dispatch(int64_t, int64_t, int64_t, int64_t, int64_t,
                                    int64_t, int64_t) {
  return 0;
}
extern "C" void dl_gemm_invoke(int64_t, intptr_t, int64_t, intptr_t, int64_t,
                               intptr_t, int64_t) {}
extern "C" int64_t dl_brgemm_dispatch(int64_t, int64_t, int64_t, int64_t,
                                      int64_t, int64_t, int64_t, int64_t,
                                      int64_t) {
  return 0;
}
extern "C" void dl_brgemm_invoke(int64_t, intptr_t, int64_t, intptr_t, int64_t,
                                 intptr_t, int64_t, int64_t) {}
extern "C" int64_t dl_brgemm_offs_dispatch(int64_t, int64_t, int64_t, int64_t,
                                           int64_t, int64_t, int64_t) {
  return 0;
}
extern "C" void dl_brgemm_offs_invoke(int64_t, intptr_t, int64_t, intptr_t,
                                      int64_t, intptr_t, int64_t, int64_t,
                                      const int64_t *, const int64_t *) {}
extern "C" const char *dl_runtime_target(void) { return "none"; }

#endif

//===----------------------------------------------------------------------===//
// Scratch buffers
//===----------------------------------------------------------------------===//
//
// Generated code allocates its scratch buffers (packed GEMM operands, padded
// activations) on every call. glibc serves large blocks with mmap and returns
// them with munmap, so every call would page-fault its buffers in anew (a
// third of the time of a 128x2048x4096 GEMM). The dl-to-llvm pipeline lowers
// memref.alloc/dealloc to the generic functions below (MLIR's
// `use-generic-functions`), which keep a few freed blocks per thread and
// hand them out again: every block from 4 KiB up, so also the few-hundred-KiB
// packed and padded activations of a convolution (a 56x56x64 one spent 2 of
// its 5 ms in page faults), and the tens of KiB of a small GEMM's packed
// blocks, which glibc's free merges into chunks past its consolidation
// threshold (64 KiB) and then sweeps its fast bins on every call (a 31^3
// GEMM with dynamic sizes: 3.1 us a call with blocks from 128 KiB cached,
// 1.4-1.8 with blocks from 4 KiB). Written here because the allocator must
// live in the library the generated code links against; blocks carry their
// size in a header so free knows it.

namespace {
constexpr size_t kHeaderBytes = 64; // Keeps the user pointer 64-byte aligned.
constexpr size_t kCachedMinBytes = size_t(4) << 10;
constexpr int kCacheSlots = 8;

struct ScratchCache {
  void *blocks[kCacheSlots] = {};
  ~ScratchCache() {
    for (void *block : blocks)
      std::free(block);
  }
};
thread_local ScratchCache scratchCache;

size_t &blockSize(void *block) { return *static_cast<size_t *>(block); }
} // namespace

//===----------------------------------------------------------------------===//
// Checked calls
//===----------------------------------------------------------------------===//
//
// Only generated code lies between the setjmp in dl_checked_call and the
// longjmp of a failed check: it has no destructors to skip.

namespace {
thread_local std::jmp_buf *checkTarget = nullptr;
thread_local char lastError[1024] = "";
} // namespace

extern "C" void dl_set_error(const char *message) {
  std::snprintf(lastError, sizeof(lastError), "%s", message);
}

extern "C" const char *dl_last_error(void) { return lastError; }

extern "C" int dl_check_message(const char *message) {
  dl_set_error(message);
  if (!checkTarget) {
    std::fputs(message, stderr);
    std::fputc('\n', stderr);
  }
  return 0;
}

extern "C" void dl_check_failed(void) {
  if (checkTarget)
    std::longjmp(*checkTarget, 1);
  std::abort();
}

extern "C" int dl_checked_call(void (*body)(void *), void *context) {
  std::jmp_buf target;
  std::jmp_buf *outer = checkTarget;
  checkTarget = &target;
  lastError[0] = '\0';
  if (setjmp(target) != 0) {
    checkTarget = outer;
    return 1;
  }
  body(context);
  checkTarget = outer;
  return 0;
}

extern "C" void *_mlir_memref_to_llvm_alloc(size_t size) {
  if (size >= kCachedMinBytes) {
    // Reuse the smallest cached block that fits and wastes at most half.
    int best = -1;
    for (int i = 0; i < kCacheSlots; ++i) {
      void *block = scratchCache.blocks[i];
      if (block && blockSize(block) >= size && blockSize(block) / 2 <= size &&
          (best < 0 || blockSize(block) < blockSize(scratchCache.blocks[best])))
        best = i;
    }
    if (best >= 0) {
      void *block = scratchCache.blocks[best];
      scratchCache.blocks[best] = nullptr;
      return static_cast<char *>(block) + kHeaderBytes;
    }
  }
  void *block =
      std::aligned_alloc(kHeaderBytes, (size + 2 * kHeaderBytes - 1) /
                                           kHeaderBytes * kHeaderBytes);
  if (!block) {
    std::snprintf(lastError, sizeof(lastError),
                  "cannot allocate %zu bytes of scratch memory", size);
    if (checkTarget)
      std::longjmp(*checkTarget, 1);
    return nullptr;
  }
  blockSize(block) = size;
  return static_cast<char *>(block) + kHeaderBytes;
}

extern "C" void _mlir_memref_to_llvm_free(void *ptr) {
  if (!ptr)
    return;
  void *block = static_cast<char *>(ptr) - kHeaderBytes;
  if (blockSize(block) >= kCachedMinBytes) {
    // Keep it, evicting the smallest cached block when all slots are used.
    int slot = 0;
    for (int i = 0; i < kCacheSlots; ++i) {
      if (!scratchCache.blocks[i]) {
        slot = i;
        break;
      }
      if (blockSize(scratchCache.blocks[i]) <
          blockSize(scratchCache.blocks[slot]))
        slot = i;
    }
    std::swap(block, scratchCache.blocks[slot]);
  }
  std::free(block);
}
