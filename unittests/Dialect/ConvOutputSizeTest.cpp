//===- ConvOutputSizeTest.cpp - convolution output sizes --------*- C++ -*-===//
//
// Exact checks of the output-size formula shared by the conv2d verifier and
// lowering (stride, asymmetric padding, dilation, filters that do not fit).
//
//===----------------------------------------------------------------------===//

#include "dl/Dialect/DL/IR/DLOps.h"

#include "gtest/gtest.h"

using mlir::dl::getConvOutputSize;

TEST(ConvOutputSize, ResNetLayers) {
  // conv1: 224x224, 7x7, stride 2, pad 3 -> 112.
  EXPECT_EQ(getConvOutputSize(224, 7, 2, 3, 3, 1), 112);
  // res2a_branch2b: 56, 3x3, stride 1, pad 1 -> 56.
  EXPECT_EQ(getConvOutputSize(56, 3, 1, 1, 1, 1), 56);
  // res3a_branch1: 56, 1x1, stride 2 -> 28.
  EXPECT_EQ(getConvOutputSize(56, 1, 2, 0, 0, 1), 28);
}

TEST(ConvOutputSize, StrideRoundsDown) {
  EXPECT_EQ(getConvOutputSize(10, 3, 2, 0, 0, 1), 4); // taps at 0,2,4,6
  EXPECT_EQ(getConvOutputSize(11, 3, 2, 0, 0, 1), 5);
  EXPECT_EQ(getConvOutputSize(13, 3, 3, 1, 0, 1), 4);
}

TEST(ConvOutputSize, AsymmetricPaddingAndDilation) {
  EXPECT_EQ(getConvOutputSize(7, 3, 1, 2, 0, 1), 7);
  // Dilation 2: the 3-tap filter spans 5 inputs.
  EXPECT_EQ(getConvOutputSize(9, 3, 1, 0, 0, 2), 5);
  EXPECT_EQ(getConvOutputSize(9, 3, 2, 1, 1, 3), 3);
}

TEST(ConvOutputSize, FilterLargerThanPaddedInput) {
  EXPECT_EQ(getConvOutputSize(4, 7, 1, 1, 1, 1), std::nullopt);
  EXPECT_EQ(getConvOutputSize(5, 3, 1, 0, 0, 3), std::nullopt); // spans 7
  EXPECT_EQ(getConvOutputSize(6, 7, 1, 1, 0, 1), 1);            // exactly fits
}
