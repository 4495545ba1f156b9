"""The networks, in torch: a CenterNet-style dice detector, a per-die value and colour reader, and the Run
Buster face reader and face locator, built on the reader's layers.

All take raw 0-255 BGR pixels and normalise inside the graph, so the ONNX files need no preprocessing
beyond layout. Depthwise-separable convolutions keep the detector small (tens of thousands of parameters);
the readers are plain 3x3 convolutions on small crops (about a quarter of a million).
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional


def conv_bn_relu(channels_in: int, channels_out: int, stride: int = 1, groups: int = 1) -> nn.Sequential:
    """A 3x3 convolution with batch norm and ReLU."""
    return nn.Sequential(
        nn.Conv2d(channels_in, channels_out, 3, stride, 1, groups=groups, bias=False),
        nn.BatchNorm2d(channels_out),
        nn.ReLU(inplace=True),
    )


class SeparableConv(nn.Sequential):
    """A 3x3 depthwise convolution then a 1x1 pointwise one, each with batch norm and ReLU."""

    def __init__(self, channels_in: int, channels_out: int, stride: int = 1):
        super().__init__(
            conv_bn_relu(channels_in, channels_in, stride, groups=channels_in),
            nn.Sequential(
                nn.Conv2d(channels_in, channels_out, 1, bias=False),
                nn.BatchNorm2d(channels_out),
                nn.ReLU(inplace=True),
            ),
        )


class DiceDetectorNet(nn.Module):
    """Encoder to 1/16, decoder back to 1/4 with skip connections; five output maps at 1/4:
    centre heatmap (sigmoid), log box width and height in units of the stride, centre offset (sigmoid)."""

    def __init__(self) -> None:
        super().__init__()
        self.stem = conv_bn_relu(3, 16, stride=2)
        self.stage4 = nn.Sequential(SeparableConv(16, 32, 2), SeparableConv(32, 32))
        self.stage8 = nn.Sequential(SeparableConv(32, 48, 2), SeparableConv(48, 48))
        self.stage16 = nn.Sequential(SeparableConv(48, 64, 2), SeparableConv(64, 64), SeparableConv(64, 64))
        self.lateral16 = nn.Conv2d(64, 48, 1)
        self.merge8 = SeparableConv(48, 32)
        self.merge4 = SeparableConv(32, 32)
        self.head = nn.Sequential(SeparableConv(32, 32), nn.Conv2d(32, 5, 1))
        nn.init.constant_(self.head[1].bias[0], -4.0)  # type: ignore[index]

    def forward(self, pixels: torch.Tensor) -> torch.Tensor:
        x = self.stem(pixels / 127.5 - 1.0)
        at4 = self.stage4(x)
        at8 = self.stage8(at4)
        at16 = self.stage16(at8)
        up8 = self.merge8(
            at8 + functional.interpolate(self.lateral16(at16), scale_factor=2.0, mode="nearest")
        )
        up4 = self.merge4(at4 + functional.interpolate(up8, scale_factor=2.0, mode="nearest"))
        raw = self.head(up4)
        heat = torch.sigmoid(raw[:, 0:1])
        offset = torch.sigmoid(raw[:, 3:5])
        return torch.cat([heat, raw[:, 1:3], offset], dim=1)


READER_FEATURES = 96
"""The length of the reader's feature vector."""


def reader_channels(width: float = 1.0) -> tuple[int, int, int, int, int]:
    """The reader's channel counts at `width` times the base network: after the first two convolutions,
    at its 1/4 map, at 1/8, and in its feature vector (which the heads read)."""
    first, second, quarter, eighth, features = (
        round(base * width) for base in (24, 32, 48, 64, READER_FEATURES)
    )
    return first, second, quarter, eighth, features


def reader_layers(width: float = 1.0) -> tuple[nn.Sequential, nn.Sequential]:
    """The reader's convolutions to its 1/4 map, and from that map to one feature vector a crop."""
    first, second, quarter_channels, eighth, feature_length = reader_channels(width)
    quarter = nn.Sequential(
        conv_bn_relu(3, first, stride=2),
        conv_bn_relu(first, second),
        conv_bn_relu(second, quarter_channels, stride=2),
        conv_bn_relu(quarter_channels, quarter_channels),
    )
    features = nn.Sequential(
        conv_bn_relu(quarter_channels, eighth, stride=2),
        conv_bn_relu(eighth, eighth),
        conv_bn_relu(eighth, feature_length, stride=2),
        conv_bn_relu(feature_length, feature_length),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Dropout(0.1),
    )
    return quarter, features


