/*===- dl-capi-test.c - dl's C API from a C program ----------------------===*\
|*                                                                            *|
|* Reads a module, registers dl in an MLIR context through the C API, JIT-    *|
|* compiles the module and calls its functions: a GEMM checked against a      *|
|* plain loop, then calls that must fail and leave the process running (an    *|
|* unknown function, a wrong static size, a failed run-time size check).      *|
|* Compiles the module to a shared library and, in place, to the LLVM         *|
|* dialect. Diagnostics come through MLIR's diagnostic handler.               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "dl-c/DL.h"
#include "mlir-c/Diagnostics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void printString(MlirStringRef text, void *userData) {
  fwrite(text.data, 1, text.length, (FILE *)userData);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  printf("diagnostic: ");
  mlirDiagnosticPrint(diagnostic, printString, stdout);
  printf("\n");
  return mlirLogicalResultSuccess();
}

static char *readFile(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return NULL;
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  char *text = malloc(size + 1);
  if (fread(text, 1, size, file) != (size_t)size)
    size = 0;
  text[size] = 0;
  fclose(file);
  return text;
}

/* C = A * B (M x K times K x N) by the @gemm of the module, against a loop. */
static int checkGemm(DlExecutable executable) {
  enum { M = 64, N = 48, K = 40 };
  static float a[M * K], b[K * N], c[M * N];
  for (int i = 0; i < M * K; ++i)
    a[i] = (float)((i * 7) % 13) / 13.0f - 0.5f;
  for (int i = 0; i < K * N; ++i)
    b[i] = (float)((i * 5) % 11) / 11.0f - 0.5f;
  int64_t aSizes[] = {M, K}, bSizes[] = {K, N}, cSizes[] = {M, N};
  DlBuffer args[] = {{a, 2, aSizes}, {b, 2, bSizes}, {c, 2, cSizes}};
  printf("gemm: %d arguments\n",
         (int)dlExecutableGetNumArguments(
             executable, mlirStringRefCreateFromCString("gemm")));
  if (mlirLogicalResultIsFailure(dlExecutableCall(
          executable, mlirStringRefCreateFromCString("gemm"), args, 3)))
    return 1;
  double maxErr = 0.0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double expected = 0.0;
      for (int k = 0; k < K; ++k)
        expected += (double)a[i * K + k] * b[k * N + j];
      double err = fabs(expected - c[i * N + j]);
      maxErr = err > maxErr ? err : maxErr;
    }
  printf("gemm: max_err=%.2e %s\n", maxErr, maxErr < 1e-4 ? "ok" : "MISMATCH");
  return maxErr < 1e-4 ? 0 : 1;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: dl-capi-test <module.mlir> <library.so> "
                    "<library-with-header.so> <header.h>\n");
    return 2;
  }
  char *text = readFile(argv[1]);
  if (!text)
    return 2;
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  dlRegisterAllDialects(registry);
  dlRegisterAllPasses();
  MlirContext context = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(context, printDiagnostic, NULL, NULL);
  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(text));
  free(text);
  if (mlirModuleIsNull(module))
    return 1;

  DlCompileOptions options = dlCompileOptionsCreate();
  dlCompileOptionsSetThreads(options, 2);
  DlExecutable executable = dlExecutableCreate(module, options);
  if (dlExecutableIsNull(executable))
    return 1;
  int status = checkGemm(executable);

  /* Calls that fail, each reported, the process still running. */
  float x[12] = {0}, y[12];
  int64_t good[] = {3, 4}, wrong[] = {4, 3}, four[] = {4, 4};
  DlBuffer wrongStatic[] = {{x, 2, good}, {y, 2, wrong}};
  DlBuffer mismatch[] = {{x, 2, good}, {y, 2, four}};
  printf("unknown: %s\n",
         mlirLogicalResultIsFailure(dlExecutableCall(
             executable, mlirStringRefCreateFromCString("nope"), NULL, 0))
             ? "failed"
             : "ran");
  printf("static sizes: %s\n",
         mlirLogicalResultIsFailure(dlExecutableCall(
             executable, mlirStringRefCreateFromCString("relu_rows"),
             wrongStatic, 2))
             ? "failed"
             : "ran");
  printf("run-time check: %s\n",
         mlirLogicalResultIsFailure(dlExecutableCall(
             executable, mlirStringRefCreateFromCString("relu_dynamic"),
             mismatch, 2))
             ? "failed"
             : "ran");
  DlBuffer fine[] = {{x, 2, good}, {y, 2, good}};
  printf(
      "after them: %s\n",
      mlirLogicalResultIsSuccess(dlExecutableCall(
          executable, mlirStringRefCreateFromCString("relu_dynamic"), fine, 2))
          ? "ran"
          : "failed");
  dlExecutableDestroy(executable);

  printf("shared library: %s\n",
         mlirLogicalResultIsSuccess(dlCompileToSharedLibrary(
             module, options, mlirStringRefCreateFromCString(argv[2])))
             ? "written"
             : "failed");
  printf("with a header: %s\n",
         mlirLogicalResultIsSuccess(dlCompileToSharedLibraryWithHeader(
             module, options, mlirStringRefCreateFromCString(argv[3]),
             mlirStringRefCreateFromCString(argv[4])))
             ? "written"
             : "failed");
  if (mlirLogicalResultIsFailure(dlCompileModule(module, options)))
    return 1;
  MlirOperation first = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
  while (!mlirOperationIsNull(first) &&
         strcmp(mlirIdentifierStr(mlirOperationGetName(first)).data,
                "llvm.func") != 0)
    first = mlirOperationGetNextInBlock(first);
  printf("in place: %s\n",
         mlirOperationIsNull(first) ? "no llvm.func" : "llvm.func");
  dlCompileOptionsDestroy(options);
  mlirModuleDestroy(module);
  mlirContextDestroy(context);
  return status;
}
