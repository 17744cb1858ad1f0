// The committed dialect and pass documentation matches what mlir-tblgen
// generates from the .td files (regenerate with `ninja -C build dl-doc`).
// RUN: diff %dl_obj_root/docs/DL/DLDialect.md %S/../../docs/DLDialect.md
// RUN: diff %dl_obj_root/docs/DL/DLConversionPasses.md %S/../../docs/DLConversionPasses.md
// RUN: diff %dl_obj_root/docs/DL/DLTransformsPasses.md %S/../../docs/DLTransformsPasses.md