class DiceReaderNet(nn.Module):
    """A plain CNN on a square crop (64 px since session 41, 48 before); two heads: value logits (faces 1-6
    and "not a die") and colour logits. The first convolution already halves the resolution: pips stay a few
    pixels wide on the 32x32 map that follows, while the crop can be larger than a full-resolution first
    layer could afford.

    In training only, a third head marks the top face's pips on the 1/4 map (`forward_with_pips`): a label
    at every pip, not just one value a crop, so the network learns much sooner which blobs to count and on
    which face. The exported graph (`forward`) leaves it out."""

    def __init__(self, values: int, colors: int, width: float = 1.0) -> None:
        super().__init__()
        _, _, quarter_channels, _, feature_length = reader_channels(width)
        self.quarter, self.features = reader_layers(width)
        self.value_head = nn.Linear(feature_length, values)
        self.color_head = nn.Linear(feature_length, colors)
        self.pip_head = nn.Conv2d(quarter_channels, 1, 1)

    def forward(self, crops: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        features = self.features(self.quarter(crops / 127.5 - 1.0))
        return self.value_head(features), self.color_head(features)

    def forward_with_pips(self, crops: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Value and colour logits, and pip logits at 1/4 of the crop (N x S/4 x S/4)."""
        quarter = self.quarter(crops / 127.5 - 1.0)
        features = self.features(quarter)
        return self.value_head(features), self.color_head(features), self.pip_head(quarter)[:, 0]


class FaceNet(nn.Module):
    """A game's face reader: the dice reader's layers (`width` times as wide) with one head, logits over
    values 1-6 (the game's reader knows where the dice are and takes their colours from the dice reader)."""

    def __init__(self, width: float = 1.0) -> None:
        super().__init__()
        quarter, features = reader_layers(width)
        self.layers = nn.Sequential(quarter, features, nn.Linear(reader_channels(width)[4], 6))

    def forward(self, pixels: torch.Tensor) -> torch.Tensor:
        return self.layers(pixels / 127.5 - 1.0)  # type: ignore[no-any-return]


class FaceLocatorNet(nn.Module):
    """A face locator (`vision.face_locator`): where, in a cut round a rough guess, the top face's centre
    lies, as (x, y) in cut widths from the cut's centre.

    The dice reader's first layers make a 1/4 map; three more convolutions widen what each cell sees to a
    whole face, and a 1x1 convolution scores every cell. The answer is the score-weighted mean of the cells'
    centres (a soft argmax): it is found where the face is, the same wherever in the cut that is, and the
    weighting gives positions between cells.
    """

    def __init__(self, cut_px: int) -> None:
        super().__init__()
        quarter, _ = reader_layers()
        self.layers = nn.Sequential(
            quarter, conv_bn_relu(48, 64), conv_bn_relu(64, 64), conv_bn_relu(64, 64), nn.Conv2d(64, 1, 1)
        )
        cells = cut_px // 4
        self.cell_centres: torch.Tensor
        self.register_buffer("cell_centres", (torch.arange(cells, dtype=torch.float32) + 0.5) / cells - 0.5)

    def forward(self, pixels: torch.Tensor) -> torch.Tensor:
        return self.located(self.layers(pixels / 127.5 - 1.0)[:, 0])[1]

    def located(self, scores: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The cells' weights (their scores' softmax, N x C x C) and the weighted mean of their centres."""
        weights = torch.softmax(scores.flatten(1), dim=1).view_as(scores)
        x = (weights.sum(dim=1) * self.cell_centres).sum(dim=1)
        y = (weights.sum(dim=2) * self.cell_centres).sum(dim=1)
        return weights, torch.stack((x, y), dim=1)


class FaceShapeNet(FaceLocatorNet):
    """A face locator that also says the top face's shape in the cut (`vision.relocate.face_matrices`): its
    side's log, in cut widths, and how it is squashed (a photo at a slant shows the square face as a
    parallelogram), as the two free terms of its shape matrix of determinant 1, which a quarter turn of the
    cut negates. The cells' features are pooled with the locator's own weights, so the shape is read where
    the face was found."""

    def __init__(self, cut_px: int) -> None:
        super().__init__(cut_px)
        self.shape_head = nn.Linear(64, 3)

    def forward(self, pixels: torch.Tensor) -> torch.Tensor:
        features = self.layers[:-1](pixels / 127.5 - 1.0)
        weights, centre = self.located(self.layers[-1](features)[:, 0])
        pooled = (features * weights[:, None]).sum(dim=(2, 3))
        return torch.cat((centre, self.shape_head(pooled)), dim=1)
